import type { House } from './house.ts'

/** The slug the demo's own add-on (this MCP server) has. */
export const ADDON_SLUG = 'local_ha_mcp'

/** One installed add-on as the demo Supervisor keeps it; start, stop and update change it. */
export interface InstalledAddon {
  slug: string
  name: string
  version: string
  version_latest: string
  update_available: boolean
  state: 'started' | 'stopped'
}

/** Each house's own add-ons, so a test that stops one leaves every other test's home alone. */
const installed = new WeakMap<House, Map<string, InstalledAddon>>()

/** Seeds the house's add-ons: Studio Code Server has an update when the seed is odd (the default). */
export function installAddons (house: House, seed: number): void {
  const addon = (slug: string, name: string, version: string, state: InstalledAddon['state'], latest = version): InstalledAddon =>
    ({ slug, name, version, version_latest: latest, update_available: latest !== version, state })
  installed.set(house, new Map([
    addon(ADDON_SLUG, 'MCP Server for Home Assistant', '0.1.0', 'started'),
    addon('core_mosquitto', 'Mosquitto broker', '6.5.1', 'started'),
    addon('core_samba', 'Samba share', '12.5.0', 'stopped'),
    { ...addon('a0d7b954_vscode', 'Studio Code Server', '5.19.3', 'started', '5.20.0'), update_available: seed % 2 === 1 }
  ].map(a => [a.slug, a])))
}

export function addonsOf (house: House): Map<string, InstalledAddon> {
  let map = installed.get(house)
  if (map === undefined) {
    installAddons(house, 1)
    map = installed.get(house) as Map<string, InstalledAddon>
  }
  return map
}

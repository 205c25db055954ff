import { HaError } from './errors.ts'
import type { House } from './house.ts'
import type { Runtime } from './runtime.ts'

export interface Dashboard {
  id: string
  url_path: string | null
  mode: 'storage' | 'yaml'
  title: string
  icon: string | null
  require_admin: boolean
  show_in_sidebar: boolean
  config: Record<string, unknown> | null
}

/**
 * Which era of Home Assistant's dashboards the demo answers as:
 * - `migrated` (2026.2+, the default): core lovelace/__init__.py `_async_migrate_default_config` moved the
 *   saved Overview into a dashboard entry `url_path: "lovelace"` (listed), set the frontend system data
 *   `core.default_panel` to "lovelace", and left the unnamed default (`None`) registered but empty;
 * - `fresh` (2026.2+, a new install): no Overview entry, the `lovelace` panel registered without a config
 *   (`_async_ensure_default_panel`), no default_panel: the frontend opens the built-in `home` dashboard;
 * - `legacy` (before 2026.2): the Overview is the unnamed default, never listed.
 */
export type OverviewEra = 'migrated' | 'fresh' | 'legacy'

const stores = new WeakMap<House, Map<string | null, Dashboard>>()

function entityCards (house: House, domain: string, limit: number): string[] {
  const out: string[] = []
  for (const id of house.states.keys()) {
    if (id.startsWith(`${domain}.`)) out.push(id)
    if (out.length >= limit) break
  }
  return out
}

function overviewConfig (house: House, lights: string[]): Record<string, unknown> {
  return {
    title: 'Demo Home',
    views: [
      { title: 'Home', path: 'home', cards: [{ type: 'entities', title: 'Lights', entities: lights }, { type: 'weather-forecast', entity: 'weather.home', forecast_type: 'daily' }, { type: 'thermostat', entity: entityCards(house, 'climate', 1)[0] ?? 'climate.none' }] },
      { title: 'Security', path: 'security', icon: 'mdi:shield-home', cards: [{ type: 'alarm-panel', entity: 'alarm_control_panel.home_alarm' }, { type: 'entities', entities: entityCards(house, 'lock', 3) }] }
    ]
  }
}

/** Dashboards by url_path (null: HA's unnamed default): the Overview as the era has it, "energie" in storage mode, "wall-panel" in YAML mode, one storage dashboard never saved. */
export function dashboards (house: House, era: OverviewEra): Map<string | null, Dashboard> {
  let store = stores.get(house)
  if (store !== undefined) return store
  store = new Map()
  const lights = entityCards(house, 'light', 6)
  const overview = { id: 'lovelace', mode: 'storage' as const, title: 'Overview', icon: 'mdi:view-dashboard', require_admin: false, show_in_sidebar: true }
  if (era === 'legacy') {
    store.set(null, { ...overview, icon: null, url_path: null, config: overviewConfig(house, lights) })
  } else {
    // dashboards[None] stays registered after the migration (and on a new install), with nothing saved.
    store.set(null, { ...overview, icon: null, url_path: null, config: null })
    if (era === 'migrated') store.set('lovelace', { ...overview, url_path: 'lovelace', config: overviewConfig(house, lights) })
  }
  store.set('dashboard-energie', { id: 'dashboard_energie', url_path: 'dashboard-energie', mode: 'storage', title: 'Énergie', icon: 'mdi:lightning-bolt', require_admin: false, show_in_sidebar: true, config: { views: [{ title: 'Energy', cards: [{ type: 'energy-distribution' }, { type: 'statistics-graph', entities: ['sensor.grid_consumption', 'sensor.solar_production'], period: 'day', stat_types: ['change'] }] }] } })
  store.set('wall-panel', { id: 'wall_panel', url_path: 'wall-panel', mode: 'yaml', title: 'Wall panel', icon: 'mdi:tablet', require_admin: true, show_in_sidebar: false, config: { title: 'Wall panel', views: [{ title: 'Hall', cards: [{ type: 'glance', entities: lights.slice(0, 3) }] }] } })
  store.set('dashboard-nouveau', { id: 'dashboard_nouveau', url_path: 'dashboard-nouveau', mode: 'storage', title: 'Nouveau', icon: null, require_admin: false, show_in_sidebar: true, config: null })
  stores.set(house, store)
  return store
}

export function dashboardListView (d: Dashboard): Record<string, unknown> {
  const out: Record<string, unknown> = { id: d.id, url_path: d.url_path, mode: d.mode, title: d.title, icon: d.icon, require_admin: d.require_admin, show_in_sidebar: d.show_in_sidebar }
  if (d.mode === 'yaml') out.filename = `dashboards/${String(d.url_path)}.yaml`
  return out
}

/**
 * The dashboard a `lovelace/config*` command names, as core lovelace/websocket.py `_handle_errors` finds it:
 * no url_path means the "lovelace" entry when one exists, else the unnamed default.
 */
export function dashboardAt (rt: Runtime, urlPath: unknown): Dashboard {
  const store = dashboards(rt.house, rt.options.overview)
  const found = typeof urlPath === 'string' ? store.get(urlPath) : store.get('lovelace') ?? store.get(null)
  if (found === undefined) throw new HaError('config_not_found', `Unknown config specified: ${String(urlPath)}`)
  return found
}

const BUILT_IN_PANELS: Array<[string, string]> = [['home', 'mdi:home'], ['light', 'mdi:lamps'], ['security', 'mdi:security'], ['climate', 'mdi:home-thermometer'], ['maintenance', 'mdi:wrench']]

/**
 * get_panels as the era has it (frontend src/types.ts PanelInfo). The built-in dashboards are panels
 * (frontend src/panels/{home,light,security,climate,maintenance}, 2025.12 to 2026.5); the lovelace panel
 * has a config only while an Overview exists (frontend src/data/panel.ts hasLegacyOverviewPanel).
 */
export function panels (era: OverviewEra): Record<string, Record<string, unknown>> {
  const panel = (name: string, icon: string | null, title: string | null, config: unknown = null): Record<string, unknown> =>
    ({ component_name: name, icon, title, config, url_path: name, require_admin: false, config_panel_domain: null })
  const out: Record<string, Record<string, unknown>> = {
    lovelace: era === 'migrated' ? panel('lovelace', 'mdi:view-dashboard', 'Overview', { mode: 'storage' }) : panel('lovelace', null, null, era === 'legacy' ? { mode: 'storage' } : null),
    energy: panel('energy', 'mdi:lightning-bolt', 'energy'),
    history: panel('history', 'mdi:chart-box', 'history')
  }
  if (era !== 'legacy') for (const [name, icon] of BUILT_IN_PANELS) out[name] = panel(name, icon, name)
  return out
}

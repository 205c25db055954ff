import { addonsOf, type InstalledAddon } from '../addons.ts'
import { invalidFormat, pyRepr, requiredKey } from '../errors.ts'
import type { House } from '../house.ts'
import { field, svc, type ServiceCall, type ServiceTable } from './registry.ts'

/** hassio/services.py VALID_ADDON_SLUG. */
const VALID_ADDON_SLUG = /^[-_.A-Za-z0-9]+$/

/**
 * hassio/services.py `valid_addon` (SCHEMA_ADDON / SCHEMA_APP): the slug must match VALID_ADDON_SLUG and
 * be an installed add-on, else voluptuous's "Not a valid app slug".
 */
function addonOf (call: ServiceCall, key: 'addon' | 'app'): InstalledAddon {
  const slug = call.data[key]
  if (slug === undefined || slug === null) throw requiredKey(key)
  const addon = typeof slug === 'string' && VALID_ADDON_SLUG.test(slug) ? addonsOf(call.house).get(slug) : undefined
  if (addon === undefined) throw invalidFormat(`Not a valid app slug for dictionary value @ data['${key}']. Got ${pyRepr(slug)}`)
  return addon
}

/**
 * hassio/services.py async_register_app_services: `app_start`, `app_stop`, `app_restart` (data `app`) and
 * their legacy twins `addon_start`, `addon_stop`, `addon_restart` (data `addon`), admin services that
 * call the Supervisor's /addons/<slug>/start|stop|restart with Core's own rights. The demo's Supervisor
 * answers at once; the add-on's state is what /addons/<slug>/info and /supervisor/info then show.
 */
function addonService (key: 'addon' | 'app', action: 'start' | 'stop' | 'restart') {
  return (call: ServiceCall): void => {
    const addon = addonOf(call, key)
    addon.state = action === 'stop' ? 'stopped' : 'started'
  }
}

/** The add-on an update entity of the hassio platform stands for: unique_id `<slug>_version_latest` (hassio/entity.py HassioAddonEntity). */
export function addonOfUpdateEntity (house: House, entityId: string): InstalledAddon | undefined {
  const entry = house.entities.get(entityId)
  if (entry?.platform !== 'hassio' || typeof entry.unique_id !== 'string' || !entry.unique_id.endsWith('_version_latest')) return undefined
  return addonsOf(house).get(entry.unique_id.slice(0, -'_version_latest'.length))
}

/**
 * hassio/update.py SupervisorAddonUpdateEntity.async_install: the Supervisor's store update
 * (/store/addons/<slug>/update) runs, and /addons/<slug>/info then shows the new version.
 */
export function installedAddonUpdate (house: House, entityId: string, version: unknown): void {
  const addon = addonOfUpdateEntity(house, entityId)
  if (addon === undefined || typeof version !== 'string') return
  addon.version = version
  addon.update_available = version !== addon.version_latest
}

/**
 * hassio/services.py async_register_host_services: `host_reboot` and `host_shutdown`, admin services with
 * SCHEMA_NO_DATA that call the Supervisor's /host/reboot and /host/shutdown. The demo's host stays up:
 * the call is only recorded (DemoHome.serviceCalls).
 */
function hostService (call: ServiceCall): void {
  const extra = Object.keys(call.data)[0]
  if (extra !== undefined) throw invalidFormat(`extra keys not allowed @ data['${extra}']. Got ${pyRepr(call.data[extra])}`)
}

export function hassioServices (): ServiceTable {
  const services: ServiceTable[string] = {}
  for (const key of ['addon', 'app'] as const) {
    for (const action of ['start', 'stop', 'restart'] as const) {
      services[`${key}_${action}`] = svc(`${action[0]?.toUpperCase() ?? ''}${action.slice(1)} app`, `${action[0]?.toUpperCase() ?? ''}${action.slice(1)}s an app.`, { [key]: field('App', { addon: {} }, { required: true }) }, { run: addonService(key, action) })
    }
  }
  services.host_reboot = svc('Reboot the host system', 'Reboots the host system.', {}, { run: hostService })
  services.host_shutdown = svc('Power off the host system', 'Powers off the host system.', {}, { run: hostService })
  return { hassio: services }
}

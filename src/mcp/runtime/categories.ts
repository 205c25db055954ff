import { levelIn, levelRank, scopeEnabled, SCOPE_OPTION, type Identity, type Level } from '../../auth/identity.ts'
import type { Options } from '../../options.ts'
import type { ToolKind } from './define-tool.ts'

/**
 * Tools whose argument picks what they change, each value filed under its own category: a token with
 * dashboards at read cannot save a dashboard through ha_manage_config, whatever it may do with scenes.
 */
export const ARGUMENT_CATEGORIES: Readonly<Record<string, { field: string, byValue: Readonly<Record<string, string>> }>> = {
  ha_manage_config: { field: 'kind', byValue: { scene: 'scenes', calendar: 'calendar', dashboard: 'dashboards', backup: 'system', energy: 'environment' } }
}

/** The level a tool of this kind needs. */
export function levelNeeded (kind: ToolKind): Level {
  return kind === 'camera' ? 'read' : kind
}

/** The option that turns on add-on control (ha_manage_addon and the hassio add-on services). */
export const ADDON_CONTROL_OPTION = 'allow_addon_control' satisfies keyof Options

/**
 * Home Assistant services that do what a tool of another category does (a config entry's reload is
 * ha_manage_integration's, an add-on's start ha_manage_addon's): through ha_call_service they need that category at that tool's level, and its
 * options, so no token reaches the operation by the generic door that it could not reach directly.
 */
export interface ServiceOwner {
  category: string
  kind: ToolKind
  option?: keyof Options
  /**
   * Asked first through ha_call_service too, with this text, as the tool that owns it asks (an add-on's
   * stop, an update's install, a restart) or as the host's power and a restore deserve: the generic door
   * is no way around a confirmation.
   */
  asks?: string
}

const ADDON_STOP_ASKS = 'Stop an add-on: what it serves stops until it is started again'

export const SERVICE_CATEGORIES: Readonly<Record<string, ServiceOwner>> = {
  'homeassistant.reload_config_entry': { category: 'integrations', kind: 'manage' },
  // hassio/services.py registers the add-on services under both names: addon_* (legacy, `addon`) and app_* (`app`).
  ...Object.fromEntries(['addon', 'app'].flatMap(prefix => ['start', 'stop', 'restart', 'stdin'].map(action => [`hassio.${prefix}_${action}`, { category: 'system', kind: 'manage', option: ADDON_CONTROL_OPTION, ...(action === 'stop' ? { asks: ADDON_STOP_ASKS } : {}) }]))),
  // ha_manage_update's operations: called as services, they need the level the tool needs.
  'update.install': { category: 'system', kind: 'manage', asks: 'Install an update' },
  'update.skip': { category: 'system', kind: 'manage' },
  'update.clear_skipped': { category: 'system', kind: 'manage' },
  // Backups are ha_manage_config kind backup's (system): backup/services.py `create` and `create_automatic`,
  // hassio/services.py `backup_full` and `backup_partial`.
  'backup.create': { category: 'system', kind: 'manage' },
  'backup.create_automatic': { category: 'system', kind: 'manage' },
  // hassio/services.py's other admin services (the host's power, backups, restores, network storage) are
  // no tool's, yet an owner removes hassio.* from service_denylist for add-on control: they stay at the
  // system category's manage level, never within reach of a token with services at write.
  ...Object.fromEntries(['backup_full', 'backup_partial', 'mount_reload'].map(service => [`hassio.${service}`, { category: 'system', kind: 'manage' }])),
  'hassio.host_reboot': { category: 'system', kind: 'manage', asks: 'Reboot the host: Home Assistant and every add-on stop until it is back' },
  'hassio.host_shutdown': { category: 'system', kind: 'manage', asks: 'Shut the host down: nothing runs until someone powers it on' },
  'hassio.restore_full': { category: 'system', kind: 'manage', asks: 'Restore a backup over the current system' },
  'hassio.restore_partial': { category: 'system', kind: 'manage', asks: 'Restore part of a backup over the current system' },
  // ha_restart's operations, likewise; every `<domain>.reload` too (serviceOwner).
  'homeassistant.restart': { category: 'system', kind: 'manage', asks: 'Restart Home Assistant: automations, integrations and dashboards stop until it is back' },
  // Stopping is no restart: Home Assistant stays down until the Supervisor or someone starts it again.
  'homeassistant.stop': { category: 'system', kind: 'manage', asks: 'Stop Home Assistant: nothing runs, not even this add-on\'s calls, until someone starts it again' },
  'homeassistant.reload_all': { category: 'system', kind: 'manage' },
  'homeassistant.check_config': { category: 'system', kind: 'manage' }
}

/** What ha_restart's `reload` does: a domain's YAML reload (helpers/reload.py registers it as `reload`). */
const DOMAIN_RELOAD = { category: 'system', kind: 'manage' } as const

/** The category, level and option that own a service called through ha_call_service, if a tool owns it. */
export function serviceOwner (service: string): ServiceOwner | undefined {
  return SERVICE_CATEGORIES[service] ?? (service.endsWith('.reload') ? DOMAIN_RELOAD : undefined)
}

/**
 * Config-flow helpers (template, group, utility_meter...) are config entries: creating, changing or
 * deleting one through the helper tools needs what ha_manage_integration needs for the same entry.
 */
export const CONFIG_ENTRY_OWNER = { category: 'integrations', kind: 'manage' } as const satisfies { category: string, kind: ToolKind }

/** Why this caller may not call this service through ha_call_service, or undefined when it may. */
export function serviceRefusal (service: string, identity: Identity, options: Options): { message: string, hint: string } | undefined {
  const owner = serviceOwner(service)
  return owner === undefined ? undefined : operationRefusal(service, owner, identity, options)
}

/** Why this caller may not do `what`, an operation owned by a category at a kind's level (and an option), or undefined when it may. */
export function operationRefusal (what: string, owner: { category: string, kind: ToolKind, option?: keyof Options }, identity: Identity, options: Options): { message: string, hint: string } | undefined {
  const needed = levelNeeded(owner.kind)
  const off = [...(scopeEnabled(owner.kind, options) ? [] : [SCOPE_OPTION[owner.kind]]), ...(owner.option === undefined || options[owner.option] === true ? [] : [owner.option])]
  if (off.length > 0) {
    return { message: `${what} belongs to the ${owner.category} category, which needs the ${off.join(' and ')} option${off.length > 1 ? 's' : ''}; ${off.length > 1 ? 'they are' : 'it is'} off.`, hint: `The add-on owner turns on ${off.join(' and ')} to allow it.` }
  }
  const has = levelIn(identity.levels, owner.category)
  if (levelRank(has) >= levelRank(needed)) return undefined
  return { message: `${what} needs the ${owner.category} category at ${needed}; this token has it at ${has}.`, hint: 'The owner sets a named token\'s level per category on the Tokens tab of the add-on\'s panel.' }
}

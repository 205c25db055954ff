import { HaError, invalidFormat, pyRepr } from '../errors.ts'
import type { House } from '../house.ts'
import type { EntityEntry, HassState } from '../types.ts'
import { isRecord } from '../util.ts'
import type { CommandContext, CommandTable } from './protocol.ts'
import { now, nullableString, same, strings, typed } from './registry-common.ts'
import { deviceView, entityExtendedView, originalFriendlyName } from './registry-views.ts'

/** config/entity_registry/update, config/device_registry/update and exposure to assistants, as HA does them. */

// ---- entities --------------------------------------------------------------------------------

const ENTITY_ID = /^(?!_)[a-z0-9_]+(?<!_)\.(?!_)[a-z0-9_]+(?<!_)$/
/** States of disabled entities, put back when they are enabled again (HA reloads the integration). */
const parked = new WeakMap<House, Map<string, HassState>>()
function parking (house: House): Map<string, HassState> {
  let map = parked.get(house)
  if (map === undefined) parked.set(house, (map = new Map()))
  return map
}

/** Applies registry changes to one entry the way the entity registry does, keeping the state machine in step. */
export function updateEntry (house: House, entry: EntityEntry, patch: Partial<EntityEntry> & { new_entity_id?: string }): Record<string, unknown> {
  const changes: Record<string, unknown> = {}
  const oldId = entry.entity_id
  if (patch.new_entity_id !== undefined && patch.new_entity_id !== oldId) {
    const next = patch.new_entity_id
    if (house.entities.has(next) || house.states.has(next)) throw new HaError('invalid_info', 'Entity with this ID is already registered')
    if (!ENTITY_ID.test(next)) throw new HaError('invalid_info', 'Invalid entity ID')
    if (next.split('.')[0] !== oldId.split('.')[0]) throw new HaError('invalid_info', 'New entity ID should be same domain')
  }
  for (const key of ['name', 'icon', 'area_id', 'labels', 'aliases', 'disabled_by', 'hidden_by', 'device_class', 'categories', 'options'] as const) {
    if (!(key in patch) || same(entry[key], patch[key])) continue
    changes[key] = entry[key]
    Object.assign(entry, { [key]: patch[key] })
  }
  if (patch.new_entity_id !== undefined && patch.new_entity_id !== oldId) {
    changes.entity_id = oldId
    house.entities.delete(oldId)
    entry.entity_id = patch.new_entity_id
    house.entities.set(entry.entity_id, entry)
    const state = house.states.get(oldId)
    if (state !== undefined) {
      house.removeState(oldId)
      house.setState(entry.entity_id, state.state, state.attributes)
    }
    const park = parking(house)
    const parkedState = park.get(oldId)
    if (parkedState !== undefined) { park.delete(oldId); park.set(entry.entity_id, { ...parkedState, entity_id: entry.entity_id }) }
  }
  if (Object.keys(changes).length === 0) return changes
  entry.modified_at = now()
  const id = entry.entity_id
  const state = house.states.get(id)
  if (state !== undefined && ('name' in changes || 'icon' in changes)) {
    const { icon: _icon, ...attributes } = state.attributes
    const icon = entry.icon ?? (typeof state.attributes.icon === 'string' && !('icon' in changes) ? state.attributes.icon : entry.original_icon)
    house.setState(id, state.state, { ...attributes, ...(icon ? { icon } : {}), friendly_name: entry.name ?? originalFriendlyName(house, entry) })
  }
  if ('disabled_by' in changes) {
    const park = parking(house)
    if (entry.disabled_by !== null && state !== undefined) { park.set(id, state); house.removeState(id) }
    if (entry.disabled_by === null) {
      const back = park.get(id)
      if (back !== undefined) { park.delete(id); house.setState(id, back.state, back.attributes) }
    }
  }
  house.fire('entity_registry_updated', { action: 'update', entity_id: id, changes, ...(changes.entity_id === undefined ? {} : { old_entity_id: oldId }) })
  return changes
}

function userOnly (msg: Record<string, unknown>, key: string): void {
  if (key in msg && msg[key] !== null && msg[key] !== 'user') throw invalidFormat(`value must be one of ['user'] for dictionary value @ data['${key}']. Got ${pyRepr(msg[key])}`)
}

export function entityUpdate ({ rt, msg }: CommandContext): unknown {
  const house = rt.house
  for (const key of ['area_id', 'icon', 'name', 'device_class']) typed(msg, key, 'str', true)
  typed(msg, 'labels', 'list', false)
  // core config/entity_registry.py (2026.4+): `vol.Optional("aliases"): [vol.Any(str, None)]`; a None entry
  // means the entity's own name is also a voice name (frontend entity-voice-settings.ts, 2026-03-18).
  typed(msg, 'aliases', 'aliases', false)
  typed(msg, 'new_entity_id', 'str', false)
  userOnly(msg, 'disabled_by')
  userOnly(msg, 'hidden_by')
  if (('options_domain' in msg) !== ('options' in msg)) throw invalidFormat("some but not all values in the same group of inclusion 'entity_option' @ data[<entity_option>]")
  const entry = house.entities.get(String(msg.entity_id))
  if (entry === undefined) throw new HaError('not_found', 'Entity not found')
  if ('disabled_by' in msg && msg.disabled_by === null && entry.device_id !== null && house.devices.get(entry.device_id)?.disabled_by != null) {
    throw new HaError('invalid_info', 'Device is disabled')
  }
  const patch: Partial<EntityEntry> & { new_entity_id?: string } = {}
  for (const key of ['area_id', 'icon', 'name', 'device_class', 'disabled_by', 'hidden_by'] as const) if (key in msg) patch[key] = nullableString(msg[key])
  if ('labels' in msg) patch.labels = [...new Set(strings(msg.labels))]
  if ('aliases' in msg) patch.aliases = entityAliases(msg.aliases as Array<string | null>)
  if (typeof msg.new_entity_id === 'string') patch.new_entity_id = msg.new_entity_id
  if (isRecord(msg.categories)) {
    const next = { ...entry.categories }
    for (const [scope, id] of Object.entries(msg.categories)) {
      if (id === null) delete next[scope]
      else next[scope] = String(id)
    }
    patch.categories = next
  }
  // HA merges one domain's options over the others, whatever the value (None included).
  if (typeof msg.options_domain === 'string') patch.options = { ...entry.options, [msg.options_domain]: msg.options }
  const changes = updateEntry(house, entry, patch)
  const out: Record<string, unknown> = { entity_entry: entityExtendedView(entry) }
  if ('disabled_by' in changes && entry.disabled_by === null) {
    if (entry.config_entry_id === null) out.require_restart = true
    else out.reload_delay = 30
  }
  return out
}

// ---- exposure to assistants ------------------------------------------------------------------

const ASSISTANTS = ['cloud.alexa', 'cloud.google_assistant', 'conversation']
const unregisteredExposure = new WeakMap<House, Map<string, Record<string, boolean>>>()

export function exposureCommands (): CommandTable {
  const loose = (house: House): Map<string, Record<string, boolean>> => {
    let map = unregisteredExposure.get(house)
    if (map === undefined) unregisteredExposure.set(house, (map = new Map()))
    return map
  }
  return {
    'homeassistant/expose_entity': {
      keys: { required: ['assistants', 'entity_ids', 'should_expose'] },
      handle: ({ rt, msg }) => {
        const house = rt.house
        const assistants = strings(msg.assistants)
        const bad = assistants.find(a => !ASSISTANTS.includes(a))
        if (bad !== undefined) throw invalidFormat(`value must be one of ${pyRepr(ASSISTANTS)} @ data['assistants'][${assistants.indexOf(bad)}]. Got ${pyRepr(bad)}`)
        typed(msg, 'entity_ids', 'list', false)
        typed(msg, 'should_expose', 'bool', false)
        const ids = strings(msg.entity_ids)
        if (ids.includes('group.all_locks')) throw new HaError('not_allowed', "can't expose 'group.all_locks'")
        for (const id of ids) {
          const entry = house.entities.get(id)
          if (entry === undefined) {
            const settings = loose(house).get(id) ?? {}
            for (const a of assistants) settings[a] = msg.should_expose as boolean
            loose(house).set(id, settings)
            continue
          }
          const options = { ...entry.options }
          for (const a of assistants) options[a] = { ...(isRecord(options[a]) ? options[a] : {}), should_expose: msg.should_expose }
          updateEntry(house, entry, { options })
        }
        return null
      }
    },
    'homeassistant/expose_entity/list': {
      handle: ({ rt }) => {
        const exposed: Record<string, Record<string, boolean>> = {}
        for (const [id, settings] of loose(rt.house)) exposed[id] = { ...settings }
        for (const entry of rt.house.entities.values()) {
          const settings: Record<string, boolean> = {}
          for (const a of ASSISTANTS) {
            const option = entry.options[a]
            if (isRecord(option) && typeof option.should_expose === 'boolean') settings[a] = option.should_expose
          }
          if (Object.keys(settings).length > 0) exposed[entry.entity_id] = settings
        }
        return { exposed_entities: exposed }
      }
    }
  }
}

// ---- devices ---------------------------------------------------------------------------------

export function deviceUpdate (context: CommandContext): unknown {
  const { rt, msg } = context
  const house = rt.house
  typed(msg, 'area_id', 'str', true)
  typed(msg, 'name_by_user', 'str', true)
  typed(msg, 'labels', 'list', false)
  userOnly(msg, 'disabled_by')
  // An id from before the 2026.8 split: the update goes to each device it became (core device_registry.py).
  const splits = house.compositeDevices.get(String(msg.device_id))
  if (splits !== undefined) return splits.map(id => deviceUpdate({ ...context, msg: { ...msg, device_id: id } }))[0]
  const device = house.devices.get(String(msg.device_id))
  if (device === undefined) throw new HaError('not_found', 'Device not found')
  const changes: Record<string, unknown> = {}
  for (const key of ['area_id', 'name_by_user', 'disabled_by', 'labels'] as const) {
    if (!(key in msg)) continue
    const value = key === 'labels' ? [...new Set(strings(msg.labels))] : nullableString(msg[key])
    if (same(device[key], value)) continue
    changes[key] = device[key]
    Object.assign(device, { [key]: value })
  }
  if (Object.keys(changes).length === 0) return deviceView(device)
  device.modified_at = now()
  house.fire('device_registry_updated', { action: 'update', device_id: device.id, changes })
  const own = [...house.entities.values()].filter(e => e.device_id === device.id)
  // A disabled device disables its entities (disabled_by "device"); enabling it brings them back.
  if ('disabled_by' in changes) {
    for (const entry of own) {
      if (device.disabled_by !== null && entry.disabled_by === null) updateEntry(house, entry, { disabled_by: 'device' })
      if (device.disabled_by === null && entry.disabled_by === 'device') updateEntry(house, entry, { disabled_by: null })
    }
  }
  if ('name_by_user' in changes) {
    for (const entry of own) {
      const state = house.states.get(entry.entity_id)
      if (state !== undefined && entry.name === null && entry.has_entity_name) house.setState(entry.entity_id, state.state, { ...state.attributes, friendly_name: originalFriendlyName(house, entry) })
    }
  }
  return deviceView(device)
}

/** Aliases as the entity registry stores them: strings stripped, blanks dropped, duplicates (the null too) once. */
function entityAliases (raw: Array<string | null>): Array<string | null> {
  return [...new Set(raw.map(a => a === null ? null : a.trim()).filter(a => a !== ''))]
}

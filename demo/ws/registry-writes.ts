import { HaError, invalidFormat, pyRepr, requiredKey } from '../errors.ts'
import type { House } from '../house.ts'
import type { AreaEntry, EntityEntry, FloorEntry, HassState, LabelEntry } from '../types.ts'
import { epochSeconds, isRecord, slugify, ulid } from '../util.ts'
import { addRuntimeEntity, removeRuntimeEntity } from '../runtime-entities.ts'
import type { CommandContext, CommandTable } from './protocol.ts'
import { deviceView, entityExtendedView, originalFriendlyName } from './registry-views.ts'

/**
 * The registry write commands, as Home Assistant's config/*_registry websocket handlers and helpers
 * behave: slug ids made unique with _2, `invalid_info` for what the registry refuses, `invalid_format`
 * for what the voluptuous schema refuses, cascades on delete, and one `*_registry_updated` event per
 * entry changed (update `changes` hold the old values).
 */

const now = (): number => epochSeconds(Date.now())
const strings = (value: unknown): string[] => Array.isArray(value) ? value.map(String) : []
const nullableString = (value: unknown): string | null => typeof value === 'string' ? value : null
const same = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b)

/** Every registry write the demo received, oldest first: what reached the house. */
const writeLogs = new WeakMap<House, Array<Record<string, unknown>>>()
export function registryWrites (house: House): Array<Record<string, unknown>> {
  let log = writeLogs.get(house)
  if (log === undefined) writeLogs.set(house, (log = []))
  return log
}

function recorded (table: CommandTable): CommandTable {
  return Object.fromEntries(Object.entries(table).map(([type, def]) => [type, {
    ...def,
    handle: (ctx: CommandContext) => {
      if (!type.endsWith('/list')) {
        const { id: _id, ...msg } = ctx.msg
        registryWrites(ctx.rt.house).push(msg)
      }
      return def.handle(ctx)
    }
  }]))
}

function uniqueId (base: string, taken: (id: string) => boolean): string {
  let id = base
  for (let n = 2; taken(id); n++) id = `${base}_${n}`
  return id
}

/** HA compares names with case and spaces folded away. */
const normalName = (name: string): string => name.toLowerCase().replace(/\s/g, '')

function checkName (names: Iterable<[string, string]>, name: string, except?: string): void {
  for (const [id, existing] of names) {
    if (id !== except && normalName(existing) === normalName(name)) throw new HaError('invalid_info', `The name ${name} (${normalName(name)}) is already in use`)
  }
}

function typed (msg: Record<string, unknown>, key: string, kind: 'str' | 'int' | 'list' | 'bool' | 'float', nullable: boolean): void {
  if (!(key in msg)) return
  const value = msg[key]
  if (value === null && nullable) return
  const checks: Record<typeof kind, () => boolean> = {
    str: () => typeof value === 'string',
    int: () => Number.isInteger(value),
    float: () => typeof value === 'number',
    bool: () => typeof value === 'boolean',
    list: () => Array.isArray(value) && value.every(v => typeof v === 'string')
  }
  const ok = checks[kind]()
  if (!ok) {
    const expected = { str: 'expected str', int: 'expected int', list: 'expected a list', bool: 'expected bool', float: 'expected float' }[kind]
    throw invalidFormat(`${expected} for dictionary value @ data['${key}']. Got ${pyRepr(value)}`)
  }
}

const COLOR_NAMES = new Set(['primary', 'accent', 'red', 'pink', 'purple', 'deep-purple', 'indigo', 'blue', 'light-blue', 'cyan', 'teal', 'green', 'light-green', 'lime', 'yellow', 'amber', 'orange', 'deep-orange', 'brown', 'light-grey', 'grey', 'dark-grey', 'blue-grey', 'black', 'white', 'disabled'])
function checkIcon (msg: Record<string, unknown>): void {
  if (typeof msg.icon === 'string' && !msg.icon.includes(':')) throw invalidFormat(`Icons should be specified in the form "prefix:name" for dictionary value @ data['icon']. Got ${pyRepr(msg.icon)}`)
}

// ---- areas, floors, labels -------------------------------------------------------------------

const AREA_FIELDS = ['aliases', 'floor_id', 'humidity_entity_id', 'icon', 'labels', 'picture', 'temperature_entity_id']

function areaCommands (): CommandTable {
  const fields = (msg: Record<string, unknown>, creating: boolean): void => {
    if (creating && typeof msg.name !== 'string') throw requiredKey('name')
    typed(msg, 'name', 'str', false)
    typed(msg, 'aliases', 'list', false)
    typed(msg, 'labels', 'list', false)
    typed(msg, 'floor_id', 'str', !creating)
    typed(msg, 'icon', 'str', !creating)
    typed(msg, 'picture', 'str', true)
  }
  const apply = (area: AreaEntry, msg: Record<string, unknown>): void => {
    if (typeof msg.name === 'string') area.name = msg.name
    if ('aliases' in msg) area.aliases = [...new Set(strings(msg.aliases))]
    if ('labels' in msg) area.labels = [...new Set(strings(msg.labels))]
    if ('floor_id' in msg) area.floor_id = nullableString(msg.floor_id)
    if ('icon' in msg) area.icon = nullableString(msg.icon)
    if ('picture' in msg) area.picture = nullableString(msg.picture)
    for (const key of ['humidity_entity_id', 'temperature_entity_id'] as const) if (key in msg) area[key] = nullableString(msg[key])
  }
  const names = (house: House): Array<[string, string]> => [...house.areas.values()].map(a => [a.area_id, a.name])
  return {
    'config/area_registry/create': {
      keys: { required: ['name'], optional: AREA_FIELDS },
      handle: ({ rt, msg }) => {
        fields(msg, true)
        const house = rt.house
        checkName(names(house), msg.name as string)
        const id = uniqueId(slugify(msg.name as string), candidate => house.areas.has(candidate))
        const area: AreaEntry = { area_id: id, name: '', floor_id: null, icon: null, aliases: [], labels: [], picture: null, humidity_entity_id: null, temperature_entity_id: null, motion_entity_id: null, created_at: now(), modified_at: now() }
        apply(area, msg)
        house.areas.set(id, area)
        house.fire('area_registry_updated', { action: 'create', area_id: id })
        return area
      }
    },
    'config/area_registry/update': {
      keys: { required: ['area_id'], optional: [...AREA_FIELDS, 'name'] },
      handle: ({ rt, msg }) => {
        fields(msg, false)
        const house = rt.house
        const area = house.areas.get(String(msg.area_id))
        if (area === undefined) throw new HaError('invalid_info', "Area ID doesn't exist")
        if (typeof msg.name === 'string') checkName(names(house), msg.name, area.area_id)
        apply(area, msg)
        area.modified_at = now()
        house.fire('area_registry_updated', { action: 'update', area_id: area.area_id })
        return area
      }
    },
    'config/area_registry/delete': {
      keys: { required: ['area_id'] },
      handle: ({ rt, msg }) => {
        const house = rt.house
        const id = String(msg.area_id)
        if (!house.areas.delete(id)) throw new HaError('invalid_info', "Area ID doesn't exist")
        // Devices and entities in the area lose it (HA clears area_id, then fires their updates).
        for (const device of house.devices.values()) {
          if (device.area_id !== id) continue
          device.area_id = null
          device.modified_at = now()
          house.fire('device_registry_updated', { action: 'update', device_id: device.id, changes: { area_id: id } })
        }
        for (const entry of house.entities.values()) if (entry.area_id === id) updateEntry(house, entry, { area_id: null })
        house.fire('area_registry_updated', { action: 'remove', area_id: id })
        return 'success'
      }
    }
  }
}

function floorCommands (): CommandTable {
  const fields = (msg: Record<string, unknown>, creating: boolean): void => {
    if (creating && typeof msg.name !== 'string') throw requiredKey('name')
    typed(msg, 'name', 'str', false)
    typed(msg, 'aliases', 'list', false)
    typed(msg, 'icon', 'str', true)
    typed(msg, 'level', 'int', true)
  }
  const apply = (floor: FloorEntry, msg: Record<string, unknown>): void => {
    if (typeof msg.name === 'string') floor.name = msg.name
    if ('aliases' in msg) floor.aliases = [...new Set(strings(msg.aliases))]
    if ('icon' in msg) floor.icon = nullableString(msg.icon)
    if ('level' in msg) floor.level = typeof msg.level === 'number' ? msg.level : null
  }
  const names = (house: House): Array<[string, string]> => [...house.floors.values()].map(f => [f.floor_id, f.name])
  return {
    'config/floor_registry/create': {
      keys: { required: ['name'], optional: ['aliases', 'icon', 'level'] },
      handle: ({ rt, msg }) => {
        fields(msg, true)
        const house = rt.house
        checkName(names(house), msg.name as string)
        const id = uniqueId(slugify(msg.name as string), candidate => house.floors.has(candidate))
        const floor: FloorEntry = { floor_id: id, name: '', level: null, icon: null, aliases: [], created_at: now(), modified_at: now() }
        apply(floor, msg)
        house.floors.set(id, floor)
        house.fire('floor_registry_updated', { action: 'create', floor_id: id })
        return floor
      }
    },
    'config/floor_registry/update': {
      keys: { required: ['floor_id'], optional: ['aliases', 'icon', 'level', 'name'] },
      handle: ({ rt, msg }) => {
        fields(msg, false)
        const house = rt.house
        const floor = house.floors.get(String(msg.floor_id))
        if (floor === undefined) throw new HaError('invalid_info', "Floor ID doesn't exist")
        if (typeof msg.name === 'string') checkName(names(house), msg.name, floor.floor_id)
        apply(floor, msg)
        floor.modified_at = now()
        house.fire('floor_registry_updated', { action: 'update', floor_id: floor.floor_id })
        return floor
      }
    },
    'config/floor_registry/delete': {
      keys: { required: ['floor_id'] },
      handle: ({ rt, msg }) => {
        const house = rt.house
        const id = String(msg.floor_id)
        if (!house.floors.delete(id)) throw new HaError('invalid_info', "Floor ID doesn't exist")
        for (const area of house.areas.values()) {
          if (area.floor_id !== id) continue
          area.floor_id = null
          area.modified_at = now()
          house.fire('area_registry_updated', { action: 'update', area_id: area.area_id })
        }
        house.fire('floor_registry_updated', { action: 'remove', floor_id: id })
        return null
      }
    }
  }
}

function labelCommands (): CommandTable {
  const fields = (msg: Record<string, unknown>, creating: boolean): void => {
    if (creating && typeof msg.name !== 'string') throw requiredKey('name')
    typed(msg, 'name', 'str', false)
    typed(msg, 'color', 'str', true)
    typed(msg, 'icon', 'str', true)
    typed(msg, 'description', 'str', true)
    checkIcon(msg)
    if (typeof msg.color === 'string' && !COLOR_NAMES.has(msg.color) && !/^#[0-9a-fA-F]{6}$/.test(msg.color)) {
      throw invalidFormat(`Color should be a valid hex color or a theme color name for dictionary value @ data['color']. Got ${pyRepr(msg.color)}`)
    }
  }
  const apply = (label: LabelEntry, msg: Record<string, unknown>): void => {
    if (typeof msg.name === 'string') label.name = msg.name
    for (const key of ['color', 'icon', 'description'] as const) if (key in msg) label[key] = nullableString(msg[key])
  }
  const names = (house: House): Array<[string, string]> => [...house.labels.values()].map(l => [l.label_id, l.name])
  return {
    'config/label_registry/create': {
      keys: { required: ['name'], optional: ['color', 'description', 'icon'] },
      handle: ({ rt, msg }) => {
        fields(msg, true)
        const house = rt.house
        checkName(names(house), msg.name as string)
        const id = uniqueId(slugify(msg.name as string), candidate => house.labels.has(candidate))
        const label: LabelEntry = { label_id: id, name: '', color: null, icon: null, description: null, created_at: now(), modified_at: now() }
        apply(label, msg)
        house.labels.set(id, label)
        house.fire('label_registry_updated', { action: 'create', label_id: id })
        return label
      }
    },
    'config/label_registry/update': {
      keys: { required: ['label_id'], optional: ['color', 'description', 'icon', 'name'] },
      handle: ({ rt, msg }) => {
        fields(msg, false)
        const house = rt.house
        const label = house.labels.get(String(msg.label_id))
        if (label === undefined) throw new HaError('invalid_info', "Label ID doesn't exist")
        if (typeof msg.name === 'string') checkName(names(house), msg.name, label.label_id)
        apply(label, msg)
        label.modified_at = now()
        house.fire('label_registry_updated', { action: 'update', label_id: label.label_id })
        return label
      }
    },
    'config/label_registry/delete': {
      keys: { required: ['label_id'] },
      handle: ({ rt, msg }) => {
        const house = rt.house
        const id = String(msg.label_id)
        if (!house.labels.delete(id)) throw new HaError('invalid_info', "Label ID doesn't exist")
        // Every area, device and entity carrying the label loses it.
        for (const area of house.areas.values()) {
          if (!area.labels.includes(id)) continue
          area.labels = area.labels.filter(l => l !== id)
          house.fire('area_registry_updated', { action: 'update', area_id: area.area_id })
        }
        for (const device of house.devices.values()) {
          if (!device.labels.includes(id)) continue
          const old = device.labels
          device.labels = old.filter(l => l !== id)
          house.fire('device_registry_updated', { action: 'update', device_id: device.id, changes: { labels: old } })
        }
        for (const entry of house.entities.values()) if (entry.labels.includes(id)) updateEntry(house, entry, { labels: entry.labels.filter(l => l !== id) })
        house.fire('label_registry_updated', { action: 'remove', label_id: id })
        return null
      }
    }
  }
}

// ---- categories (per scope) ------------------------------------------------------------------

export interface CategoryEntry { category_id: string, name: string, icon: string | null, created_at: number, modified_at: number }
const categoryStores = new WeakMap<House, Map<string, Map<string, CategoryEntry>>>()

export function categories (house: House, scope: string): Map<string, CategoryEntry> {
  let all = categoryStores.get(house)
  if (all === undefined) {
    const at = epochSeconds(house.home.startMs - 86_400_000 * 30)
    all = new Map([['automation', new Map([['01JCATLIGHTING0000000000000', { category_id: '01JCATLIGHTING0000000000000', name: 'Lighting', icon: 'mdi:lightbulb', created_at: at, modified_at: at }]])]])
    categoryStores.set(house, all)
  }
  let scoped = all.get(scope)
  if (scoped === undefined) all.set(scope, (scoped = new Map()))
  return scoped
}

function categoryCommands (): CommandTable {
  const fields = (msg: Record<string, unknown>, creating: boolean): void => {
    if (typeof msg.scope !== 'string') throw requiredKey('scope')
    if (creating && typeof msg.name !== 'string') throw requiredKey('name')
    typed(msg, 'name', 'str', false)
    typed(msg, 'icon', 'str', true)
    checkIcon(msg)
  }
  const names = (scoped: Map<string, CategoryEntry>): Array<[string, string]> => [...scoped.values()].map(c => [c.category_id, c.name])
  return {
    'config/category_registry/list': {
      keys: { required: ['scope'] },
      handle: ({ rt, msg }) => [...categories(rt.house, String(msg.scope)).values()]
    },
    'config/category_registry/create': {
      keys: { required: ['scope', 'name'], optional: ['icon'] },
      handle: ({ rt, msg }) => {
        fields(msg, true)
        const scoped = categories(rt.house, msg.scope as string)
        checkName(names(scoped), msg.name as string)
        const entry: CategoryEntry = { category_id: ulid(), name: msg.name as string, icon: nullableString(msg.icon), created_at: now(), modified_at: now() }
        scoped.set(entry.category_id, entry)
        rt.house.fire('category_registry_updated', { action: 'create', scope: msg.scope, category_id: entry.category_id })
        return entry
      }
    },
    'config/category_registry/update': {
      keys: { required: ['scope', 'category_id'], optional: ['icon', 'name'] },
      handle: ({ rt, msg }) => {
        fields(msg, false)
        const scoped = categories(rt.house, msg.scope as string)
        const entry = scoped.get(String(msg.category_id))
        if (entry === undefined) throw new HaError('invalid_info', "Category ID doesn't exist")
        if (typeof msg.name === 'string') { checkName(names(scoped), msg.name, entry.category_id); entry.name = msg.name }
        if ('icon' in msg) entry.icon = nullableString(msg.icon)
        entry.modified_at = now()
        rt.house.fire('category_registry_updated', { action: 'update', scope: msg.scope, category_id: entry.category_id })
        return entry
      }
    },
    'config/category_registry/delete': {
      keys: { required: ['scope', 'category_id'] },
      handle: ({ rt, msg }) => {
        const house = rt.house
        const scope = String(msg.scope)
        const id = String(msg.category_id)
        if (!categories(house, scope).delete(id)) throw new HaError('invalid_info', "Category ID doesn't exist")
        for (const entry of house.entities.values()) {
          if (entry.categories[scope] !== id) continue
          const { [scope]: _gone, ...rest } = entry.categories
          updateEntry(house, entry, { categories: rest })
        }
        house.fire('category_registry_updated', { action: 'remove', scope, category_id: id })
        return null
      }
    }
  }
}

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

function entityUpdate ({ rt, msg }: CommandContext): unknown {
  const house = rt.house
  for (const key of ['area_id', 'icon', 'name', 'device_class']) typed(msg, key, 'str', true)
  typed(msg, 'labels', 'list', false)
  typed(msg, 'aliases', 'list', false)
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
  if ('aliases' in msg) patch.aliases = [...new Set(strings(msg.aliases).map(a => a.trim()).filter(a => a !== ''))]
  if (typeof msg.new_entity_id === 'string') patch.new_entity_id = msg.new_entity_id
  if (isRecord(msg.categories)) {
    const next = { ...entry.categories }
    for (const [scope, id] of Object.entries(msg.categories)) {
      if (id === null) delete next[scope]
      else next[scope] = String(id)
    }
    patch.categories = next
  }
  if (typeof msg.options_domain === 'string') {
    const { [msg.options_domain]: _old, ...rest } = entry.options
    patch.options = msg.options === null ? rest : { ...entry.options, [msg.options_domain]: msg.options }
  }
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

function exposureCommands (): CommandTable {
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

// ---- zones (a storage collection: zone/list|create|update|delete, ids from the name) --------

interface ZoneItem { id: string, name: string, latitude: number, longitude: number, radius: number, passive: boolean, icon?: string }
const zoneStores = new WeakMap<House, Map<string, ZoneItem>>()

export function zones (house: House): Map<string, ZoneItem> {
  let store = zoneStores.get(house)
  if (store === undefined) {
    store = new Map()
    for (const [id, state] of house.states) {
      if (!id.startsWith('zone.') || id === 'zone.home') continue
      const a = state.attributes
      const item: ZoneItem = { id: id.slice(5), name: String(a.friendly_name ?? id), latitude: Number(a.latitude), longitude: Number(a.longitude), radius: Number(a.radius ?? 100), passive: a.passive === true }
      if (typeof a.icon === 'string') item.icon = a.icon
      store.set(item.id, item)
    }
    zoneStores.set(house, store)
  }
  return store
}

function zoneFields (msg: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  typed(msg, 'name', 'str', false)
  for (const [key, limit] of [['latitude', 90], ['longitude', 180]] as const) {
    if (!(key in msg)) continue
    const value = Number(msg[key])
    if (typeof msg[key] === 'boolean' || !Number.isFinite(value) || Math.abs(value) > limit) throw invalidFormat(`invalid ${key} for dictionary value @ data['${key}']. Got ${pyRepr(msg[key])}`)
    out[key] = value
  }
  if ('radius' in msg) {
    const radius = Number(msg.radius)
    if (typeof msg.radius === 'boolean' || !Number.isFinite(radius)) throw invalidFormat(`expected float for dictionary value @ data['radius']. Got ${pyRepr(msg.radius)}`)
    out.radius = radius
  }
  typed(msg, 'passive', 'bool', false)
  checkIcon(msg)
  for (const key of ['name', 'passive', 'icon']) if (key in msg) out[key] = msg[key]
  return out
}

function zoneState (house: House, item: ZoneItem): void {
  const entityId = `zone.${item.id}`
  const persons = house.states.get(entityId)?.attributes.persons
  house.setState(entityId, String(Array.isArray(persons) ? persons.length : 0), { latitude: item.latitude, longitude: item.longitude, radius: item.radius, passive: item.passive, persons: Array.isArray(persons) ? persons : [], editable: true, ...(item.icon ? { icon: item.icon } : {}), friendly_name: item.name })
}

function zoneCommands (): CommandTable {
  const FIELDS = ['icon', 'latitude', 'longitude', 'name', 'passive', 'radius']
  const find = (house: House, msg: Record<string, unknown>): ZoneItem => {
    const item = zones(house).get(String(msg.zone_id))
    if (item === undefined) throw new HaError('not_found', `Unable to find zone_id ${String(msg.zone_id)}`)
    return item
  }
  return {
    'zone/list': { handle: ({ rt }) => [...zones(rt.house).values()] },
    'zone/create': {
      keys: { required: ['name', 'latitude', 'longitude'], optional: ['icon', 'passive', 'radius'] },
      handle: ({ rt, msg }) => {
        const house = rt.house
        const fields = zoneFields(msg)
        const store = zones(house)
        const id = uniqueId(slugify(String(fields.name)), candidate => store.has(candidate) || house.entities.has(`zone.${candidate}`))
        const item = { radius: 100, passive: false, ...fields, id } as ZoneItem
        store.set(id, item)
        addRuntimeEntity(house, `zone.${id}`, id, item.name, '0', {})
        zoneState(house, item)
        return item
      }
    },
    'zone/update': {
      keys: { required: ['zone_id'], optional: FIELDS },
      handle: ({ rt, msg }) => {
        const item = find(rt.house, msg)
        const { zone_id: _id, ...rest } = msg
        Object.assign(item, zoneFields(rest))
        zoneState(rt.house, item)
        return item
      }
    },
    'zone/delete': {
      keys: { required: ['zone_id'] },
      handle: ({ rt, msg }) => {
        const item = find(rt.house, msg)
        zones(rt.house).delete(item.id)
        removeRuntimeEntity(rt.house, `zone.${item.id}`)
        return null
      }
    }
  }
}

// ---- devices ---------------------------------------------------------------------------------

function deviceUpdate ({ rt, msg }: CommandContext): unknown {
  const house = rt.house
  typed(msg, 'area_id', 'str', true)
  typed(msg, 'name_by_user', 'str', true)
  typed(msg, 'labels', 'list', false)
  userOnly(msg, 'disabled_by')
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

export const registryWriteCommands: CommandTable = recorded({
  ...areaCommands(),
  ...floorCommands(),
  ...labelCommands(),
  ...categoryCommands(),
  ...exposureCommands(),
  'config/entity_registry/update': { keys: { required: ['entity_id'], optional: ['aliases', 'area_id', 'categories', 'device_class', 'disabled_by', 'hidden_by', 'icon', 'labels', 'name', 'new_entity_id', 'options', 'options_domain'] }, handle: entityUpdate },
  'config/device_registry/update': { keys: { required: ['device_id'], optional: ['area_id', 'disabled_by', 'labels', 'name_by_user'] }, handle: deviceUpdate },
  ...zoneCommands()
})

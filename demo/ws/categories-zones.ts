import { HaError, invalidFormat, pyRepr, requiredKey } from '../errors.ts'
import type { House } from '../house.ts'
import { addRuntimeEntity, removeRuntimeEntity } from '../runtime-entities.ts'
import { epochSeconds, slugify, ulid } from '../util.ts'
import { updateEntry } from './entity-writes.ts'
import type { CommandTable } from './protocol.ts'
import { checkIcon, checkName, now, nullableString, typed, uniqueId } from './registry-common.ts'

/** Categories (a registry per scope) and zones (a storage collection), as HA's handlers behave. */

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

export function categoryCommands (): CommandTable {
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

// ---- zones (a storage collection: zone/list|create|update|delete) --------
// As core zone/__init__.py: the storage id is the slug of the name, unique among stored zones only
// (collection.IDManager); the entity takes the storage id as its unique id and gets its entity id from the
// name like any entity (`zone.<slug>`, `_2` after a clash with a YAML zone or any other entity). So the
// entity of a zone is found through the registry, never as `zone.<id>`. YAML zones (`editable: false`)
// are not in the collection.

interface ZoneItem { id: string, name: string, latitude: number, longitude: number, radius: number, passive: boolean, icon?: string }
const zoneStores = new WeakMap<House, Map<string, ZoneItem>>()

export function zones (house: House): Map<string, ZoneItem> {
  let store = zoneStores.get(house)
  if (store === undefined) {
    store = new Map()
    for (const [entityId, state] of house.states) {
      if (!entityId.startsWith('zone.') || entityId === 'zone.home' || state.attributes.editable === false) continue
      const a = state.attributes
      const id = house.entities.get(entityId)?.unique_id ?? entityId.slice(5)
      const item: ZoneItem = { id, name: String(a.friendly_name ?? entityId), latitude: Number(a.latitude), longitude: Number(a.longitude), radius: Number(a.radius ?? 100), passive: a.passive === true }
      if (typeof a.icon === 'string') item.icon = a.icon
      store.set(item.id, item)
    }
    zoneStores.set(house, store)
  }
  return store
}

/** The entity of a stored zone: the registry entry of platform zone whose unique id is the zone's id. */
function zoneEntityId (house: House, zoneId: string): string | undefined {
  for (const entry of house.entities.values()) if (entry.platform === 'zone' && entry.unique_id === zoneId) return entry.entity_id
  return undefined
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
  const entityId = zoneEntityId(house, item.id)
  if (entityId === undefined) return
  const persons = house.states.get(entityId)?.attributes.persons
  house.setState(entityId, String(Array.isArray(persons) ? persons.length : 0), { latitude: item.latitude, longitude: item.longitude, radius: item.radius, passive: item.passive, persons: Array.isArray(persons) ? persons : [], editable: true, ...(item.icon ? { icon: item.icon } : {}), friendly_name: item.name })
}

export function zoneCommands (): CommandTable {
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
        const id = uniqueId(slugify(String(fields.name)), candidate => store.has(candidate))
        const item = { radius: 100, passive: false, ...fields, id } as ZoneItem
        store.set(id, item)
        const objectId = uniqueId(slugify(item.name), candidate => house.entities.has(`zone.${candidate}`) || house.states.has(`zone.${candidate}`))
        addRuntimeEntity(house, `zone.${objectId}`, id, item.name, '0', {})
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
        const entityId = zoneEntityId(rt.house, item.id)
        if (entityId !== undefined) removeRuntimeEntity(rt.house, entityId)
        return null
      }
    }
  }
}

import { HaError, invalidFormat, pyRepr, requiredKey } from '../errors.ts'
import type { House } from '../house.ts'
import type { AreaEntry, FloorEntry, LabelEntry } from '../types.ts'
import { slugify } from '../util.ts'
import { categoryCommands, zoneCommands } from './categories-zones.ts'
import { deviceUpdate, entityUpdate, exposureCommands, updateEntry } from './entity-writes.ts'
import type { CommandContext, CommandTable } from './protocol.ts'
import { checkIcon, checkName, COLOR_NAMES, now, nullableString, strings, typed, uniqueId } from './registry-common.ts'

/**
 * The registry write commands, as Home Assistant's config/*_registry websocket handlers and helpers
 * behave: slug ids made unique with _2, `invalid_info` for what the registry refuses, `invalid_format`
 * for what the voluptuous schema refuses, cascades on delete, and one `*_registry_updated` event per
 * entry changed (update `changes` hold the old values).
 */

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

import { HaError } from './errors.ts'
import type { House } from './house.ts'

type Sets = Record<string, Set<string>>

function referenced (house: House, config: unknown): string[] {
  const text = JSON.stringify(config)
  const out: string[] = []
  for (const match of text.matchAll(/"([a-z_]+\.[a-z0-9_]+)"/g)) if (house.entities.has(match[1] as string)) out.push(match[1] as string)
  return out
}

function configs (house: House): Array<{ entityId: string, refs: string[] }> {
  return [
    ...house.home.automations.map(a => ({ entityId: a.entity_id, refs: referenced(house, a.config) })),
    ...house.home.scripts.map(s => ({ entityId: s.entity_id, refs: referenced(house, s.config) })),
    ...house.home.scenes.map(s => ({ entityId: s.entity_id, refs: Object.keys(s.entities) }))
  ]
}

function addEntity (house: House, out: Sets, entityId: string, withContainers: boolean): void {
  out.entity?.add(entityId)
  const entry = house.entities.get(entityId)
  if (entry === undefined) return
  if (entry.device_id !== null) out.device?.add(entry.device_id)
  if (entry.config_entry_id !== null) out.config_entry?.add(entry.config_entry_id)
  const area = house.areaOf(entityId)
  if (area !== null) out.area?.add(area)
  for (const label of entry.labels) out.label?.add(label)
  if (withContainers) {
    for (const c of configs(house)) if (c.refs.includes(entityId)) out[c.entityId.split('.')[0] as string]?.add(c.entityId)
  }
}

/** search/related: what an item touches and what touches it; the item itself is left out. */
export function relatedItems (house: House, itemType: string, itemId: string): Record<string, string[]> {
  const out: Sets = { area: new Set(), automation: new Set(), config_entry: new Set(), device: new Set(), entity: new Set(), floor: new Set(), label: new Set(), scene: new Set(), script: new Set() }
  const entitiesWhere = (test: (entityId: string) => boolean): void => {
    for (const entry of house.entities.values()) if (test(entry.entity_id)) addEntity(house, out, entry.entity_id, true)
  }
  switch (itemType) {
    case 'entity':
      if (!house.entities.has(itemId) && !house.states.has(itemId)) break
      addEntity(house, out, itemId, true)
      break
    case 'device': {
      const device = house.devices.get(itemId)
      if (device === undefined) break
      out.config_entry?.add(device.config_entry_id)
      const area = house.deviceArea(itemId)
      if (area !== null) out.area?.add(area)
      for (const label of device.labels) out.label?.add(label)
      entitiesWhere(id => house.entities.get(id)?.device_id === itemId)
      break
    }
    case 'area':
      for (const device of house.devices.values()) if (house.deviceArea(device.id) === itemId) out.device?.add(device.id)
      entitiesWhere(id => house.areaOf(id) === itemId)
      break
    case 'floor':
      for (const area of house.areas.values()) {
        if (area.floor_id !== itemId) continue
        out.area?.add(area.area_id)
        entitiesWhere(id => house.areaOf(id) === area.area_id)
      }
      break
    case 'label':
      for (const area of house.areas.values()) if (area.labels.includes(itemId)) out.area?.add(area.area_id)
      for (const device of house.devices.values()) if (device.labels.includes(itemId)) out.device?.add(device.id)
      for (const entry of house.entities.values()) if (entry.labels.includes(itemId)) out.entity?.add(entry.entity_id)
      break
    case 'automation': case 'script': case 'scene': {
      const own = configs(house).find(c => c.entityId === itemId)
      if (own !== undefined) for (const ref of own.refs) addEntity(house, out, ref, false)
      break
    }
    // components/search/__init__.py _async_search_config_entry: its devices, its entities and what uses them.
    case 'config_entry':
      for (const device of house.devices.values()) if (device.config_entry_id === itemId) out.device?.add(device.id)
      entitiesWhere(id => house.entities.get(id)?.config_entry_id === itemId)
      break
    case 'group': case 'person': case 'automation_blueprint': case 'script_blueprint':
      break
    default:
      throw new HaError('invalid_format', `value must be one of ['area', 'automation', 'automation_blueprint', 'config_entry', 'device', 'entity', 'floor', 'group', 'label', 'person', 'scene', 'script', 'script_blueprint'] for dictionary value @ data['item_type']. Got '${itemType}'`)
  }
  for (const area of out.area ?? []) {
    const floor = house.areas.get(area)?.floor_id
    if (floor != null && itemType !== 'floor') out.floor?.add(floor)
  }
  const key = itemType === 'automation' || itemType === 'script' || itemType === 'scene' ? 'entity' : itemType
  out[key]?.delete(itemId)
  out[itemType]?.delete(itemId)
  const result: Record<string, string[]> = {}
  for (const [k, set] of Object.entries(out)) if (set.size > 0) result[k] = [...set]
  return result
}

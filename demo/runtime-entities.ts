import type { House } from './house.ts'
import type { EntityEntry } from './types.ts'
import { epochSeconds, hexId } from './util.ts'

/**
 * Entities created and removed while the home runs (helpers, UI automations and scripts): a registry
 * entry, a static history profile, the registry event, then the state, in the order Home Assistant uses.
 */
export function addRuntimeEntity (house: House, entityId: string, uniqueId: string, name: string, state: string, attributes: Record<string, unknown>, registry: Partial<EntityEntry> = {}): void {
  const at = epochSeconds(Date.now())
  const entry: EntityEntry = {
    entity_id: entityId,
    id: hexId(Math.random),
    unique_id: uniqueId,
    platform: entityId.split('.')[0] as string,
    config_entry_id: null,
    device_id: null,
    area_id: null,
    name: null,
    original_name: name,
    icon: null,
    original_icon: null,
    aliases: [],
    labels: [],
    disabled_by: null,
    hidden_by: null,
    entity_category: null,
    has_entity_name: false,
    device_class: null,
    original_device_class: null,
    translation_key: null,
    categories: {},
    options: {},
    capabilities: null,
    created_at: at,
    modified_at: at,
    ...registry
  }
  house.entities.set(entityId, entry)
  house.home.profiles.set(entityId, { kind: 'static' })
  house.fire('entity_registry_updated', { action: 'create', entity_id: entityId })
  house.setState(entityId, state, { ...attributes, friendly_name: name }, house.newContext(house.userId))
}

export function removeRuntimeEntity (house: House, entityId: string): void {
  house.entities.delete(entityId)
  house.removeState(entityId, house.newContext(house.userId))
  house.fire('entity_registry_updated', { action: 'remove', entity_id: entityId })
}

import type { House } from '../house.ts'
import type { DeviceEntry, EntityEntry } from '../types.ts'

/**
 * A device as config/device_registry/list gives it (DeviceEntry.dict_repr in
 * homeassistant/helpers/device_registry.py), with 2026.9's `parent_device_id` on every device: null
 * unless it is a child device (a power strip's outlet). A hub's `via_device_id` is a different link.
 */
export function deviceView (d: DeviceEntry): Record<string, unknown> {
  return {
    area_id: d.area_id,
    configuration_url: d.configuration_url,
    config_entries: [d.config_entry_id],
    config_entries_subentries: { [d.config_entry_id]: [null] },
    config_entry_id: d.config_entry_id,
    config_subentry_id: null,
    connections: d.connections,
    created_at: d.created_at,
    disabled_by: d.disabled_by,
    entry_type: d.entry_type,
    hw_version: d.hw_version,
    id: d.id,
    identifiers: d.identifiers,
    labels: d.labels,
    manufacturer: d.manufacturer,
    model: d.model,
    model_id: d.model_id,
    modified_at: d.modified_at,
    name_by_user: d.name_by_user,
    name: d.name,
    parent_device_id: d.parent_device_id,
    primary_config_entry: d.config_entry_id,
    serial_number: d.serial_number,
    sw_version: d.sw_version,
    via_device_id: d.via_device_id
  }
}

export function entityListView (e: EntityEntry): Record<string, unknown> {
  return {
    area_id: e.area_id,
    categories: e.categories,
    config_entry_id: e.config_entry_id,
    config_subentry_id: null,
    created_at: e.created_at,
    device_id: e.device_id,
    disabled_by: e.disabled_by,
    entity_category: e.entity_category,
    entity_id: e.entity_id,
    has_entity_name: e.has_entity_name,
    hidden_by: e.hidden_by,
    icon: e.icon,
    id: e.id,
    labels: e.labels,
    modified_at: e.modified_at,
    name: e.name,
    options: e.options,
    original_name: e.original_name,
    platform: e.platform,
    translation_key: e.translation_key,
    unique_id: e.unique_id
  }
}

export function entityExtendedView (e: EntityEntry): Record<string, unknown> {
  return {
    ...entityListView(e),
    aliases: e.aliases,
    capabilities: e.capabilities,
    device_class: e.device_class,
    original_device_class: e.original_device_class,
    original_icon: e.original_icon
  }
}

/** friendly_name HA derives from the registry entry when no user name is set. */
export function originalFriendlyName (house: House, e: EntityEntry): string | null {
  if (!e.has_entity_name) return e.original_name
  const device = e.device_id === null ? undefined : house.devices.get(e.device_id)
  const deviceName = device?.name_by_user ?? device?.name ?? null
  if (e.original_name === null) return deviceName
  return deviceName === null ? e.original_name : `${deviceName} ${e.original_name}`
}

export function entityDisplayView (e: EntityEntry, categories: string[]): Record<string, unknown> {
  const out: Record<string, unknown> = { ei: e.entity_id, pl: e.platform }
  if (e.area_id !== null) out.ai = e.area_id
  if (e.device_id !== null) out.di = e.device_id
  if (e.labels.length > 0) out.lb = e.labels
  if (e.icon !== null) out.ic = e.icon
  if (e.translation_key !== null) out.tk = e.translation_key
  if (e.entity_category !== null) out.ec = categories.indexOf(e.entity_category)
  if (e.hidden_by !== null) out.hb = true
  if (e.has_entity_name) out.hn = true
  const name = e.name ?? e.original_name
  if (name !== null) out.en = name
  return out
}

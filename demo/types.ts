export interface HassContext {
  id: string
  parent_id: string | null
  user_id: string | null
}

export interface HassState {
  entity_id: string
  state: string
  attributes: Record<string, unknown>
  last_changed: string
  last_reported: string
  last_updated: string
  context: HassContext
}

export interface FloorEntry {
  floor_id: string
  name: string
  level: number | null
  icon: string | null
  aliases: string[]
  created_at: number
  modified_at: number
}

export interface AreaEntry {
  area_id: string
  name: string
  floor_id: string | null
  icon: string | null
  aliases: string[]
  labels: string[]
  picture: string | null
  humidity_entity_id: string | null
  temperature_entity_id: string | null
  motion_entity_id: string | null
  created_at: number
  modified_at: number
}

export interface LabelEntry {
  label_id: string
  name: string
  color: string | null
  icon: string | null
  description: string | null
  created_at: number
  modified_at: number
}

export interface DeviceEntry {
  id: string
  name: string
  name_by_user: string | null
  manufacturer: string | null
  model: string | null
  model_id: string | null
  sw_version: string | null
  hw_version: string | null
  serial_number: string | null
  area_id: string | null
  labels: string[]
  via_device_id: string | null
  parent_device_id: string | null
  config_entry_id: string
  disabled_by: string | null
  entry_type: string | null
  identifiers: Array<[string, string]>
  connections: Array<[string, string]>
  configuration_url: string | null
  created_at: number
  modified_at: number
}

export interface EntityEntry {
  entity_id: string
  id: string
  unique_id: string
  platform: string
  config_entry_id: string | null
  device_id: string | null
  area_id: string | null
  name: string | null
  original_name: string | null
  icon: string | null
  original_icon: string | null
  /** Assist names; `null` stands for the entity's own name (core 2026.4+, frontend entity voice settings). */
  aliases: Array<string | null>
  labels: string[]
  disabled_by: string | null
  hidden_by: string | null
  entity_category: 'config' | 'diagnostic' | null
  has_entity_name: boolean
  device_class: string | null
  original_device_class: string | null
  translation_key: string | null
  categories: Record<string, string>
  options: Record<string, unknown>
  capabilities: Record<string, unknown> | null
  created_at: number
  modified_at: number
}

export interface HassEvent {
  event_type: string
  data: Record<string, unknown>
  origin: 'LOCAL' | 'REMOTE'
  time_fired: string
  context: HassContext
}

export interface ServiceCallRecord {
  domain: string
  service: string
  service_data: Record<string, unknown>
  target?: Record<string, unknown>
  return_response: boolean
  time: string
  via: 'ws' | 'rest'
}

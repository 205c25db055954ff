import type { AreaEntry, DeviceEntry, EntityEntry, FloorEntry, HassState, LabelEntry } from '../types.ts'
import type { HistoryProfile } from './profiles.ts'

export interface AutomationDef {
  entity_id: string
  /** config id; null for YAML automations written without one */
  id: string | null
  source: 'ui' | 'yaml'
  config: Record<string, unknown>
}

export interface ScriptDef {
  entity_id: string
  source: 'ui' | 'yaml'
  config: Record<string, unknown>
}

export interface SceneDef {
  entity_id: string
  id: string | null
  name: string
  entities: Record<string, Record<string, unknown>>
  /** the stored scenes.yaml entry, once written through the config API (icon, metadata...) */
  config?: Record<string, unknown>
}

export interface CalendarEvent {
  uid: string
  summary: string
  start: string
  end: string
  description?: string
  location?: string
  all_day: boolean
  /** RRULE of a series (local calendars: daily or slower) */
  rrule?: string
  /** recurrence ids of instances deleted from the series */
  exdates?: string[]
  /** set on an edited instance of a series: it replaces that instance */
  recurrence_id?: string
}

export interface TodoItem {
  uid: string
  summary: string
  status: 'needs_action' | 'completed'
  description?: string
  due?: string
}

export interface ConfigEntryDef {
  entry_id: string
  domain: string
  title: string
}

export interface GeneratedHome {
  startMs: number
  seed: number
  ownerUserId: string
  floors: FloorEntry[]
  areas: AreaEntry[]
  labels: LabelEntry[]
  devices: DeviceEntry[]
  entities: EntityEntry[]
  states: HassState[]
  profiles: Map<string, HistoryProfile>
  automations: AutomationDef[]
  scripts: ScriptDef[]
  scenes: SceneDef[]
  calendars: Map<string, CalendarEvent[]>
  todos: Map<string, TodoItem[]>
  configEntries: ConfigEntryDef[]
}

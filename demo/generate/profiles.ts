/** How an entity's past is computed on demand (history, statistics, logbook) instead of stored. */
export type HistoryProfile =
  | { kind: 'numeric', base: number, amplitude: number, noise: number, decimals: number, min?: number, max?: number }
  | { kind: 'energy', base: number, perHour: number, decimals: number }
  | { kind: 'toggle', states: readonly string[], meanMinutes: number }
  | { kind: 'static' }

export interface EntitySpec {
  domain: string
  /** suffix appended to the device slug; '' = the device's main entity */
  key: string
  /** entity name under has_entity_name; null = the device name */
  name: string | null
  state: string
  attributes: Record<string, unknown>
  entityCategory?: 'config' | 'diagnostic'
  deviceClass?: string
  profile: HistoryProfile
  icon?: string
}

export const STATIC: HistoryProfile = { kind: 'static' }

import type { DemoEntry } from './config-entries.ts'
import { entriesOf } from './config-entries.ts'
import { req, sel, type FormField } from './flow-schema.ts'
import { setUpEntities, type HelperEntity } from './helper-entities.ts'
import type { House } from './house.ts'
import { AbortFlow, type StepContext, type StepTable } from './schema-flow.ts'

/**
 * What the rows of demo/helper-flows.ts and demo/helper-flows-menu.ts share: the row's shape, the
 * name field, the option lists several helpers offer, and the integration-side effects of
 * helpers/schema_config_entry_flow.py and config_entries.py that several flows use.
 */
export interface HelperFlow {
  config: StepTable
  options?: StepTable
  /** SchemaConfigFlowHandler.async_config_entry_title. */
  title: (options: Record<string, unknown>, house: House) => string
  setupEntities: (house: House, entry: DemoEntry) => void
  onRemove?: (house: House, entry: DemoEntry) => void
}

export type Options = Record<string, unknown>

export const NAME = req('name', sel.text())
export const nameOf = (options: Options): string => String(options.name ?? '')
export const numberBox = sel.number({ mode: 'box', step: 'any' })

/** A single entity named after the entry's name, of one domain, its state from the options. */
export const oneEntity = (platform: string, domainOf: (o: Options) => string, compute: (house: House, o: Options) => ReturnType<HelperEntity['compute']>) =>
  (house: House, entry: DemoEntry): void => {
    setUpEntities(house, entry, platform, [{ domain: domainOf(entry.options), name: entry.title, compute: h => compute(h, entry.options) }])
  }

/** Fields of one step shown in both flows: the config flow's adds `name` first. */
export const withName = (fields: FormField[]): FormField[] => [NAME, ...fields]

/** An options flow whose first step moves to the step named by an option (template_type, group_type, entity_type). */
export const byType = (key: string, steps: Record<string, FormField[] | ((ctx: StepContext) => FormField[])>, validate?: (type: string) => (input: Options) => Options, preview?: string): StepTable => ({
  init: { next: (options: Options) => String(options[key]) },
  ...Object.fromEntries(Object.entries(steps).map(([type, schema]) => [type, { schema, ...(preview === undefined ? {} : { preview }), ...(validate === undefined ? {} : { validate: validate(type) }) }]))
})

export const BINARY_SENSOR_CLASSES = ['battery', 'battery_charging', 'carbon_monoxide', 'cold', 'connectivity', 'door', 'garage_door', 'gas', 'heat', 'light', 'lock', 'moisture', 'motion', 'moving', 'occupancy', 'opening', 'plug', 'power', 'presence', 'problem', 'running', 'safety', 'smoke', 'sound', 'tamper', 'update', 'vibration', 'window']
export const SENSOR_CLASSES = ['absolute_humidity', 'apparent_power', 'aqi', 'area', 'atmospheric_pressure', 'battery', 'blood_glucose_concentration', 'carbon_dioxide', 'carbon_monoxide', 'conductivity', 'current', 'data_rate', 'data_size', 'date', 'distance', 'duration', 'energy', 'energy_distance', 'energy_storage', 'frequency', 'gas', 'humidity', 'illuminance', 'irradiance', 'moisture', 'monetary', 'nitrogen_dioxide', 'nitrogen_monoxide', 'nitrous_oxide', 'ozone', 'ph', 'pm1', 'pm10', 'pm25', 'power', 'power_factor', 'precipitation', 'precipitation_intensity', 'pressure', 'reactive_energy', 'reactive_power', 'signal_strength', 'sound_pressure', 'speed', 'sulphur_dioxide', 'temperature', 'timestamp', 'volatile_organic_compounds', 'volatile_organic_compounds_parts', 'voltage', 'volume', 'volume_flow_rate', 'volume_storage', 'water', 'weight', 'wind_direction', 'wind_speed']
/** Core lists every unit of every sensor device class; the field takes any text (custom_value), so a sample stands for them. */
export const SENSOR_UNITS = ['%', '\u00b0C', '\u00b0F', 'K', 'W', 'kW', 'Wh', 'kWh', 'V', 'A', 'Hz', 'lx', 'hPa', 'Pa', 'bar', 'ppm', '\u00b5g/m\u00b3', 'm\u00b3', 'L', 'km/h', 'm/s', 'mm', 'cm', 'm', 'km', 'g', 'kg', 's', 'min', 'h', 'd', 'dB', 'dBm', 'MB', 'GB', 'Mbit/s', 'mm/h', '\u00b0']
export const classes = (options: string[], translationKey: string): FormField['selector'] => sel.select(options, { mode: 'dropdown', translation_key: translationKey, sort: true })

/** Entities hidden by the integration (hidden_by "integration"), or shown again; an entity the owner hid stays hidden. */
export function hideEntities (house: House, ids: unknown, hide: boolean): void {
  for (const id of Array.isArray(ids) ? ids : [ids]) {
    const entity = typeof id === 'string' ? house.entities.get(id) : undefined
    if (entity === undefined || (entity.hidden_by !== null && entity.hidden_by !== 'integration')) continue
    const hiddenBy = hide ? 'integration' : null
    if (entity.hidden_by === hiddenBy) continue
    entity.hidden_by = hiddenBy
    house.fire('entity_registry_updated', { action: 'update', entity_id: entity.entity_id, changes: { hidden_by: hide ? null : 'integration' } })
  }
}

/**
 * ConfigFlow/OptionsFlow._async_abort_entries_match: abort "already_configured" when another entry of
 * the integration (not ignored, not the one an options flow edits) holds every one of these options.
 */
export function abortEntriesMatch (ctx: StepContext, match: Options): void {
  for (const entry of entriesOf(ctx.house).entries.values()) {
    if (entry.domain !== ctx.domain || entry.source === 'ignore' || entry.entry_id === ctx.entryId) continue
    if (Object.entries(match).every(([key, value]) => JSON.stringify(entry.options[key]) === JSON.stringify(value))) throw new AbortFlow('already_configured')
  }
}

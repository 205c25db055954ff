import { invalidFormat, pyRepr } from './errors.ts'
import type { House } from './house.ts'
import { isRecord } from './util.ts'

/**
 * The energy dashboard's preferences as core's energy integration keeps them: `energy/get_prefs`
 * answers the stored object, `energy/save_prefs` (admin) replaces each top-level list it is given and
 * answers the whole object (core energy/websocket_api.py ws_save_prefs, data.py EnergyManager.async_update),
 * `energy/validate` reports, per source and per device, what the dashboard cannot use
 * (core energy/validate.py async_validate, EnergyPreferencesValidation.as_dict).
 */
export interface EnergyPrefs {
  energy_sources: Array<Record<string, unknown>>
  device_consumption: Array<Record<string, unknown>>
  device_consumption_water: Array<Record<string, unknown>>
}

const stored = new WeakMap<House, EnergyPrefs>()

function seedPrefs (house: House): EnergyPrefs {
  const plugs: Array<Record<string, unknown>> = []
  for (const id of house.states.keys()) {
    if (id.startsWith('sensor.') && id.endsWith('_smart_plug_energy')) plugs.push({ stat_consumption: id })
    if (plugs.length >= 8) break
  }
  return {
    energy_sources: [
      { type: 'grid', flow_from: [{ stat_energy_from: 'sensor.grid_consumption', stat_cost: null, entity_energy_price: null, number_energy_price: 0.31 }], flow_to: [{ stat_energy_to: 'sensor.grid_return', stat_compensation: null, entity_energy_price: null, number_energy_price: 0.08 }], cost_adjustment_day: 0 },
      { type: 'solar', stat_energy_from: 'sensor.solar_production', config_entry_solar_forecast: null },
      { type: 'gas', stat_energy_from: 'sensor.gas_consumption', stat_cost: null, entity_energy_price: null, number_energy_price: 1.42 }
    ],
    device_consumption: plugs,
    device_consumption_water: []
  }
}

export function energyPrefs (house: House): EnergyPrefs {
  let prefs = stored.get(house)
  if (prefs === undefined) {
    prefs = seedPrefs(house)
    stored.set(house, prefs)
  }
  return prefs
}

/** The fields each source type takes and the ones it needs (core energy/data.py *_SOURCE_SCHEMA). */
const SOURCE_FIELDS: Record<string, { required: string[], optional: string[] }> = {
  grid: { required: ['flow_from', 'flow_to', 'cost_adjustment_day'], optional: [] },
  solar: { required: ['stat_energy_from'], optional: ['config_entry_solar_forecast'] },
  battery: { required: ['stat_energy_from', 'stat_energy_to'], optional: [] },
  gas: { required: ['stat_energy_from'], optional: ['stat_cost', 'entity_energy_price', 'number_energy_price'] },
  water: { required: ['stat_energy_from'], optional: ['stat_cost', 'entity_energy_price', 'number_energy_price'] }
}
const FLOW_FIELDS: Record<string, { required: string[], optional: string[] }> = {
  flow_from: { required: ['stat_energy_from'], optional: ['stat_cost', 'entity_energy_price', 'number_energy_price'] },
  flow_to: { required: ['stat_energy_to'], optional: ['stat_compensation', 'entity_energy_price', 'number_energy_price'] }
}
const DEVICE_FIELDS = { required: ['stat_consumption'], optional: ['name', 'included_in_stat'] }

/** voluptuous's message for a dict that misses or adds keys, with its path. */
function checkKeys (value: unknown, fields: { required: string[], optional: string[] }, path: string): Record<string, unknown> {
  if (!isRecord(value)) throw invalidFormat(`expected a dictionary @ data${path}. Got ${pyRepr(value)}`)
  for (const key of fields.required) if (value[key] === undefined) throw invalidFormat(`required key not provided @ data${path}['${key}']. Got None`)
  for (const key of Object.keys(value)) {
    if (key !== 'type' && !fields.required.includes(key) && !fields.optional.includes(key)) throw invalidFormat(`extra keys not allowed @ data${path}['${key}']. Got ${pyRepr(value[key])}`)
  }
  return value
}

function checkList (value: unknown, path: string): unknown[] {
  if (!Array.isArray(value)) throw invalidFormat(`expected list @ data${path}. Got ${pyRepr(value)}`)
  return value
}

/** The save_prefs message as core's websocket schema reads it; throws HA's invalid_format otherwise. */
export function checkSavePrefs (msg: Record<string, unknown>): Partial<EnergyPrefs> {
  const update: Partial<EnergyPrefs> = {}
  if (msg.energy_sources !== undefined) {
    const sources = checkList(msg.energy_sources, "['energy_sources']").map((source, i) => {
      const path = `['energy_sources'][${i}]`
      const type = isRecord(source) ? source.type : undefined
      const fields = typeof type === 'string' ? SOURCE_FIELDS[type] : undefined
      if (fields === undefined) throw invalidFormat(`value must be one of ${pyRepr(Object.keys(SOURCE_FIELDS))} for dictionary value @ data${path}['type']. Got ${pyRepr(type)}`)
      const checked = checkKeys(source, fields, path)
      if (type === 'grid') {
        for (const flow of ['flow_from', 'flow_to']) checkList(checked[flow], `${path}['${flow}']`).forEach((item, j) => checkKeys(item, FLOW_FIELDS[flow] as typeof DEVICE_FIELDS, `${path}['${flow}'][${j}]`))
      }
      return checked
    })
    // core energy/data.py check_type_limits: one grid source at most.
    if (sources.filter(source => source.type === 'grid').length > 1) throw invalidFormat("You cannot have more than one grid source @ data['energy_sources']")
    update.energy_sources = sources
  }
  for (const key of ['device_consumption', 'device_consumption_water'] as const) {
    if (msg[key] !== undefined) update[key] = checkList(msg[key], `['${key}']`).map((device, i) => checkKeys(device, DEVICE_FIELDS, `['${key}'][${i}]`))
  }
  return update
}

const ENERGY_UNITS = new Set(['Wh', 'kWh', 'MWh', 'GJ', 'MJ'])
const VOLUME_UNITS = new Set(['m³', 'ft³', 'L', 'gal', 'CCF'])

interface Issue { type: string, affected_entities: Array<[string, unknown]>, translation_placeholders: Record<string, string> | null }

/** Issues of one statistic: missing, unavailable, non-numeric or of the wrong unit (core validate.py _async_validate_usage_stat). */
function statIssues (house: House, statId: unknown, units: Set<string>, out: Issue[]): void {
  if (typeof statId !== 'string' || !statId.includes('.')) return
  const add = (type: string, value: unknown, placeholders: Record<string, string> | null = null): void => {
    const found = out.find(issue => issue.type === type)
    if (found) found.affected_entities.push([statId, value])
    else out.push({ type, affected_entities: [[statId, value]], translation_placeholders: placeholders })
  }
  const state = house.states.get(statId)
  if (state === undefined) { add('statistics_not_defined', null); return }
  if (state.state === 'unavailable' || state.state === 'unknown') { add('entity_unavailable', state.state); return }
  if (Number.isNaN(Number(state.state))) { add('entity_state_non_numeric', state.state); return }
  const unit = state.attributes.unit_of_measurement
  if (!units.has(String(unit))) add(units === ENERGY_UNITS ? 'entity_unexpected_unit_energy' : 'entity_unexpected_unit_gas', unit, { energy_units: [...units].join(', ') })
}

export function validateEnergy (house: House): Record<string, unknown> {
  const prefs = energyPrefs(house)
  const energySources = prefs.energy_sources.map(source => {
    const issues: Issue[] = []
    const units = source.type === 'gas' || source.type === 'water' ? VOLUME_UNITS : ENERGY_UNITS
    if (source.type === 'grid') {
      for (const flow of (source.flow_from ?? []) as Array<Record<string, unknown>>) statIssues(house, flow.stat_energy_from, ENERGY_UNITS, issues)
      for (const flow of (source.flow_to ?? []) as Array<Record<string, unknown>>) statIssues(house, flow.stat_energy_to, ENERGY_UNITS, issues)
    } else {
      statIssues(house, source.stat_energy_from, source.type === 'gas' ? new Set([...ENERGY_UNITS, ...VOLUME_UNITS]) : units, issues)
      statIssues(house, source.stat_energy_to, units, issues)
    }
    return issues
  })
  const devices = (list: Array<Record<string, unknown>>, units: Set<string>): Issue[][] => list.map(device => {
    const issues: Issue[] = []
    statIssues(house, device.stat_consumption, units, issues)
    return issues
  })
  return { energy_sources: energySources, device_consumption: devices(prefs.device_consumption, ENERGY_UNITS), device_consumption_water: devices(prefs.device_consumption_water, VOLUME_UNITS) }
}

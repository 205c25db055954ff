import { nowMs } from './clock.ts'
import type { House } from './house.ts'
import { numberOf, renderedText, setKeys, templateTruth, type HelperState } from './helper-entities.ts'
import { nativeResult } from './template/index.ts'
import { isoTime } from './util.ts'

/**
 * The state each helper platform computes from its options and the house, per helper type (one
 * function per platform of core it follows, cited beside it).
 */

type Options = Record<string, unknown>
const ids = (value: unknown): string[] => Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : []

/** template/<platform>.py: the state template rendered, as each platform reads it. */
export function templateState (house: House, type: string, o: Options): HelperState {
  const text = renderedText(house, o.state ?? o.value_template)
  const failed = typeof (o.state ?? o.value_template) === 'string' && text === undefined
  const attrs = setKeys(o, ['device_class'])
  if (failed) return { state: 'unavailable', attributes: attrs }
  switch (type) {
    case 'sensor': return { state: text === '' || text === undefined ? 'unknown' : text, attributes: { ...setKeys(o, ['unit_of_measurement', 'device_class', 'state_class']) } }
    case 'binary_sensor': return { state: templateTruth(text) ? 'on' : 'off', attributes: attrs }
    // A template switch without a value template is optimistic and starts off.
    case 'switch': return { state: text === undefined ? 'off' : templateTruth(text) ? 'on' : 'off', attributes: {} }
    case 'fan': case 'light': return { state: templateTruth(text) ? 'on' : 'off', attributes: {} }
    case 'lock': return { state: text === 'locked' || templateTruth(text) ? 'locked' : 'unlocked', attributes: {} }
    case 'cover': return { state: text === 'open' || text === 'opening' || text === 'closing' ? text : text === 'closed' || text === 'false' ? 'closed' : templateTruth(text) ? 'open' : 'unknown', attributes: attrs }
    case 'number': {
      const value = Number(text)
      return { state: text === undefined || text === '' || !Number.isFinite(value) ? 'unknown' : String(value), attributes: { min: o.min, max: o.max, step: o.step, mode: 'auto', ...setKeys(o, ['unit_of_measurement']) } }
    }
    case 'select': {
      const options = nativeResult(renderedText(house, o.options) ?? '')
      return { state: text === undefined || text === '' ? 'unknown' : text, attributes: { options: Array.isArray(options) ? options.map(String) : [] } }
    }
    case 'alarm_control_panel': case 'vacuum': case 'weather':
      return { state: text === undefined || text === '' ? 'unknown' : text, attributes: {} }
    // button, event, image, update: no state until pressed, fired, fetched or read.
    default: return { state: 'unknown', attributes: attrs }
  }
}

/** group/<platform>.py: the members' states combined; `entity_id` lists the members. */
export function groupState (house: House, type: string, o: Options): HelperState {
  const members = ids(o.entities)
  const states = members.map(id => house.states.get(id)?.state).filter((s): s is string => s !== undefined && s !== 'unavailable' && s !== 'unknown')
  const attributes: Record<string, unknown> = { entity_id: members }
  if (type === 'sensor') return groupSensor(house, members, o, attributes)
  if (states.length === 0) return { state: members.length > 0 && members.every(id => house.states.get(id)?.state === 'unavailable') ? 'unavailable' : 'unknown', attributes }
  const any = (...values: string[]): boolean => states.some(s => values.includes(s))
  switch (type) {
    // binary_sensor, light, switch, fan, siren: on when any member is on, or all of them with `all`.
    case 'binary_sensor': case 'light': case 'switch': case 'fan': case 'siren':
      return { state: (o.all === true ? states.every(s => s === 'on') : any('on')) ? 'on' : 'off', attributes }
    // cover.py: open when any member is open or moving.
    case 'cover': return { state: any('opening') ? 'opening' : any('closing') ? 'closing' : any('open') ? 'open' : 'closed', attributes }
    // lock.py: jammed, then a moving member, then unlocked when any is; locked only when all are.
    case 'lock': return { state: any('jammed') ? 'jammed' : any('opening') ? 'opening' : any('unlocking') ? 'unlocking' : any('locking') ? 'locking' : any('open') ? 'open' : any('unlocked') ? 'unlocked' : 'locked', attributes }
    case 'media_player': return { state: any('playing') ? 'playing' : any('paused') ? 'paused' : any('buffering') ? 'buffering' : any('idle') ? 'idle' : any('on') ? 'on' : 'off', attributes }
    // button, event, notify: no state of their own.
    default: return { state: 'unknown', attributes }
  }
}

/** group/sensor.py: the statistic of the members' numeric states; a text member makes it unknown unless ignore_non_numeric. */
function groupSensor (house: House, members: string[], o: Options, attributes: Record<string, unknown>): HelperState {
  const values = members.map(id => numberOf(house, id))
  const numbers = values.filter((v): v is number => v !== undefined)
  const first = members.map(id => house.states.get(id)?.attributes.unit_of_measurement).find(u => u !== undefined)
  if (first !== undefined) attributes.unit_of_measurement = first
  if (numbers.length === 0 || (o.ignore_non_numeric !== true && numbers.length < values.length)) return { state: 'unknown', attributes }
  const sorted = [...numbers].sort((a, b) => a - b)
  const sum = numbers.reduce((a, b) => a + b, 0)
  const mean = sum / numbers.length
  const statistic: Record<string, () => number> = {
    last: () => numbers[numbers.length - 1] as number,
    max: () => sorted[sorted.length - 1] as number,
    min: () => sorted[0] as number,
    mean: () => mean,
    median: () => sorted.length % 2 === 1 ? sorted[(sorted.length - 1) / 2] as number : ((sorted[sorted.length / 2 - 1] as number) + (sorted[sorted.length / 2] as number)) / 2,
    product: () => numbers.reduce((a, b) => a * b, 1),
    range: () => (sorted[sorted.length - 1] as number) - (sorted[0] as number),
    stdev: () => numbers.length < 2 ? 0 : Math.sqrt(numbers.reduce((a, b) => a + (b - mean) ** 2, 0) / (numbers.length - 1)),
    sum: () => sum
  }
  const value = statistic[String(o.type)]?.()
  return { state: value === undefined ? 'unknown' : String(Math.round(value * 100) / 100), attributes }
}

/** threshold/binary_sensor.py: below/above the limits by more than the hysteresis; `type` lower, upper or range. */
export function thresholdState (house: House, o: Options): HelperState {
  const lower = typeof o.lower === 'number' ? o.lower : null
  const upper = typeof o.upper === 'number' ? o.upper : null
  const hysteresis = typeof o.hysteresis === 'number' ? o.hysteresis : 0
  const type = lower !== null && upper !== null ? 'range' : lower !== null ? 'lower' : 'upper'
  const value = numberOf(house, o.entity_id)
  const attributes = { entity_id: o.entity_id, hysteresis, lower, upper, position: 'unknown', sensor_value: value ?? null, type }
  if (value === undefined) return { state: 'unknown', attributes }
  const below = (limit: number): boolean => value < limit - hysteresis
  const above = (limit: number): boolean => value > limit + hysteresis
  let on: boolean
  if (type === 'lower') { on = below(lower as number); attributes.position = on ? 'below' : 'above' } else if (type === 'upper') { on = above(upper as number); attributes.position = on ? 'above' : 'below' } else {
    on = above(lower as number) && below(upper as number)
    attributes.position = on ? 'in_range' : below(lower as number) ? 'below' : 'above'
  }
  return { state: on ? 'on' : 'off', attributes }
}

/**
 * utility_meter/sensor.py: a meter starts at 0 in the source's unit, collecting (or paused when its
 * tariff is not the current one); select.py: the tariff select starts on the first tariff.
 */
export function utilityMeterState (house: House, o: Options, tariff?: string): HelperState {
  const tariffs = ids(o.tariffs)
  const unit = typeof o.source === 'string' ? house.states.get(o.source)?.attributes.unit_of_measurement : undefined
  return {
    state: '0',
    attributes: {
      source: o.source,
      status: tariff === undefined || tariff === tariffs[0] ? 'collecting' : 'paused',
      last_period: '0',
      last_valid_state: null,
      meter_period: o.cycle,
      last_reset: isoTime(nowMs()),
      ...(tariff === undefined ? {} : { tariff }),
      ...(unit === undefined ? {} : { unit_of_measurement: unit })
    }
  }
}

const unitOf = (house: House, entityId: unknown): string | undefined => {
  const unit = typeof entityId === 'string' ? house.states.get(entityId)?.attributes.unit_of_measurement : undefined
  return typeof unit === 'string' ? unit : undefined
}
const rounded = (value: number, digits: unknown): string => value.toFixed(typeof digits === 'number' ? Math.max(0, Math.min(6, Math.trunc(digits))) : 2)

/** random/binary_sensor.py and sensor.py: a coin toss, or an integer between minimum and maximum. */
export function randomState (type: string, o: Options): HelperState {
  if (type === 'binary_sensor') return { state: Math.random() < 0.5 ? 'on' : 'off', attributes: setKeys(o, ['device_class']) }
  const min = typeof o.minimum === 'number' ? o.minimum : 0
  const max = typeof o.maximum === 'number' ? o.maximum : 20
  return { state: String(min + Math.floor(Math.random() * (max - min + 1))), attributes: { minimum: min, maximum: max, ...setKeys(o, ['unit_of_measurement', 'device_class']) } }
}

/** derivative/sensor.py: starts at 0 (rounded), in the source's unit per time unit with the prefix. */
export function derivativeState (house: House, o: Options): HelperState {
  const unit = unitOf(house, o.source)
  return { state: rounded(0, o.round), attributes: { source: o.source, ...(unit === undefined ? {} : { unit_of_measurement: `${String(o.unit_prefix ?? '')}${unit}/${String(o.unit_time)}` }) } }
}

/** integration/sensor.py: unknown until the source changes twice; the unit is prefix + source unit + time unit (W and h make Wh). */
export function integrationState (house: House, o: Options): HelperState {
  const unit = unitOf(house, o.source)
  const time = String(o.unit_time ?? 'h')
  const integral = unit === undefined ? undefined : unit.endsWith(`/${time}`) ? unit.slice(0, -time.length - 1) : `${unit}${time}`
  return { state: 'unknown', attributes: { source: o.source, state_class: 'total', ...(integral === undefined ? {} : { unit_of_measurement: `${String(o.unit_prefix ?? '')}${integral}` }) } }
}

/** min_max/sensor.py: the statistic over the numeric members, rounded; the entity behind min, max and last named. */
export function minMaxState (house: House, o: Options): HelperState {
  const members = ids(o.entity_ids).map(id => ({ id, value: numberOf(house, id) })).filter((m): m is { id: string, value: number } => m.value !== undefined)
  const unit = ids(o.entity_ids).map(id => unitOf(house, id)).find(u => u !== undefined)
  const attributes: Record<string, unknown> = unit === undefined ? {} : { unit_of_measurement: unit }
  if (members.length === 0) return { state: 'unknown', attributes }
  const sorted = [...members].sort((a, b) => a.value - b.value)
  const lowest = sorted[0] as { id: string, value: number }
  const highest = sorted[sorted.length - 1] as { id: string, value: number }
  const last = members[members.length - 1] as { id: string, value: number }
  const sum = members.reduce((a, m) => a + m.value, 0)
  const middle = sorted.length % 2 === 1 ? (sorted[(sorted.length - 1) / 2] as { value: number }).value : ((sorted[sorted.length / 2 - 1] as { value: number }).value + (sorted[sorted.length / 2] as { value: number }).value) / 2
  const byType: Record<string, () => number> = { min: () => lowest.value, max: () => highest.value, mean: () => sum / members.length, median: () => middle, last: () => last.value, range: () => highest.value - lowest.value, sum: () => sum }
  if (o.type === 'min') attributes.min_entity_id = lowest.id
  if (o.type === 'max') attributes.max_entity_id = highest.id
  if (o.type === 'last') attributes.last_entity_id = last.id
  const value = byType[String(o.type)]?.()
  return { state: value === undefined ? 'unknown' : rounded(value, o.round_digits), attributes }
}

/** statistics/sensor.py: one sample so far, the source's current value (a count of 1, the value for a mean or an extreme). */
export function statisticsState (house: House, o: Options): HelperState {
  const source = typeof o.entity_id === 'string' ? house.states.get(o.entity_id)?.state : undefined
  const binary = String(o.entity_id).startsWith('binary_sensor.')
  const value = numberOf(house, o.entity_id)
  const valid = binary ? source === 'on' || source === 'off' : value !== undefined
  const attributes: Record<string, unknown> = { age_coverage_ratio: null, buffer_usage_ratio: 0, source_value_valid: valid }
  const characteristic = String(o.state_characteristic)
  if (!valid) return { state: 'unknown', attributes }
  if (characteristic === 'count') return { state: '1', attributes }
  if (binary) return { state: characteristic === 'count_on' ? String(source === 'on' ? 1 : 0) : characteristic === 'count_off' ? String(source === 'off' ? 1 : 0) : 'unknown', attributes }
  const unit = unitOf(house, o.entity_id)
  if (unit !== undefined) attributes.unit_of_measurement = unit
  const same = ['mean', 'median', 'value_max', 'value_min', 'average_step', 'average_timeless', 'average_linear', 'total', 'sum', 'percentile', 'mean_circular']
  if (same.includes(characteristic)) return { state: rounded(value as number, o.precision), attributes }
  return { state: 'unknown', attributes }
}

/** trend/binary_sensor.py: unknown until it has min_samples samples. */
export function trendState (_house: House, o: Options): HelperState {
  return { state: 'unknown', attributes: { entity_id: o.entity_id, gradient: null, invert: o.invert === true, min_gradient: o.min_gradient ?? 0, sample_count: 0, sample_duration: o.sample_duration ?? 0 } }
}

/** filter/sensor.py: the first sample passes every filter, rounded to the precision. */
export function filterState (house: House, o: Options): HelperState {
  const value = numberOf(house, o.entity_id)
  const unit = unitOf(house, o.entity_id)
  return { state: value === undefined ? 'unknown' : rounded(value, o.precision), attributes: unit === undefined ? {} : { unit_of_measurement: unit } }
}

/** tod/binary_sensor.py: on between after and before in the home's time zone (Europe/Amsterdam), across midnight when before < after. */
export function todState (_house: House, o: Options): HelperState {
  const clock = new Intl.DateTimeFormat('en-GB', { timeZone: 'Europe/Amsterdam', hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23' }).format(new Date(nowMs()))
  const norm = (t: unknown): string => { const text = String(t).padStart(5, '0'); return text.length === 5 ? `${text}:00` : text.padStart(8, '0') }
  const after = norm(o.after_time)
  const before = norm(o.before_time)
  const on = after <= before ? clock >= after && clock < before : clock >= after || clock < before
  return { state: on ? 'on' : 'off', attributes: { after: o.after_time, before: o.before_time } }
}

/** switch_as_x/<domain>.py: the wrapped switch's state as the target domain reads it (on: open, on; a lock is unlocked when on, as lock.py says), inverted with invert. */
export function switchAsXState (house: House, o: Options): HelperState {
  const raw = typeof o.entity_id === 'string' ? house.states.get(o.entity_id)?.state : undefined
  if (raw !== 'on' && raw !== 'off') return { state: raw === undefined ? 'unavailable' : raw, attributes: {} }
  const on = (raw === 'on') !== (o.invert === true)
  const states: Record<string, [string, string]> = { cover: ['open', 'closed'], valve: ['open', 'closed'], lock: ['unlocked', 'locked'], fan: ['on', 'off'], light: ['on', 'off'], siren: ['on', 'off'] }
  const [yes, no] = states[String(o.target_domain)] ?? ['on', 'off']
  return { state: on ? yes : no, attributes: {} }
}

/** history_stats/sensor.py: time in hours, a ratio in %, or a count of the matching periods (0 before the first refresh). */
export function historyStatsState (_house: House, o: Options): HelperState {
  const type = String(o.type)
  const unit = type === 'ratio' ? { unit_of_measurement: '%' } : type === 'time' ? { unit_of_measurement: 'h' } : {}
  return { state: type === 'count' ? '0' : '0.0', attributes: { ...unit, ...(type === 'ratio' ? {} : { state_class: o.state_class }) } }
}

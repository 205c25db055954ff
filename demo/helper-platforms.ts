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

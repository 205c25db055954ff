/**
 * What a service call did, read from the states Home Assistant reports after it: each entity the call
 * reached, in the words a person uses ("on, brightness 77 %"), and whether it changed at all.
 */
import { realClock, type Clock } from '../clock.ts'

export interface ReachedState { state: string, attributes: Record<string, unknown>, context?: { id?: string } | null }

export type Schedule = Clock['schedule']

/** How long a write waits for Home Assistant's state changes before answering with what it has. */
export const SETTLE_MS = 1500
/** Most entities a write answer describes one by one. */
export const MAX_DESCRIBED = 25

const pct = (value: unknown, of: number): string | undefined => typeof value === 'number' && Number.isFinite(value) ? `${Math.round(value / of * 100)} %` : undefined
const num = (value: unknown, unit: string): string | undefined => typeof value === 'number' && Number.isFinite(value) ? `${Math.round(value * 10) / 10}${unit}` : undefined

/** One entity's state in words: the state, then the attributes a person would mention. */
export function describeState (entityId: string, current: ReachedState): string {
  const a = current.attributes
  const domain = entityId.slice(0, entityId.indexOf('.'))
  const parts: Array<string | undefined> = [current.state]
  if (domain === 'light' && current.state === 'on') {
    const brightness = pct(a.brightness, 255)
    if (brightness) parts.push(`brightness ${brightness}`)
    const kelvin = num(a.color_temp_kelvin, ' K')
    if (kelvin && a.color_mode === 'color_temp') parts.push(kelvin)
  }
  if (domain === 'cover' && typeof a.current_position === 'number') parts.push(`position ${a.current_position} %`)
  if (domain === 'fan' && current.state === 'on' && typeof a.percentage === 'number') parts.push(`speed ${a.percentage} %`)
  if (domain === 'media_player' && typeof a.volume_level === 'number') parts.push(`volume ${pct(a.volume_level, 1) as string}`)
  if (domain === 'climate') {
    const target = num(a.temperature, '°')
    if (target) parts.push(`target ${target}`)
    const now = num(a.current_temperature, '°')
    if (now) parts.push(`now ${now}`)
  }
  const unit = typeof a.unit_of_measurement === 'string' ? ` ${a.unit_of_measurement}` : ''
  if (unit && parts.length === 1) parts[0] = `${current.state}${unit}`
  return parts.filter(part => part !== undefined && part !== '').join(', ')
}

export interface SettleDeps {
  state: (entityId: string) => ReachedState | undefined
  /** Calls the listener with the entity id of each state change. */
  changes: (listener: (entityId: string) => void) => () => void
  schedule?: Schedule
  settleMs?: number
}

export interface Settled {
  /** Each described entity's state afterwards, in words. */
  states: Record<string, string>
  /** Entities whose state the call did not touch (no state change carrying its context). */
  unchanged: string[]
}

/** The state each simple service leaves an entity in, whatever its domain. */
const END_STATES: Record<string, string> = {
  turn_on: 'on',
  turn_off: 'off',
  lock: 'locked',
  unlock: 'unlocked',
  open_cover: 'open',
  close_cover: 'closed',
  open_valve: 'open',
  close_valve: 'closed'
}
/** Services that set the state to the value they are given, and the field that carries it. */
const VALUE_FIELDS: Record<string, string> = { set_value: 'value', select_option: 'option' }
/** Domains whose `turn_on` leaves something other than `on` (a player starts playing, a script runs). */
const OTHER_ON = new Set(['media_player', 'script', 'scene', 'automation', 'remote', 'vacuum', 'climate', 'water_heater'])

const same = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b)

/**
 * Whether an entity already is as a call would leave it, read from its state before the call:
 * `light.turn_on` on a light that is on (with every given field already equal to its attribute),
 * `lock.lock` on a locked lock, `input_select.select_option` to the current option. Home Assistant
 * writes no new state then, so a write need not wait for one. False whenever it cannot tell.
 */
export function alreadyAsAsked (call: { domain: string, service: string, data?: Record<string, unknown> }, entityId: string, before: ReachedState | undefined): boolean {
  if (before === undefined) return false
  const data = call.data ?? {}
  const valueField = VALUE_FIELDS[call.service]
  if (valueField !== undefined) {
    const { [valueField]: value, ...rest } = data
    return Object.keys(rest).length === 0 && value !== undefined && value !== null && before.state === String(value)
  }
  const end = END_STATES[call.service]
  if (end === undefined || (end === 'on' && OTHER_ON.has(entityId.slice(0, entityId.indexOf('.'))))) return false
  if (before.state !== end) return false
  // Given fields (brightness, percentage...) must already be the entity's attributes; off takes none.
  return Object.entries(data).every(([key, value]) => end !== 'off' && same(before.attributes[key], value))
}

/**
 * Waits (bounded) until every entity the call reached shows a state written in the call's context, then
 * describes them. An entity already in the asked state gets no new state: `already` names those (from
 * `alreadyAsAsked`), and the wait is spent only on the others, not at all when there are none.
 */
export async function settle (deps: SettleDeps, entityIds: readonly string[], contextId: string | undefined, already: ReadonlySet<string> = new Set()): Promise<Settled> {
  const ids = entityIds.slice(0, MAX_DESCRIBED)
  const touched = (id: string): boolean => contextId !== undefined && deps.state(id)?.context?.id === contextId
  const waiting = new Set(ids.filter(id => !touched(id) && !already.has(id) && deps.state(id) !== undefined))
  if (contextId !== undefined && waiting.size > 0) {
    await new Promise<void>(resolve => {
      let cancel = (): void => {}
      const stop = deps.changes(id => {
        if (waiting.has(id) && touched(id)) waiting.delete(id)
        if (waiting.size === 0) { cancel(); stop(); resolve() }
      })
      cancel = (deps.schedule ?? realClock.schedule)(() => { stop(); resolve() }, deps.settleMs ?? SETTLE_MS)
    })
  }
  const states: Record<string, string> = {}
  const unchanged: string[] = []
  for (const id of ids) {
    const current = deps.state(id)
    states[id] = current ? describeState(id, current) : 'gone'
    if (!touched(id)) unchanged.push(id)
  }
  return { states, unchanged }
}

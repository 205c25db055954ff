import { LRUCache } from 'lru-cache'
import type { Shown } from './confirm.ts'
import { domainOf } from '../home/entities.ts'
import { describeState, type ReachedState } from './reached.ts'

/** The part of a state that a restore needs. */
export interface PriorState {
  entity_id: string
  state: string
  attributes: Record<string, unknown>
}

export interface UndoRecord {
  tool: string
  /** What the write called, for the answer. */
  call: string
  at: number
  states: PriorState[]
  /** Config edits (registries): the WebSocket commands that put the previous values back, in order. */
  commands?: RestoreCommand[]
  /** Entities those commands touch, checked against the entity lists again when undoing. */
  entities?: string[]
  /** What the restore cannot bring back, said in the undo's answer. */
  unrestorable?: string[]
  /** A config change (scene, event, dashboard...): how to put the previous value back. */
  revert?: Revert
  /**
   * What the write left, as named facts, and how to read the same facts now. ha_undo compares the two
   * first: a fact that differs is newer work, which it never overwrites without the user's yes.
   */
  wrote?: Shown
  current?: () => Promise<Shown>
}

/** An entity as the write left it: changed by the write itself (its context) or not changed at all. */
export const LEFT_BY_WRITE = 'as the write left it'

/**
 * The facts of a service call's undo record, read now: each entity is as the write left it when its
 * state still carries the call's context (or is back to the prior state), else it changed since.
 */
export function stateFacts (states: PriorState[], contextId: string, read: (entityId: string) => ReachedState | undefined): Shown {
  const facts: Shown = {}
  for (const prior of states) {
    const now = read(prior.entity_id)
    const back = now !== undefined && stableKey(priorState(prior.entity_id, now.state, now.attributes)) === stableKey(prior)
    facts[prior.entity_id] = now === undefined ? 'gone' : now.context?.id === contextId || back ? LEFT_BY_WRITE : `changed since, now ${describeState(prior.entity_id, now)}`
  }
  return facts
}

const stableKey = (prior: PriorState): string => JSON.stringify([prior.state, Object.entries(prior.attributes).sort(([a], [b]) => a < b ? -1 : 1)])

/**
 * The reverse of one config change, built by the tool that made it from the values it read before.
 * ha_undo shows `preview`, asks for a confirmation like any config write, then calls `run`.
 */
export interface Revert {
  preview: string
  /** Entities the revert writes, checked against the entity lists again. */
  entities?: string[]
  /** What the change left and how to read it now (see UndoRecord); the record takes them over. */
  wrote?: Shown
  current?: () => Promise<Shown>
  /**
   * Performs the revert; answers what was restored and, where Home Assistant allows no exact restore, says so.
   * Refuses (HAMCP_CONFLICT) when the item changed since, unless `force`: the user confirmed overwriting it.
   */
  run: (force?: boolean) => Promise<Record<string, unknown>>
}

/** One config item's fact for an undo record: as the change left it, or changed since. */
export function configFact (label: string, wroteHash: string, nowHash: string | undefined): Shown {
  return { [label]: nowHash === wroteHash ? LEFT_BY_WRITE : nowHash === undefined ? 'deleted since' : 'edited since' }
}

/** Stands in a restore command for the id the previous create answered with (a deleted entry comes back under it). */
export const CREATED_ID = '$created_id'
const CREATED_KEYS = ['area_id', 'floor_id', 'label_id', 'category_id', 'id']

/** A restore command with CREATED_ID replaced by the id `created` answered with, at any depth. */
export function withCreatedId (command: RestoreCommand, created: string | undefined): RestoreCommand {
  if (created === undefined) return command
  const swap = (value: unknown): unknown => {
    if (value === CREATED_ID) return created
    if (Array.isArray(value)) return value.map(swap)
    if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, swap(v)]))
    return value
  }
  return swap(command) as RestoreCommand
}

/** The id a create command answered with, if any. */
export function createdId (result: unknown): string | undefined {
  if (result === null || typeof result !== 'object') return undefined
  const record = result as Record<string, unknown>
  const key = CREATED_KEYS.find(k => typeof record[k] === 'string')
  return key === undefined ? undefined : record[key] as string
}

export interface RestoreCommand {
  type: string
  [key: string]: unknown
}

/** One service call that puts one entity back. */
export interface RestoreCall {
  domain: string
  service: string
  target: { entity_id: string }
  data?: Record<string, unknown>
}

/** Attributes worth remembering; everything else is noise for a restore. */
const KEPT_ATTRIBUTES = [
  'brightness', 'color_mode', 'hs_color', 'rgb_color', 'rgbw_color', 'rgbww_color', 'xy_color', 'color_temp_kelvin',
  'current_position', 'current_tilt_position', 'temperature', 'target_temp_low', 'target_temp_high', 'target_humidity',
  'hvac_mode', 'preset_mode', 'fan_mode', 'percentage', 'oscillating', 'direction', 'volume_level', 'is_volume_muted',
  'humidity', 'has_date', 'has_time', 'options'
]

export function priorState (entityId: string, state: string, attributes: Record<string, unknown>): PriorState {
  const kept: Record<string, unknown> = {}
  for (const key of KEPT_ATTRIBUTES) if (attributes[key] !== undefined && attributes[key] !== null) kept[key] = attributes[key]
  return { entity_id: entityId, state, attributes: kept }
}

const COLOR_ATTRIBUTE: Record<string, string> = {
  hs: 'hs_color', rgb: 'rgb_color', rgbw: 'rgbw_color', rgbww: 'rgbww_color', xy: 'xy_color', color_temp: 'color_temp_kelvin'
}
const ON_OFF_DOMAINS = new Set(['switch', 'input_boolean', 'fan', 'siren', 'humidifier', 'automation', 'media_player', 'remote', 'light', 'script'])
const UNRESTORABLE = new Set(['unavailable', 'unknown'])

function call (domain: string, service: string, entityId: string, data?: Record<string, unknown>): RestoreCall {
  return { domain, service, target: { entity_id: entityId }, ...(data && Object.keys(data).length > 0 ? { data } : {}) }
}

function lightCalls (prior: PriorState): RestoreCall[] {
  if (prior.state !== 'on') return [call('light', 'turn_off', prior.entity_id)]
  const a = prior.attributes
  const data: Record<string, unknown> = {}
  if (typeof a.brightness === 'number') data.brightness = a.brightness
  const colorKey = typeof a.color_mode === 'string' ? COLOR_ATTRIBUTE[a.color_mode] : undefined
  if (colorKey && a[colorKey] !== undefined) data[colorKey] = a[colorKey]
  return [call('light', 'turn_on', prior.entity_id, data)]
}

function climateCalls (prior: PriorState): RestoreCall[] {
  const a = prior.attributes
  const calls = [call('climate', 'set_hvac_mode', prior.entity_id, { hvac_mode: prior.state })]
  if (prior.state === 'off') return calls
  if (typeof a.temperature === 'number') calls.push(call('climate', 'set_temperature', prior.entity_id, { temperature: a.temperature }))
  else if (typeof a.target_temp_low === 'number' && typeof a.target_temp_high === 'number') {
    calls.push(call('climate', 'set_temperature', prior.entity_id, { target_temp_low: a.target_temp_low, target_temp_high: a.target_temp_high }))
  }
  return calls
}

function coverCalls (prior: PriorState): RestoreCall[] {
  const a = prior.attributes
  const calls: RestoreCall[] = []
  if (typeof a.current_position === 'number') calls.push(call('cover', 'set_cover_position', prior.entity_id, { position: a.current_position }))
  else if (prior.state === 'open' || prior.state === 'closed') calls.push(call('cover', prior.state === 'open' ? 'open_cover' : 'close_cover', prior.entity_id))
  if (typeof a.current_tilt_position === 'number') calls.push(call('cover', 'set_cover_tilt_position', prior.entity_id, { tilt_position: a.current_tilt_position }))
  return calls
}

function onOffCalls (prior: PriorState, domain: string): RestoreCall[] {
  if (prior.state !== 'on' && prior.state !== 'off' && domain !== 'media_player') return []
  const a = prior.attributes
  const off = prior.state === 'off' || (domain === 'media_player' && prior.state === 'standby')
  const calls = [call(domain, off ? 'turn_off' : 'turn_on', prior.entity_id, domain === 'fan' && !off && typeof a.percentage === 'number' ? { percentage: a.percentage } : undefined)]
  if (domain === 'media_player' && typeof a.volume_level === 'number') calls.push(call('media_player', 'volume_set', prior.entity_id, { volume_level: a.volume_level }))
  if (domain === 'humidifier' && !off && typeof a.humidity === 'number') calls.push(call('humidifier', 'set_humidity', prior.entity_id, { humidity: a.humidity }))
  return calls
}

/** The service calls that put one entity back the way it was; empty when nothing sensible applies. */
export function restoreCalls (prior: PriorState): RestoreCall[] {
  if (UNRESTORABLE.has(prior.state)) return []
  const domain = domainOf(prior.entity_id)
  const value = prior.state
  switch (domain) {
    case 'light': return lightCalls(prior)
    case 'climate': return climateCalls(prior)
    case 'cover': return coverCalls(prior)
    case 'lock': return value === 'locked' || value === 'unlocked' ? [call('lock', value === 'locked' ? 'lock' : 'unlock', prior.entity_id)] : []
    case 'input_number': case 'number': case 'counter': return [call(domain, 'set_value', prior.entity_id, { value: Number(value) })]
    case 'input_text': case 'text': return [call(domain, 'set_value', prior.entity_id, { value })]
    case 'input_select': case 'select': return [call(domain, 'select_option', prior.entity_id, { option: value })]
    case 'input_datetime': return [call('input_datetime', 'set_datetime', prior.entity_id, prior.attributes.has_date === true && prior.attributes.has_time === true ? { datetime: value } : prior.attributes.has_date === true ? { date: value } : { time: value })]
    default: return ON_OFF_DOMAINS.has(domain) ? onOffCalls(prior, domain) : []
  }
}

/** The last allowed runtime write of each identity, with the states just before it. Bounded. */
export class UndoStore {
  readonly #records: LRUCache<string, UndoRecord>
  readonly #now: () => number

  constructor (options: { maxIdentities?: number, now?: () => number } = {}) {
    this.#records = new LRUCache({ max: options.maxIdentities ?? 100 })
    this.#now = options.now ?? Date.now
  }

  /** Keeps the identity's last write, stamped with the store's clock unless `at` is given. */
  remember (identityId: string, record: Omit<UndoRecord, 'at'> & { at?: number }): void {
    this.#records.set(identityId, { ...record, at: record.at ?? this.#now() })
  }

  last (identityId: string): UndoRecord | undefined {
    return this.#records.peek(identityId)
  }

  forget (identityId: string, record?: UndoRecord): void {
    if (record === undefined || this.#records.peek(identityId) === record) this.#records.delete(identityId)
  }
}

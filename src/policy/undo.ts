import { LRUCache } from 'lru-cache'
import { UserError } from '../errors.ts'
import type { Shown } from './confirm.ts'
import { domainOf } from '../home/entities.ts'
import { describeState, type ReachedState } from './reached.ts'

/** Why an undo writes nothing: what it would put back was changed after the write it reverses. */
export const UNDO_WOULD_OVERWRITE = 'so undo would overwrite newer work; nothing was written.'

/** HAMCP_CONFLICT from a revert whose config was changed in Home Assistant after the edit it reverses. */
export function editedSinceWrite (label: string, hint: string): UserError {
  return new UserError('HAMCP_CONFLICT', `${label} was changed in Home Assistant after that edit, ${UNDO_WOULD_OVERWRITE}`, hint)
}

/** The part of a state that a restore needs. */
export interface PriorState {
  entity_id: string
  state: string
  attributes: Record<string, unknown>
}

/**
 * The one shape of everything ha_undo can take back, whatever the write was: the guard stamps it
 * (tool, call, its clock's time) and keeps it; ha_undo shows `preview`, checks the rules again on
 * `entities` and `services`, compares `wrote` with `current()`, and calls `run`. Built by
 * `statesUndo` (a service call), `commandsUndo` (a registry edit) and `revertUndo` (a config change).
 */
export interface UndoRecord {
  tool: string
  /** What the write called, for the answer. */
  call: string
  at: number
  /** The option undoing needs: a service call's states take allow_write, a config or registry change allow_config_write. */
  needs: 'allow_write' | 'allow_config_write'
  /** What the undo does, shown before it runs. */
  preview: string
  /** Always confirmed (a config change), or only as any write on `entities` would be. */
  alwaysConfirm: boolean
  /** Entities the undo writes, checked against the entity lists (and confirm_domains) again. */
  entities: string[]
  /** Home Assistant services the undo calls, checked against service_denylist again. */
  services: string[]
  /** What the undo cannot bring back exactly, said in its answer. */
  unrestorable?: string[]
  /**
   * What the write left, as named facts, and how to read the same facts now. ha_undo compares the two
   * first: a fact that differs is newer work, which it never overwrites without the user's yes.
   */
  wrote?: Shown
  current?: () => Promise<Shown>
  /** Puts it back (`force`: the user agreed to overwrite newer work) and answers what it did. */
  run: (force: boolean) => Promise<Record<string, unknown>>
}

/** An undo record as a write kind describes it; the guard adds who, what and when. */
export type UndoPlan = Omit<UndoRecord, 'tool' | 'call' | 'at'>

type Send = (message: { type: string, [key: string]: unknown }) => Promise<unknown>

/**
 * A service call's undo: the service calls that put each entity back (src/policy/undo.ts
 * `restoreCalls`), told how to see what changed since: states carrying another context than the
 * call's. Undefined when nothing it reached can be restored.
 */
export function statesUndo (states: PriorState[], service: string, needs: UndoRecord['needs'] | undefined, contextId: string | undefined, read: ((entityId: string) => ReachedState | undefined) | undefined, send: Send): UndoPlan | undefined {
  const calls = states.flatMap(prior => restoreCalls(prior, service))
  if (calls.length === 0) return undefined
  const facts = contextId !== undefined && read !== undefined
    ? { wrote: Object.fromEntries(states.map(prior => [prior.entity_id, LEFT_BY_WRITE])), current: async () => stateFacts(states, contextId, read) }
    : {}
  return {
    needs: needs ?? 'allow_write',
    preview: `Restore ${states.map(s => `${s.entity_id} to ${s.state}`).join(', ')}.`,
    alwaysConfirm: false,
    entities: states.map(s => s.entity_id),
    services: [...new Set(calls.map(c => `${c.domain}.${c.service}`))],
    ...facts,
    run: async () => {
      for (const c of calls) await send({ type: 'call_service', domain: c.domain, service: c.service, target: c.target, ...(c.data ? { service_data: c.data } : {}) })
      return { restored: states.map(s => s.entity_id) }
    }
  }
}

/** A registry edit's undo: replays the commands that put every entry back, in order (a recreated entry's id substituted into what follows). */
export function commandsUndo (commands: RestoreCommand[], entities: string[], send: Send, extra: Pick<UndoPlan, 'unrestorable' | 'wrote' | 'current'> = {}): UndoPlan {
  return {
    needs: 'allow_config_write',
    preview: `Replay ${commands.length} registry ${commands.length === 1 ? 'command' : 'commands'}: ${commands.slice(0, 5).map(c => c.type).join(', ')}${commands.length > 5 ? ', ...' : ''}.`,
    alwaysConfirm: false,
    entities,
    services: [],
    ...extra,
    run: async () => {
      let created: string | undefined
      for (const command of commands) {
        const result = await send(withCreatedId(command, created))
        if (command.type.endsWith('/create')) created = createdId(result)
      }
      return { steps: commands.length }
    }
  }
}

/** A config change's undo, from the Revert its tool built: always confirmed, like any config write. */
export function revertUndo (revert: Revert): UndoPlan {
  return {
    needs: revert.needs ?? 'allow_config_write',
    preview: revert.preview,
    alwaysConfirm: true,
    entities: revert.entities ?? [],
    services: [],
    ...(revert.wrote && revert.current ? { wrote: revert.wrote, current: revert.current } : {}),
    run: async force => await revert.run(force)
  }
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
  /** The option undoing needs: a config change's allow_config_write unless said (a helper's fields: allow_write). */
  needs?: UndoRecord['needs']
  preview: string
  /** Entities the revert writes, checked against the entity lists again. */
  entities?: string[]
  /** What the change left and how to read it now (see UndoRecord). */
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
  'humidity', 'has_date', 'has_time', 'options', 'latest_version', 'skipped_version'
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

/**
 * An update entity's skip: update.skip skips the latest version and update.clear_skipped forgets it
 * (update/__init__.py async_skip, async_clear_skipped), so each undoes the other. Nothing else about an
 * update entity can be put back (an install is not undone), and a skip of an older version than the
 * latest cannot be made again.
 */
function skipCalls (prior: PriorState, service: string | undefined): RestoreCall[] {
  if (service !== 'update.skip' && service !== 'update.clear_skipped') return []
  const { skipped_version: skipped, latest_version: latest } = prior.attributes
  if (skipped === undefined) return [call('update', 'clear_skipped', prior.entity_id)]
  return skipped === latest ? [call('update', 'skip', prior.entity_id)] : []
}

/**
 * The service calls that put one entity back the way it was, after `service` changed it; empty when
 * nothing sensible applies.
 */
export function restoreCalls (prior: PriorState, service?: string): RestoreCall[] {
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
    case 'update': return skipCalls(prior, service)
    case 'input_datetime': return [call('input_datetime', 'set_datetime', prior.entity_id, prior.attributes.has_date === true && prior.attributes.has_time === true ? { datetime: value } : prior.attributes.has_date === true ? { date: value } : { time: value })]
    default: return ON_OFF_DOMAINS.has(domain) ? onOffCalls(prior, domain) : []
  }
}

/** The last undoable write of each identity. Bounded. Written by the guard only, stamped with its clock. */
export class UndoStore {
  readonly #records: LRUCache<string, UndoRecord>

  constructor (options: { maxIdentities?: number } = {}) {
    this.#records = new LRUCache({ max: options.maxIdentities ?? 100 })
  }

  remember (identityId: string, record: UndoRecord): void {
    this.#records.set(identityId, record)
  }

  last (identityId: string): UndoRecord | undefined {
    return this.#records.peek(identityId)
  }

  forget (identityId: string, record?: UndoRecord): void {
    if (record === undefined || this.#records.peek(identityId) === record) this.#records.delete(identityId)
  }
}

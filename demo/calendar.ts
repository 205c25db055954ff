import { HaError, invalidFormat, pyRepr } from './errors.ts'
import type { CalendarEvent } from './generate/home-types.ts'
import type { House } from './house.ts'
import { isRecord } from './util.ts'
import type { CommandTable } from './ws/protocol.ts'

/**
 * Local calendars as Home Assistant's local_calendar integration keeps them: events with an optional
 * RRULE (daily or slower), instances excluded or overridden by recurrence id, and the
 * `calendar/event/create|update|delete` WebSocket commands with the calendar component's validation.
 */
export type StoredEvent = CalendarEvent

/** supported_features of a calendar entity: CREATE_EVENT 1, DELETE_EVENT 2, UPDATE_EVENT 4. */
const CREATE = 1
const DELETE = 2
const UPDATE = 4
const DAY = 86_400_000
const VALID_FREQS = ['DAILY', 'WEEKLY', 'MONTHLY', 'YEARLY']
const WEEKDAYS = ['SU', 'MO', 'TU', 'WE', 'TH', 'FR', 'SA']
const MAX_INSTANCES = 2000

const isDate = (value: string): boolean => /^\d{4}-\d{2}-\d{2}$/.test(value)
const isDateTime = (value: string): boolean => /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?$/.test(value)

/** The recurrence id of an instance starting at `start`, formatted like iCalendar (20261202 or 20261202T090000). */
export function recurrenceIdOf (start: string): string {
  if (isDate(start)) return start.replace(/-/g, '')
  return new Date(Date.parse(start)).toISOString().slice(0, 19).replace(/[-:]/g, '')
}

/** Same wall-clock format as the event's start (date or ISO datetime with +00:00). */
function formatLike (sample: string, ms: number): string {
  if (isDate(sample)) return new Date(ms).toISOString().slice(0, 10)
  return new Date(ms).toISOString().replace('.000Z', '+00:00')
}

/** A datetime's UTC offset in minutes, null when it has none. */
function offsetOf (value: string): number | null {
  const zone = /(Z|[+-]\d{2}:?\d{2})$/.exec(value)?.[1]
  if (zone === undefined) return null
  if (zone === 'Z') return 0
  return (zone.startsWith('-') ? -1 : 1) * (Number(zone.slice(1, 3)) * 60 + Number(zone.slice(-2)))
}

const parseStart = (value: string): number => Date.parse(isDate(value) ? `${value}T00:00:00Z` : value)

function parseRule (rrule: string): Record<string, string> {
  const parts: Record<string, string> = {}
  for (const piece of rrule.split(';')) {
    const at = piece.indexOf('=')
    if (at > 0) parts[piece.slice(0, at).toUpperCase()] = piece.slice(at + 1)
  }
  return parts
}

/** The calendar component's rrule check, worded like it. */
export function rruleProblem (value: unknown): string | null {
  if (typeof value !== 'string') return 'rrule value expected a string'
  const parts = parseRule(value)
  if (value.split(';').some(piece => !piece.includes('='))) return `Invalid rrule '${value}': invalid rrule string`
  const freq = parts.FREQ
  if (freq === undefined || freq === '') return 'rrule did not contain FREQ'
  if (!VALID_FREQS.includes(freq)) return `Invalid frequency for rule: ${value}`
  if (parts.COUNT !== undefined && !/^\d+$/.test(parts.COUNT)) return `Invalid rrule '${value}': invalid COUNT`
  return null
}

function untilMs (until: string): number {
  const m = /^(\d{4})(\d{2})(\d{2})(?:T(\d{2})(\d{2})(\d{2})Z?)?$/.exec(until)
  if (m === null) return Infinity
  return Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]), Number(m[4] ?? 23), Number(m[5] ?? 59), Number(m[6] ?? 59))
}

/** Start times of a series, in order, from its first instance (bounded). */
function seriesStarts (event: StoredEvent, endMs: number): number[] {
  const first = parseStart(event.start)
  if (event.rrule === undefined) return [first]
  const rule = parseRule(event.rrule)
  const interval = Math.max(1, Number(rule.INTERVAL ?? 1))
  const count = rule.COUNT === undefined ? Infinity : Number(rule.COUNT)
  const until = rule.UNTIL === undefined ? Infinity : untilMs(rule.UNTIL)
  const byDay = rule.BYDAY?.split(',').map(d => WEEKDAYS.indexOf(d.slice(-2))).filter(d => d >= 0)
  const out: number[] = []
  const base = new Date(first)
  for (let step = 0; out.length < count && out.length < MAX_INSTANCES; step++) {
    let candidates: number[]
    if (rule.FREQ === 'DAILY') candidates = [first + step * interval * DAY]
    else if (rule.FREQ === 'WEEKLY') {
      const weekStart = first + step * interval * 7 * DAY
      candidates = byDay === undefined || byDay.length === 0
        ? [weekStart]
        : byDay.map(d => weekStart + ((d - base.getUTCDay() + 7) % 7) * DAY).sort((a, b) => a - b)
    } else if (rule.FREQ === 'MONTHLY') candidates = [Date.UTC(base.getUTCFullYear(), base.getUTCMonth() + step * interval, base.getUTCDate(), base.getUTCHours(), base.getUTCMinutes(), base.getUTCSeconds())]
    else candidates = [Date.UTC(base.getUTCFullYear() + step * interval, base.getUTCMonth(), base.getUTCDate(), base.getUTCHours(), base.getUTCMinutes(), base.getUTCSeconds())]
    if ((candidates[0] as number) > Math.min(until, endMs)) break
    for (const at of candidates) if (at >= first && at <= until && out.length < count) out.push(at)
  }
  return out
}

/** Every instance of the calendar overlapping [startMs, endMs), series expanded and overrides applied. */
export function expandEvents (events: StoredEvent[], startMs: number, endMs: number): StoredEvent[] {
  const overrides = new Map(events.filter(e => e.recurrence_id !== undefined).map(e => [`${e.uid}/${e.recurrence_id as string}`, e]))
  const out: StoredEvent[] = []
  for (const event of events) {
    if (event.recurrence_id !== undefined) continue
    const duration = parseStart(event.end) - parseStart(event.start)
    for (const at of seriesStarts(event, endMs)) {
      const instance: StoredEvent = event.rrule === undefined
        ? event
        : { ...event, start: formatLike(event.start, at), end: formatLike(event.end, at + duration), recurrence_id: recurrenceIdOf(formatLike(event.start, at)) }
      const id = instance.recurrence_id
      if (id !== undefined && event.exdates?.includes(id)) continue
      const override = id === undefined ? undefined : overrides.get(`${event.uid}/${id}`)
      const shown = override === undefined ? instance : { ...override, ...(event.rrule === undefined ? {} : { rrule: event.rrule }) }
      if (parseStart(shown.end) > startMs && parseStart(shown.start) < endMs) out.push(shown)
    }
  }
  return out.sort((a, b) => parseStart(a.start) - parseStart(b.start))
}

/** The REST view of one instance (/api/calendars/<id>). */
export function eventView (e: StoredEvent): Record<string, unknown> {
  const when = (v: string): Record<string, string> => isDate(v) ? { date: v } : { dateTime: v }
  return { start: when(e.start), end: when(e.end), summary: e.summary, description: e.description ?? null, location: e.location ?? null, uid: e.uid, recurrence_id: e.recurrence_id ?? null, rrule: e.rrule ?? null }
}

/** WEBSOCKET_EVENT_SCHEMA (core calendar/__init__.py): dtstart, dtend, summary required, same types, one timezone, at least 1 s, valid rrule. */
function validEvent (value: unknown): Omit<StoredEvent, 'uid'> {
  if (!isRecord(value)) throw invalidFormat(`expected a dictionary for dictionary value @ data['event']. Got ${pyRepr(value)}`)
  const allowed = ['dtstart', 'dtend', 'summary', 'description', 'location', 'rrule']
  for (const key of Object.keys(value)) if (!allowed.includes(key)) throw invalidFormat(`extra keys not allowed @ data['event']['${key}']. Got ${pyRepr(value[key])}`)
  for (const key of ['dtstart', 'dtend', 'summary']) if (value[key] === undefined) throw invalidFormat(`required key not provided @ data['event']['${key}']. Got None`)
  const start = String(value.dtstart)
  const end = String(value.dtend)
  for (const [key, v] of [['dtstart', start], ['dtend', end]] as const) {
    if (!isDate(v) && !isDateTime(v)) throw invalidFormat(`Invalid datetime specified: ${v} for dictionary value @ data['event']['${key}']. Got ${pyRepr(v)}`)
  }
  if (isDate(start) !== isDate(end)) throw invalidFormat(`Expected all values to be the same type: ('dtstart', 'dtend') for dictionary value @ data['event']. Got ${pyRepr(value)}`)
  // _has_consistent_timezone groups the tzinfo of both: none and none, or the same offset (Z is +00:00).
  if (!isDate(start) && offsetOf(start) !== offsetOf(end)) throw invalidFormat(`Expected all values to have the same timezone for dictionary value @ data['event']. Got ${pyRepr(value)}`)
  if (parseStart(end) - parseStart(start) < 1000) throw invalidFormat(`Expected minimum event duration of 0:00:01 (${start}, ${end}) for dictionary value @ data['event']. Got ${pyRepr(value)}`)
  if (value.rrule !== undefined) {
    const problem = rruleProblem(value.rrule)
    if (problem !== null) throw invalidFormat(`${problem} for dictionary value @ data['event']['rrule']. Got ${pyRepr(value.rrule)}`)
  }
  const toIso = (v: string): string => isDate(v) ? v : new Date(Date.parse(/(Z|[+-]\d{2}:?\d{2})$/.test(v) ? v : `${v}Z`)).toISOString().replace('.000Z', '+00:00')
  return {
    summary: String(value.summary),
    start: toIso(start),
    end: toIso(end),
    all_day: isDate(start),
    ...(typeof value.description === 'string' && value.description !== '' ? { description: value.description } : {}),
    ...(typeof value.location === 'string' && value.location !== '' ? { location: value.location } : {}),
    ...(typeof value.rrule === 'string' && value.rrule !== '' ? { rrule: value.rrule } : {})
  }
}

function calendarFor (house: House, entityId: unknown, feature: number, verb: string): StoredEvent[] {
  const id = String(entityId)
  if (!/^[a-z0-9_]+\.[a-z0-9_]+$/.test(id)) throw invalidFormat(`Entity ID ${id} is an invalid entity ID for dictionary value @ data['entity_id']. Got ${pyRepr(entityId)}`)
  const state = house.states.get(id)
  if (!id.startsWith('calendar.') || state === undefined) throw new HaError('not_found', 'Entity not found')
  const features = Number(state.attributes.supported_features ?? 0)
  if ((features & feature) === 0) throw new HaError('not_supported', `Calendar does not support event ${verb}`)
  let list = house.home.calendars.get(id) as StoredEvent[] | undefined
  if (list === undefined) { list = []; house.home.calendars.set(id, list) }
  return list
}

let sequence = 0
const newUid = (): string => `${Date.now().toString(36)}-${(sequence++).toString(36)}-demo`

function masterOf (list: StoredEvent[], uid: string, verb: string): StoredEvent {
  const master = list.find(e => e.uid === uid && e.recurrence_id === undefined)
  if (master === undefined) throw new HaError('failed', `Error while ${verb} event: No existing event with uid ${uid}`)
  return master
}

/** The series' instance with that recurrence id must exist (ical's check). */
function requireInstance (master: StoredEvent, recurrenceId: string, verb: string): void {
  const ids = seriesStarts(master, Infinity).map(at => recurrenceIdOf(formatLike(master.start, at)))
  if (master.rrule === undefined || !ids.includes(recurrenceId) || master.exdates?.includes(recurrenceId)) {
    throw new HaError('failed', `Error while ${verb} event: No existing event with uid ${master.uid} and recurrence_id ${recurrenceId}`)
  }
}

/** Ends a series just before the instance `recurrenceId` (THISANDFUTURE). */
function truncate (master: StoredEvent, recurrenceId: string): void {
  const cut = seriesStarts(master, Infinity).map(at => formatLike(master.start, at)).find(s => recurrenceIdOf(s) === recurrenceId)
  const before = parseStart(cut ?? master.start) - 1000
  const until = new Date(before).toISOString().slice(0, 19).replace(/[-:]/g, '') + 'Z'
  const rule = parseRule(master.rrule ?? '')
  delete rule.COUNT
  rule.UNTIL = until
  master.rrule = Object.entries(rule).map(([k, v]) => `${k}=${v}`).join(';')
}

const RANGE_KEYS = { required: ['entity_id', 'uid'], optional: ['recurrence_id', 'recurrence_range'] }

export const calendarCommands: CommandTable = {
  'calendar/event/create': {
    keys: { required: ['entity_id', 'event'] },
    handle: ({ rt, msg }) => {
      const event = validEvent(msg.event)
      const list = calendarFor(rt.house, msg.entity_id, CREATE, 'creation')
      list.push({ uid: newUid(), ...event })
      rt.house.configWrites.push(`calendar/event/create ${String(msg.entity_id)}`)
      return null
    }
  },
  'calendar/event/update': {
    keys: { required: [...RANGE_KEYS.required, 'event'], optional: RANGE_KEYS.optional },
    handle: ({ rt, msg }) => {
      const event = validEvent(msg.event)
      const list = calendarFor(rt.house, msg.entity_id, UPDATE, 'update')
      const uid = String(msg.uid)
      const master = masterOf(list, uid, 'updating')
      const recurrenceId = typeof msg.recurrence_id === 'string' && msg.recurrence_id !== '' ? msg.recurrence_id : undefined
      if (recurrenceId === undefined) {
        const keep = { uid, exdates: master.exdates }
        for (const key of Object.keys(master)) delete (master as unknown as Record<string, unknown>)[key]
        Object.assign(master, { ...event, uid, ...(keep.exdates ? { exdates: keep.exdates } : {}) })
      } else {
        requireInstance(master, recurrenceId, 'updating')
        if (msg.recurrence_range === 'THISANDFUTURE') {
          truncate(master, recurrenceId)
          list.push({ uid: newUid(), ...event, ...(event.rrule === undefined && master.rrule !== undefined ? { rrule: master.rrule.replace(/;?UNTIL=[^;]*/, '') } : {}) })
        } else {
          const { rrule: _rrule, ...single } = event
          const index = list.findIndex(e => e.uid === uid && e.recurrence_id === recurrenceId)
          const override: StoredEvent = { uid, ...single, recurrence_id: recurrenceId }
          if (index >= 0) list[index] = override
          else list.push(override)
        }
      }
      rt.house.configWrites.push(`calendar/event/update ${String(msg.entity_id)} ${uid}`)
      return null
    }
  },
  'calendar/event/delete': {
    keys: RANGE_KEYS,
    handle: ({ rt, msg }) => {
      const list = calendarFor(rt.house, msg.entity_id, DELETE, 'deletion')
      const uid = String(msg.uid)
      const master = masterOf(list, uid, 'deleting')
      const recurrenceId = typeof msg.recurrence_id === 'string' && msg.recurrence_id !== '' ? msg.recurrence_id : undefined
      if (recurrenceId === undefined) {
        for (let i = list.length - 1; i >= 0; i--) if (list[i]?.uid === uid) list.splice(i, 1)
      } else {
        requireInstance(master, recurrenceId, 'deleting')
        if (msg.recurrence_range === 'THISANDFUTURE') truncate(master, recurrenceId)
        else master.exdates = [...(master.exdates ?? []), recurrenceId]
        for (let i = list.length - 1; i >= 0; i--) if (list[i]?.uid === uid && list[i]?.recurrence_id === recurrenceId) list.splice(i, 1)
      }
      rt.house.configWrites.push(`calendar/event/delete ${String(msg.entity_id)} ${uid}`)
      return null
    }
  }
}

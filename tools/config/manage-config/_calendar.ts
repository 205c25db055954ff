import { z } from 'zod'
import { UserError } from '../../../src/errors.ts'
import type { ToolCallContext, ToolContext } from '../../../src/mcp/runtime/define-tool.ts'
import { configFact, editedSinceWrite, type Revert } from '../../../src/policy/undo.ts'
import { applyChanges } from '../../_shared/config-store.ts'
import { configHash, toYaml } from '../../_shared/config-yaml.ts'
import { configOf, problemIssue, type ManageArgs } from './_args.ts'
import { formatOutcome, guardedWrite } from '../../_shared/write.ts'
import type { CommandWrite } from '../../../src/policy/types.ts'
import { nameProblem } from '../../../src/policy/input-checks.ts'

/**
 * Events of calendars that support editing (Local Calendar, CalDAV...) through
 * `calendar/event/create|update|delete`. Creating and changing an event is a runtime write (confirmed
 * only when calendar is in confirm_domains); deleting always asks. Undo puts the previous fields back.
 */
type Event = Record<string, unknown>
interface Found { uid: string, recurrence_id?: string, event: Event }

const DAY_MS = 86_400_000
/** How far back the first instance of a series is looked for. */
const SERIES_FROM_MS = Date.UTC(1900, 0, 1)
const EVENT_KEYS = ['summary', 'dtstart', 'dtend', 'description', 'location', 'rrule']

type When = { dateTime?: string, date?: string } | string | null | undefined
const whenText = (when: When): string | undefined => typeof when === 'string' ? when : when?.dateTime ?? when?.date

function requireCalendar (ctx: ToolContext, entityId: string | undefined): string {
  if (entityId === undefined || !entityId.startsWith('calendar.')) throw new UserError('HAMCP_INVALID_ARGUMENT', 'id must be a calendar entity, e.g. calendar.family.', 'ha_get_calendar lists calendars and events with their uid.')
  if (!ctx.home.state(entityId)) throw new UserError('HAMCP_ENTITY_NOT_FOUND', `${entityId} not found.`, 'ha_get_calendar lists the calendars.')
  return entityId
}

const EVENT_HINT = 'config: {"summary":"Dentist","dtstart":"2026-12-03T09:00:00+01:00","dtend":"2026-12-03T10:00:00+01:00","rrule":"FREQ=WEEKLY;COUNT=4"}; dates (2026-12-03) make all-day events; recurrence_id and recurrence_range pick instances of a series.'
const when = z.string({ error: 'a date (2026-12-03) or date-time (2026-12-03T09:00:00+01:00)' }).optional()
const removable = z.string({ error: 'text, or null to remove it' }).nullable().optional()

/** The config of an event write: the event fields (start/end accepted for dtstart/dtend), and which instance of a series. */
const eventConfig = z.strictObject({
  summary: z.string({ error: 'text' }).optional(),
  dtstart: when,
  dtend: when,
  start: when,
  end: when,
  description: removable,
  location: removable,
  rrule: removable,
  recurrence_id: z.string({ error: 'a string, as ha_get_calendar shows it' }).optional(),
  recurrence_range: z.enum(['THISANDFUTURE', ''], { error: 'THISANDFUTURE or empty' }).optional()
}).refine(config => !config.recurrence_range || config.recurrence_id, { path: ['recurrence_range'], message: 'needs a recurrence_id: the instance from which the change applies' })
type EventConfig = z.output<typeof eventConfig>

const needs = (key: string): z.ZodString => z.string({ error: `the event needs ${key}` }).min(1, `the event needs ${key}`)
/** What an event needs once the changes are applied. */
const wholeEvent = z.looseObject({ summary: needs('summary').superRefine(problemIssue(nameProblem)), dtstart: needs('dtstart'), dtend: needs('dtend') })

/** The event fields Home Assistant's WebSocket API takes, from the checked config. */
function eventFields (config: EventConfig): Event {
  const out: Event = {}
  const aliased: Record<string, unknown> = { ...config, dtstart: config.dtstart ?? config.start, dtend: config.dtend ?? config.end }
  for (const key of EVENT_KEYS) if (aliased[key] !== undefined) out[key] = aliased[key]
  return out
}

/** Where a recurring instance is named: recurrence_id in config, and THISANDFUTURE for the rest of the series. */
function recurrence (config: EventConfig): { recurrence_id?: string, recurrence_range?: string } {
  const { recurrence_id: id, recurrence_range: range } = config
  return { ...(id ? { recurrence_id: id } : {}), ...(id && range ? { recurrence_range: range } : {}) }
}

const DATE = /^\d{4}-\d{2}-\d{2}$/
const ZONE = /(Z|[+-]\d{2}:?\d{2})$/
const VALID_FREQS = ['DAILY', 'WEEKLY', 'MONTHLY', 'YEARLY']

/** A datetime's UTC offset in minutes as Python reads it (`Z` is +00:00), null when it has none. */
function offsetOf (value: string): number | null {
  const zone = ZONE.exec(value)?.[1]
  if (zone === undefined) return null
  if (zone === 'Z') return 0
  const [hours, minutes] = [Number(zone.slice(1, 3)), Number(zone.slice(-2))]
  return (zone.startsWith('-') ? -1 : 1) * (hours * 60 + minutes)
}

/**
 * What the calendar component's WEBSOCKET_EVENT_SCHEMA refuses (core calendar/__init__.py:
 * `_has_same_type`, `_has_consistent_timezone`, `_has_min_duration` of 1 s, `_validate_rrule`), answered
 * as the caller's to fix before anything is sent. An all-day event's dtend is exclusive, as Home
 * Assistant's own editor sends it: a one-day event on the 24th ends on the 25th.
 */
function checkEvent (event: Event): void {
  configOf(wholeEvent, event, 'an event', EVENT_HINT)
  const start = String(event.dtstart)
  const end = String(event.dtend)
  const invalid = (message: string, hint: string): UserError => new UserError('HAMCP_INVALID_ARGUMENT', message, hint)
  if (DATE.test(start) !== DATE.test(end)) throw invalid('dtstart and dtend must both be dates (an all-day event) or both date-times.', EVENT_HINT)
  if (DATE.test(start)) {
    const next = new Date(Date.parse(`${end}T00:00:00Z`) + DAY_MS).toISOString().slice(0, 10)
    if (Date.parse(end) <= Date.parse(start)) throw invalid('An all-day event\'s dtend must come after its dtstart (dtend is the day after the last day).', `For an event on ${end} alone, use dtstart ${end} and dtend ${next}.`)
  } else {
    const [from, to] = [Date.parse(start), Date.parse(end)]
    if (Number.isNaN(from) || Number.isNaN(to)) throw invalid('dtstart and dtend must be dates (2026-12-03) or date-times (2026-12-03T09:00:00+01:00).', EVENT_HINT)
    if (offsetOf(start) !== offsetOf(end)) throw invalid('dtstart and dtend must carry the same timezone offset (or both none).', 'Give both times with the same offset, e.g. +01:00.')
    if (to - from < 1000) throw invalid('dtend must be after dtstart (Home Assistant wants an event to last at least a second).', EVENT_HINT)
  }
  if (typeof event.rrule === 'string' && event.rrule !== '') {
    const freq = /(?:^|;)FREQ=([A-Z]+)/i.exec(event.rrule)?.[1]?.toUpperCase()
    if (freq === undefined || !VALID_FREQS.includes(freq)) throw invalid(`rrule "${event.rrule.slice(0, 80)}" must have FREQ DAILY, WEEKLY, MONTHLY or YEARLY (Home Assistant repeats nothing more often than daily).`, 'e.g. FREQ=WEEKLY;COUNT=4')
  }
}

async function instances (ctx: ToolContext, calendar: string, fromMs: number, toMs: number): Promise<Array<Record<string, unknown>>> {
  const query = `start=${encodeURIComponent(new Date(fromMs).toISOString())}&end=${encodeURIComponent(new Date(toMs).toISOString())}`
  const list = await ctx.ha.rest.json<unknown>('GET', `/api/calendars/${calendar}?${query}`)
  return Array.isArray(list) ? list as Array<Record<string, unknown>> : []
}

function asEvent (raw: Record<string, unknown>, withRule: boolean): Event {
  const out: Event = { summary: raw.summary, dtstart: whenText(raw.start as When), dtend: whenText(raw.end as When) }
  if (typeof raw.description === 'string' && raw.description !== '') out.description = raw.description
  if (typeof raw.location === 'string' && raw.location !== '') out.location = raw.location
  if (withRule && typeof raw.rrule === 'string' && raw.rrule !== '') out.rrule = raw.rrule
  return out
}

/** The event (or the one instance of a series) as it is now; its first instance stands for a whole series. */
async function findEvent (ctx: ToolContext, calendar: string, uid: string | undefined, recurrenceId: string | undefined): Promise<Found> {
  if (uid === undefined || uid === '') throw new UserError('HAMCP_INVALID_ARGUMENT', 'item must be the event uid.', 'ha_get_calendar with this calendar shows each event\'s uid (and recurrence_id for a series).')
  const now = ctx.clock.now()
  const all = (await instances(ctx, calendar, now - 400 * DAY_MS, now + 800 * DAY_MS)).filter(e => e.uid === uid)
  let raw = recurrenceId === undefined ? all[0] : all.find(e => e.recurrence_id === recurrenceId)
  if (recurrenceId === undefined && typeof raw?.rrule === 'string' && raw.rrule !== '') {
    // A whole series is its first instance: Home Assistant takes the event sent without a recurrence_id
    // as the series itself, so its dtstart becomes the series' start. A series older than the window
    // starts before it: its first instance is looked for back to 1900, once, for this case only.
    const earlier = (await instances(ctx, calendar, SERIES_FROM_MS, now - 400 * DAY_MS)).filter(e => e.uid === uid)
    raw = earlier[0] ?? raw
  }
  if (!raw) throw new UserError('HAMCP_NOT_FOUND', `No event ${uid}${recurrenceId ? ` with recurrence_id ${recurrenceId}` : ''} on ${calendar}.`, 'ha_get_calendar shows the events with their uid and recurrence_id.')
  return { uid, ...(recurrenceId ? { recurrence_id: recurrenceId } : {}), event: asEvent(raw, recurrenceId === undefined) }
}

function wsEvent (event: Event): Event {
  const out: Event = {}
  for (const key of EVENT_KEYS) if (event[key] !== undefined && event[key] !== null && event[key] !== '') out[key] = event[key]
  return out
}

/**
 * Creates `event` and returns its uid: the create command answers none, so the uid is the one in the
 * event's span that was not there before. `tolerant`: a failed listing gives no uid instead of an error.
 */
async function createEvent (ctx: ToolContext, calendar: string, event: Event, options: { tolerant: boolean }): Promise<string | undefined> {
  const start = Date.parse(String(event.dtstart)) - DAY_MS
  const end = Date.parse(String(event.dtend)) + DAY_MS
  const uids = async (): Promise<Set<string>> => {
    const listed = options.tolerant ? instances(ctx, calendar, start, end).catch(() => []) : instances(ctx, calendar, start, end)
    return new Set((await listed).map(e => String(e.uid)))
  }
  const before = await uids()
  await ctx.ha.command({ type: 'calendar/event/create', entity_id: calendar, event })
  return [...await uids()].find(id => !before.has(id))
}

/** The revert checks the event is still as this write left it before it touches anything. */
function revertOf (ctx: ToolContext, calendar: string, label: string, preview: string, run: () => Promise<Record<string, unknown>>, expect?: { uid: string, recurrence_id?: string, event: Event }): Revert {
  const wroteHash = expect ? configHash(wsEvent(expect.event)) : undefined
  const nowHash = async (): Promise<string | undefined> => {
    if (!expect) return undefined
    const now = await findEvent(ctx, calendar, expect.uid, expect.recurrence_id).catch(() => undefined)
    return now ? configHash(wsEvent(now.event)) : undefined
  }
  return {
    preview,
    entities: [calendar],
    ...(wroteHash === undefined ? {} : { wrote: configFact(label, wroteHash, wroteHash), current: async () => configFact(label, wroteHash, await nowHash()) }),
    run: async force => {
      if (expect && force !== true) {
        if (await nowHash() !== wroteHash) {
          throw editedSinceWrite(label, 'Change it with ha_manage_config instead.')
        }
      }
      return await run()
    }
  }
}

export async function manageCalendar (ctx: ToolCallContext, args: ManageArgs): Promise<Record<string, unknown>> {
  const calendar = requireCalendar(ctx, args.id)
  const config = configOf(eventConfig, args.config, 'an event', EVENT_HINT)
  const command = async (message: Record<string, unknown> & { type: string }): Promise<void> => { await ctx.ha.command(message) }
  const guard = { dryRun: args.dry_run, ...(args.confirm_token === undefined ? {} : { confirmToken: args.confirm_token }) }
  /** The three writes differ only in the service, its data and what they run: one request shape, one answer. */
  const calendarWrite = async (service: string, data: Record<string, unknown>, preview: string, steps: Pick<CommandWrite, 'confirm' | 'execute' | 'revert'>): Promise<Record<string, unknown>> => {
    const outcome = await guardedWrite(ctx, { kind: 'command', tool: ctx.tool, domain: 'calendar', service, target: { entity_id: calendar }, data, ...guard, ...steps })
    return outcome.status === 'dry_run' ? { ...formatOutcome(outcome), preview } : formatOutcome(outcome, result => result as Record<string, unknown>)
  }

  if (args.action === 'create') {
    const event = eventFields(config)
    checkEvent(event)
    const preview = `# new event on ${calendar}:\n${toYaml(event)}`
    return await calendarWrite('create_event', { event }, preview, {
      execute: async () => {
        const uid = await createEvent(ctx, calendar, event, { tolerant: true })
        return { calendar, ...(uid ? { uid } : {}) }
      },
      revert: result => {
        const uid = (result as { uid?: string }).uid
        if (uid === undefined) return undefined
        return revertOf(ctx, calendar, `event ${uid}`, `# event ${uid} on ${calendar} will be deleted again:\n${toYaml(event)}`, async () => {
          await command({ type: 'calendar/event/delete', entity_id: calendar, uid })
          return { calendar, deleted: uid }
        }, { uid, event })
      }
    })
  }

  if (args.action !== 'update' && args.action !== 'delete') throw new UserError('HAMCP_INVALID_ARGUMENT', `Calendars take action create, update or delete, not ${args.action}; ha_get_calendar lists events.`)
  const where = recurrence(config)
  const found = await findEvent(ctx, calendar, args.item, where.recurrence_id)
  const label = `event ${found.uid}${where.recurrence_id ? ` (instance ${where.recurrence_id})` : ''}`
  const series = where.recurrence_range === 'THISANDFUTURE'

  if (args.action === 'delete') {
    const preview = `# ${label} on ${calendar} will be deleted${series ? ' with every later instance' : ''}:\n${toYaml(found.event)}`
    return await calendarWrite('delete_event', { uid: found.uid, ...where }, preview, {
      confirm: { preview, baseHash: configHash(found.event), entities: [calendar] },
      execute: async () => {
        await command({ type: 'calendar/event/delete', entity_id: calendar, uid: found.uid, ...where })
        return {
          calendar,
          deleted: found.uid,
          deleted_yaml: toYaml(found.event),
          ...(where.recurrence_id ? { note: 'A deleted instance of a series cannot be brought back through Home Assistant\'s calendar API, so ha_undo does not cover it.' } : {})
        }
      },
      // Home Assistant's create command takes no uid: the event comes back with a new one.
      revert: () => where.recurrence_id
        ? undefined
        : revertOf(ctx, calendar, label, `# ${label} will be recreated on ${calendar} (with a new uid):\n${toYaml(found.event)}`, async () => {
          const uid = await createEvent(ctx, calendar, wsEvent(found.event), { tolerant: false })
          return { calendar, recreated: uid ?? null, note: 'Recreated with the same fields; Home Assistant gave it a new uid.' }
        })
    })
  }

  const changes = eventFields(config)
  if (Object.keys(changes).length === 0) throw new UserError('HAMCP_INVALID_ARGUMENT', 'Nothing to change: pass in config the event fields to set (null removes description, location or rrule).')
  let next = applyChanges(found.event, changes)
  if (where.recurrence_id && !series) delete next.rrule
  next = wsEvent(next)
  checkEvent(next)
  if (configHash(next) === configHash(wsEvent(found.event))) throw new UserError('HAMCP_INVALID_ARGUMENT', `Nothing to change: the given fields already match ${label}.`)
  const preview = `# ${label} on ${calendar}${series ? ' and every later instance' : ''}:\n# before\n${toYaml(found.event)}# after\n${toYaml(next)}`
  return await calendarWrite('update_event', { uid: found.uid, ...where, event: next }, preview, {
    execute: async () => {
      await command({ type: 'calendar/event/update', entity_id: calendar, uid: found.uid, ...where, event: next })
      return {
        calendar,
        uid: found.uid,
        previous_yaml: toYaml(found.event),
        ...(series ? { note: 'The series was split at this instance; ha_undo cannot join it back.' } : {})
      }
    },
    revert: () => series
      ? undefined
      : revertOf(ctx, calendar, label, `# ${label} on ${calendar} goes back to:\n${toYaml(found.event)}`, async () => {
        await command({ type: 'calendar/event/update', entity_id: calendar, uid: found.uid, ...(where.recurrence_id ? { recurrence_id: where.recurrence_id } : {}), event: wsEvent(found.event) })
        return { calendar, uid: found.uid, restored_yaml: toYaml(found.event) }
      }, { uid: found.uid, ...(where.recurrence_id ? { recurrence_id: where.recurrence_id } : {}), event: next })
  })
}

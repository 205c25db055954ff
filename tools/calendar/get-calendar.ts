import { z } from 'zod'
import { UserError } from '../../src/errors.ts'
import type { HomeAssistant } from '../../src/ha/index.ts'
import { defineTool } from '../../src/mcp/runtime/define-tool.ts'
import { excerpt } from '../../src/shape.ts'
import { domainEntityArg } from '../_shared/args.ts'
import { domainRows, HOUR_MS, requireDomainEntity } from '../_shared/read-calls.ts'

const EVENTS_CAP = 100

type When = { dateTime?: string, date?: string } | string | undefined
interface CalendarEvent { summary?: string, start?: When, end?: When, description?: string, location?: string, rrule?: string, uid?: string | null, recurrence_id?: string | null }

const whenText = (when: When): string | undefined => typeof when === 'string' ? when : when?.dateTime ?? when?.date

async function eventsOf (ha: HomeAssistant, entityId: string, start: Date, end: Date): Promise<Array<Record<string, unknown>>> {
  const query = `start=${encodeURIComponent(start.toISOString())}&end=${encodeURIComponent(end.toISOString())}`
  const events = await ha.rest.json<CalendarEvent[]>('GET', `/api/calendars/${entityId}?${query}`)
  return (Array.isArray(events) ? events : []).map(e => {
    const out: Record<string, unknown> = { start: whenText(e.start), end: whenText(e.end), summary: excerpt(e.summary, 200) }
    if (typeof e.start === 'object' && e.start?.date !== undefined) out.all_day = true
    const location = excerpt(e.location, 200)
    if (location) out.location = location
    const description = excerpt(e.description, 300)
    if (description) out.description = description
    if (e.rrule) out.recurring = true
    // What ha_manage_config needs to change or delete the event (or one instance of a series).
    if (e.uid) out.uid = e.uid
    if (e.recurrence_id) out.recurrence_id = e.recurrence_id
    return out
  })
}

export default defineTool({
  name: 'ha_get_calendar',
  title: 'Get calendar events',
  description: 'Events in a window, max 100; no entity_id: all calendars merged.',
  kind: 'read',
  category: 'calendar',
  everyday: true,
  keywords: {
    en: 'calendar events appointments agenda schedule meetings today tomorrow this week upcoming what is on',
    de: 'kalender termine ereignisse agenda heute morgen diese woche besprechungen',
    fr: 'calendrier événements rendez vous agenda réunions aujourd hui demain cette semaine',
    es: 'calendario eventos citas agenda reuniones hoy mañana esta semana',
    nl: 'agenda kalender afspraken evenementen vergaderingen vandaag morgen deze week'
  },
  input: z.object({
    entity_id: domainEntityArg('calendar', 'calendar.family').optional().describe('Entity id.'),
    hours: z.number().int().min(1).max(720).default(24).describe('Hours.'),
    start: z.string().trim().optional().describe('ISO start (default now).')
  }),
  async handler ({ ha, home, clock }, args) {
    const start = args.start ? new Date(args.start) : new Date(clock.now())
    if (Number.isNaN(start.getTime())) throw new UserError('HAMCP_INVALID_ARGUMENT', `start "${args.start}" is not a valid ISO date-time.`, 'Use a form like 2026-05-01T08:00:00+02:00.')
    const end = new Date(start.getTime() + args.hours * HOUR_MS)
    const calendars = args.entity_id
      ? [requireDomainEntity(home, args.entity_id, 'calendar', 'Call ha_get_calendar without entity_id, or ha_list_entities with domain calendar.')]
      : domainRows(home, 'calendar')
    if (calendars.length === 0) throw new UserError('HAMCP_NOT_SUPPORTED', 'This home has no calendar entity.', 'Add a calendar integration (Local Calendar, CalDAV, Google) in Home Assistant.')
    const events: Array<Record<string, unknown>> = []
    const failed: string[] = []
    for (const calendar of calendars) {
      try {
        for (const event of await eventsOf(ha, calendar.entity_id, start, end)) {
          events.push(args.entity_id ? event : { calendar: calendar.entity_id, ...event })
        }
      } catch (err) {
        if (args.entity_id) throw err
        failed.push(calendar.entity_id)
      }
    }
    events.sort((a, b) => String(a.start).localeCompare(String(b.start)))
    const items = events.slice(0, EVENTS_CAP)
    const notes = []
    if (events.length > EVENTS_CAP) notes.push(`First ${EVENTS_CAP} of ${events.length} events; shorten hours or pick one calendar.`)
    if (failed.length) notes.push(`Could not read: ${failed.join(', ')}.`)
    return {
      start: start.toISOString(),
      end: end.toISOString(),
      calendars: calendars.map(c => c.entity_id),
      items,
      returned: items.length,
      total: events.length,
      has_more: events.length > items.length,
      next_offset: null,
      note: notes.length ? notes.join(' ') : events.length === 0 ? 'No events in this window.' : undefined
    }
  }
})

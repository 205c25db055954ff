import { z } from 'zod'
import { UserError } from '../../src/errors.ts'
import { defineTool } from '../../src/mcp/runtime/define-tool.ts'
import { byteLength } from '../../src/shape.ts'
import { entityIdArg } from '../_shared/args.ts'
import { requireEntity } from '../../src/home/entities.ts'
import { resolveArea, resolveFloor } from '../_shared/entities.ts'
import { peopleByUser, recentLogbook, visibleRows, type LogbookRow, type Person } from '../_shared/logbook.ts'
import { isoSeconds, resolveWindow, windowShape } from '../_shared/window.ts'
import type { HomeView } from '../../src/home/view.ts'

const LIMITS = { minHours: 0.25, maxHours: 168, defaultHours: 24 }
export const LOGBOOK_MAX_EVENTS = 100
export const LOGBOOK_MAX_SCOPE_ENTITIES = 60
const EVENTS_BYTE_BUDGET = 13_500

/** Who or what caused a row, in a few words, from its context fields. */
function causeOf (people: Map<string, Person>, row: LogbookRow): string | undefined {
  if (row.context_entity_id) return `${row.context_name ?? row.context_entity_id} (${row.context_entity_id})`
  if (row.context_user_id) return people.get(row.context_user_id)?.name ?? 'a user'
  if (row.context_domain && row.context_service) return `service ${row.context_domain}.${row.context_service}`
  return undefined
}

function shapeRow (home: HomeView, people: Map<string, Person>, row: LogbookRow): Record<string, unknown> {
  const out: Record<string, unknown> = { t: isoSeconds(row.when) }
  if (row.entity_id) out.entity_id = row.entity_id
  const name = row.name ?? (row.entity_id ? home.entity(row.entity_id)?.name : undefined)
  if (name) out.name = name
  if (row.state !== undefined) out.state = row.state
  if (row.message) out.message = home.scrub(row.message.slice(0, 160))
  const cause = causeOf(people, row)
  if (cause) out.by = cause
  return out
}

export default defineTool({
  name: 'ha_get_logbook',
  title: 'Get logbook',
  description: 'Logbook (changes, automation runs, who did it) of an entity, area, floor or home; the newest, paged.',
  kind: 'read',
  category: 'history',
  everyday: true,
  keywords: {
    en: 'logbook log activity events what happened who did recent timeline today feed',
    de: 'logbuch protokoll aktivität ereignisse was ist passiert wer hat zuletzt heute',
    fr: 'journal activité événements que s est il passé qui a fait récemment aujourd hui',
    es: 'registro diario bitácora actividad eventos qué pasó quién hizo recientemente hoy',
    nl: 'logboek activiteit gebeurtenissen wat is er gebeurd wie deed recent vandaag'
  },
  input: z.object({
    entity_id: entityIdArg().optional().describe('Entity id.'),
    area: z.string().trim().min(1).optional().describe('Area id or name (first 60 entities).'),
    floor: z.string().trim().min(1).optional().describe('Floor id or name (first 60 entities).'),
    ...windowShape(LIMITS)
  }),
  async handler ({ home, ha, clock }, args) {
    const scopes = [args.entity_id, args.area, args.floor].filter(s => s !== undefined)
    if (scopes.length > 1) throw new UserError('HAMCP_INVALID_ARGUMENT', 'Give one scope: entity_id, area or floor.', 'Call once per scope, or drop all three for the whole home.')
    const window = resolveWindow(args, LIMITS, clock.now())
    let entityIds: string[] | undefined
    let scopeNote: string | undefined
    if (args.entity_id) {
      entityIds = [requireEntity(home, args.entity_id).entity_id]
    } else if (args.area || args.floor) {
      const areaId = args.area ? resolveArea(home, args.area) : undefined
      const floorId = args.floor ? resolveFloor(home, args.floor) : undefined
      const inScope = home.entities().filter(row => areaId ? row.area_id === areaId : row.floor_id === floorId)
      if (inScope.length === 0) return { window: { start: isoSeconds(window.start), end: isoSeconds(window.end) }, events: [], total: 0, note: 'No entities in this scope.' }
      entityIds = inScope.slice(0, LOGBOOK_MAX_SCOPE_ENTITIES).map(row => row.entity_id)
      if (inScope.length > LOGBOOK_MAX_SCOPE_ENTITIES) scopeNote = `The scope has ${inScope.length} entities; only the first ${LOGBOOK_MAX_SCOPE_ENTITIES} by id were queried. Use entity_id for the others.`
    }
    const people = peopleByUser(home)
    // Newest first, in pieces, and no further back than the answer can show.
    const read = await recentLogbook(ha, clock, { start: window.start, end: window.end, ...(entityIds ? { entityIds } : {}) }, LOGBOOK_MAX_EVENTS, row => !row.entity_id || home.visible(row.entity_id))
    const rows = visibleRows(home, read.rows)
    const events = rows.map(row => shapeRow(home, people, row))
    // Keep the newest events that fit the answer budget: the oldest ones go first.
    let bytes = byteLength(events)
    while (events.length > 1 && bytes > EVENTS_BYTE_BUDGET) bytes -= byteLength(events.shift()) + 1
    const kept = events
    const notes: string[] = []
    // What was left out: events older than the oldest shown, read and dropped, or never read.
    const oldestShown = rows[rows.length - kept.length]?.when
    const hasMore = !read.complete || kept.length < read.seen
    const olderBefore = oldestShown ?? (read.complete ? undefined : read.reached)
    if (hasMore) {
      const next = olderBefore === undefined ? 'Narrow the window or the scope.' : `For the ones before, call again with end "${new Date(olderBefore).toISOString()}", or narrow the window or the scope.`
      const why = read.stoppedBy === 'deadline' ? ' (Home Assistant was slow to answer, so the rest of the window was not read)' : ''
      notes.push(read.complete
        ? `${read.seen} events; only the last ${kept.length} are shown. ${next}`
        : `Only the last ${kept.length} events are shown; older ones in the window were not read${why}. ${next}`)
    }
    if (scopeNote) notes.push(scopeNote)
    if (read.complete && read.seen === 0) notes.push('No events in this window (numeric sensors are not in the logbook: use ha_get_history).')
    return {
      window: { start: isoSeconds(window.start), end: isoSeconds(window.end) },
      ...(read.complete ? { total: read.seen } : {}),
      returned: kept.length,
      has_more: hasMore,
      ...(hasMore && olderBefore !== undefined ? { older_before: new Date(olderBefore).toISOString() } : {}),
      events: kept,
      ...(notes.length ? { note: notes.join(' ') } : {})
    }
  }
})

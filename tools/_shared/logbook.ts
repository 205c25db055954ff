import type { Clock } from '../../src/clock.ts'
import type { HomeAssistant } from '../../src/ha/index.ts'
import { PIECE_READ_BUDGET_MS, walkPieces, type PieceWalk } from '../../src/ha/pieces.ts'
import type { HomeView } from '../../src/home/view.ts'
import { toMillis } from './window.ts'

/** One logbook row as HA sends it (`logbook/get_events`); every field is optional. */
export interface LogbookRow {
  when: number
  entity_id?: string
  name?: string
  message?: string
  state?: string
  domain?: string
  source?: string
  context_id?: string
  context_user_id?: string
  context_event_type?: string
  context_domain?: string
  context_service?: string
  context_entity_id?: string
  context_name?: string
  context_source?: string
  context_message?: string
  context_state?: string
}

export interface LogbookQuery {
  start: Date
  end: Date
  entityIds?: string[]
  contextId?: string
}

/** Fetches logbook rows, oldest first, with `when` in milliseconds and rows without a time dropped. */
export async function fetchLogbook (ha: HomeAssistant, query: LogbookQuery): Promise<LogbookRow[]> {
  return toRows(await ha.command<unknown>({
    type: 'logbook/get_events',
    start_time: query.start.toISOString(),
    end_time: query.end.toISOString(),
    // An empty entity_ids means the whole home to Home Assistant: never sent.
    ...(query.entityIds?.length ? { entity_ids: query.entityIds } : {}),
    ...(query.contextId ? { context_id: query.contextId } : {})
  }))
}

function toRows (result: unknown): LogbookRow[] {
  if (!Array.isArray(result)) return []
  const rows: LogbookRow[] = []
  for (const raw of result as Array<Record<string, unknown>>) {
    if (raw === null || typeof raw !== 'object') continue
    const when = toMillis(raw.when)
    if (when === undefined) continue
    const row: Record<string, unknown> = {}
    for (const [key, value] of Object.entries(raw)) if (typeof value === 'string') row[key] = value
    rows.push({ ...row, when } as LogbookRow)
  }
  return rows.sort((a, b) => a.when - b.when)
}

/**
 * Applies filter_reads to logbook rows: a row about a hidden entity is dropped, and a visible row
 * caused by a hidden entity keeps no trace of it (its context fields are removed).
 */
export function visibleRows (home: HomeView, rows: LogbookRow[]): LogbookRow[] {
  const out: LogbookRow[] = []
  for (const row of rows) {
    if (row.entity_id && !home.visible(row.entity_id)) continue
    if (row.context_entity_id && !home.visible(row.context_entity_id)) {
      const { context_entity_id: _e, context_name: _n, context_state: _s, context_message: _m, context_source: _src, ...rest } = row
      out.push(rest)
    } else {
      out.push(row)
    }
  }
  return out
}

/** Rows a logbook piece should hold: a few hundred KB from Home Assistant, whatever the home. */
export const LOGBOOK_PIECE_ROWS = 1000
const QUARTER_HOUR = 15 * 60_000

export interface RecentLogbook extends PieceWalk {
  /** The newest `want` rows that `keep` kept, oldest first. */
  rows: LogbookRow[]
  /** Rows kept in the part of the window that was read. */
  seen: number
}

/**
 * The newest `want` logbook rows of a window that `keep` keeps (visibility, say), read newest piece
 * first and no further back than needed: a week of a whole home is never held at once.
 */
export async function recentLogbook (ha: HomeAssistant, clock: Clock, query: LogbookQuery, want: number, keep: (row: LogbookRow) => boolean, budgetMs = PIECE_READ_BUDGET_MS): Promise<RecentLogbook> {
  let kept: LogbookRow[] = []
  let seen = 0
  const entities = query.entityIds?.length
  // A whole home starts with a quarter of an hour; a few entities with a day, shared between them.
  const firstMs = entities === undefined ? QUARTER_HOUR : Math.max(QUARTER_HOUR, 24 * 3_600_000 / entities)
  const walk = await walkPieces<LogbookRow>('backward', query.start.getTime(), query.end.getTime(), row => row.when,
    async (from, to) => await fetchLogbook(ha, { ...query, start: new Date(from), end: new Date(to) }),
    rows => {
      const visible = rows.filter(keep)
      seen += visible.length
      kept = visible.slice(Math.max(0, visible.length - (want - kept.length))).concat(kept)
      return kept.length >= want
    },
    // Past the deadline only while nothing was found: an empty answer would say nothing.
    { targetRows: LOGBOOK_PIECE_ROWS, firstMs, deadline: clock.now() + budgetMs, now: clock.now, pastDeadline: () => kept.length === 0 })
  return { ...walk, rows: kept, seen }
}

export interface Person { entity_id: string, name: string }

/** Visible people by their Home Assistant user id (a person.* carries it as `user_id`); build once per call. */
export function peopleByUser (home: HomeView): Map<string, Person> {
  const people = new Map<string, Person>()
  for (const row of home.entities()) {
    if (row.domain !== 'person') continue
    const userId = home.state(row.entity_id)?.attributes.user_id
    if (typeof userId === 'string') people.set(userId, { entity_id: row.entity_id, name: row.name })
  }
  return people
}

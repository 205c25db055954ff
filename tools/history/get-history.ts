import type { Clock } from '../../src/clock.ts'
import { z } from 'zod'
import { defineTool } from '../../src/mcp/runtime/define-tool.ts'
import { requireEntities } from '../../src/home/entities.ts'
import { entityIdsArg } from '../_shared/ids.ts'
import { isoSeconds, resolveWindow, toMillis, windowShape } from '../_shared/window.ts'
import type { HomeAssistant } from '../../src/ha/index.ts'
import { PIECE_READ_BUDGET_MS, walkPieces } from '../../src/ha/pieces.ts'

/** Points shared by every requested entity: sized so the answer stays well under the cap. */
export const HISTORY_POINT_BUDGET = 250
const LIMITS = { minHours: 0.25, maxHours: 168, defaultHours: 24 }

interface Point { t: number, s: string }

/** One HA history row as a point: compressed ({s, lu, lc}) and long ({state, last_changed}) rows alike. */
function toPoint (row: unknown): Point | undefined {
  if (row === null || typeof row !== 'object') return undefined
  const r = row as Record<string, unknown>
  const state = r.s ?? r.state
  const time = toMillis(r.lu ?? r.last_updated ?? r.lc ?? r.last_changed)
  return typeof state === 'string' && time !== undefined ? { t: time, s: state } : undefined
}

/** How long the pieces may keep coming, inside invokeTool's 8 s read budget; memory is bounded anyway. */
const HISTORY_READ_BUDGET_MS = 6_000

/** Rows a history piece should hold, over all its entities. */
const HISTORY_PIECE_ROWS = 2000

/**
 * One entity's history read piece by piece: the summary (min/max/mean or hours per state) over every
 * change, and at most twice the point budget kept at any time (every other point is dropped when it
 * fills, which keeps them evenly spread), so a busy sensor's week never sits in memory whole.
 */
export class Series {
  changes = -1
  #kept: Point[] = []
  #stride = 1
  #index = 0
  #last: Point | undefined
  #numbers = 0
  #min = Infinity
  #max = -Infinity
  #sum = 0
  #hours = new Map<string, number>()
  readonly #budget: number

  constructor (budget: number) {
    this.#budget = Math.max(1, budget)
  }

  add (point: Point): void {
    const previous = this.#last
    if (previous && previous.s === point.s) return
    if (previous) this.#hours.set(previous.s, (this.#hours.get(previous.s) ?? 0) + Math.max(0, point.t - previous.t) / 3_600_000)
    this.#last = point
    this.changes++
    const n = Number(point.s)
    if (Number.isFinite(n)) {
      this.#numbers++
      this.#sum += n
      if (n < this.#min) this.#min = n
      if (n > this.#max) this.#max = n
    }
    if (this.#index++ % this.#stride === 0) this.#kept.push(point)
    if (this.#kept.length >= 2 * this.#budget) {
      this.#kept = this.#kept.filter((_p, i) => i % 2 === 0)
      this.#stride *= 2
    }
  }

  get count (): number { return this.changes + 1 }

  /** Evenly spaced points, the first (state at window start) and the last (the latest) always among them. */
  points (): Point[] {
    const all = this.#last && this.#kept.at(-1) !== this.#last ? [...this.#kept, this.#last] : this.#kept
    return downsample(all, this.#budget)
  }

  /** Numbers get min/max/mean; anything else gets hours spent in each state. */
  summary (endMs: number): Record<string, unknown> {
    const total = this.count
    if (total > 0 && this.#numbers >= total / 2) {
      const round = (n: number): number => Math.round(n * 1000) / 1000
      return { min: round(this.#min), max: round(this.#max), mean: round(this.#sum / this.#numbers) }
    }
    const hours = new Map(this.#hours)
    if (this.#last) hours.set(this.#last.s, (hours.get(this.#last.s) ?? 0) + Math.max(0, endMs - this.#last.t) / 3_600_000)
    return { hours_in_state: Object.fromEntries([...hours].sort((a, b) => b[1] - a[1]).slice(0, 10).map(([s, h]) => [s, Math.round(h * 100) / 100])) }
  }
}

/**
 * Reads the history of a few entities over a window, oldest piece first, into one Series each. Home
 * Assistant gets the state at the window's start in the first piece only. Returns where it got to.
 */
export async function readHistory (ha: HomeAssistant, clock: Clock, ids: string[], start: number, end: number, series: Map<string, Series>, budgetMs = PIECE_READ_BUDGET_MS): Promise<{ complete: boolean, reached: number }> {
  const walk = await walkPieces<{ id: string, point: Point }>('forward', start, end, row => row.point.t,
    async (from, to, first) => {
      const result = await ha.command<Record<string, unknown>>({
        type: 'history/history_during_period',
        start_time: new Date(from).toISOString(),
        end_time: new Date(to).toISOString(),
        entity_ids: ids,
        minimal_response: true,
        no_attributes: true,
        include_start_time_state: first,
        significant_changes_only: false
      })
      const rows: Array<{ id: string, point: Point }> = []
      for (const id of ids) {
        const list = result?.[id]
        if (!Array.isArray(list)) continue
        for (const raw of list) {
          const point = toPoint(raw)
          if (point) rows.push({ id, point })
        }
      }
      return rows
    },
    rows => {
      for (const row of rows) series.get(row.id)?.add(row.point)
      return false
    },
    // A week of five sensors sampled every minute is about 50,000 rows: a few pieces.
    { targetRows: HISTORY_PIECE_ROWS, firstMs: 2 * 3_600_000, deadline: clock.now() + budgetMs, now: clock.now })
  return { complete: walk.complete, reached: walk.reached }
}

/** Evenly spaced points that always keep the first (state at window start) and the last. */
export function downsample<T> (points: readonly T[], budget: number): T[] {
  if (points.length <= budget) return [...points]
  if (budget <= 1) return points.slice(-1)
  const kept: T[] = []
  for (let i = 0; i < budget; i++) kept.push(points[Math.round(i * (points.length - 1) / (budget - 1))] as T)
  return kept
}

export default defineTool({
  name: 'ha_get_history',
  title: 'Get state history',
  description: 'State changes with a summary; first point = state at window start; 250 points shared, downsampled.',
  kind: 'read',
  category: 'history',
  everyday: true,
  keywords: {
    en: 'history past yesterday last hours when was how long changes over time graph trend previously earlier time long duration last',
    de: 'verlauf historie gestern letzte stunden wann wie lange änderungen zeitverlauf früher zeit dauer zuletzt',
    fr: 'historique passé hier dernières heures quand combien de temps changements évolution avant heure durée dernière fois',
    es: 'historial pasado ayer últimas horas cuándo cuánto tiempo cambios evolución antes hora duración última vez',
    nl: 'geschiedenis verleden gisteren afgelopen uren wanneer hoe lang veranderingen verloop eerder tijd duur laatst'
  },
  input: z.object({
    entity_id: entityIdsArg(5),
    ...windowShape(LIMITS)
  }),
  async handler ({ home, ha, clock }, args) {
    const ids = requireEntities(home, args.entity_id)
    const window = resolveWindow(args, LIMITS, clock.now())
    const budget = Math.floor(HISTORY_POINT_BUDGET / ids.length)
    const endMs = Math.min(window.end.getTime(), clock.now())
    const all = new Map(ids.map(id => [id, new Series(budget)]))
    // Oldest first, so a read cut short would miss the latest states: it gets most of the read budget.
    const read = await readHistory(ha, clock, ids, window.start.getTime(), window.end.getTime(), all, HISTORY_READ_BUDGET_MS)
    const series: Record<string, unknown> = {}
    const notes: string[] = []
    if (!read.complete) notes.push(`Home Assistant was slow to answer: history is read up to ${isoSeconds(read.reached)} only; narrow the window for the rest.`)
    for (const id of ids) {
      const history = all.get(id) as Series
      const kept = history.points()
      const unit = home.state(id)?.attributes.unit_of_measurement
      series[id] = {
        name: home.entity(id)?.name,
        ...(typeof unit === 'string' ? { unit } : {}),
        changes: Math.max(0, history.changes),
        ...history.summary(read.complete ? endMs : read.reached),
        returned: kept.length,
        points: kept.map(p => ({ t: isoSeconds(p.t), s: p.s }))
      }
      if (history.count === 0) notes.push(`${id}: no recorded states in this window.`)
      if (kept.length < history.count) notes.push(`${id}: ${history.count} points downsampled to ${kept.length} (first and last kept); narrow the window for detail.`)
    }
    const window_ = { start: isoSeconds(window.start), end: isoSeconds(window.end) }
    const note = notes.length ? notes.join(' ') : undefined
    if (!Array.isArray(args.entity_id)) return { entity_id: ids[0], window: window_, ...(series[ids[0] as string] as object), ...(note ? { note } : {}) }
    return { window: window_, series, ...(note ? { note } : {}) }
  }
})

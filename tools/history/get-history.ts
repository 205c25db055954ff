import { z } from 'zod'
import { defineTool } from '../../src/mcp/define-tool.ts'
import { requireEntities } from '../../src/home/entities.ts'
import { entityIdsArg } from '../_shared/ids.ts'
import { isoSeconds, resolveWindow, toMillis, windowShape } from '../_shared/window.ts'

/** Points shared by every requested entity: sized so the answer stays well under the cap. */
export const HISTORY_POINT_BUDGET = 250
const LIMITS = { minHours: 0.25, maxHours: 168, defaultHours: 24 }

interface Point { t: number, s: string }

/** Reads HA's compressed ({s, lu, lc}) and long ({state, last_changed}) history rows alike. */
function toPoints (rows: unknown): Point[] {
  if (!Array.isArray(rows)) return []
  const points: Point[] = []
  for (const row of rows as Array<Record<string, unknown>>) {
    if (row === null || typeof row !== 'object') continue
    const state = row.s ?? row.state
    const time = toMillis(row.lu ?? row.last_updated ?? row.lc ?? row.last_changed)
    if (typeof state !== 'string' || time === undefined) continue
    const previous = points[points.length - 1]
    if (previous && previous.s === state) continue
    points.push({ t: time, s: state })
  }
  return points
}

/** Evenly spaced points that always keep the first (state at window start) and the last. */
export function downsample<T> (points: readonly T[], budget: number): T[] {
  if (points.length <= budget) return [...points]
  if (budget <= 1) return points.slice(-1)
  const kept: T[] = []
  for (let i = 0; i < budget; i++) kept.push(points[Math.round(i * (points.length - 1) / (budget - 1))] as T)
  return kept
}

/** Numbers get min/max/mean; anything else gets hours spent in each state, computed before downsampling. */
function summarize (points: Point[], endMs: number): Record<string, unknown> {
  const numbers = points.map(p => Number(p.s)).filter(n => Number.isFinite(n))
  if (points.length > 0 && numbers.length >= points.length / 2) {
    const round = (n: number): number => Math.round(n * 1000) / 1000
    return { min: round(Math.min(...numbers)), max: round(Math.max(...numbers)), mean: round(numbers.reduce((a, b) => a + b, 0) / numbers.length) }
  }
  const hours = new Map<string, number>()
  points.forEach((point, i) => {
    const until = points[i + 1]?.t ?? endMs
    hours.set(point.s, (hours.get(point.s) ?? 0) + Math.max(0, until - point.t) / 3_600_000)
  })
  return { hours_in_state: Object.fromEntries([...hours].sort((a, b) => b[1] - a[1]).slice(0, 10).map(([s, h]) => [s, Math.round(h * 100) / 100])) }
}

export default defineTool({
  name: 'ha_get_history',
  title: 'Get state history',
  description: 'State changes with a summary; first point = state at window start; 250 points shared, downsampled.',
  kind: 'read',
  input: z.object({
    entity_id: entityIdsArg(5),
    ...windowShape(LIMITS)
  }),
  async handler ({ home, ha }, args) {
    const ids = requireEntities(home, args.entity_id)
    const window = resolveWindow(args, LIMITS)
    const result = await ha.command<Record<string, unknown>>({
      type: 'history/history_during_period',
      start_time: window.start.toISOString(),
      end_time: window.end.toISOString(),
      entity_ids: ids,
      minimal_response: true,
      no_attributes: true,
      include_start_time_state: true,
      significant_changes_only: false
    })
    const budget = Math.floor(HISTORY_POINT_BUDGET / ids.length)
    const endMs = Math.min(window.end.getTime(), Date.now())
    const series: Record<string, unknown> = {}
    const notes: string[] = []
    for (const id of ids) {
      const points = toPoints(result?.[id])
      const kept = downsample(points, budget)
      const unit = home.state(id)?.attributes.unit_of_measurement
      series[id] = {
        name: home.entity(id)?.name,
        ...(typeof unit === 'string' ? { unit } : {}),
        changes: Math.max(0, points.length - 1),
        ...summarize(points, endMs),
        returned: kept.length,
        points: kept.map(p => ({ t: isoSeconds(p.t), s: p.s }))
      }
      if (points.length === 0) notes.push(`${id}: no recorded states in this window.`)
      if (kept.length < points.length) notes.push(`${id}: ${points.length} points downsampled to ${kept.length} (first and last kept); narrow the window for detail.`)
    }
    const window_ = { start: isoSeconds(window.start), end: isoSeconds(window.end) }
    const note = notes.length ? notes.join(' ') : undefined
    if (!Array.isArray(args.entity_id)) return { entity_id: ids[0], window: window_, ...(series[ids[0] as string] as object), ...(note ? { note } : {}) }
    return { window: window_, series, ...(note ? { note } : {}) }
  }
})

import { z } from 'zod'
import { UserError } from '../../src/errors.ts'
import { STATISTIC_ID } from '../../src/home/entities.ts'
import { defineTool } from '../../src/mcp/runtime/define-tool.ts'
import { isoSeconds, resolveWindow, toMillis, windowShape } from '../_shared/window.ts'

const LIMITS = { minHours: 1, maxHours: 8760, defaultHours: 24 }
/** Rows shared by every requested statistic: about 90 bytes each keeps the answer under the cap. */
export const STATISTICS_ROW_BUDGET = 140
const PERIOD_HOURS = { '5minute': 1 / 12, hour: 1, day: 24, week: 168, month: 730 } as const
type Period = keyof typeof PERIOD_HOURS
const PERIODS = Object.keys(PERIOD_HOURS) as Period[]
const VALUE_KEYS = ['mean', 'min', 'max', 'state', 'sum', 'change'] as const

const statisticId = z.string().trim().toLowerCase().min(1)

/** The finest period, not finer than asked, whose rows for this window fit the per-statistic budget. */
function fittingPeriod (asked: Period, hours: number, perStatistic: number): Period {
  for (const period of PERIODS.slice(PERIODS.indexOf(asked))) {
    if (hours / PERIOD_HOURS[period] <= perStatistic) return period
  }
  return 'month'
}

function round (value: unknown): unknown {
  return typeof value === 'number' ? Math.round(value * 1000) / 1000 : value
}

export default defineTool({
  name: 'ha_get_statistics',
  title: 'Get long-term statistics',
  description: 'Mean/min/max or sum/change per period, up to a year back; better than history for long windows.',
  kind: 'read',
  category: 'history',
  everyday: false,
  keywords: {
    en: 'statistics long term average mean minimum maximum monthly yearly last month last year per day daily total trend',
    de: 'statistik langzeit durchschnitt mittelwert minimum maximum monatlich jährlich letzten monat letztes jahr pro tag',
    fr: 'statistiques long terme moyenne minimum maximum mensuel annuel mois dernier année dernière par jour',
    es: 'estadísticas largo plazo promedio media mínimo máximo mensual anual mes pasado año pasado por día',
    nl: 'statistieken lange termijn gemiddelde minimum maximum maandelijks jaarlijks vorige maand vorig jaar per dag'
  },
  input: z.object({
    statistic_id: z.union([statisticId, z.array(statisticId).min(1).max(10)]).describe('Usually sensor entity ids.'),
    period: z.enum(PERIODS).default('hour').describe('Bucket size; coarsened for long windows.'),
    ...windowShape(LIMITS)
  }),
  async handler ({ home, ha, clock }, args) {
    const ids = [...new Set(Array.isArray(args.statistic_id) ? args.statistic_id : [args.statistic_id])]
    // An entity-like statistic belongs to its entity: hidden or unknown entities are refused alike.
    const refused = ids.filter(id => !STATISTIC_ID.test(id) || (id.includes('.') && !home.entity(id)))
    if (refused.length) throw new UserError(refused.every(id => id.includes('.')) ? 'HAMCP_ENTITY_NOT_FOUND' : 'HAMCP_NOT_FOUND', `Statistic ${refused.join(', ')} not found.`, 'Use ha_search_entities to find sensors; statistics exist for sensors with a state_class.')
    const window = resolveWindow(args, LIMITS, clock.now())
    const perStatistic = Math.floor(STATISTICS_ROW_BUDGET / ids.length)
    const period = fittingPeriod(args.period, window.hours, perStatistic)
    const result = await ha.command<Record<string, unknown>>({
      type: 'recorder/statistics_during_period',
      start_time: window.start.toISOString(),
      end_time: window.end.toISOString(),
      statistic_ids: ids,
      period,
      types: ['mean', 'min', 'max', 'state', 'sum', 'change']
    })
    const statistics: Record<string, unknown> = {}
    const missing: string[] = []
    const notes: string[] = []
    if (period !== args.period) notes.push(`Period raised from ${args.period} to ${period} so the answer fits; narrow the window for finer buckets.`)
    for (const id of ids) {
      const rows = Array.isArray(result?.[id]) ? result[id] as Array<Record<string, unknown>> : []
      if (rows.length === 0) { missing.push(id); continue }
      const kept = rows.slice(-perStatistic)
      if (kept.length < rows.length) notes.push(`${id}: only the last ${kept.length} of ${rows.length} rows.`)
      const unit = home.state(id)?.attributes.unit_of_measurement
      statistics[id] = {
        ...(typeof unit === 'string' ? { unit } : {}),
        rows: kept.map(row => {
          const start = toMillis(row.start)
          const out: Record<string, unknown> = { start: start === undefined ? row.start : isoSeconds(start) }
          for (const key of VALUE_KEYS) if (row[key] !== undefined && row[key] !== null) out[key] = round(row[key])
          return out
        })
      }
    }
    if (missing.length) notes.push(`No statistics for ${missing.join(', ')} in this window (no state_class, or nothing recorded yet).`)
    return {
      window: { start: isoSeconds(window.start), end: isoSeconds(window.end) },
      period,
      statistics,
      ...(missing.length ? { missing } : {}),
      ...(notes.length ? { note: notes.join(' ') } : {})
    }
  }
})

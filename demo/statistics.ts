import { HaError, invalidFormat } from './errors.ts'
import { profileValue } from './history.ts'
import type { House } from './house.ts'
import { parseTime } from './util.ts'

const PERIODS = ['5minute', 'day', 'hour', 'week', 'month']
const ALL_TYPES = ['change', 'last_reset', 'max', 'mean', 'min', 'state', 'sum']
const DAY = 86_400_000
/** long-term statistics exist for a year, short-term (5 minute) ones for 10 days, like the recorder's defaults */
const LONG_TERM_MS = 365 * DAY
const SHORT_TERM_MS = 10 * DAY

interface Meta { statisticId: string, unit: string | null, hasSum: boolean, unitClass: string | null }

const UNIT_CLASS: Record<string, string> = { '°C': 'temperature', '%': 'unitless', W: 'power', kWh: 'energy', lx: 'illuminance', 'm³': 'volume', dBm: 'signal_strength' }

export function statisticMeta (house: House, statisticId: string): Meta | undefined {
  const profile = house.home.profiles.get(statisticId)
  const state = house.states.get(statisticId)
  if (profile === undefined || state === undefined || state.attributes.state_class === undefined) return undefined
  if (profile.kind !== 'numeric' && profile.kind !== 'energy') return undefined
  const unit = typeof state.attributes.unit_of_measurement === 'string' ? state.attributes.unit_of_measurement : null
  return { statisticId, unit, hasSum: profile.kind === 'energy', unitClass: unit === null ? null : UNIT_CLASS[unit] ?? null }
}

export function metadataView (meta: Meta): Record<string, unknown> {
  return { statistic_id: meta.statisticId, display_unit_of_measurement: meta.unit, has_sum: meta.hasSum, mean_type: meta.hasSum ? 0 : 1, name: null, source: 'recorder', statistics_unit_of_measurement: meta.unit, unit_class: meta.unitClass }
}

function bucketStarts (period: string, from: number, to: number): number[] {
  const out: number[] = []
  if (period === 'month') {
    const d = new Date(from)
    let t = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1)
    while (t < to) { out.push(t); const n = new Date(t); t = Date.UTC(n.getUTCFullYear(), n.getUTCMonth() + 1, 1) }
    return out
  }
  const size = period === '5minute' ? 300_000 : period === 'hour' ? 3_600_000 : period === 'day' ? DAY : 7 * DAY
  const offset = period === 'week' ? 4 * DAY : 0 // epoch was a Thursday; weeks start on Monday
  for (let t = Math.floor((from - offset) / size) * size + offset; t < to; t += size) out.push(t)
  return out
}

function bucketEnd (period: string, start: number): number {
  if (period === 'month') { const d = new Date(start); return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1) }
  return start + (period === '5minute' ? 300_000 : period === 'hour' ? 3_600_000 : period === 'day' ? DAY : 7 * DAY)
}

const round = (n: number): number => Math.round(n * 1000) / 1000

/** recorder/statistics_during_period: ms timestamps, mean/min/max for measurements, state/sum/change for totals. */
export function statisticsDuringPeriod (house: House, msg: Record<string, unknown>): Record<string, unknown[]> {
  const from = parseTime(msg.start_time)
  if (from === undefined) throw new HaError('invalid_start_time', 'Invalid start_time')
  const to = msg.end_time === undefined ? Date.now() : parseTime(msg.end_time)
  if (to === undefined) throw new HaError('invalid_end_time', 'Invalid end_time')
  const period = msg.period
  if (typeof period !== 'string' || !PERIODS.includes(period)) throw invalidFormat(`value must be one of ['5minute', 'day', 'hour', 'month', 'week'] for dictionary value @ data['period']. Got ${JSON.stringify(period ?? null)}`)
  if (!Array.isArray(msg.statistic_ids) || msg.statistic_ids.length === 0) throw invalidFormat("length of value must be at least 1 for dictionary value @ data['statistic_ids']")
  const types = Array.isArray(msg.types) ? msg.types.map(String) : ALL_TYPES
  const now = Date.now()
  const earliest = now - (period === '5minute' ? SHORT_TERM_MS : LONG_TERM_MS)
  const out: Record<string, unknown[]> = {}
  for (const id of msg.statistic_ids.map(String)) {
    const meta = statisticMeta(house, id)
    const profile = house.home.profiles.get(id)
    if (meta === undefined || profile === undefined) continue
    const rows: unknown[] = []
    for (const start of bucketStarts(period, Math.max(from, earliest), to)) {
      const end = bucketEnd(period, start)
      if (end > now || start < earliest - DAY * 31) continue
      const row: Record<string, unknown> = { start, end }
      if (meta.hasSum) {
        const origin = profileValue(house, id, profile, now - LONG_TERM_MS)
        const atStart = profileValue(house, id, profile, start)
        const atEnd = profileValue(house, id, profile, end)
        if (types.includes('state')) row.state = round(atEnd)
        if (types.includes('sum')) row.sum = round(atEnd - origin)
        if (types.includes('change')) row.change = round(atEnd - atStart)
        if (types.includes('last_reset')) row.last_reset = null
      } else {
        const step = end - start <= 3_600_000 ? 300_000 : 3_600_000
        let sum = 0
        let count = 0
        let min = Infinity
        let max = -Infinity
        for (let t = start; t < end; t += step) {
          const v = profileValue(house, id, profile, t)
          sum += v; count++
          if (v < min) min = v
          if (v > max) max = v
        }
        if (types.includes('mean')) row.mean = round(sum / count)
        if (types.includes('min')) row.min = round(min)
        if (types.includes('max')) row.max = round(max)
      }
      rows.push(row)
    }
    if (rows.length > 0) out[id] = rows
  }
  return out
}

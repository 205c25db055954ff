import { z } from 'zod'
import { UserError } from '../../src/errors.ts'
import type { HomeAssistant } from '../../src/ha/index.ts'
import { defineTool } from '../../src/mcp/runtime/define-tool.ts'
import { HOUR_MS } from '../_shared/read-calls.ts'

const PERIOD_HOURS = { day: 24, week: 168, month: 720 } as const
const TOP_DEVICES = 10

interface FlowStat { stat_energy_from?: string, stat_energy_to?: string }
interface Source { type?: string, flow_from?: FlowStat[], flow_to?: FlowStat[], stat_energy_from?: string, stat_energy_to?: string }
interface Prefs { energy_sources?: Source[], device_consumption?: Array<{ stat_consumption?: string, name?: string }> }

type Bucket = 'grid_import' | 'grid_export' | 'solar' | 'battery_in' | 'battery_out' | 'gas' | 'water'

/** Which statistic feeds which bucket, from the energy dashboard preferences. */
function bucketsOf (prefs: Prefs): Map<Bucket, string[]> {
  const buckets = new Map<Bucket, string[]>()
  const add = (bucket: Bucket, id: string | undefined): void => { if (id) buckets.set(bucket, [...(buckets.get(bucket) ?? []), id]) }
  for (const source of prefs.energy_sources ?? []) {
    if (source.type === 'grid') {
      for (const flow of source.flow_from ?? []) add('grid_import', flow.stat_energy_from)
      for (const flow of source.flow_to ?? []) add('grid_export', flow.stat_energy_to)
      add('grid_import', source.stat_energy_from)
      add('grid_export', source.stat_energy_to)
    } else if (source.type === 'solar') add('solar', source.stat_energy_from)
    else if (source.type === 'battery') { add('battery_out', source.stat_energy_from); add('battery_in', source.stat_energy_to) } else if (source.type === 'gas') add('gas', source.stat_energy_from)
    else if (source.type === 'water') add('water', source.stat_energy_from)
  }
  return buckets
}

async function changes (ha: HomeAssistant, ids: string[], start: number, end: number, hours: number): Promise<Map<string, number>> {
  const totals = new Map<string, number>()
  if (ids.length === 0) return totals
  const rows = await ha.command<Record<string, Array<{ change?: number | null }>>>({
    type: 'recorder/statistics_during_period',
    start_time: new Date(start).toISOString(),
    end_time: new Date(end).toISOString(),
    statistic_ids: ids,
    period: hours > 168 ? 'day' : 'hour',
    types: ['change']
  })
  for (const id of ids) totals.set(id, (rows?.[id] ?? []).reduce((sum, row) => sum + (typeof row.change === 'number' ? row.change : 0), 0))
  return totals
}

const round = (n: number): number => Math.round(n * 1000) / 1000

export default defineTool({
  name: 'ha_get_energy',
  title: 'Get energy usage',
  description: 'Energy dashboard totals: grid, solar, battery, gas, water, top 10 devices.',
  kind: 'read',
  category: 'environment',
  everyday: true,
  keywords: {
    en: 'energy electricity power consumption usage kwh solar production grid import export battery gas water bill cost spend',
    de: 'energie strom stromverbrauch verbrauch kwh solar photovoltaik pv netz einspeisung batterie gas wasser kosten',
    fr: 'énergie électricité consommation kwh solaire production réseau batterie gaz eau facture coût',
    es: 'energía electricidad consumo kwh solar producción red batería gas agua factura coste',
    nl: 'energie stroom elektriciteit verbruik kwh zonnepanelen zon opbrengst net accu batterij gas water kosten'
  },
  input: z.object({
    period: z.enum(['day', 'week', 'month']).default('day').describe('Window ending now.'),
    compare: z.boolean().default(false).describe('Add the previous period and % change.')
  }),
  async handler ({ ha, home, clock }, { period, compare }) {
    let prefs: Prefs
    try {
      prefs = await ha.command<Prefs>({ type: 'energy/get_prefs' })
    } catch (err) {
      if ((err as { haCode?: string }).haCode === 'not_found' || /No prefs|not_found/i.test((err as Error).message)) {
        throw new UserError('HAMCP_NOT_SUPPORTED', 'The energy dashboard is not configured in this home.', 'Set it up under Settings > Dashboards > Energy, or read meters with ha_get_statistics.')
      }
      throw err
    }
    const buckets = bucketsOf(prefs)
    // Statistics of hidden entities are dropped before anything is fetched.
    for (const [bucket, ids] of buckets) buckets.set(bucket, ids.filter(id => !id.includes('.') || home.visible(id)))
    const devices = (prefs.device_consumption ?? []).filter(d => d.stat_consumption && (!d.stat_consumption.includes('.') || home.visible(d.stat_consumption)))
    const allIds = [...new Set([...[...buckets.values()].flat(), ...devices.map(d => d.stat_consumption as string)])]
    if (allIds.length === 0) throw new UserError('HAMCP_NOT_SUPPORTED', 'The energy dashboard has no visible sources.', 'Read meters directly with ha_get_statistics.')

    const hours = PERIOD_HOURS[period]
    const end = clock.now()
    const start = end - hours * HOUR_MS
    const summarize = (totals: Map<string, number>): Record<string, number> => {
      const out: Record<string, number> = {}
      for (const [bucket, ids] of buckets) if (ids.length) out[bucket] = round(ids.reduce((sum, id) => sum + (totals.get(id) ?? 0), 0))
      return out
    }
    const current = await changes(ha, allIds, start, end, hours)
    const totals = summarize(current)
    const unitOf = (id: string): unknown => home.state(id)?.attributes.unit_of_measurement
    const units: Record<string, unknown> = {}
    for (const [bucket, ids] of buckets) if (ids[0]) units[bucket] = unitOf(ids[0])
    const topDevices = devices
      .map(d => ({ statistic_id: d.stat_consumption as string, name: d.name ?? home.entity(d.stat_consumption as string)?.name ?? d.stat_consumption, kwh: round(current.get(d.stat_consumption as string) ?? 0) }))
      .sort((a, b) => b.kwh - a.kwh).slice(0, TOP_DEVICES)
    const out: Record<string, unknown> = { period, start: new Date(start).toISOString(), end: new Date(end).toISOString(), totals, units, top_devices: topDevices }
    if (totals.grid_import !== undefined || totals.solar !== undefined) {
      out.net_consumption = round((totals.grid_import ?? 0) - (totals.grid_export ?? 0) + (totals.solar ?? 0) + (totals.battery_out ?? 0) - (totals.battery_in ?? 0))
    }
    if (compare) {
      const previous = summarize(await changes(ha, allIds, start - hours * HOUR_MS, start, hours))
      const delta: Record<string, number | null> = {}
      for (const [bucket, value] of Object.entries(totals)) {
        const before = previous[bucket] ?? 0
        delta[bucket] = before === 0 ? null : Math.round(((value - before) / Math.abs(before)) * 1000) / 10
      }
      out.previous = previous
      out.delta_percent = delta
    }
    return out
  }
})

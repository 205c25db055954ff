import { z } from 'zod'
import { defineTool } from '../../src/mcp/runtime/define-tool.ts'
import type { HomeView } from '../../src/home/view.ts'

const SECTION_CAP = 30
const REPAIRS_CAP = 20
/** Domains whose normal resting state is "unknown": listing them as broken would be noise. */
const UNKNOWN_IS_NORMAL = new Set(['button', 'input_button', 'scene', 'event', 'notify', 'tts', 'stt', 'conversation', 'image', 'text', 'wake_word', 'ai_task'])
const DAY_MS = 86_400_000

interface Issue { domain?: string, issue_id?: string, severity?: string, translation_key?: string, breaks_in_ha_version?: string | null, created?: string, ignored?: boolean, dismissed_version?: string | null, is_fixable?: boolean, learn_more_url?: string | null }

function capped<T> (all: T[], cap: number): { items: T[], total: number } {
  return { items: all.slice(0, cap), total: all.length }
}

function daysSince (iso: unknown, now: number): number | null {
  const at = typeof iso === 'string' ? Date.parse(iso) : NaN
  return Number.isNaN(at) ? null : Math.floor((now - at) / DAY_MS)
}

function batteryLevel (home: HomeView, entityId: string, state: string): number | null {
  const attributes = home.state(entityId)?.attributes ?? {}
  if (attributes.device_class === 'battery' && attributes.unit_of_measurement === '%') {
    const value = Number(state)
    if (state !== '' && Number.isFinite(value)) return value
  }
  const level = attributes.battery_level
  return typeof level === 'number' ? level : null
}

export default defineTool({
  name: 'ha_get_health',
  title: 'Get home health',
  description: 'Repairs, unavailable entities, low batteries, stale automations, entities without area.',
  kind: 'read',
  category: 'system',
  everyday: true,
  keywords: {
    en: 'health problems issues repairs broken unavailable offline dead batteries low battery warnings what is wrong check',
    de: 'gesundheit probleme reparaturen kaputt nicht verfügbar offline batterie leer schwach warnungen was stimmt nicht',
    fr: 'santé problèmes réparations cassé indisponible hors ligne batterie faible piles avertissements ce qui ne va pas',
    es: 'salud problemas reparaciones roto no disponible desconectado batería baja pilas avisos qué falla',
    nl: 'gezondheid problemen reparaties kapot niet beschikbaar offline batterij bijna leeg waarschuwingen wat is er mis'
  },
  input: z.object({
    battery_threshold: z.number().int().min(1).max(99).default(20).describe('Low battery below this %.'),
    stale_days: z.number().int().min(1).max(365).default(30).describe('Idle days that make an automation stale.')
  }),
  async handler ({ ha, home, log, clock }, args) {
    const now = clock.now()
    let repairs: Record<string, unknown>
    try {
      const answer = await ha.command<{ issues?: Issue[] }>({ type: 'repairs/list_issues' })
      const open = (answer?.issues ?? []).filter(i => !i.ignored && !i.dismissed_version)
      const order: Record<string, number> = { critical: 0, error: 1, warning: 2 }
      open.sort((a, b) => (order[a.severity ?? ''] ?? 3) - (order[b.severity ?? ''] ?? 3))
      repairs = capped(open.map(i => ({ domain: i.domain, issue_id: i.issue_id, issue: i.translation_key ?? i.issue_id, severity: i.severity, breaks_in: i.breaks_in_ha_version ?? undefined, created: i.created, fixable: i.is_fixable })), REPAIRS_CAP)
    } catch (err) {
      log.debug({ err }, 'repairs/list_issues failed')
      repairs = { items: [], total: 0, note: `Repairs could not be read: ${(err as Error).message}` }
    }

    const rows = home.entities()
    const unavailable = rows
      .filter(row => row.state === 'unavailable' || (row.state === 'unknown' && !UNKNOWN_IS_NORMAL.has(row.domain)))
      .map(row => ({ entity_id: row.entity_id, name: row.name, state: row.state, days: daysSince(home.state(row.entity_id)?.last_changed, now), area: row.area ?? undefined }))
      .sort((a, b) => (b.days ?? 0) - (a.days ?? 0))

    const low = []
    for (const row of rows) {
      if (row.state === 'unavailable' || row.state === 'unknown') continue
      const level = batteryLevel(home, row.entity_id, row.state)
      if (level !== null && level < args.battery_threshold) low.push({ entity_id: row.entity_id, name: row.name, level })
    }
    low.sort((a, b) => a.level - b.level)

    const stale = rows.filter(row => row.domain === 'automation' && row.state === 'on').flatMap(row => {
      const last = home.state(row.entity_id)?.attributes.last_triggered
      const days = daysSince(last, now)
      if (days !== null && days < args.stale_days) return []
      return [{ entity_id: row.entity_id, name: row.name, last_triggered: typeof last === 'string' ? last : null }]
    })

    const noArea = rows.filter(row => row.area_id === null && !row.entity_category && !row.hidden)
    return {
      repairs,
      unavailable: capped(unavailable, SECTION_CAP),
      low_batteries: { ...capped(low, SECTION_CAP), threshold: args.battery_threshold },
      stale_automations: { ...capped(stale, SECTION_CAP), stale_days: args.stale_days },
      without_area: { total: noArea.length, sample: noArea.slice(0, 10).map(row => row.entity_id) },
      note: `Sections list at most ${SECTION_CAP} items (repairs ${REPAIRS_CAP}); use ha_list_entities with state=unavailable to page through all.`
    }
  }
})

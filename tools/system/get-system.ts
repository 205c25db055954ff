import { z } from 'zod'
import { configSummary } from '../../src/ha/config-summary.ts'
import type { ToolContext } from '../../src/mcp/runtime/define-tool.ts'
import { defineTool } from '../../src/mcp/runtime/define-tool.ts'
import { excerpt } from '../../src/shape.ts'
import { ageDays, supervisorGet } from './_supervisor.ts'

const ERROR_LOG_CAP = 40
const MOUNTS_CAP = 10
const BACKUPS_CAP = 10
/** supervisor backups/validate.py SCHEMA_BACKUPS_CONFIG: the default when /backups/info gives none. */
const SUPERVISOR_DAYS_UNTIL_STALE = 30

interface LogEntry { name?: string, message?: string[] | string, level?: string, source?: [string, number] | string[], timestamp?: number, exception?: string, count?: number, first_occurred?: number }
interface Backup { slug?: string, name?: string, date?: string, type?: string, size?: number, protected?: boolean }
interface Mount { name?: string, usage?: string, type?: string, server?: string, state?: string, read_only?: boolean }

const iso = (seconds: unknown): string | undefined => typeof seconds === 'number' ? new Date(seconds * 1000).toISOString() : undefined

async function config ({ ha }: ToolContext): Promise<unknown> {
  return await configSummary(ha)
}

async function errorLog ({ ha, home }: ToolContext): Promise<unknown> {
  const entries = await ha.command<LogEntry[]>({ type: 'system_log/list' })
  const sorted = [...(Array.isArray(entries) ? entries : [])].sort((a, b) => (b.timestamp ?? 0) - (a.timestamp ?? 0))
  // Log lines are free text from integrations: hidden entities' ids and names are masked here.
  const text = (value: unknown, max: number): string | undefined => {
    const clipped = excerpt(value, max)
    return clipped === undefined ? undefined : home.scrub(clipped)
  }
  const items = sorted.slice(0, ERROR_LOG_CAP).map(e => ({
    level: e.level,
    logger: e.name,
    message: text(Array.isArray(e.message) ? e.message.join(' | ') : e.message, 300),
    source: Array.isArray(e.source) ? e.source.join(':') : undefined,
    count: e.count,
    last: iso(e.timestamp),
    first: e.count && e.count > 1 ? iso(e.first_occurred) : undefined,
    exception: text(e.exception?.split('\n').slice(-3).join('\n'), 300)
  }))
  const levels: Record<string, number> = {}
  for (const e of sorted) levels[e.level ?? 'UNKNOWN'] = (levels[e.level ?? 'UNKNOWN'] ?? 0) + 1
  return {
    items,
    returned: items.length,
    total: sorted.length,
    has_more: sorted.length > items.length,
    next_offset: null,
    by_level: levels,
    note: sorted.length > items.length ? `Newest ${ERROR_LOG_CAP} of ${sorted.length} entries.` : undefined
  }
}

async function updates ({ home }: ToolContext): Promise<unknown> {
  const all = home.entities().filter(row => row.domain === 'update')
  const pending = all.filter(row => row.state === 'on').map(row => {
    const a = home.state(row.entity_id)?.attributes ?? {}
    return { entity_id: row.entity_id, title: a.title ?? row.name, installed: a.installed_version, latest: a.latest_version, release_url: a.release_url, in_progress: a.in_progress || undefined }
  })
  return { pending: pending.slice(0, 30), pending_total: pending.length, update_entities: all.length, note: pending.length === 0 ? 'Everything is up to date.' : undefined }
}

async function backups (ctx: ToolContext): Promise<unknown> {
  // /backups/info, not /backups: only it carries the owner's staleness setting (supervisor api/backups.py info_v1).
  const data = await supervisorGet<{ backups?: Backup[], days_until_stale?: number }>(ctx.ha, '/backups/info', 'Backup information')
  const list = [...(data.backups ?? [])].sort((a, b) => Date.parse(b.date ?? '') - Date.parse(a.date ?? ''))
  const now = ctx.clock.now()
  const shape = (b: Backup): Record<string, unknown> => ({ name: b.name, date: b.date, age_days: ageDays(b.date, now), type: b.type, size_mb: b.size, protected: b.protected })
  const last = list[0]
  const stale = typeof data.days_until_stale === 'number' ? data.days_until_stale : SUPERVISOR_DAYS_UNTIL_STALE
  const lastAge = last ? ageDays(last.date, now) : null
  return {
    total: list.length,
    last: last ? shape(last) : null,
    recent: list.slice(0, BACKUPS_CAP).map(shape),
    days_until_stale: stale,
    warning: last === undefined ? 'No backup exists.' : lastAge !== null && lastAge > stale ? `The last backup is ${Math.floor(lastAge)} days old (stale after ${stale}).` : undefined
  }
}

async function mounts (ctx: ToolContext): Promise<unknown> {
  const data = await supervisorGet<{ mounts?: Mount[], default_backup_mount?: string | null }>(ctx.ha, '/mounts', 'Network storage information', 'manager')
  const list = data.mounts ?? []
  const items = list.slice(0, MOUNTS_CAP).map(m => ({ name: m.name, usage: m.usage, type: m.type, server: m.server, state: m.state, read_only: m.read_only }))
  const failing = list.filter(m => m.state && m.state !== 'active').map(m => m.name)
  return {
    items,
    total: list.length,
    default_backup_mount: data.default_backup_mount ?? null,
    warning: failing.length ? `Not active: ${failing.join(', ')}.` : undefined
  }
}

const SECTIONS = { config, error_log: errorLog, updates, backups, mounts }

export default defineTool({
  name: 'ha_get_system',
  title: 'Get system information',
  description: 'One section of system info; error_log is newest first.',
  kind: 'read',
  category: 'system',
  everyday: false,
  keywords: {
    en: 'system info version core os host error log logs errors network storage disk supervisor hardware',
    de: 'system info version core betriebssystem fehlerprotokoll fehler log netzwerk speicher festplatte',
    fr: 'système info version core os journal des erreurs erreurs réseau stockage disque',
    es: 'sistema información versión core os registro de errores errores red almacenamiento disco',
    nl: 'systeem info versie core os foutenlogboek fouten netwerk opslag schijf'
  },
  input: z.object({
    section: z.enum(['config', 'error_log', 'updates', 'backups', 'mounts']).describe('Section.')
  }),
  async handler (ctx, { section }) {
    return { section, ...await SECTIONS[section](ctx) as Record<string, unknown> }
  }
})

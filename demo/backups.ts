import type { IncomingMessage, ServerResponse } from 'node:http'
import { pyRepr } from './errors.ts'
import { jsonBody, sendJson } from './http-util.ts'
import type { Runtime } from './runtime.ts'
import { isRecord } from './util.ts'

/**
 * The Supervisor's backups API: GET /backups, POST /backups/new/full and /backups/new/partial with the
 * Supervisor's own schema (SCHEMA_BACKUP_FULL / _PARTIAL) and `{result, data}` envelope. The demo makes
 * a backup at once; with `background: true` the answer carries only the job id, like a real one in flight.
 */
interface Backup {
  slug: string
  name: string
  date: string
  type: 'full' | 'partial'
  size: number
  size_bytes: number
  location: string | null
  locations: Array<string | null>
  protected: boolean
  protected_locations: Array<string | null>
  compressed: boolean
  content: { homeassistant: boolean, addons: string[], folders: string[] }
}

const FULL_KEYS = ['name', 'filename', 'password', 'compressed', 'location', 'homeassistant_exclude_database', 'background', 'extra']
const PARTIAL_KEYS = [...FULL_KEYS, 'addons', 'folders', 'homeassistant']
const FOLDERS = ['homeassistant', 'ssl', 'share', 'addons/local', 'media']
const INSTALLED_ADDONS = ['local_ha_mcp', 'core_mosquitto', 'core_samba', 'a0d7b954_vscode']
const DAY = 86_400_000

const stores = new WeakMap<Runtime, Backup[]>()

function store (rt: Runtime): Backup[] {
  let list = stores.get(rt)
  if (list !== undefined) return list
  const startMs = rt.house.home.startMs
  list = [1, 2, 8].map(age => {
    const size = 512.4 + age
    return { slug: `demo${age}abc`, name: `Automatic backup ${new Date(startMs - age * DAY).toISOString().slice(0, 10)}`, date: new Date(startMs - age * DAY).toISOString().replace('Z', '+00:00'), type: 'full', size, size_bytes: Math.round(size * 1_048_576), location: null, locations: [null], protected: true, protected_locations: [null], compressed: true, content: { homeassistant: true, addons: ['core_mosquitto'], folders: ['share', 'media'] } }
  })
  stores.set(rt, list)
  return list
}

const ok = (res: ServerResponse, data: unknown): void => { sendJson(res, 200, { result: 'ok', data }) }
const fail = (res: ServerResponse, status: number, message: string): void => { sendJson(res, status, { result: 'error', message }) }

/** voluptuous, humanized as the Supervisor's api_validate sends it. */
function problem (body: Record<string, unknown>, partial: boolean): string | null {
  const allowed = partial ? PARTIAL_KEYS : FULL_KEYS
  for (const [key, value] of Object.entries(body)) if (!allowed.includes(key)) return `extra keys not allowed @ data['${key}']. Got ${pyRepr(value)}`
  if (body.name !== undefined && typeof body.name !== 'string') return `expected str for dictionary value @ data['name']. Got ${pyRepr(body.name)}`
  for (const key of ['background', 'homeassistant', 'homeassistant_exclude_database']) {
    if (body[key] !== undefined && typeof body[key] !== 'boolean') return `expected boolean for dictionary value @ data['${key}']. Got ${pyRepr(body[key])}`
  }
  if (body.addons !== undefined && body.addons !== 'ALL' && (!Array.isArray(body.addons) || body.addons.some(a => typeof a !== 'string'))) return `expected list for dictionary value @ data['addons']. Got ${pyRepr(body.addons)}`
  if (body.folders !== undefined) {
    if (!Array.isArray(body.folders)) return `expected list for dictionary value @ data['folders']. Got ${pyRepr(body.folders)}`
    const index = body.folders.findIndex(f => !FOLDERS.includes(String(f)))
    if (index >= 0) return `value must be one of [${FOLDERS.map(f => `'${f}'`).join(', ')}] for dictionary value @ data['folders'][${index}]. Got ${pyRepr(body.folders[index])}`
  }
  return null
}

let made = 0

/** Handles /backups*; false when the path is not one of them. */
export async function handleBackups (rt: Runtime, req: IncomingMessage, res: ServerResponse, path: string, method: string): Promise<boolean> {
  // supervisor api/backups.py: v1 `list_backups_v1` answers the list only; `info_v1` adds days_until_stale
  // (backups/validate.py SCHEMA_BACKUPS_CONFIG default 30, changed through POST /backups/options).
  if (path === '/backups' && method === 'GET') { ok(res, { backups: store(rt) }); return true }
  if (path === '/backups/info' && method === 'GET') { ok(res, { backups: store(rt), days_until_stale: rt.options.backupsDaysUntilStale }); return true }
  const kind = /^\/backups\/new\/(full|partial)$/.exec(path)?.[1] as Backup['type'] | undefined
  if (kind === undefined || method !== 'POST') return false
  let body: unknown
  try { body = await jsonBody(req) } catch { fail(res, 400, 'Invalid JSON'); return true }
  const data = isRecord(body) ? body : {}
  const error = problem(data, kind === 'partial')
  if (error !== null) { fail(res, 400, error); return true }
  const now = Date.now()
  const addons = kind === 'full' ? INSTALLED_ADDONS : data.addons === 'ALL' ? INSTALLED_ADDONS : (data.addons as string[] | undefined) ?? []
  const folders = kind === 'full' ? FOLDERS.filter(f => f !== 'homeassistant') : ((data.folders as string[] | undefined) ?? []).filter(f => f !== 'homeassistant')
  const slug = (now + made++).toString(16).slice(-8)
  const size = kind === 'full' ? 540.2 : 12.5 + addons.length
  store(rt).push({
    slug,
    name: typeof data.name === 'string' && data.name !== '' ? data.name : new Date(now).toISOString().slice(0, 19).replace('T', ' '),
    date: new Date(now).toISOString().replace('Z', '+00:00'),
    type: kind,
    size,
    size_bytes: Math.round(size * 1_048_576),
    location: null,
    locations: [null],
    protected: typeof data.password === 'string',
    protected_locations: typeof data.password === 'string' ? [null] : [],
    compressed: data.compressed !== false,
    content: { homeassistant: kind === 'full' || data.homeassistant === true || ((data.folders as string[] | undefined) ?? []).includes('homeassistant'), addons, folders }
  })
  rt.house.configWrites.push(`POST /backups/new/${kind}`)
  const jobId = `${slug}${'0'.repeat(24)}`
  ok(res, data.background === true ? { job_id: jobId } : { job_id: jobId, slug })
  return true
}

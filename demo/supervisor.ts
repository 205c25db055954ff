import { randomUUID } from 'node:crypto'
import type { IncomingMessage, ServerResponse } from 'node:http'
import { bearer, jsonBody, sendJson, sendText } from './http-util.ts'
import { handleBackups } from './backups.ts'
import type { Runtime } from './runtime.ts'
import { interfaceInfo, networkInfo } from './supervisor-network.ts'
import { isRecord } from './util.ts'
import { ADDON_SLUG, addonsOf } from './addons.ts'

export { ADDON_SLUG }

const ok = (res: ServerResponse, data: unknown): void => { sendJson(res, 200, { result: 'ok', data: data ?? {} }) }
const fail = (res: ServerResponse, status: number, message: string): void => { sendJson(res, status, { result: 'error', message }) }

function selfInfo (rt: Runtime): Record<string, unknown> {
  return {
    name: 'MCP Server for Home Assistant',
    slug: ADDON_SLUG,
    hostname: 'local-ha-mcp',
    dns: ['local-ha-mcp.local.hass.io'],
    description: 'Model Context Protocol server for Home Assistant',
    long_description: null,
    advanced: false,
    stage: 'stable',
    repository: 'local',
    version: '0.1.0',
    version_latest: '0.1.0',
    update_available: false,
    protected: true,
    rating: 8,
    boot_config: 'auto',
    boot: 'auto',
    options: rt.addonOptions,
    schema: [{ name: 'log_level', required: true, type: 'select', options: ['trace', 'debug', 'info', 'notice', 'warning', 'error', 'fatal'] }, { name: 'api_token', required: true, type: 'string', format: 'password' }, { name: 'allow_write', required: true, type: 'boolean' }],
    arch: ['aarch64', 'amd64'],
    machine: [],
    homeassistant: null,
    url: null,
    detached: false,
    available: true,
    build: true,
    network: { '9583/tcp': rt.network.hostPort },
    network_description: { '9583/tcp': 'MCP endpoint (streamable HTTP)' },
    host_network: false,
    host_pid: false,
    host_ipc: false,
    host_uts: false,
    host_dbus: false,
    privileged: [],
    full_access: false,
    apparmor: 'local_ha_mcp',
    icon: true,
    logo: true,
    changelog: true,
    documentation: true,
    stdin: false,
    hassio_api: true,
    hassio_role: 'default',
    auth_api: false,
    homeassistant_api: true,
    gpio: false,
    usb: false,
    uart: false,
    kernel_modules: false,
    devicetree: false,
    udev: false,
    docker_api: false,
    video: false,
    audio: false,
    startup: 'application',
    services: [],
    discovery: ['mcp'],
    translations: {},
    ingress: true,
    signed: false,
    state: 'started',
    webui: null,
    ingress_entry: '/api/hassio_ingress/demo-ingress-token',
    ingress_url: '/api/hassio_ingress/demo-ingress-token/',
    ingress_port: 9584,
    ingress_panel: true,
    audio_input: null,
    audio_output: null,
    auto_update: false,
    ip_address: '172.30.33.5',
    watchdog: false,
    devices: [],
    system_managed: false,
    system_managed_config_entry: null
  }
}

function addonSummary (slug: string, name: string, version: string, state: string): Record<string, unknown> {
  return { name, slug, description: `${name} add-on`, advanced: false, stage: 'stable', version, version_latest: version, update_available: false, available: true, detached: false, homeassistant: null, state, repository: slug.startsWith('core_') ? 'core' : slug.startsWith('local_') ? 'local' : 'a0d7b954', build: slug.startsWith('local_'), url: null, icon: true, logo: true, system_managed: false }
}

function addons (rt: Runtime): Array<Record<string, unknown>> {
  return [...addonsOf(rt.house).values()].map(a => ({ ...addonSummary(a.slug, a.name, a.version, a.state), version_latest: a.version_latest, update_available: a.update_available }))
}

const LOG_LEVELS = ['trace', 'debug', 'info', 'notice', 'warning', 'error', 'fatal']
const BOOLEAN_OPTIONS = ['allow_write', 'allow_config_write', 'allow_camera', 'allow_addon_control', 'enable_sessions', 'filter_reads']
const LIST_OPTIONS = ['entity_allowlist', 'entity_denylist', 'service_denylist', 'confirm_domains']

/** The add-on schema check the Supervisor applies to POSTed options (humanized like voluptuous). */
function optionsProblem (options: Record<string, unknown>): string | null {
  for (const [key, value] of Object.entries(options)) {
    if (value === null) continue
    if (key === 'log_level' && (typeof value !== 'string' || !LOG_LEVELS.includes(value))) return `value must be one of [${LOG_LEVELS.map(l => `'${l}'`).join(', ')}] for dictionary value @ data['log_level']. Got ${JSON.stringify(value)}`
    if ((key === 'api_token' || key === 'public_url') && typeof value !== 'string') return `expected str for dictionary value @ data['${key}']. Got ${JSON.stringify(value)}`
    if (BOOLEAN_OPTIONS.includes(key) && typeof value !== 'boolean') return `expected boolean for dictionary value @ data['${key}']. Got ${JSON.stringify(value)}`
    if (LIST_OPTIONS.includes(key) && (!Array.isArray(value) || value.some(v => typeof v !== 'string'))) return `expected a list of str for dictionary value @ data['${key}']. Got ${JSON.stringify(value)}`
  }
  return null
}

/**
 * The Supervisor's access check for an add-on token with `hassio_api: true`, v1 paths: supervisor
 * api/middleware/security.py `_V1_PATTERNS` (read at 090ef31e, 2026-08-21), the same regular
 * expressions. A path the add-on's role does not match is `HTTPForbidden` ("403: Forbidden").
 */
const RE_SLUG = '[-_.A-Za-z0-9]+' // supervisor apps/const.py
const API_BYPASS = /^(?:|\/addons\/self\/(?!security|update)[^/]+|\/addons\/self\/options\/config|\/info|\/services.*|\/discovery.*|\/auth)$/
const CORE_ONLY = new RegExp(`^(?:/addons/${RE_SLUG}/sys_options)$`)
const ROLE_ACCESS = {
  default: /^(?:|\/.+\/info)$/,
  homeassistant: /^(?:|\/.+\/info|\/core\/.+|\/homeassistant\/.+)$/,
  backup: /^(?:|\/.+\/info|\/backups.*)$/,
  manager: new RegExp('^(?:|/.+/info' +
    `|/addons(?:/${RE_SLUG}/(?!security).+|/reload)?` +
    '|/audio/.+|/auth/cache|/available_updates|/backups.*|/cli/.+|/core/.+|/dns/.+|/docker/.+|/jobs/.+|/hardware/.+' +
    '|/homeassistant/.+|/host/.+|/mounts.*|/multicast/.+|/network/.+|/observer/.+|/os/(?!datadisk/wipe).+' +
    '|/refresh_updates|/resolution/.+|/security/.+|/snapshots.*|/store.*|/supervisor/.+)$'),
  admin: /.*/
} as const
export type SupervisorRole = keyof typeof ROLE_ACCESS

function roleAllows (role: SupervisorRole, path: string): boolean {
  if (CORE_ONLY.test(path)) return false
  return API_BYPASS.test(path) || ROLE_ACCESS[role].test(path)
}

/** Supervisor REST API: {result, data} envelope, 401 without a token, 403 with a wrong one. */
export async function handleSupervisor (rt: Runtime, req: IncomingMessage, res: ServerResponse, path: string): Promise<void> {
  const token = bearer(req) ?? (typeof req.headers['x-supervisor-token'] === 'string' ? req.headers['x-supervisor-token'] : undefined)
  if (token === undefined) { sendText(res, 401, '401: Unauthorized'); return }
  if (token !== rt.options.supervisorToken) { sendText(res, 403, '403: Forbidden'); return }
  if (!roleAllows(rt.options.supervisorRole, path)) { sendText(res, 403, '403: Forbidden'); return }
  if (rt.faults.supervisorFailures > 0) {
    rt.faults.supervisorFailures--
    const status = rt.faults.supervisorStatus
    if (status >= 500) sendText(res, status, `${status}: Bad Gateway`)
    else fail(res, status, 'Injected failure')
    return
  }
  const method = req.method ?? 'GET'
  const { house } = rt
  if (method === 'GET' && path === '/addons') { ok(res, { addons: addons(rt) }); return }
  if (method === 'GET' && (path === '/addons/self/info' || path === `/addons/${ADDON_SLUG}/info`)) { ok(res, selfInfo(rt)); return }
  const other = /^\/addons\/([^/]+)\/info$/.exec(path)
  if (method === 'GET' && other !== null) {
    const summary = addons(rt).find(a => a.slug === other[1])
    if (summary === undefined) { fail(res, 404, 'Addon does not exist'); return }
    ok(res, { ...summary, options: {}, boot: 'auto', ingress: false, hostname: String(other[1]).replace(/_/g, '-') })
    return
  }
  if (path === '/addons/self/options' && method === 'GET') { ok(res, rt.addonOptions); return }
  if (path === '/addons/self/options/config' && method === 'GET') { ok(res, rt.addonOptions); return }
  if (path === '/addons/self/options' && method === 'POST') {
    let body: unknown
    try { body = await jsonBody(req) } catch { fail(res, 400, 'Invalid JSON'); return }
    if (!isRecord(body) || Object.keys(body).length === 0) { fail(res, 400, 'No valid options provided'); return }
    if (body.options !== undefined) {
      if (!isRecord(body.options)) { fail(res, 400, "Add-on local_ha_mcp has invalid options: expected a dictionary. Got '" + String(body.options) + "'"); return }
      const problem = optionsProblem(body.options)
      if (problem !== null) { fail(res, 400, `Add-on ${ADDON_SLUG} has invalid options: ${problem}`); return }
      const next: Record<string, unknown> = {}
      for (const [key, value] of Object.entries(body.options)) if (value !== null) next[key] = value
      rt.addonOptions = next
    }
    if (body.network !== undefined) {
      const ports = isRecord(body.network) ? body.network : undefined
      const mapped = ports?.['9583/tcp']
      if (ports === undefined || (mapped !== null && mapped !== undefined && !(Number.isInteger(mapped) && (mapped as number) > 0 && (mapped as number) < 65536))) {
        fail(res, 400, `expected a port for dictionary value @ data['network']['9583/tcp']. Got ${JSON.stringify(mapped)}`)
        return
      }
      if (mapped !== undefined) rt.network.hostPort = mapped as number | null
    }
    ok(res, {})
    return
  }
  if (path === '/addons/self/options/validate' && method === 'POST') { ok(res, { message: '', valid: true, pwned: false }); return }
  if (path === '/addons/self/logs' && method === 'GET') { sendText(res, 200, '[12:00:00] INFO: demo add-on log\n'); return }
  if (path === '/info' && method === 'GET') {
    ok(res, { supervisor: '2026.11.3', homeassistant: rt.options.haVersion, hassos: '17.0', docker: '28.3.3', hostname: 'homeassistant', operating_system: 'Home Assistant OS 17.0', features: ['reboot', 'shutdown', 'services', 'network', 'hostname', 'timedate', 'os_agent', 'haos', 'resolved', 'journal', 'disk', 'mount'], machine: 'generic-x86-64', arch: 'amd64', supported_arch: ['amd64'], supported: true, channel: 'stable', logging: 'info', state: 'running', timezone: 'Europe/Amsterdam' })
    return
  }
  // supervisor api/supervisor.py `info_v1`: v1 still carries the deprecated `addons` list (name, slug,
  // version, version_latest, update_available, state, repository, icon); the v2 contract dropped it.
  if (path === '/supervisor/info' && method === 'GET') {
    const facts = { version: '2026.11.3', version_latest: '2026.11.3', update_available: false, channel: 'stable', arch: 'amd64', supported: true, healthy: true, ip_address: '172.30.32.2', timezone: 'Europe/Amsterdam', logging: 'info', debug: false, debug_block: false, diagnostics: null, auto_update: true, detect_blocking_io: false, country: 'NL', feature_flags: { supervisor_v2_api: false }, wait_boot: 5 }
    ok(res, {
      ...facts,
      addons: addons(rt).map(a => ({ name: a.name, slug: a.slug, version: a.version, version_latest: a.version_latest, update_available: a.update_available, state: a.state, repository: a.repository, icon: a.icon })),
      addons_repositories: [{ name: 'Local add-ons', slug: 'local' }, { name: 'Official add-ons', slug: 'core' }]
    })
    return
  }
  if (path === '/core/info' && method === 'GET') {
    ok(res, { version: rt.options.haVersion, version_latest: house.states.get('update.home_assistant_core_update')?.attributes.latest_version ?? rt.options.haVersion, update_available: house.states.get('update.home_assistant_core_update')?.state === 'on', arch: 'amd64', machine: 'generic-x86-64', ip_address: '172.30.32.1', image: 'ghcr.io/home-assistant/generic-x86-64-homeassistant', boot: true, port: 8123, ssl: false, watchdog: true, audio_input: null, audio_output: null, backups_exclude_database: false, duplicate_log_file: false })
    return
  }
  if (path === '/core/logs' && method === 'GET') { sendText(res, 200, '2026-11-30 07:00:00.001 INFO (MainThread) [homeassistant.components.automation.wake_up] Wake up: Running automation actions\n'); return }
  if (path === '/os/info' && method === 'GET') {
    ok(res, { version: '17.0', version_latest: '17.0', update_available: false, board: 'generic-x86-64', boot: 'A', data_disk: '/dev/sda8', boot_slots: { A: { state: 'booted', status: 'success', version: '17.0' }, B: { state: 'inactive', status: null, version: '16.3' } } })
    return
  }
  if (path.startsWith('/backups') && await handleBackups(rt, req, res, path, method)) return
  if (path === '/mounts' && method === 'GET') {
    ok(res, { default_backup_mount: null, mounts: [{ name: 'nas_media', usage: 'media', type: 'cifs', server: 'nas.local', share: 'media', state: 'active', read_only: false }, { name: 'nas_backup', usage: 'backup', type: 'nfs', server: 'nas.local', path: '/volume1/backup', state: 'failed', read_only: false }] })
    return
  }
  if (method === 'GET' && path === '/network/info') { ok(res, networkInfo(rt)); return }
  const iface = /^\/network\/interface\/([^/]+)\/info$/.exec(path)
  if (method === 'GET' && iface !== null) {
    const info = interfaceInfo(rt, String(iface[1]))
    if (info === undefined) { fail(res, 404, `Interface ${String(iface[1])} does not exist`); return }
    ok(res, info)
    return
  }
  // Reading discovery messages is Core's privilege (require_home_assistant): an add-on token gets 401.
  if (method === 'GET' && (path === '/discovery' || path.startsWith('/discovery/'))) { sendText(res, 401, '401: Unauthorized'); return }
  if (path === '/discovery' && method === 'POST') {
    let body: unknown
    try { body = await jsonBody(req) } catch { fail(res, 400, 'Invalid JSON'); return }
    if (!isRecord(body) || typeof body.service !== 'string') { fail(res, 400, "required key not provided @ data['service']"); return }
    if (!isRecord(body.config)) { fail(res, 400, "expected dict for dictionary value @ data['config']"); return }
    if (!(selfInfo(rt).discovery as string[]).includes(body.service)) { fail(res, 403, 'Apps must list services they provide via discovery in their config!'); return }
    // One message per add-on and service: posting again keeps the uuid and replaces the config.
    const existing = rt.discoveries.find(d => d.addon === ADDON_SLUG && d.service === body.service)
    if (existing !== undefined) {
      existing.config = body.config
      ok(res, { uuid: existing.uuid })
      return
    }
    const uuid = randomUUID().replace(/-/g, '')
    rt.discoveries.push({ addon: ADDON_SLUG, service: body.service, uuid, config: body.config })
    ok(res, { uuid })
    return
  }
  const discovery = /^\/discovery\/([^/]+)$/.exec(path)
  if (discovery !== null && method === 'DELETE') {
    const index = rt.discoveries.findIndex(d => d.uuid === discovery[1])
    if (index < 0) { fail(res, 404, 'Discovery message not found'); return }
    rt.discoveries.splice(index, 1)
    ok(res, {})
    return
  }
  fail(res, 404, `Unknown path ${path}`)
}

import { z } from 'zod'
import { within, type Clock } from '../../src/clock.ts'
import type { HomeAssistant } from '../../src/ha/index.ts'
import { defineTool } from '../../src/mcp/runtime/define-tool.ts'
import { NOT_ADMIN_EFFECT } from '../../src/ha/rights.ts'
import { isRoleRefusal, ROLE_HINT } from '../_shared/supervisor-role.ts'

const PROBE_TIMEOUT_MS = 3000

interface Probe { ok: boolean, ms?: number, detail?: string }

async function timed (clock: Clock, run: () => Promise<unknown>): Promise<Probe> {
  const started = performance.now()
  try {
    await within(clock, PROBE_TIMEOUT_MS, run(), () => { throw new Error(`no answer within ${PROBE_TIMEOUT_MS} ms`) })
    return { ok: true, ms: Math.round(performance.now() - started) }
  } catch (err) {
    return { ok: false, ms: Math.round(performance.now() - started), detail: (err as Error).message }
  }
}

/** Whether the add-on's hassio_role lets it list and make backups (ha_manage_config kind backup); not /backups/info, which every role may read. */
async function backupRole (ha: HomeAssistant, clock: Clock): Promise<Probe> {
  let refused = false
  const probe = await timed(clock, () => ha.supervisor.call('GET', '/backups').catch((err: unknown) => { refused = isRoleRefusal(err); throw err }))
  if (refused) return { ok: false, ms: probe.ms, detail: `the add-on's Supervisor role does not allow backups. ${ROLE_HINT}` }
  return probe
}

export default defineTool({
  name: 'ha_get_self_test',
  title: 'Self test',
  description: 'Probes WebSocket, REST, live map and Supervisor, timed; works while Home Assistant is down.',
  kind: 'read',
  category: 'system',
  everyday: false,
  keywords: {
    en: 'self test diagnose connection check is the add-on working connectivity ping debug mcp server',
    de: 'selbsttest diagnose verbindung prüfen funktioniert das addon',
    fr: 'autotest diagnostic connexion vérifier le module fonctionne',
    es: 'autoprueba diagnóstico conexión comprobar funciona el complemento',
    nl: 'zelftest diagnose verbinding controleren werkt de add-on'
  },
  needsHomeAssistant: false,
  input: z.object({}),
  async handler ({ ha, clock }) {
    const status = ha.status()
    const [websocket, rest, supervisor] = await Promise.all([
      ha.connection.connected ? timed(clock, () => ha.command({ type: 'ping' }, PROBE_TIMEOUT_MS)) : Promise.resolve<Probe>({ ok: false, detail: status.lastError ?? `connection ${status.state}` }),
      ha.rest.configured ? timed(clock, () => ha.rest.json('GET', '/api/')) : Promise.resolve<Probe>({ ok: false, detail: 'no Home Assistant address configured' }),
      ha.supervisor.available ? timed(clock, () => ha.supervisor.call('GET', '/info')) : Promise.resolve<Probe | null>(null)
    ])
    const backups = ha.supervisor.available ? await backupRole(ha, clock) : null
    const liveMap = { ok: ha.states.ready, entities: ha.states.size, connected_since: status.connectedAt ? new Date(status.connectedAt).toISOString() : null }
    const broken = !websocket.ok && !rest.ok
    // Development mode only: an add-on reaches Core through the Supervisor's administrator proxy.
    const isAdmin = status.mode === 'dev' && websocket.ok ? await ha.admin() : null
    const admin = isAdmin === null ? null : isAdmin ? { ok: true } : { ok: false, detail: `HA_TOKEN belongs to a user who is not an administrator. ${NOT_ADMIN_EFFECT}` }
    const degraded = !websocket.ok || !rest.ok || !liveMap.ok || (supervisor !== null && !supervisor.ok) || admin?.ok === false ||
      (websocket.ms ?? 0) > 1000 || (rest.ms ?? 0) > 2000
    return {
      verdict: broken ? 'broken' : degraded ? 'degraded' : 'ok',
      mode: status.mode,
      ha_version: status.haVersion,
      websocket,
      rest,
      live_map: liveMap,
      supervisor: supervisor ?? { ok: null, detail: 'not running as an add-on' },
      ...(backups ? { backups } : {}),
      ...(admin ? { admin } : {}),
      down_since: status.downSince ? new Date(status.downSince).toISOString() : undefined
    }
  }
})

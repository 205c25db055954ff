import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Duplex } from 'node:stream'
import { WebSocketServer } from 'ws'
import { generateHome } from './generate/home.ts'
import { sendText } from './http-util.ts'
import type { OverviewEra } from './lovelace.ts'
import { House } from './house.ts'
import { coreRoutes, handleCoreRest, type Route } from './rest.ts'
import { extraRoutes } from './rest-extra.ts'
import type { Faults, NetworkFacts, ResolvedOptions, Runtime } from './runtime.ts'
import { Services } from './services/index.ts'
import { handleSupervisor, type SupervisorRole } from './supervisor.ts'
import type { HassState, ServiceCallRecord } from './types.ts'
import { Connection } from './ws/connection.ts'
import { installAddons } from './addons.ts'
import { commands } from './ws/index.ts'
import { registryWrites } from './ws/registry-writes.ts'
import { tapPhoneAction } from './users.ts'
import { finishUpdate } from './services/updates.ts'
import { coreConfigOf } from './core-config.ts'

export type { HassState, HassContext, HassEvent, ServiceCallRecord } from './types.ts'

export interface DemoHomeOptions {
  entities?: number
  seed?: number
  token?: string
  supervisorToken?: string
  port?: number
  host?: string
  haVersion?: string
  authTimeoutMs?: number
  /** hassio_role the add-on token has (Supervisor access control); default 'backup', the role config.yaml ships */
  supervisorRole?: SupervisorRole
  /** the dashboards' era (demo/lovelace.ts): 'migrated' (default, 2026.2+), 'fresh' (a new 2026.2+ install), 'legacy' (before 2025.12) */
  overview?: OverviewEra
  /** the Supervisor's backup staleness setting (/backups/info days_until_stale; the Supervisor's default is 30) */
  backupsDaysUntilStale?: number
  /** whether the HA_TOKEN user is an administrator (default true); false answers admin-only commands and views as HA does (demo/admin-only.ts) */
  admin?: boolean
  /** Core's internal_url in get_config (default null, unset as on most installs) */
  internalUrl?: string | null
  /** host port published for the add-on's 9583/tcp in /addons/self/info (default 9583; null = disabled) */
  hostPort?: number | null
  /** the primary interface's IPv4 address in the Supervisor's /network/info (default 192.168.1.20) */
  lanAddress?: string
}

export interface DemoHome {
  url: string
  supervisorUrl: string
  token: string
  supervisorToken: string
  serviceCalls: ServiceCallRecord[]
  clearServiceCalls(): void
  /** A tap on a mobile app notification's action button on one of the home's phones (`alice_phone`, Alice's, an admin; `bob_phone`, Bob's): demo/users.ts */
  tapPhoneAction(phone: string, action: string): void
  /** Ends an update install that reports progress (demo/services/updates.ts): done, or failed with `error`. False when none runs. */
  finishUpdate(entityId: string, error?: string): boolean
  /** config writes that reached the home outside service calls ("POST /api/config/scene/config/<id>", "calendar/event/create <entity>", "lovelace/config/save <url_path>", "POST /backups/new/full"), oldest first */
  configWrites: string[]
  getState(entityId: string): HassState | undefined
  setState(entityId: string, state: string, attributes?: Record<string, unknown>): void
  entityIds(): string[]
  faults: {
    dropConnections(): void
    refuseAuth(count: number): void
    setDelay(ms: number): void
    /**
     * Holds, from now until `release`, the WebSocket commands of type `what` and the HTTP requests whose
     * path starts with `what`: `held` resolves once one is held, so a test knows a call is in flight
     * without waiting out a delay.
     */
    holdAnswers(what: string): { held: Promise<void>, release: () => void }
    setWebSocketDown(down: boolean): void
    supervisorFailures(count: number, status?: number): void
  }
  addonOptions(): Record<string, unknown>
  setAddonOptions(options: Record<string, unknown>): void
  restart(): Promise<void>
  /** what Home Assistant's configuration check finds next (null: nothing), as if the YAML had these errors */
  setConfigCheck(errors: string | null, warnings?: string | null): void
  close(): Promise<void>
  /** discovery messages posted to the Supervisor (POST /discovery), oldest first */
  discoveries: Array<Record<string, unknown>>
  /** Core's internal_url, the published host port and the LAN address, as the next request sees them */
  network: NetworkFacts
  /** number of WebSocket clients currently connected (core and proxy) */
  connectionCount(): number
  /** registry write commands received (areas, floors, labels, categories, zones, entities, devices, exposure), oldest first */
  registryWrites: Array<Record<string, unknown>>
  /** the running home, for tests that check registries directly */
  house: House
}

const CORE_WS_PATHS = new Set(['/api/websocket'])
const PROXY_WS_PATHS = new Set(['/core/websocket', '/core/api/websocket', '/homeassistant/websocket', '/homeassistant/api/websocket'])
const PROXY_PREFIXES = ['/core/api/', '/homeassistant/api/']

export const DEFAULT_TOKEN = 'demo-token'

function resolveOptions (opts: DemoHomeOptions): ResolvedOptions {
  const token = opts.token ?? DEFAULT_TOKEN
  return {
    entities: Math.max(60, Math.floor(opts.entities ?? 150)),
    seed: opts.seed ?? 1,
    token,
    supervisorToken: opts.supervisorToken ?? token,
    port: opts.port ?? 0,
    host: opts.host ?? '127.0.0.1',
    haVersion: opts.haVersion ?? '2026.11.2',
    authTimeoutMs: opts.authTimeoutMs ?? 10_000,
    supervisorRole: opts.supervisorRole ?? 'backup',
    overview: opts.overview ?? 'migrated',
    backupsDaysUntilStale: opts.backupsDaysUntilStale ?? 30,
    admin: opts.admin ?? true
  }
}

/** Starts a simulated Home Assistant (core WS + REST, Supervisor API and its /core proxy) on one loopback port. */
export async function startDemoHome (opts: DemoHomeOptions = {}): Promise<DemoHome> {
  const options = resolveOptions(opts)
  const house = new House(generateHome({ entities: options.entities, seed: options.seed, startMs: Date.now() }))
  installAddons(house, options.seed)
  const faults: Faults = { refuseAuth: 0, delayMs: 0, wsDown: false, supervisorFailures: 0, supervisorStatus: 502 }
  const rt: Runtime = {
    house,
    services: new Services(house),
    options,
    faults,
    connections: new Set(),
    addonOptions: { log_level: 'info', api_token: '', allow_write: false, allow_config_write: false, allow_camera: false },
    discoveries: [],
    network: {
      internalUrl: opts.internalUrl ?? null,
      hostPort: opts.hostPort === undefined ? 9583 : opts.hostPort,
      lanAddress: opts.lanAddress ?? '192.168.1.20'
    }
  }
  const routes: Route[] = [...coreRoutes, ...extraRoutes, ...(await loadExtraRoutes())]
  const wss = new WebSocketServer({ noServer: true, maxPayload: 16 * 1024 * 1024 })

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const url = new URL(req.url ?? '/', 'http://demo')
    const path = url.pathname
    if (faults.delayMs > 0) await new Promise(resolve => setTimeout(resolve, faults.delayMs))
    const hold = faults.hold
    if (hold !== undefined && path.startsWith(hold.what)) {
      hold.arrived()
      await hold.gate
    }
    if (path.startsWith('/api/')) {
      await handleCoreRest(rt, req, res, path, url.searchParams, false, routes)
      return
    }
    const prefix = PROXY_PREFIXES.find(p => path.startsWith(p))
    if (prefix !== undefined) {
      if (faults.wsDown) { sendText(res, 502, '502: Bad Gateway'); return }
      await handleCoreRest(rt, req, res, `/api/${path.slice(prefix.length)}`, url.searchParams, true, routes)
      return
    }
    await handleSupervisor(rt, req, res, path)
  }

  const server = createServer((req, res) => {
    handle(req, res).catch(() => {
      if (!res.headersSent) sendText(res, 500, '500 Internal Server Error')
      else res.destroy()
    })
  })
  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    const path = new URL(req.url ?? '/', 'http://demo').pathname
    const viaSupervisor = PROXY_WS_PATHS.has(path)
    if (!viaSupervisor && !CORE_WS_PATHS.has(path)) {
      socket.end('HTTP/1.1 404 Not Found\r\nConnection: close\r\nContent-Length: 0\r\n\r\n')
      return
    }
    if (faults.wsDown) {
      socket.end('HTTP/1.1 502 Bad Gateway\r\nConnection: close\r\nContent-Type: text/plain\r\nContent-Length: 15\r\n\r\n502 Bad Gateway')
      return
    }
    wss.handleUpgrade(req, socket, head, ws => {
      rt.connections.add(new Connection(ws, rt, commands, { viaSupervisor }))
    })
  })

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(options.port, options.host, () => { server.off('error', reject); resolve() })
  })
  const port = (server.address() as AddressInfo).port
  const base = `http://${options.host.includes(':') ? `[${options.host}]` : options.host}:${port}`

  const dropConnections = (): void => {
    for (const conn of [...rt.connections]) {
      conn.dispose()
      conn.socket.terminate()
    }
  }

  // homeassistant.restart (demo/core-config.ts): Core stops (its connections close, the proxy answers 502), then starts.
  const restart = async (): Promise<void> => {
    faults.wsDown = true
    dropConnections()
    house.fire('homeassistant_stop', {})
    await new Promise(resolve => setTimeout(resolve, 50))
    faults.wsDown = false
    house.fire('homeassistant_start', {})
  }
  coreConfigOf(house).restart = () => { restart().catch(() => {}) }

  return {
    url: base,
    supervisorUrl: base,
    token: options.token,
    supervisorToken: options.supervisorToken,
    serviceCalls: house.serviceCalls,
    clearServiceCalls: () => { house.serviceCalls.length = 0 },
    tapPhoneAction: (phone, action) => { tapPhoneAction(house, phone, action) },
    finishUpdate: (entityId, error) => finishUpdate(house, entityId, error),
    configWrites: house.configWrites,
    getState: id => house.states.get(id),
    setState: (id, state, attributes) => { house.setState(id, state, attributes ?? house.states.get(id)?.attributes ?? {}) },
    entityIds: () => [...house.states.keys()],
    faults: {
      dropConnections,
      refuseAuth: count => { faults.refuseAuth = count },
      setDelay: ms => { faults.delayMs = Math.max(0, ms) },
      holdAnswers: what => {
        let release = (): void => {}
        let arrived = (): void => {}
        const gate = new Promise<void>(resolve => { release = resolve })
        const held = new Promise<void>(resolve => { arrived = resolve })
        faults.hold = { what, gate, arrived }
        return { held, release: () => { faults.hold = undefined; release() } }
      },
      setWebSocketDown: down => {
        faults.wsDown = down
        if (down) dropConnections()
      },
      supervisorFailures: (count, status = 502) => { faults.supervisorFailures = count; faults.supervisorStatus = status }
    },
    addonOptions: () => ({ ...rt.addonOptions }),
    setAddonOptions: next => { rt.addonOptions = { ...next } },
    restart,
    setConfigCheck: (errors, warnings = null) => { Object.assign(coreConfigOf(house), { errors, warnings }) },
    close: async () => {
      dropConnections()
      wss.close()
      server.closeAllConnections()
      await new Promise<void>(resolve => server.close(() => resolve()))
    },
    discoveries: rt.discoveries,
    network: rt.network,
    connectionCount: () => rt.connections.size,
    registryWrites: registryWrites(house),
    house
  }
}

/** Stage-2 REST routes live in their own modules; kept as a hook so the core stays small. */
async function loadExtraRoutes (): Promise<Route[]> {
  const { configRoutes } = await import('./config-rest.ts')
  const { sceneConfigRoutes } = await import('./scene-config.ts')
  const { configEntryRoutes } = await import('./config-entries-rest.ts')
  const { coreConfigRoutes } = await import('./core-config.ts')
  return [...configRoutes, ...sceneConfigRoutes, ...configEntryRoutes, ...coreConfigRoutes]
}

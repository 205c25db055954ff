import { randomUUID } from 'node:crypto'
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { Identity } from '../auth/identity.ts'
import type { Revocations } from '../auth/revocations.ts'
import type { RefusalCode } from '../errors.ts'
import type { HomeView } from '../home/view.ts'
import type { AppLogger } from '../logger.ts'
import type { McpServerDeps } from '../mcp/handlers.ts'
import { createSessionServer, type McpSession } from '../mcp/transport/session.ts'
import { StreamGate, type GatedResponse } from '../mcp/transport/stream-gate.ts'
import { realClock } from '../clock.ts'
import { SessionRegistry, type SessionRegistryOptions } from './registry.ts'
import { LiveFeed, SessionSubscriptions, type Schedule, type SubscriptionDeps } from './subscriptions.ts'

export interface SessionsOptions extends SessionRegistryOptions {
  /** How often idle sessions are looked for (default every minute). */
  sweepEveryMs?: number
  maxSubscriptions?: number
  notifyIntervalMs?: number
  /** The subscriptions' timer, for tests that bring their own clock. */
  schedule?: Schedule
  /** How long a notification stream may stay backed up before it is closed (src/mcp/transport/stream-gate.ts). */
  streamStallMs?: number
}

export interface SessionServiceDeps {
  /** The `enable_sessions` option. */
  enabled: boolean
  mcp: McpServerDeps
  home: HomeView
  onStateChange: SubscriptionDeps['onStateChange']
  /** Home Assistant's connection going down (false) and coming back (true): told to every open session as an MCP log message. */
  onConnectionChange?: (listener: (up: boolean) => void) => () => void
  /** Credentials dying: an identity's sessions close with it, a stream with the credential that opened it. */
  revocations: Pick<Revocations, 'on' | 'hold'>
  log: AppLogger
  options?: SessionsOptions
}

export interface OpenSession {
  server: Promise<McpSession>
  subscriptions: SessionSubscriptions
}

/** One HTTP request for a session, free of any web framework. */
export interface SessionRequest {
  method: string
  /** The Mcp-Session-Id header, as received. */
  sessionId: string | string[] | undefined
  identity: Identity
  req: IncomingMessage
  res: ServerResponse
  body?: unknown
  /** Called just before the session's transport starts writing the raw response itself. */
  hijack: () => void
  /** The request's own logger. */
  log: AppLogger
  address: string
}

/** Why a session request was not served; the caller answers it as a JSON-RPC error. */
export interface SessionRefusal { status: number, rpcCode: number, message: string, code: RefusalCode }

/** The session side of `/mcp` (routes/mcp.ts routes session requests here). */
export interface SessionService {
  readonly enabled: boolean
  readonly registry: SessionRegistry<OpenSession>
  /** How often the idle sweep should run. */
  readonly sweepEveryMs: number
  /** Whether a POST belongs to a session: it names one, or it is an initialize that opens one. */
  claims: (sessionId: unknown, messages: ReadonlyArray<{ method?: string }>) => boolean
  /** POST, GET (the notification stream) or DELETE of a session, or the initialize that opens one. */
  handle: (request: SessionRequest) => Promise<SessionRefusal | undefined>
  /** Closes the sessions idle for too long; returns how many. */
  sweep: () => Promise<number>
  /** Ends every client's notification stream (shutdown), leaving requests in flight to finish. */
  closeStreams: () => Promise<void>
  /** Closes every session (shutdown). */
  closeAll: () => Promise<void>
  /** The live entity and area resources for 2026-07-28 listen streams, with the sessions' clock and interval. */
  liveFeed: (publish: (uri: string) => void, active: () => boolean) => LiveFeed
  /** The gate in front of one client's notification stream (src/mcp/transport/stream-gate.ts), on the sessions' clock. */
  streamGate: (res: GatedResponse) => StreamGate
}

/**
 * Opt-in MCP sessions (`enable_sessions`): at most 16, bound to the identity that opened them, closed
 * after 30 idle minutes, by DELETE, or the moment that identity's credential dies; at the cap the least
 * recently used session idle for over a minute makes room. Each holds its own server, transport and
 * subscriptions, all released when it closes. A session's notification stream ends with the credential
 * that opened it (an OAuth access token expiring), the session staying for the sign-in's next token.
 */
export function createSessionService (deps: SessionServiceDeps): SessionService {
  const { log, enabled } = deps
  const opts = deps.options ?? {}
  const registry = new SessionRegistry<OpenSession>(opts)
  const streamGate = (res: GatedResponse): StreamGate => new StreamGate(res, { now: opts.now ?? realClock.now, stallMs: opts.streamStallMs })

  const closeSession = async (id: string, open: OpenSession, reason: string): Promise<void> => {
    registry.remove(id)
    open.subscriptions.close()
    log.debug({ session: id.slice(0, 8), reason }, 'closing MCP session')
    await (await open.server).close()
  }

  const serve = async (request: SessionRequest, id: string, server: McpSession): Promise<void> => {
    request.hijack()
    const isStream = request.method === 'GET'
    if (isStream) registry.stream(id, 1)
    else registry.begin(id)
    const release = isStream
      ? deps.revocations.hold(request.identity, reason => {
        log.debug({ session: id.slice(0, 8), reason }, 'ending an MCP session stream: its credential stopped working')
        server.closeStream()
      })
      : undefined
    request.res.once('close', () => {
      release?.()
      if (isStream) registry.stream(id, -1)
      else registry.end(id)
    })
    await server.handle(request.req, request.res, request.identity, request.method === 'POST' ? request.body : undefined)
  }

  const open = async (request: SessionRequest): Promise<SessionRefusal | undefined> => {
    const admission = registry.admit(request.identity.id)
    if (!admission.ok) {
      return { status: 503, rpcCode: -32000, message: `All ${registry.max} MCP sessions are in use; retry shortly, or send requests without a session.`, code: 'HAMCP_LIMIT_REACHED' }
    }
    if (admission.evicted) closeSession(admission.evicted.id, admission.evicted.value, 'evicted to make room').catch(err => { log.warning({ err }, 'closing an evicted MCP session failed') })
    const id = randomUUID()
    const subscriptions = new SessionSubscriptions({
      home: deps.home,
      onStateChange: deps.onStateChange,
      notify: uri => { session.server.then(server => { server.resourceUpdated(uri) }, () => {}) },
      max: opts.maxSubscriptions,
      minIntervalMs: opts.notifyIntervalMs,
      now: opts.now,
      schedule: opts.schedule
    })
    const session: OpenSession = {
      subscriptions,
      server: createSessionServer(deps.mcp, id, {
        streamGate,
        subscribe: async (uri, ctx) => {
          await ctx.home.ready()
          subscriptions.add(uri)
        },
        unsubscribe: uri => { subscriptions.remove(uri) },
        onClosed: () => {
          if (registry.get(id) === session) registry.remove(id)
          subscriptions.close()
        }
      })
    }
    // Registered before anything is awaited, so concurrent initializes cannot overshoot the cap.
    registry.add(id, request.identity.id, session)
    const server = await session.server
    await serve(request, id, server)
    if (!server.initialized) await closeSession(id, session, 'initialize failed')
    else log.info({ session: id.slice(0, 8), identity: request.identity.name, sessions: registry.size }, 'MCP session opened')
    return undefined
  }

  const stopRevocations = deps.revocations.on(({ identity, credential, reason }) => {
    // One access token among a sign-in's: only the streams it opened end (held above).
    if (credential !== undefined) return
    for (const { id, value } of registry.entries()) {
      if (registry.owner(id) !== identity) continue
      closeSession(id, value, reason).catch(err => { log.warning({ err }, 'closing a revoked credential\'s MCP session failed') })
    }
  })
  const stopConnectionNews = deps.onConnectionChange?.(up => {
    const [level, message] = up
      ? ['notice', 'Home Assistant is connected again; answers are live.'] as const
      : ['warning', 'Lost the connection to Home Assistant; reconnecting. Calls fail with HAMCP_HA_NOT_CONNECTED until it is back.'] as const
    for (const { value } of registry.entries()) value.server.then(server => { server.log(level, message) }, () => {})
  })
  return {
    enabled,
    registry,
    sweepEveryMs: opts.sweepEveryMs ?? 60_000,
    claims (sessionId, messages) {
      if (!enabled) return false
      if (sessionId !== undefined) return true
      return messages.length === 1 && messages[0]?.method === 'initialize'
    },
    async handle (request) {
      const header = request.sessionId
      if (header === undefined && request.method === 'POST') return await open(request)
      if (typeof header !== 'string' || header === '') {
        return { status: 400, rpcCode: -32000, message: 'Bad Request: send the Mcp-Session-Id header of an open session.', code: 'HAMCP_SESSION_REQUIRED' }
      }
      const session = registry.get(header)
      if (!session) return { status: 404, rpcCode: -32001, message: 'Session not found: it ended or expired; initialize a new one.', code: 'HAMCP_SESSION_NOT_FOUND' }
      if (registry.owner(header) !== request.identity.id) {
        request.log.notice({ address: request.address, identity: request.identity.name }, 'refused a request for a session opened by another token')
        return { status: 403, rpcCode: -32000, message: 'Forbidden: this session belongs to another token.', code: 'HAMCP_SESSION_FORBIDDEN' }
      }
      await serve(request, header, await session.server)
      return undefined
    },
    async sweep () {
      const expired = registry.expired()
      await Promise.all(expired.map(({ id, value }) => closeSession(id, value, 'idle')))
      return expired.length
    },
    async closeStreams () {
      for (const { value } of registry.entries()) (await value.server).closeStream()
    },
    streamGate,
    liveFeed (publish, active) {
      return new LiveFeed({ home: deps.home, onStateChange: deps.onStateChange, publish, active, minIntervalMs: opts.notifyIntervalMs, now: opts.now, schedule: opts.schedule })
    },
    async closeAll () {
      stopRevocations()
      stopConnectionNews?.()
      await Promise.all(registry.drain().map(({ id, value }) => closeSession(id, value, 'shutdown')))
    }
  }
}

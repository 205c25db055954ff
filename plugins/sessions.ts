import { randomUUID } from 'node:crypto'
import fp from 'fastify-plugin'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { Identity } from '../src/auth/identity.ts'
import type { AppLogger } from '../src/logger.ts'
import { rpcError } from '../src/mcp/rpc-error.ts'
import { createSessionServer, type McpServerDeps, type McpSession } from '../src/mcp/server.ts'
import { SessionRegistry, type SessionRegistryOptions } from '../src/sessions/registry.ts'
import { SessionSubscriptions, type Schedule } from '../src/sessions/subscriptions.ts'

declare module 'fastify' {
  interface FastifyInstance {
    sessions: SessionService
  }
}

export interface SessionsPluginOptions extends SessionRegistryOptions {
  /** How often idle sessions are looked for (default every minute). */
  sweepEveryMs?: number
  maxSubscriptions?: number
  notifyIntervalMs?: number
  /** The subscriptions' timer, for tests that bring their own clock. */
  schedule?: Schedule
}

export interface OpenSession {
  server: Promise<McpSession>
  subscriptions: SessionSubscriptions
}

/** The session side of `/mcp`: the routes in plugins/mcp.ts hand session requests here. */
export interface SessionService {
  /** The `enable_sessions` option. */
  readonly enabled: boolean
  readonly registry: SessionRegistry<OpenSession>
  /** Wires the MCP handlers (done once by the routes). */
  serve: (deps: McpServerDeps) => void
  /** Whether a POST belongs to a session: it names one, or it is an initialize that opens one. */
  claims: (request: FastifyRequest, messages: ReadonlyArray<{ method?: string }>) => boolean
  /** POST, GET (the notification stream) or DELETE of a session, or the initialize that opens one. */
  handle: (request: FastifyRequest, reply: FastifyReply) => Promise<void>
  /** Closes the sessions idle for too long; returns how many. */
  sweep: () => Promise<number>
}

/**
 * Opt-in MCP sessions (`enable_sessions`): at most 16, bound to the identity that opened them, closed
 * after 30 idle minutes or by DELETE; at the cap the least recently used session idle for over a minute
 * makes room. Each holds its own server, transport and subscriptions, all released when it closes.
 */
async function sessionsPlugin (fastify: FastifyInstance, opts: SessionsPluginOptions): Promise<void> {
  const log: AppLogger = fastify.log
  const enabled = fastify.config.options.enable_sessions
  const registry = new SessionRegistry<OpenSession>(opts)
  let deps: McpServerDeps | undefined

  const closeSession = async (id: string, open: OpenSession, reason: string): Promise<void> => {
    registry.remove(id)
    open.subscriptions.close()
    log.debug({ session: id.slice(0, 8), reason }, 'closing MCP session')
    await (await open.server).close()
  }

  const serve = async (request: FastifyRequest, reply: FastifyReply, id: string, server: McpSession, identity: Identity): Promise<void> => {
    // The SDK transport writes the raw response itself (SSE or JSON).
    reply.hijack()
    const isStream = request.method === 'GET'
    if (isStream) registry.stream(id, 1)
    else registry.begin(id)
    reply.raw.once('close', () => {
      if (isStream) registry.stream(id, -1)
      else registry.end(id)
    })
    await server.handle(request.raw, reply.raw, identity, request.method === 'POST' ? request.body : undefined)
  }

  const open = async (request: FastifyRequest, reply: FastifyReply, identity: Identity): Promise<void> => {
    if (!deps) throw new Error('MCP sessions used before plugins/mcp.ts wired them')
    const admission = registry.admit()
    if (!admission.ok) {
      await rpcError(reply, 503, -32000, `All ${registry.max} MCP sessions are in use; retry shortly, or send requests without a session.`, 'HAMCP_LIMIT_REACHED')
      return
    }
    if (admission.evicted) closeSession(admission.evicted.id, admission.evicted.value, 'evicted to make room').catch(err => { log.warning({ err }, 'closing an evicted MCP session failed') })
    const id = randomUUID()
    const subscriptions = new SessionSubscriptions({
      home: fastify.home,
      onStateChange: listener => fastify.ha.states.onChange(listener),
      notify: uri => { session.server.then(server => { server.resourceUpdated(uri) }, () => {}) },
      max: opts.maxSubscriptions,
      minIntervalMs: opts.notifyIntervalMs,
      now: opts.now,
      schedule: opts.schedule
    })
    const session: OpenSession = {
      subscriptions,
      server: createSessionServer(deps, id, {
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
    registry.add(id, identity.id, session)
    const server = await session.server
    await serve(request, reply, id, server, identity)
    if (!server.initialized) await closeSession(id, session, 'initialize failed')
    else log.info({ session: id.slice(0, 8), identity: identity.name, sessions: registry.size }, 'MCP session opened')
  }

  const service: SessionService = {
    enabled,
    registry,
    serve (mcpDeps) { deps = mcpDeps },
    claims (request, messages) {
      if (!enabled) return false
      if (request.headers['mcp-session-id'] !== undefined) return true
      return messages.length === 1 && messages[0]?.method === 'initialize'
    },
    async handle (request, reply) {
      const identity = request.identity as Identity
      const header = request.headers['mcp-session-id']
      if (header === undefined && request.method === 'POST') return await open(request, reply, identity)
      if (typeof header !== 'string' || header === '') {
        await rpcError(reply, 400, -32000, 'Bad Request: send the Mcp-Session-Id header of an open session.')
        return
      }
      const session = registry.get(header)
      if (!session) {
        await rpcError(reply, 404, -32001, 'Session not found: it ended or expired; initialize a new one.', 'HAMCP_NOT_FOUND')
        return
      }
      if (registry.owner(header) !== identity.id) {
        request.log.notice({ address: request.ip, identity: identity.name }, 'refused a request for a session opened by another token')
        await rpcError(reply, 403, -32000, 'Forbidden: this session belongs to another token.')
        return
      }
      await serve(request, reply, header, await session.server, identity)
    },
    async sweep () {
      const expired = registry.expired()
      await Promise.all(expired.map(({ id, value }) => closeSession(id, value, 'idle')))
      return expired.length
    }
  }
  fastify.decorate('sessions', service)
  if (!enabled) return

  const sweeper = setInterval(() => { service.sweep().catch(err => { log.warning({ err }, 'MCP session sweep failed') }) }, opts.sweepEveryMs ?? 60_000)
  sweeper.unref()
  // Open notification streams would hold the HTTP server open: end them first, let requests in flight finish.
  fastify.addHook('preClose', async () => {
    for (const { value } of registry.entries()) (await value.server).closeStream()
  })
  fastify.addHook('onClose', async () => {
    clearInterval(sweeper)
    await Promise.all(registry.drain().map(({ id, value }) => closeSession(id, value, 'shutdown')))
  })
}

export default fp(sessionsPlugin, { name: 'sessions', dependencies: ['config', 'home-assistant', 'auth'], fastify: '5.x' })

import Fastify, { LogController, type FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import authPlugin from '../plugins/auth.ts'
import configPlugin from '../plugins/config.ts'
import healthRoutes from '../plugins/health.ts'
import homeAssistantPlugin, { type HomeAssistantPluginOptions } from '../plugins/home-assistant.ts'
import mcpRoutes from '../plugins/mcp.ts'
import oauthRoutes from '../plugins/oauth.ts'
import policyPlugin, { type PolicyPluginOptions } from '../plugins/policy.ts'
import sessionsPlugin, { type SessionsPluginOptions } from '../plugins/sessions.ts'
import type { BackoffOptions } from './auth/backoff.ts'
import type { Config } from './config.ts'
import type { AppLogger } from './logger.ts'
import { AuthorizationServer } from './oauth/authorization-server.ts'
import { loadToolCatalog, type ToolCatalog } from './mcp/registry.ts'
import { createHomeSurface } from './mcp/home-surface.ts'
import type { McpSurface } from './mcp/surface.ts'
import { UsageCounters } from './usage.ts'

declare module 'fastify' {
  interface FastifyInstance {
    usage: UsageCounters
  }
}

export interface AppOptions {
  config: Config
  primaryToken: string
  catalog?: ToolCatalog
  surface?: McpSurface
  homeAssistant?: HomeAssistantPluginOptions
  backoff?: BackoffOptions
  healthDegradedAfterMs?: number
  policy?: PolicyPluginOptions
  sessions?: SessionsPluginOptions
  /** OAuth sign-in: an injected clock (tests) and where browsers reach the add-on. */
  oauth?: { now?: () => number, authorizationOrigin?: (requestOrigin: string) => Promise<string> }
}

/** The MCP server as one plugin: registers every concern in order. Never listens. */
async function app (fastify: FastifyInstance, opts: AppOptions): Promise<void> {
  const catalog = opts.catalog ?? await loadToolCatalog()
  await fastify.register(configPlugin, { config: opts.config })
  await fastify.register(homeAssistantPlugin, opts.homeAssistant ?? {})
  await fastify.register(policyPlugin, opts.policy ?? {})
  const oauth = new AuthorizationServer({
    dataDir: opts.config.dataDir,
    now: opts.oauth?.now,
    log: { error: message => fastify.log.error(message), warn: message => fastify.log.warn(message) }
  })
  await fastify.register(authPlugin, { primaryToken: opts.primaryToken, backoff: opts.backoff, oauth })
  const usage = new UsageCounters()
  fastify.decorate('usage', usage)
  await fastify.register(healthRoutes, { degradedAfterMs: opts.healthDegradedAfterMs })
  await fastify.register(sessionsPlugin, opts.sessions ?? {})
  await fastify.register(oauthRoutes, {
    server: oauth,
    tokens: fastify.tokens,
    backoff: fastify.authBackoff,
    audit: fastify.hasDecorator('audit') ? fastify.audit : undefined,
    authorizationOrigin: opts.oauth?.authorizationOrigin
  })
  await fastify.register(mcpRoutes, {
    catalog,
    surface: opts.surface ?? createHomeSurface(),
    services: { guard: fastify.policy, audit: fastify.audit, undo: fastify.undo, rateLimits: fastify.rateLimits },
    onCall: report => usage.record(report)
  })
  fastify.setNotFoundHandler(async (request, reply) => {
    return await reply.code(404).send({ error: 'Not Found', message: `${request.method} ${request.url} does not exist; the MCP endpoint is POST /mcp` })
  })
}

export const appPlugin = fp(app, { name: 'ha-mcp-app', fastify: '5.x' })

/** A ready Fastify instance with the whole app, for tests and for server.ts. */
export async function buildApp (opts: AppOptions & { logger: AppLogger }): Promise<FastifyInstance> {
  const fastify = Fastify({
    loggerInstance: opts.logger,
    // Requests are logged at debug by the MCP route itself; Fastify's per-request info lines are noise in the Log tab.
    logController: new LogController({ disableRequestLogging: true }),
    trustProxy: false,
    // 'idle': close() drops idle keep-alive sockets but lets requests in flight finish (graceful drain;
    // src/server.ts cuts the drain short after a deadline).
    forceCloseConnections: 'idle',
    return503OnClosing: true
  })
  await fastify.register(appPlugin, opts)
  await fastify.ready()
  return fastify
}

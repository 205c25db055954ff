import Fastify, { LogController, type FastifyError, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify'
import fp from 'fastify-plugin'
import authPlugin from '../plugins/auth.ts'
import closingPlugin from '../plugins/closing.ts'
import configPlugin from '../plugins/config.ts'
import healthRoutes from '../routes/health.ts'
import homeAssistantPlugin from '../plugins/home-assistant.ts'
import mcpRoutes from '../routes/mcp.ts'
import oauthRoutes, { OAUTH_PATHS } from '../routes/oauth.ts'
import policyPlugin from '../plugins/policy.ts'
import { fastifyRefusal } from '../plugins/refusals.ts'
import requestLimitsPlugin from '../plugins/request-limits.ts'
import servicesPlugin from '../plugins/services.ts'
import sessionsPlugin from '../plugins/sessions.ts'
import { createServices, type ServiceDeps, type Services } from '../src/compose.ts'
import { refusalBody } from '../src/errors.ts'
import type { AppLogger } from '../src/logger.ts'
import { rpcErrorBody } from '../src/mcp/transport/rpc-error.ts'
import { OAuthError } from '../src/oauth/errors.ts'
import { loadToolCatalog, type ToolCatalog } from '../src/mcp/runtime/registry.ts'
import { TOOLS_DIR } from './tools-dir.ts'

export interface AppOptions extends Omit<ServiceDeps, 'catalog' | 'log'> {
  /** The tool modules; all of tools/ by default. */
  catalog?: ToolCatalog
  /** Over `config.healthDegradedAfterMs` (HEALTH_DEGRADED_AFTER_S). */
  healthDegradedAfterMs?: number
}

const CLOSING = 'The add-on is stopping or restarting; retry in a moment.'

/** The 503 while closing, in the shape each kind of client reads: JSON-RPC on /mcp, RFC 6749 on the sign-in's paths. */
function closingBody (url: string): object {
  if (url === '/mcp' || url.startsWith('/mcp?')) return rpcErrorBody(-32000, CLOSING, 'HAMCP_SHUTTING_DOWN')
  if (OAUTH_PATHS.test(url)) return { error: 'temporarily_unavailable', error_description: CLOSING }
  return refusalBody(503, 'HAMCP_SHUTTING_DOWN', CLOSING)
}

/**
 * A refusal outside /mcp (which answers its own, routes/mcp.ts): RFC 6749 `{error, error_description}`
 * on the sign-in's paths, `{error, code, message}` elsewhere; anything but Fastify's own refusals is a bug, logged.
 */
async function answerError (error: FastifyError, request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
  const sign = OAUTH_PATHS.test(request.url)
  // The sign-in endpoints' own refusals (their request limit) in RFC 6749's form.
  if (error instanceof OAuthError) return await reply.code(error.status).header('cache-control', 'no-store').send(error.toJSON())
  const refusal = fastifyRefusal(error, sign ? 'application/x-www-form-urlencoded (application/json to /oauth/register)' : 'application/json')
  if (!refusal) request.log.error({ err: error }, 'request failed')
  const { status, code, message } = refusal ?? { status: 500, code: 'HAMCP_INTERNAL' as const, message: 'Internal error; the add-on log has the details.' }
  if (sign) return await reply.code(status).header('cache-control', 'no-store').send({ error: status >= 500 ? 'server_error' : 'invalid_request', error_description: message })
  return await reply.code(status).send(refusalBody(status, code, message))
}

/** The MCP server as one plugin over the composition root's services: registers every concern in order. Never listens. */
async function app (fastify: FastifyInstance, opts: { services: Services, healthDegradedAfterMs?: number, authorizationOrigin?: (requestOrigin: string) => Promise<string> }): Promise<void> {
  const { services } = opts
  // First, so that its preClose hook runs before any other: what arrives while closing gets a coded 503.
  await fastify.register(closingPlugin, { body: closingBody })
  fastify.setErrorHandler(answerError)
  await fastify.register(configPlugin, { config: services.config })
  await fastify.register(servicesPlugin, { services })
  await fastify.register(homeAssistantPlugin, { ha: services.ha })
  await fastify.register(policyPlugin, { policy: services.policy })
  await fastify.register(authPlugin, { tokens: services.tokens, backoff: services.backoff, oauth: services.oauth, revocations: services.revocations, publicUrl: services.config.options.public_url, clock: services.clock })
  await fastify.register(requestLimitsPlugin, { now: services.clock.now })
  await fastify.register(healthRoutes, { ha: services.ha, degradedAfterMs: opts.healthDegradedAfterMs, now: services.clock.now })
  await fastify.register(sessionsPlugin, { sessions: services.sessions, clock: services.clock })
  await fastify.register(oauthRoutes, {
    server: services.oauth,
    tokens: services.tokens,
    backoff: services.backoff,
    audit: services.policy.audit,
    config: services.config,
    ha: services.ha,
    authorizationOrigin: opts.authorizationOrigin,
    clock: services.clock
  })
  await fastify.register(mcpRoutes, { services })
  fastify.setNotFoundHandler(async (request, reply) => {
    return await reply.code(404).send({ error: 'Not Found', code: 'HAMCP_NOT_FOUND', message: `${request.method} ${request.url} does not exist; the MCP endpoint is POST /mcp` })
  })
}

export const appPlugin = fp(app, { name: 'ha-mcp-app', fastify: '5.x' })

/** A ready Fastify instance with the whole app, for tests and for app/start.ts. */
export async function buildApp (opts: AppOptions & { logger: AppLogger }): Promise<FastifyInstance> {
  const catalog = opts.catalog ?? await loadToolCatalog(TOOLS_DIR)
  const services = createServices({ ...opts, catalog, log: opts.logger })
  const fastify = Fastify({
    loggerInstance: opts.logger,
    // Requests are logged at debug by the MCP route itself; Fastify's per-request info lines are noise in the Log tab.
    logController: new LogController({ disableRequestLogging: true }),
    trustProxy: false,
    // 'idle': close() drops idle keep-alive sockets but lets requests in flight finish (graceful drain;
    // app/start.ts cuts the drain short after a deadline).
    forceCloseConnections: 'idle',
    // plugins/closing.ts answers while closing, with a coded body.
    return503OnClosing: false
  })
  await fastify.register(appPlugin, { services, healthDegradedAfterMs: opts.healthDegradedAfterMs ?? opts.config.healthDegradedAfterMs, authorizationOrigin: opts.oauth?.authorizationOrigin })
  await fastify.ready()
  return fastify
}

import { every, type Clock } from '../src/clock.ts'
import cors from '@fastify/cors'
import formbody from '@fastify/formbody'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import type { AuthBackoff } from '../src/auth/backoff.ts'
import type { TokenStore } from '../src/auth/tokens.ts'
import type { Config } from '../src/config.ts'
import type { HomeAssistant } from '../src/ha/index.ts'
import { requestOrigin, urlHost } from '../src/hosts.ts'
import { sameResource, type AuthorizationServer } from '../src/oauth/authorization-server.ts'
import { browserOriginLookup } from '../src/oauth/browser-origin.ts'
import { OAuthError } from '../src/oauth/errors.ts'
import { MCP_PATH } from '../src/oauth/metadata.ts'
import type { AuditApi } from '../src/policy/types.ts'
import oauthClientRoutes from './oauth-client.ts'
import oauthConsentRoutes from './oauth-consent.ts'
import oauthMetadataRoutes from './oauth-metadata.ts'

export interface OAuthRouteOptions {
  server: AuthorizationServer
  tokens: TokenStore
  backoff: AuthBackoff
  audit?: AuditApi
  config: Pick<Config, 'options' | 'addonMode' | 'mcpPort'>
  ha: Pick<HomeAssistant, 'supervisor' | 'command'>
  /** Where browsers reach the add-on for a request sent to this origin; default: src/oauth/browser-origin.ts. */
  authorizationOrigin?: (requestOrigin: string) => Promise<string>
  /** Sweep interval for expired codes, requests and registrations. */
  sweepMs?: number
  /** The sweep and the origin lookup's cache run on it (src/clock.ts). */
  clock: Clock
}

/** What the OAuth route plugins share: the server and where a request's origins are. */
export interface OAuthContext {
  server: AuthorizationServer
  /** The origin a request was sent to (public_url's scheme behind a TLS proxy); undefined for a Host no client could have used. */
  originOf: (request: FastifyRequest) => string | undefined
  /** Where the user's browser reaches the authorization endpoint, for a request sent to this origin. */
  browserOrigin: (origin: string) => Promise<string>
  /** Resources that mean this server: its /mcp on the origin the request came in on, or the browser's. */
  oursFor: (origin: string) => Promise<(resource: string) => boolean>
}

/** Requests per minute per address on the OAuth endpoints: far above a sign-in (about ten), far below a flood. */
const OAUTH_REQUESTS_PER_MINUTE = 300
/** Far above any form this server reads (a token request is under 2 KB). */
const FORM_BODY_LIMIT = 64 * 1024
/** The sign-in's paths: their refusals are RFC 6749 bodies, `{error, error_description}`. */
export const OAUTH_PATHS = /^\/(?:oauth|\.well-known)\//
/** Metadata and endpoints are read cross-origin by browser-based clients; no credentials ride on CORS. */
const OAUTH_CORS = {
  origin: '*',
  methods: ['GET', 'POST', 'OPTIONS'],
  allowedHeaders: ['authorization', 'content-type', 'mcp-protocol-version'],
  maxAge: 600,
  strictPreflight: false
}

/**
 * The add-on as an OAuth 2.1 authorization server on the MCP port: RFC 9728 and RFC 8414 metadata
 * (oauth-metadata.ts), the consent page (oauth-consent.ts), and the client's back channel: RFC 7591
 * registration, the token endpoint and RFC 7009 revocation (oauth-client.ts).
 */
export default async function oauthRoutes (fastify: FastifyInstance, opts: OAuthRouteOptions): Promise<void> {
  const { server, config, ha } = opts
  const options = config.options
  await fastify.register(formbody, { bodyLimit: FORM_BODY_LIMIT })
  // Only these paths: the plugin's preflight route answers OPTIONS for every path, /mcp included.
  await fastify.register(cors, { delegator: async (request: FastifyRequest) => OAUTH_PATHS.test(request.url) ? OAUTH_CORS : { origin: false } })

  // A runaway client is stopped per address before any work (the registration and guessing bounds come on top).
  const limit = fastify.requestLimit({ by: 'address', max: OAUTH_REQUESTS_PER_MINUTE, refusal: message => new OAuthError('temporarily_unavailable', message, 429) })
  fastify.addHook('onRequest', async (request, reply) => {
    if (request.url.startsWith('/oauth/')) await limit(request, reply)
  })

  const stopSweep = every(opts.clock, opts.sweepMs ?? 60_000, () => { server.sweep().catch((err: unknown) => fastify.log.error({ err }, 'OAuth sweep failed')) })
  fastify.addHook('onClose', async () => {
    stopSweep()
    await server.flush().catch(() => {})
  })

  const lookup = browserOriginLookup({
    addonMode: config.addonMode,
    publicUrl: options.public_url,
    containerPort: config.mcpPort,
    supervisor: config.addonMode && ha.supervisor.available ? ha.supervisor : undefined,
    haConfig: async () => await ha.command<Record<string, unknown>>({ type: 'get_config' }),
    log: { warn: message => fastify.log.warn(message) },
    clock: opts.clock
  })
  const browserOrigin = opts.authorizationOrigin ?? (async (origin: string) => {
    const host = urlHost(origin)
    if (host === undefined) throw new TypeError(`not an origin: ${origin}`)
    return await lookup({ host: host.authority, protocol: origin.startsWith('https:') ? 'https' : 'http' })
  })
  const context: OAuthContext = {
    server,
    originOf: request => requestOrigin(request.headers.host, options.public_url || undefined),
    browserOrigin,
    oursFor: async origin => {
      const candidates = [origin, await browserOrigin(origin)].flatMap(o => [`${o}${MCP_PATH}`, o])
      return resource => candidates.some(c => sameResource(c, resource))
    }
  }

  await fastify.register(oauthMetadataRoutes, { context })
  await fastify.register(oauthConsentRoutes, { context, options, tokens: opts.tokens, backoff: opts.backoff, audit: opts.audit })
  await fastify.register(oauthClientRoutes, { context })
}

import { randomBytes } from 'node:crypto'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { AuthBackoff } from '../src/auth/backoff.ts'
import type { TokenStore } from '../src/auth/tokens.ts'
import type { Config } from '../src/config.ts'
import type { HomeAssistant } from '../src/ha/index.ts'
import { sameResource, type AuthorizationServer, type ClientCredentials } from '../src/oauth/authorization-server.ts'
import { ClientDocumentError } from '../src/oauth/client-documents.ts'
import { consentPage, problemPage } from '../src/oauth/consent-page.ts'
import { OAuthError } from '../src/oauth/errors.ts'
import { peerOf } from '../src/oauth/peer.ts'
import {
  AUTHORIZATION_SERVER_PATH, authorizationIssuer, authorizationServerMetadata, ENDPOINTS, MCP_PATH, PROTECTED_RESOURCE_PATH,
  protectedResourceMetadata
} from '../src/oauth/metadata.ts'
import { requestOrigin } from '../src/hosts.ts'
import { browserOriginLookup } from '../src/oauth/browser-origin.ts'
import { AuthorizationPageError, AuthorizationRedirectError, type AuthorizationRequest } from '../src/oauth/requests.ts'
import { chosenScopes, OAUTH_SCOPES, scopeEnabled } from '../src/oauth/scopes.ts'
import type { ClientRecord } from '../src/oauth/store.ts'
import type { AuditApi } from '../src/policy/types.ts'

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
}

/** Requests per minute per address on the OAuth endpoints: far above a sign-in (about ten), far below a flood. */
const OAUTH_REQUESTS_PER_MINUTE = 300

type Form = Record<string, string | string[] | undefined>

function single (value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value
}

function list (value: string | string[] | undefined): string[] {
  return value === undefined ? [] : Array.isArray(value) ? value : [value]
}

function formOf (body: unknown): Form {
  return body && typeof body === 'object' ? body as Form : {}
}

/** RFC 6749 2.3.1: HTTP Basic (form-encoded id and secret) or the client_id/client_secret fields. */
function clientCredentials (request: FastifyRequest, form: Form): ClientCredentials {
  const basic = /^Basic\s+(\S+)$/i.exec(request.headers.authorization ?? '')
  if (basic) {
    const decoded = Buffer.from(basic[1] as string, 'base64').toString('utf8')
    const colon = decoded.indexOf(':')
    if (colon > 0) {
      const unescape = (part: string): string => { try { return decodeURIComponent(part.replace(/\+/g, ' ')) } catch { return part } }
      return { clientId: unescape(decoded.slice(0, colon)), clientSecret: unescape(decoded.slice(colon + 1)) }
    }
  }
  return { clientId: single(form.client_id), clientSecret: single(form.client_secret) }
}

function sendOAuthError (reply: FastifyReply, error: OAuthError): FastifyReply {
  if (error.status === 401) reply.header('www-authenticate', 'Basic realm="ha-mcp"')
  if (error.status === 429) reply.header('retry-after', '60')
  return reply.code(error.status).header('cache-control', 'no-store').send(error.toJSON())
}

/**
 * The add-on as an OAuth 2.1 authorization server on the MCP port: RFC 9728 and RFC 8414 metadata,
 * RFC 7591 registration, the consent page, the token endpoint and RFC 7009 revocation.
 */
export default async function oauthRoutes (fastify: FastifyInstance, opts: OAuthRouteOptions): Promise<void> {
  const { server, tokens, backoff, config, ha } = opts
  const options = config.options
  const publicUrl = options.public_url || undefined
  const lookup = browserOriginLookup({
    addonMode: config.addonMode,
    publicUrl: options.public_url,
    containerPort: config.mcpPort,
    supervisor: config.addonMode && ha.supervisor.available ? ha.supervisor : undefined,
    haConfig: async () => await ha.command<Record<string, unknown>>({ type: 'get_config' }),
    log: { warn: message => fastify.log.warn(message) }
  })
  const browserOrigin = opts.authorizationOrigin ?? (async (origin: string) => {
    const url = new URL(origin)
    return await lookup({ host: url.host, protocol: url.protocol === 'https:' ? 'https' : 'http' })
  })

  fastify.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 64 * 1024 }, (_request, body, done) => {
    const form: Form = {}
    for (const [key, value] of new URLSearchParams(body as string)) {
      const seen = form[key]
      form[key] = seen === undefined ? value : [...list(seen), value]
    }
    done(null, form)
  })

  // A runaway client is stopped per address before any work (the registration and guessing bounds come on top).
  const limit = fastify.requestLimit('address', { max: OAUTH_REQUESTS_PER_MINUTE, body: message => ({ error: 'temporarily_unavailable', error_description: message }) })
  fastify.addHook('onRequest', async (request, reply) => {
    if (request.url.startsWith('/oauth/')) return await limit(request, reply)
  })

  const sweep = setInterval(() => { server.sweep().catch((err: unknown) => fastify.log.error({ err }, 'OAuth sweep failed')) }, opts.sweepMs ?? 60_000)
  sweep.unref()
  fastify.addHook('onClose', async () => {
    clearInterval(sweep)
    await server.flush().catch(() => {})
  })

  const originOf = (request: FastifyRequest): string | undefined => requestOrigin(request.headers.host, publicUrl)
  const badHost = async (reply: FastifyReply): Promise<FastifyReply> =>
    await reply.code(400).send({ error: 'invalid_request', error_description: 'the Host header is not a host name' })
  /** Resources that mean this server: its /mcp on the origin the request came in on, or the browser's. */
  const oursFor = async (origin: string): Promise<(resource: string) => boolean> => {
    const candidates = [origin, await browserOrigin(origin)].flatMap(o => [`${o}${MCP_PATH}`, o])
    return resource => candidates.some(c => sameResource(c, resource))
  }

  // Metadata: always a direct 200 (Home Assistant treats a redirect as a failure), readable cross-origin.
  fastify.addHook('onSend', async (request, reply) => {
    if (request.url.startsWith('/.well-known/') || request.url.startsWith('/oauth/')) reply.header('access-control-allow-origin', '*')
  })
  const preflight = async (_request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> => await reply.code(204)
    .header('access-control-allow-methods', 'GET, POST, OPTIONS')
    .header('access-control-allow-headers', 'authorization, content-type, mcp-protocol-version')
    .header('access-control-max-age', '600')
    .send()
  fastify.options('/oauth/*', preflight)
  fastify.options('/.well-known/*', preflight)

  const protectedResource = async (request: FastifyRequest, reply: FastifyReply): Promise<unknown> => {
    const origin = originOf(request)
    if (!origin) return await badHost(reply)
    return protectedResourceMetadata(origin)
  }
  fastify.get(PROTECTED_RESOURCE_PATH, protectedResource)
  fastify.get(`${PROTECTED_RESOURCE_PATH}${MCP_PATH}`, protectedResource)

  fastify.get(AUTHORIZATION_SERVER_PATH, async (request, reply) => {
    const origin = originOf(request)
    if (!origin) return await badHost(reply)
    return authorizationServerMetadata(origin, await browserOrigin(origin))
  })

  // Far above any real registration (src/oauth/registration.ts bounds each field and the whole to 16 KB).
  fastify.post(ENDPOINTS.register, { bodyLimit: 64 * 1024 }, async (request, reply) => {
    try {
      const answer = await server.register(request.body, peerOf(request.ip), originOf(request))
      request.log.notice({ client: answer.client_name, method: answer.token_endpoint_auth_method, address: request.ip }, 'OAuth client registered')
      return await reply.code(201).header('cache-control', 'no-store').send(answer)
    } catch (err) {
      if (err instanceof OAuthError) {
        if (err.status === 429) request.log.notice({ address: request.ip }, 'OAuth registration refused: too many')
        return sendOAuthError(reply, err)
      }
      throw err
    }
  })

  // The browser step ---------------------------------------------------------------------------

  /** The page may only post to itself and follow the answer to the client's own redirect (browsers check form-action on that redirect). */
  const pageHeaders = (reply: FastifyReply, page?: { nonce: string, redirectUri: string }): FastifyReply => {
    let target = ''
    if (page) {
      const url = new URL(page.redirectUri)
      target = ` ${url.protocol === 'http:' || url.protocol === 'https:' ? url.origin : url.protocol}`
    }
    return reply
      .type('text/html; charset=utf-8')
      .header('cache-control', 'no-store')
      .header('x-frame-options', 'DENY')
      .header('referrer-policy', 'no-referrer')
      .header('content-security-policy', `default-src 'none'; style-src 'unsafe-inline'; connect-src 'self'; form-action 'self'${target}; frame-ancestors 'none'${page ? `; script-src 'nonce-${page.nonce}'` : ''}`)
  }

  const disabledScopes = OAUTH_SCOPES.filter(s => !scopeEnabled(s, options))
  const showConsent = (reply: FastifyReply, request: AuthorizationRequest, error?: string, status = 200): FastifyReply => {
    const nonce = randomBytes(16).toString('base64')
    return pageHeaders(reply, { nonce, redirectUri: request.redirectUri }).code(status).send(consentPage({ request, disabledScopes, nonce, error, acceptLanguage: reply.request.headers['accept-language'] }))
  }

  /** A registered client, or a metadata document client (fetched now): a document refused is shown to the user. */
  const findClient = async (clientId: string, request: FastifyRequest): Promise<ClientRecord | undefined> => {
    try {
      return await server.findClient(clientId, peerOf(request.ip))
    } catch (err) {
      if (!(err instanceof ClientDocumentError)) throw err
      request.log.notice({ client_id: clientId, reason: err.reason, address: request.ip }, 'OAuth client metadata document refused')
      throw new AuthorizationPageError(`The app's client metadata document could not be used, so this sign-in cannot continue: ${err.message} (${err.reason}).`)
    }
  }

  fastify.get<{ Querystring: Record<string, string> }>(ENDPOINTS.authorize, async (request, reply) => {
    const origin = originOf(request)
    if (!origin) return await badHost(reply)
    const params = Object.fromEntries(Object.entries(request.query).map(([k, v]) => [k, single(v as string | string[])]))
    try {
      const isOurs = await oursFor(origin)
      const client = params.client_id ? await findClient(params.client_id, request) : undefined
      const issuer = authorizationIssuer({ resource: params.resource, isOurs, registeredAt: client?.issuer, requestOrigin: origin })
      const pending = server.requests.open({ params, client: id => id === client?.client_id ? client : undefined, isOurs, issuer, address: peerOf(request.ip) })
      request.log.info({ client: pending.clientName, code: pending.shortCode }, 'OAuth sign-in waiting for approval')
      return showConsent(reply, pending)
    } catch (err) {
      if (err instanceof AuthorizationRedirectError) return await reply.code(303).header('location', err.redirect).send()
      if (err instanceof AuthorizationPageError) return pageHeaders(reply).code(400).send(problemPage('This sign-in cannot continue', err.message))
      throw err
    }
  })

  fastify.get<{ Querystring: { request?: string } }>(`${ENDPOINTS.authorize}/status`, async (request, reply) => {
    reply.header('cache-control', 'no-store')
    const pending = server.requests.get(request.query.request ?? '')
    if (!pending) return { status: server.requests.finishedElsewhere(request.query.request ?? '') ? 'finished' : 'expired' }
    if (!pending.outcome) return { status: 'pending' }
    server.requests.close(pending.id)
    return { status: pending.outcome.approved ? 'approved' : 'denied', approved: pending.outcome.approved, redirect: pending.outcome.redirect }
  })

  const audit = (entry: { who: string, whoName: string, approved: boolean, request: AuthorizationRequest, scopes: string[] }): void => {
    opts.audit?.record({
      tool: 'oauth_sign_in',
      identity: entry.who,
      identity_name: entry.whoName,
      outcome: entry.approved ? 'allowed' : 'refused',
      reason: entry.approved
        ? `signed in "${entry.request.clientName}" (${entry.request.redirectHost}) with ${entry.scopes.join(' ')}`
        : `denied the sign-in of "${entry.request.clientName}" (${entry.request.redirectHost})`
    })
  }

  fastify.post(ENDPOINTS.authorize, async (request, reply) => {
    const form = formOf(request.body)
    const address = request.ip
    const waitMs = backoff.blockedFor(address)
    if (waitMs > 0) {
      reply.header('retry-after', String(Math.ceil(waitMs / 1000)))
      return pageHeaders(reply).code(429).send(problemPage('Too many attempts', 'Too many wrong tokens or unknown requests from this address. Wait a minute and try again.'))
    }
    const pending = server.requests.get(single(form.request) ?? '')
    if (!pending || pending.outcome) {
      backoff.fail(address)
      return pageHeaders(reply).code(400).send(problemPage('This sign-in request is over', 'It expired (requests last 10 minutes), was already answered, or never existed. Start the sign-in again from your app.'))
    }
    if (single(form.action) === 'deny') {
      const redirect = server.deny(pending)
      server.requests.close(pending.id)
      audit({ who: 'consent_page', whoName: 'consent page', approved: false, request: pending, scopes: [] })
      return await reply.code(303).header('location', redirect).send()
    }
    // Only the primary token approves: a named token is a client's key, not the owner's.
    const presented = single(form.api_token) ?? ''
    if (tokens.verify(presented)?.id !== 'primary') {
      backoff.fail(address)
      request.log.notice({ address, client: pending.clientName }, 'OAuth consent refused: wrong API token')
      return showConsent(reply, pending, presented ? 'That is not the add-on\'s API token.' : 'Enter the add-on\'s API token, or approve in the panel.', 401)
    }
    backoff.succeed(address)
    const choice = chosenScopes({ level: single(form.level), scopes: list(form.scope) }, pending.scopes)
    if ('error' in choice) return showConsent(reply, pending, `Nothing was granted: ${choice.error}`, 400)
    const { scopes } = choice
    const redirect = await server.approve(pending, scopes, 'primary token')
    server.requests.close(pending.id)
    audit({ who: 'primary', whoName: 'primary token (consent page)', approved: scopes.length > 0, request: pending, scopes })
    return await reply.code(303).header('location', redirect).send()
  })

  // The client's back channel ------------------------------------------------------------------

  fastify.post(ENDPOINTS.token, async (request, reply) => {
    const form = formOf(request.body)
    reply.header('cache-control', 'no-store').header('pragma', 'no-cache')
    try {
      const origin = originOf(request)
      if (!origin) throw new OAuthError('invalid_request', 'the Host header is not a host name')
      const client = await server.authenticateClient(clientCredentials(request, form), request.ip)
      const grantType = single(form.grant_type)
      const isOurs = await oursFor(origin)
      if (grantType === 'authorization_code') {
        return await server.exchangeCode(client, { code: single(form.code), redirect_uri: single(form.redirect_uri), code_verifier: single(form.code_verifier), resource: single(form.resource) }, isOurs)
      }
      if (grantType === 'refresh_token') {
        return await server.refresh(client, { refresh_token: single(form.refresh_token), scope: single(form.scope), resource: single(form.resource) }, isOurs)
      }
      throw new OAuthError('unsupported_grant_type', 'grant_type must be authorization_code or refresh_token')
    } catch (err) {
      if (err instanceof OAuthError) {
        request.log.notice({ address: request.ip, error: err.error, reason: err.message }, 'OAuth token request refused')
        return sendOAuthError(reply, err)
      }
      throw err
    }
  })

  fastify.post(ENDPOINTS.revoke, async (request, reply) => {
    const form = formOf(request.body)
    try {
      const client = await server.authenticateClient(clientCredentials(request, form), request.ip)
      const presented = single(form.token)
      if (!presented) throw new OAuthError('invalid_request', 'token is required')
      await server.revokeToken(client, presented)
      return await reply.code(200).header('cache-control', 'no-store').send({})
    } catch (err) {
      if (err instanceof OAuthError) return sendOAuthError(reply, err)
      throw err
    }
  })
}

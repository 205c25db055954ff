import { randomBytes } from 'node:crypto'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { AuthBackoff } from '../src/auth/backoff.ts'
import type { TokenStore } from '../src/auth/tokens.ts'
import { clientKey, httpOrigin } from '../src/hosts.ts'
import { answerSignIn } from '../src/oauth/approval.ts'
import { ClientDocumentError } from '../src/oauth/client-documents.ts'
import { consentPage, problemPage } from '../src/oauth/consent-page.ts'
import { authorizationIssuer, ENDPOINTS } from '../src/oauth/metadata.ts'
import { AuthorizationPageError, AuthorizationRedirectError, type AuthorizationRequest } from '../src/oauth/requests.ts'
import { OAUTH_SCOPES, scopeEnabled } from '../src/oauth/scopes.ts'
import type { ClientRecord } from '../src/oauth/store.ts'
import type { Options } from '../src/options.ts'
import type { AuditApi } from '../src/policy/types.ts'
import { formOf, list, single } from './oauth-form.ts'
import type { OAuthContext } from './oauth.ts'

export interface OAuthConsentOptions {
  context: OAuthContext
  /** The add-on options: scopes they switch off are marked on the page. */
  options: Options
  tokens: TokenStore
  backoff: AuthBackoff
  audit?: AuditApi
}

/** The page may only post to itself and follow the answer to the client's own redirect (browsers check form-action on that redirect). */
function pageHeaders (reply: FastifyReply, page?: { nonce: string, redirectUri: string }): FastifyReply {
  // An app's private-use scheme (`com.example.app:/cb`) is named by its scheme.
  const target = page ? ` ${httpOrigin(page.redirectUri) ?? new URL(page.redirectUri).protocol}` : ''
  return reply
    .type('text/html; charset=utf-8')
    .header('cache-control', 'no-store')
    .header('x-frame-options', 'DENY')
    .header('referrer-policy', 'no-referrer')
    .header('content-security-policy', `default-src 'none'; style-src 'unsafe-inline'; connect-src 'self'; form-action 'self'${target}; frame-ancestors 'none'${page ? `; script-src 'nonce-${page.nonce}'` : ''}`)
}

const CONSENT_PAGE = { id: 'consent_page', name: 'consent page' }
const PRIMARY_ON_PAGE = { id: 'primary', name: 'primary token (consent page)' }

/**
 * The browser step: the consent page (GET), its answer (POST, approved with the primary token), and
 * the status the page polls while the owner may answer on the ingress Sign-ins tab instead.
 */
export default async function oauthConsentRoutes (fastify: FastifyInstance, opts: OAuthConsentOptions): Promise<void> {
  const { context: { server, originOf, oursFor }, tokens, backoff, audit } = opts
  const disabledScopes = OAUTH_SCOPES.filter(s => !scopeEnabled(s, opts.options))

  const showConsent = (reply: FastifyReply, request: AuthorizationRequest, error?: string, status = 200): FastifyReply => {
    const nonce = randomBytes(16).toString('base64')
    return pageHeaders(reply, { nonce, redirectUri: request.redirectUri }).code(status).send(consentPage({ request, disabledScopes, nonce, error, acceptLanguage: reply.request.headers['accept-language'] }))
  }
  const problem = (reply: FastifyReply, status: number, title: string, message: string): FastifyReply => pageHeaders(reply).code(status).send(problemPage(title, message))

  /** A registered client, or a metadata document client (fetched now): a document refused is shown to the user. */
  const findClient = async (clientId: string, request: FastifyRequest): Promise<ClientRecord | undefined> => {
    try {
      return await server.clients.find(clientId, clientKey(request))
    } catch (err) {
      if (!(err instanceof ClientDocumentError)) throw err
      request.log.notice({ client_id: clientId, reason: err.reason, address: request.ip }, 'OAuth client metadata document refused')
      throw new AuthorizationPageError(`The app's client metadata document could not be used, so this sign-in cannot continue: ${err.message} (${err.reason}).`)
    }
  }

  fastify.get<{ Querystring: Record<string, string | string[]> }>(ENDPOINTS.authorize, async (request, reply) => {
    const origin = originOf(request)
    if (!origin) return await reply.code(400).send({ error: 'invalid_request', error_description: 'the Host header is not a host name' })
    const params = Object.fromEntries(Object.entries(request.query).map(([k, v]) => [k, single(v)]))
    try {
      const isOurs = await oursFor(origin)
      const client = params.client_id ? await findClient(params.client_id, request) : undefined
      const issuer = authorizationIssuer({ resource: params.resource, isOurs, registeredAt: client?.issuer, requestOrigin: origin })
      const pending = server.requests.open({ params, client: id => id === client?.client_id ? client : undefined, isOurs, issuer, address: clientKey(request) })
      request.log.info({ client: pending.clientName, code: pending.shortCode }, 'OAuth sign-in waiting for approval')
      return showConsent(reply, pending)
    } catch (err) {
      if (err instanceof AuthorizationRedirectError) return await reply.code(303).header('location', err.redirect).send()
      if (err instanceof AuthorizationPageError) return problem(reply, 400, 'This sign-in cannot continue', err.message)
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

  fastify.post(ENDPOINTS.authorize, async (request, reply) => {
    const form = formOf(request.body)
    const address = request.ip
    const peer = clientKey(request)
    const waitMs = backoff.blockedFor(peer)
    if (waitMs > 0) {
      reply.header('retry-after', String(Math.ceil(waitMs / 1000)))
      return problem(reply, 429, 'Too many attempts', 'Too many wrong tokens or unknown requests from this address. Wait a minute and try again.')
    }
    const pending = server.requests.get(single(form.request) ?? '')
    if (!pending || pending.outcome) {
      backoff.fail(peer)
      return problem(reply, 400, 'This sign-in request is over', 'It expired (requests last 10 minutes), was already answered, or never existed. Start the sign-in again from your app.')
    }
    const deny = single(form.action) === 'deny'
    if (!deny) {
      // Only the primary token approves: a named token is a client's key, not the owner's.
      const presented = single(form.api_token) ?? ''
      if (tokens.verify(presented)?.id !== 'primary') {
        backoff.fail(peer)
        request.log.notice({ address, client: pending.clientName }, 'OAuth consent refused: wrong API token')
        return showConsent(reply, pending, presented ? 'That is not the add-on\'s API token.' : 'Enter the add-on\'s API token, or approve in the panel.', 401)
      }
      backoff.succeed(peer)
    }
    const answer = answerSignIn(server, audit, pending, deny
      ? { action: 'deny', by: CONSENT_PAGE, approvedBy: CONSENT_PAGE.name }
      : { action: 'approve', choice: { level: single(form.level), scopes: list(form.scope) }, by: PRIMARY_ON_PAGE, approvedBy: 'primary token' })
    if (!answer.settled) return showConsent(reply, pending, answer.error, 400)
    server.requests.close(pending.id)
    return await reply.code(303).header('location', answer.redirect).send()
  })
}

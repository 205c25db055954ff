import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { ClientCredentials } from '../src/oauth/clients.ts'
import { OAuthError } from '../src/oauth/errors.ts'
import { ENDPOINTS } from '../src/oauth/metadata.ts'
import { clientKey } from '../src/hosts.ts'
import { formOf, single, type Form } from './oauth-form.ts'
import type { OAuthContext } from './oauth.ts'

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

/** OAuth errors become RFC 6749 answers; anything else is a programming error for Fastify to log. */
function answeringErrors<R extends FastifyRequest> (handler: (request: R, reply: FastifyReply) => Promise<unknown>, onRefusal?: (request: R, error: OAuthError) => void) {
  return async (request: R, reply: FastifyReply): Promise<unknown> => {
    try {
      return await handler(request, reply)
    } catch (err) {
      if (!(err instanceof OAuthError)) throw err
      onRefusal?.(request, err)
      return sendOAuthError(reply, err)
    }
  }
}

/** The client's back channel: RFC 7591 registration, the token endpoint, RFC 7009 revocation. */
export default async function oauthClientRoutes (fastify: FastifyInstance, opts: { context: OAuthContext }): Promise<void> {
  const { server, originOf, oursFor } = opts.context

  // Far above any real registration (src/oauth/registration.ts bounds each field and the whole to 16 KB).
  fastify.post(ENDPOINTS.register, { bodyLimit: 64 * 1024 }, answeringErrors(async (request, reply) => {
    const answer = await server.clients.register(request.body, clientKey(request), originOf(request))
    request.log.notice({ client: answer.client_name, method: answer.token_endpoint_auth_method, address: request.ip }, 'OAuth client registered')
    return await reply.code(201).header('cache-control', 'no-store').send(answer)
  }, (request, err) => {
    if (err.status === 429) request.log.notice({ address: request.ip }, 'OAuth registration refused: too many')
  }))

  fastify.post(ENDPOINTS.token, answeringErrors(async (request, reply) => {
    const form = formOf(request.body)
    reply.header('cache-control', 'no-store').header('pragma', 'no-cache')
    const origin = originOf(request)
    if (!origin) throw new OAuthError('invalid_request', 'the Host header is not a host name')
    const client = await server.clients.authenticate(clientCredentials(request, form), clientKey(request))
    const grantType = single(form.grant_type)
    const isOurs = await oursFor(origin)
    if (grantType === 'authorization_code') {
      return await server.exchangeCode(client, { code: single(form.code), redirect_uri: single(form.redirect_uri), code_verifier: single(form.code_verifier), resource: single(form.resource) }, isOurs)
    }
    if (grantType === 'refresh_token') {
      return await server.refresh(client, { refresh_token: single(form.refresh_token), scope: single(form.scope), resource: single(form.resource) }, isOurs)
    }
    throw new OAuthError('unsupported_grant_type', 'grant_type must be authorization_code or refresh_token')
  }, (request, err) => {
    request.log.notice({ address: request.ip, error: err.error, reason: err.message }, 'OAuth token request refused')
  }))

  fastify.post(ENDPOINTS.revoke, answeringErrors(async (request, reply) => {
    const form = formOf(request.body)
    const client = await server.clients.authenticate(clientCredentials(request, form), clientKey(request))
    const presented = single(form.token)
    if (!presented) throw new OAuthError('invalid_request', 'token is required')
    await server.revokeToken(client, presented)
    return await reply.code(200).header('cache-control', 'no-store').send({})
  }))
}

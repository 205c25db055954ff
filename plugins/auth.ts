import fp from 'fastify-plugin'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { AuthBackoff } from '../src/auth/backoff.ts'
import type { Identity } from '../src/auth/identity.ts'
import type { TokenStore } from '../src/auth/tokens.ts'

declare module 'fastify' {
  interface FastifyInstance {
    tokens: TokenStore
    /** onRequest hook for protected routes: rejects before the body is read. */
    authenticate: (request: FastifyRequest, reply: FastifyReply) => Promise<void>
  }
  interface FastifyRequest {
    identity: Identity | null
  }
}

export interface AuthPluginOptions {
  tokens: TokenStore
  backoff: AuthBackoff
}

function jsonRpcError (code: number, message: string): object {
  return { jsonrpc: '2.0', error: { code, message }, id: null }
}

/**
 * Bearer authentication: constant-time token checks, per-address backoff after failures (429 with
 * Retry-After), 401 with WWW-Authenticate and a JSON-RPC body. Failures are logged at notice with
 * the source address, never the token.
 */
async function authPlugin (fastify: FastifyInstance, opts: AuthPluginOptions): Promise<void> {
  const { tokens, backoff } = opts
  const sweep = setInterval(() => backoff.sweep(), 60_000)
  sweep.unref()
  fastify.addHook('onClose', async () => { clearInterval(sweep) })

  fastify.decorate('tokens', tokens)
  fastify.decorateRequest('identity', null)
  fastify.decorate('authenticate', async function authenticate (request: FastifyRequest, reply: FastifyReply) {
    const address = request.ip
    const waitMs = backoff.blockedFor(address)
    if (waitMs > 0) {
      reply.header('retry-after', String(Math.ceil(waitMs / 1000)))
      return await reply.code(429).send(jsonRpcError(-32000, 'Too many failed authentications from this address; retry later.'))
    }
    const header = request.headers.authorization ?? ''
    const match = /^Bearer\s+(\S+)\s*$/i.exec(header)
    const identity = match ? tokens.verify(match[1] as string) : undefined
    if (!identity) {
      backoff.fail(address)
      request.log.notice({ address, reason: header ? 'wrong token' : 'no token' }, 'authentication failed')
      reply.header('www-authenticate', header ? 'Bearer error="invalid_token"' : 'Bearer')
      return await reply.code(401).send(jsonRpcError(-32001, header ? 'Invalid bearer token.' : 'Missing bearer token: send Authorization: Bearer <token>.'))
    }
    backoff.succeed(address)
    request.identity = identity
  })
}

export default fp(authPlugin, { name: 'auth', dependencies: ['config'], fastify: '5.x' })

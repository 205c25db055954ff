import { every, type Clock } from '../src/clock.ts'
import fp from 'fastify-plugin'
import type { FastifyInstance, FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify'
import type { AuthBackoff } from '../src/auth/backoff.ts'
import type { Identity } from '../src/auth/identity.ts'
import type { Revocations } from '../src/auth/revocations.ts'
import type { TokenStore } from '../src/auth/tokens.ts'
import { rpcErrorBody } from '../src/mcp/transport/rpc-error.ts'
import type { AuthorizationServer } from '../src/oauth/authorization-server.ts'
import { clientKey, requestOrigin } from '../src/hosts.ts'
import { bearerChallenge } from '../src/oauth/metadata.ts'

declare module 'fastify' {
  interface FastifyInstance {
    /** onRequest hook for protected routes: rejects before the body is read. */
    authenticate: (request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction) => void
    /**
     * preHandler hook after `authenticate`, once the body is in: refuses the request when its
     * credential died while the body was arriving (a request cannot outlive a revocation by sending
     * its body slowly).
     */
    reauthenticate: (request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction) => void
  }
  interface FastifyRequest {
    identity: Identity | null
    /** `Revocations.announced` when the request was authenticated. */
    revocationsSeen: number
  }
}

export interface AuthPluginOptions {
  tokens: TokenStore
  backoff: AuthBackoff
  oauth?: AuthorizationServer
  /** Credentials announced dead: a request whose credential died after its headers is refused before its handler. */
  revocations: Pick<Revocations, 'announced'>
  /** The public_url option: the scheme and host the 401's challenge names when set. */
  publicUrl?: string
  /** The backoff's sweep runs on it (src/clock.ts). */
  clock: Clock
}

/**
 * Bearer authentication: constant-time token checks, backoff after failures per client (`clientKey`:
 * an IPv6 /64 is one client; 429 with Retry-After), 401 with WWW-Authenticate and a JSON-RPC body. Failures are logged at notice with
 * the source address, never the token.
 */
async function authPlugin (fastify: FastifyInstance, opts: AuthPluginOptions): Promise<void> {
  const { tokens, backoff } = opts
  const saveLastUsed = async (): Promise<void> => { await tokens.saveLastUsed().catch((err: unknown) => { fastify.log.error({ err }, 'cannot save when the named tokens were last used') }) }
  // A named token's last use is kept in memory per call and saved here, at most once a minute.
  const stopSweep = every(opts.clock, 60_000, () => {
    backoff.sweep()
    saveLastUsed().catch(() => {})
  })
  fastify.addHook('onClose', async () => {
    stopSweep()
    await saveLastUsed()
  })

  fastify.decorateRequest('identity', null)
  fastify.decorateRequest('revocationsSeen', 0)
  const identify = (request: FastifyRequest): { presented: string | undefined, identity: Identity | undefined } => {
    const presented = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.authorization ?? '')?.[1]
    return { presented, identity: presented ? tokens.verify(presented) ?? opts.oauth?.verifyAccess(presented, request.headers.host) : undefined }
  }
  fastify.decorate('authenticate', function authenticate (request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction) {
    const peer = clientKey(request)
    const waitMs = backoff.blockedFor(peer)
    if (waitMs > 0) {
      reply.header('retry-after', String(Math.ceil(waitMs / 1000)))
      reply.code(429).send(rpcErrorBody(-32000, 'Too many failed authentications from this address; retry later.', 'HAMCP_RATE_LIMITED'))
      return
    }
    const header = request.headers.authorization ?? ''
    const { presented, identity } = identify(request)
    if (!identity) {
      backoff.fail(peer)
      request.log.notice({ address: request.ip, reason: header ? (presented !== undefined && tokens.retiredAt(presented) !== undefined ? 'regenerated token' : 'wrong token') : 'no token' }, 'authentication failed')
      // RFC 9728: the challenge says where to find the metadata, so OAuth clients can sign in.
      // Same origin as the metadata documents it names (a TLS proxy's scheme through public_url).
      const origin = requestOrigin(request.headers.host, opts.publicUrl || undefined)
      // A primary token regenerated on the page: say where the new one is, so the user is not left guessing.
      const replaced = presented !== undefined && tokens.retiredAt(presented) !== undefined
      const description = replaced ? 'the API token was regenerated; get the new one from the add-on panel (sidebar MCP, Connect tab)' : 'the token is unknown, expired or revoked'
      const error = header ? { code: 'invalid_token' as const, description } : undefined
      reply.header('www-authenticate', origin ? bearerChallenge(origin, error) : header ? 'Bearer error="invalid_token"' : 'Bearer')
      const message = replaced
        ? 'Invalid bearer token: this API token was regenerated and no longer works. Get the new one from Home Assistant: sidebar, MCP, Connect tab.'
        : header ? 'Invalid bearer token.' : 'Missing bearer token: send Authorization: Bearer <token>.'
      reply.code(401).send(rpcErrorBody(-32001, message, header ? 'HAMCP_INVALID_TOKEN' : 'HAMCP_UNAUTHENTICATED'))
      return
    }
    backoff.succeed(peer)
    request.identity = identity
    request.revocationsSeen = opts.revocations.announced
    done()
  })
  fastify.decorate('reauthenticate', function reauthenticate (request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction) {
    // Nothing died since the bearer check: nothing to look at again (every request but a few).
    if (request.revocationsSeen === opts.revocations.announced) {
      done()
      return
    }
    const { identity } = identify(request)
    const before = request.identity
    if (identity !== undefined && identity.id === before?.id && identity.credential === before.credential) {
      request.revocationsSeen = opts.revocations.announced
      done()
      return
    }
    request.log.notice({ address: request.ip, identity: before?.name }, 'refused a request whose credential died while its body was arriving')
    const origin = requestOrigin(request.headers.host, opts.publicUrl || undefined)
    const error = { code: 'invalid_token' as const, description: 'the token was revoked, replaced or expired' }
    reply.header('www-authenticate', origin ? bearerChallenge(origin, error) : 'Bearer error="invalid_token"')
    reply.code(401).send(rpcErrorBody(-32001, 'Invalid bearer token: it was revoked or replaced while this request was arriving.', 'HAMCP_INVALID_TOKEN'))
  })
}

export default fp(authPlugin, { name: 'auth', dependencies: ['config'], fastify: '5.x' })

import type { ServerResponse } from 'node:http'
import type { FastifyInstance, FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify'
import type { Identity } from '../src/auth/identity.ts'
import type { Services } from '../src/compose.ts'
import { originAllowed } from '../src/hosts.ts'
import type { RefusalCode } from '../src/errors.ts'
import { ProtocolErrorCode, rpcError, RpcRefusal, sendRefusal } from '../src/mcp/transport/rpc-error.ts'
import { checkBody, decideEra, HEADER_MISMATCH, LEGACY_PROTOCOL_VERSIONS, modernHttpStatus, SUPPORTED_PROTOCOL_VERSIONS } from '../src/mcp/transport/era.ts'
import { createMcpEndpoint } from '../src/mcp/transport/stateless.ts'
import { MAX_SUBSCRIPTIONS } from '../src/sessions/subscriptions.ts'

export interface McpRouteOptions {
  services: Pick<Services, 'mcp' | 'sessions' | 'requestLimits' | 'revocations' | 'config'>
}

/**
 * The largest /mcp body: 1 MB. The largest valid call is far smaller (a write's data is at most 64 KB,
 * a target field 100 ids), and each body is held several times over while it is read, parsed and
 * checked: 4 MB bodies of refused calls took the process past its 150 MB budget.
 */
export const BODY_LIMIT = 1024 * 1024

/** Our code for a refusal the 2026-07-28 rules decide (src/mcp/transport/stateless.ts), by its JSON-RPC code. */
function eraRefusalCode (rpcCode: number): RefusalCode {
  if (rpcCode === HEADER_MISMATCH) return 'HAMCP_HEADER_MISMATCH'
  if (rpcCode === ProtocolErrorCode.UnsupportedProtocolVersion) return 'HAMCP_UNSUPPORTED_PROTOCOL_VERSION'
  return 'HAMCP_INVALID_REQUEST'
}

/** Listen streams one token may hold at once, so that no token takes all of the server's (MAX_LISTEN_STREAMS). */
export const MAX_LISTENS_PER_TOKEN = 8
/** A listen request's body lives as long as its stream: 64 KB, not 1 MB (64 streams of 4 MB passed the 256 MB heap). */
export const LISTEN_BODY_LIMIT = 64 * 1024

const header = (value: string | string[] | undefined): string | undefined => Array.isArray(value) ? value.join(',') : value

/**
 * The `/mcp` routes. POST is stateless Streamable HTTP (src/mcp/transport/stateless.ts), in the era each request
 * asks for: a request with the 2026-07-28 `_meta` envelope is served by that revision's rules, anything
 * else (an `initialize`, an envelope-less request) by the 2025 ones. With enable_sessions,
 * an initialize and anything naming a session go to the sessions (src/sessions/service.ts), as do
 * GET and DELETE; without it those two answer 405. Every request passes the Origin check, the
 * per-address request limit, the bearer check and the per-token request limit, in that order.
 */
export default async function mcpRoutes (fastify: FastifyInstance, opts: McpRouteOptions): Promise<void> {
  const { mcp, sessions, requestLimits, revocations, config } = opts.services
  const refusal = (message: string): RpcRefusal => new RpcRefusal(429, -32000, 'HAMCP_RATE_LIMITED', message)
  const perAddress = fastify.requestLimit({ by: 'address', max: requestLimits.perAddress, refusal })
  const perToken = fastify.requestLimit({ by: 'token', max: requestLimits.perToken, refusal })

  // Our own JSON parser so bad JSON becomes a JSON-RPC parse error rather than Fastify's generic 400.
  fastify.removeAllContentTypeParsers()
  fastify.addContentTypeParser(['application/json'], { parseAs: 'string', bodyLimit: BODY_LIMIT }, (_request, body, done) => {
    try {
      done(null, JSON.parse(body as string))
    } catch (err) {
      done(new RpcRefusal(400, ProtocolErrorCode.ParseError, 'HAMCP_PARSE_ERROR', 'Parse error: the body is not valid JSON', { cause: err }), undefined)
    }
  })
  const unsupportedMedia = (): RpcRefusal => new RpcRefusal(415, -32000, 'HAMCP_UNSUPPORTED_MEDIA_TYPE', 'Unsupported Media Type: send Content-Type: application/json')
  fastify.addContentTypeParser('*', { parseAs: 'string', bodyLimit: BODY_LIMIT }, (_request, _body, done) => { done(unsupportedMedia(), undefined) })
  fastify.setErrorHandler((error: Error & { statusCode?: number, code?: string }, request, reply) => {
    if (error instanceof RpcRefusal) return sendRefusal(reply, error)
    if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') return rpcError(reply, 413, -32000, `Request body larger than ${BODY_LIMIT / 1024 / 1024} MB.`, 'HAMCP_TOO_LARGE')
    if (error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') return sendRefusal(reply, unsupportedMedia())
    if ((error.statusCode ?? 500) < 500) return rpcError(reply, error.statusCode ?? 400, ProtocolErrorCode.InvalidRequest, error.message, 'HAMCP_INVALID_REQUEST')
    request.log.error({ err: error }, 'MCP request failed')
    return rpcError(reply, 500, ProtocolErrorCode.InternalError, 'Internal error', 'HAMCP_INTERNAL')
  })

  const checkOrigin = (request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction): void => {
    const origin = request.headers.origin
    if (origin !== undefined && !originAllowed(origin, request.headers.host, config.options.public_url)) {
      request.log.notice({ origin, address: request.ip }, 'refused a request from a foreign Origin')
      rpcError(reply, 403, -32000, 'Forbidden: Origin not allowed', 'HAMCP_ORIGIN_NOT_ALLOWED')
      return
    }
    done()
  }

  // Per-address limit before the token check, so a flood never reaches it; per-token after it.
  const guarded = [checkOrigin, perAddress, fastify.authenticate, perToken]
  const toSession = async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
    const refused = await sessions.handle({
      method: request.method,
      sessionId: request.headers['mcp-session-id'],
      identity: request.identity as Identity,
      req: request.raw,
      res: reply.raw,
      body: request.body,
      // The SDK transport writes the raw response itself (SSE or JSON).
      hijack: () => { reply.hijack() },
      log: request.log,
      address: request.ip
    })
    if (refused) await rpcError(reply, refused.status, refused.rpcCode, refused.message, refused.code)
  }
  const sessionOrNotAllowed = async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
    if (sessions.enabled) return await toSession(request, reply)
    await rpcError(reply.header('allow', 'POST'), 405, -32000, 'Method not allowed: this server is stateless; use POST.', 'HAMCP_METHOD_NOT_ALLOWED')
  }
  // Once the body is in: a credential that died meanwhile gets no answer, no write and no stream.
  const reauthenticated = fastify.reauthenticate
  fastify.get('/mcp', { onRequest: guarded, preHandler: reauthenticated }, sessionOrNotAllowed)
  fastify.delete('/mcp', { onRequest: guarded, preHandler: reauthenticated }, sessionOrNotAllowed)

  const endpoint = await createMcpEndpoint(mcp)
  // Each identity's open listen streams: at most MAX_LISTENS_PER_TOKEN.
  const listensOf = new Map<string, Set<ServerResponse>>()
  const feed = sessions.liveFeed(uri => { endpoint.resourceUpdated(uri) }, () => endpoint.listening)
  // Listen streams never end by themselves: close them before the server waits for its connections.
  fastify.addHook('preClose', async () => {
    feed.close()
    await endpoint.closeListens()
  })
  fastify.addHook('onClose', async () => { await endpoint.close() })

  fastify.post('/mcp', { onRequest: guarded, preHandler: reauthenticated, bodyLimit: BODY_LIMIT }, async (request, reply) => {
    const version = header(request.headers['mcp-protocol-version'])
    const accept = request.headers.accept
    if (accept && !/application\/json|\*\/\*|application\/\*/i.test(accept)) {
      return rpcError(reply, 406, -32000, 'Not Acceptable: this server answers with application/json', 'HAMCP_NOT_ACCEPTABLE')
    }
    const checked = checkBody(request.body)
    if (!checked.ok) return rpcError(reply, 400, ProtocolErrorCode.InvalidRequest, checked.message, 'HAMCP_INVALID_REQUEST')
    const decision = decideEra(request.body, { protocolVersion: version, method: header(request.headers['mcp-method']), name: header(request.headers['mcp-name']) })
    if (decision.era === 'reject') {
      const data = typeof decision.data === 'object' && decision.data !== null ? decision.data as Record<string, unknown> : undefined
      return sendRefusal(reply, new RpcRefusal(decision.status, decision.code, eraRefusalCode(decision.code), decision.message, { data }), (request.body as { id?: unknown }).id)
    }
    if (decision.era === 'legacy' && version !== undefined && !LEGACY_PROTOCOL_VERSIONS.includes(version)) {
      return rpcError(reply, 400, -32000, `Unsupported MCP-Protocol-Version ${version}; supported: ${SUPPORTED_PROTOCOL_VERSIONS.join(', ')}`, 'HAMCP_UNSUPPORTED_PROTOCOL_VERSION')
    }
    if (decision.era === 'modern' && decision.method === 'subscriptions/listen') {
      const listenId = (request.body as { id?: unknown }).id
      if (JSON.stringify(request.body).length > LISTEN_BODY_LIMIT) {
        return sendRefusal(reply, new RpcRefusal(413, -32600, 'HAMCP_TOO_LARGE', `Request body larger than ${LISTEN_BODY_LIMIT / 1024} KB for subscriptions/listen.`), listenId)
      }
      // A session subscribes to at most MAX_SUBSCRIPTIONS resources; a stream lists no more.
      const uris = (request.body as { params?: { notifications?: { resourceSubscriptions?: unknown } } }).params?.notifications?.resourceSubscriptions
      if (Array.isArray(uris) && uris.length > MAX_SUBSCRIPTIONS) {
        return sendRefusal(reply, new RpcRefusal(200, -32602, 'HAMCP_LIMIT_REACHED', `Invalid params: at most ${MAX_SUBSCRIPTIONS} resourceSubscriptions per listen stream`), listenId)
      }
      const denied = Array.isArray(uris) ? uris.find(uri => typeof uri === 'string' && !mcp.surface.mayRead(uri, request.identity as Identity)) : undefined
      if (denied !== undefined) {
        return sendRefusal(reply, new RpcRefusal(200, -32602, 'HAMCP_DENIED_LEVEL', `Invalid params: this token's level does not allow reading ${String(denied)}`), listenId)
      }
      const owner = (request.identity as Identity).id
      const held = listensOf.get(owner) ?? new Set<ServerResponse>()
      if (held.size >= MAX_LISTENS_PER_TOKEN) {
        return sendRefusal(reply, new RpcRefusal(200, -32603, 'HAMCP_LIMIT_REACHED', `Subscription limit reached: this token already holds ${MAX_LISTENS_PER_TOKEN} listen streams; close one first`), listenId)
      }
      listensOf.set(owner, held.add(reply.raw))
      // The stream ends the moment the credential that opened it dies: revoked, replaced, expired.
      const release = revocations.hold(request.identity as Identity, reason => {
        request.log.debug({ identity: (request.identity as Identity).name, reason }, 'ending a listen stream: its credential stopped working')
        reply.raw.end()
      })
      reply.raw.once('close', () => {
        release()
        held.delete(reply.raw)
        if (held.size === 0 && listensOf.get(owner) === held) listensOf.delete(owner)
      })
      // A long-lived stream of change notifications, written by the SDK's listen router.
      reply.hijack()
      await endpoint.listen(request.raw, reply.raw, request.body, request.identity as Identity, sessions.streamGate(reply.raw))
      return
    }
    // The 2026-07-28 revision has no sessions: a modern request's Mcp-Session-Id is ignored.
    if (decision.era === 'legacy' && sessions.claims(request.headers['mcp-session-id'], checked.messages as Array<{ method?: string }>)) return await toSession(request, reply)
    if (request.log.level === 'debug' || request.log.level === 'trace') {
      request.log.debug({ mcp: checked.messages.map(m => 'method' in m ? m.method : 'response').join(','), identity: request.identity?.name }, 'mcp request')
    }
    // Abandon the work if the client hangs up before its answer is ready.
    const gone = new AbortController()
    reply.raw.once('close', () => { if (!reply.raw.writableFinished) gone.abort() })
    const answers = await endpoint.handle(checked.messages, request.identity as Identity, gone.signal, decision.era)
    if (answers.length === 0) return await reply.code(202).send()
    const status = decision.era === 'modern' && !checked.batch ? modernHttpStatus(answers[0]) : 200
    return await reply.code(status).type('application/json; charset=utf-8').send(JSON.stringify(checked.batch ? answers : answers[0]))
  })
}

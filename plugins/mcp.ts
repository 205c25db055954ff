import type { ServerResponse } from 'node:http'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { Identity } from '../src/auth/identity.ts'
import type { Services } from '../src/compose.ts'
import { originAllowed } from '../src/hosts.ts'
import { rpcError, rpcErrorBody, rpcRefusal } from '../src/mcp/rpc-error.ts'
import { checkBody, createMcpEndpoint, decideEra, LEGACY_PROTOCOL_VERSIONS, modernHttpStatus, SUPPORTED_PROTOCOL_VERSIONS } from '../src/mcp/stateless.ts'
import { MAX_SUBSCRIPTIONS } from '../src/sessions/subscriptions.ts'

export interface McpRouteOptions {
  services: Pick<Services, 'mcp' | 'sessions' | 'requestLimits'>
}

const BODY_LIMIT = 4 * 1024 * 1024

/** Listen streams one token may hold at once, so that no token takes all of the server's (MAX_LISTEN_STREAMS). */
export const MAX_LISTENS_PER_TOKEN = 8
/** A listen request's body lives as long as its stream: 64 KB, not 4 MB (64 streams of 4 MB passed the 256 MB heap). */
export const LISTEN_BODY_LIMIT = 64 * 1024

const header = (value: string | string[] | undefined): string | undefined => Array.isArray(value) ? value.join(',') : value

/**
 * The `/mcp` routes. POST is stateless Streamable HTTP (src/mcp/stateless.ts), in the era each request
 * asks for: a request with the 2026-07-28 `_meta` envelope is served by that revision's rules, anything
 * else (an `initialize`, an envelope-less request) by the 2025 ones. With enable_sessions,
 * an initialize and anything naming a session go to the sessions (src/sessions/service.ts), as do
 * GET and DELETE; without it those two answer 405. Every request passes the Origin check, the
 * per-address request limit, the bearer check and the per-token request limit, in that order.
 */
export default async function mcpRoutes (fastify: FastifyInstance, opts: McpRouteOptions): Promise<void> {
  const { mcp, sessions, requestLimits } = opts.services
  const body = (message: string): object => rpcErrorBody(-32000, message, 'HAMCP_RATE_LIMITED')
  const perAddress = fastify.requestLimit('address', { max: requestLimits.perAddress, body })
  const perToken = fastify.requestLimit('token', { max: requestLimits.perToken, body })

  // Our own JSON parser so bad JSON becomes a JSON-RPC parse error rather than Fastify's generic 400.
  fastify.removeAllContentTypeParsers()
  fastify.addContentTypeParser(['application/json'], { parseAs: 'string', bodyLimit: BODY_LIMIT }, (_request, body, done) => {
    try {
      done(null, JSON.parse(body as string))
    } catch {
      const error = new Error('Parse error: the body is not valid JSON') as Error & { statusCode: number, rpcCode: number }
      error.statusCode = 400
      error.rpcCode = -32700
      done(error, undefined)
    }
  })
  fastify.addContentTypeParser('*', { parseAs: 'string', bodyLimit: BODY_LIMIT }, (_request, _body, done) => {
    const error = new Error('Unsupported Media Type: send Content-Type: application/json') as Error & { statusCode: number, rpcCode: number }
    error.statusCode = 415
    error.rpcCode = -32000
    done(error, undefined)
  })
  fastify.setErrorHandler((error: Error & { statusCode?: number, rpcCode?: number, code?: string }, request, reply) => {
    if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') return rpcError(reply, 413, -32000, 'Request body larger than 4 MB.', 'HAMCP_TOO_LARGE')
    if (error.rpcCode) return rpcError(reply, error.statusCode ?? 400, error.rpcCode, error.message)
    if (error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') return rpcError(reply, 415, -32000, 'Unsupported Media Type: send Content-Type: application/json')
    if ((error.statusCode ?? 500) < 500) return rpcError(reply, error.statusCode ?? 400, -32600, error.message)
    request.log.error({ err: error }, 'MCP request failed')
    return rpcError(reply, 500, -32603, 'Internal error')
  })

  const checkOrigin = async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
    const origin = request.headers.origin
    if (origin !== undefined && !originAllowed(origin, request.headers.host)) {
      request.log.notice({ origin, address: request.ip }, 'refused a request from a foreign Origin')
      await rpcError(reply, 403, -32000, 'Forbidden: Origin not allowed')
    }
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
    await rpcError(reply.header('allow', 'POST'), 405, -32000, 'Method not allowed: this server is stateless; use POST.')
  }
  fastify.get('/mcp', { onRequest: guarded }, sessionOrNotAllowed)
  fastify.delete('/mcp', { onRequest: guarded }, sessionOrNotAllowed)

  const endpoint = await createMcpEndpoint(mcp)
  // Each identity's open listen streams: at most MAX_LISTENS_PER_TOKEN, ended when its credential is revoked.
  const listensOf = new Map<string, Set<ServerResponse>>()
  const stopOwnerClosed = sessions.onOwnerClosed(owner => {
    for (const stream of listensOf.get(owner) ?? []) stream.end()
    listensOf.delete(owner)
  })
  const feed = sessions.liveFeed(uri => { endpoint.resourceUpdated(uri) }, () => endpoint.listening)
  // Listen streams never end by themselves: close them before the server waits for its connections.
  fastify.addHook('preClose', async () => {
    stopOwnerClosed()
    feed.close()
    await endpoint.closeListens()
  })
  fastify.addHook('onClose', async () => { await endpoint.close() })

  fastify.post('/mcp', { onRequest: guarded, bodyLimit: BODY_LIMIT }, async (request, reply) => {
    const version = header(request.headers['mcp-protocol-version'])
    const accept = request.headers.accept
    if (accept && !/application\/json|\*\/\*|application\/\*/i.test(accept)) {
      return rpcError(reply, 406, -32000, 'Not Acceptable: this server answers with application/json')
    }
    const checked = checkBody(request.body)
    if (!checked.ok) return rpcError(reply, 400, -32600, checked.message)
    const decision = decideEra(request.body, { protocolVersion: version, method: header(request.headers['mcp-method']), name: header(request.headers['mcp-name']) })
    if (decision.era === 'reject') return rpcRefusal(reply, decision.status, decision.code, decision.message, decision.data, (request.body as { id?: unknown }).id)
    if (decision.era === 'legacy' && version !== undefined && !LEGACY_PROTOCOL_VERSIONS.includes(version)) {
      return rpcError(reply, 400, -32000, `Unsupported MCP-Protocol-Version ${version}; supported: ${SUPPORTED_PROTOCOL_VERSIONS.join(', ')}`)
    }
    if (decision.era === 'modern' && decision.method === 'subscriptions/listen') {
      const listenId = (request.body as { id?: unknown }).id
      if (JSON.stringify(request.body).length > LISTEN_BODY_LIMIT) {
        return rpcRefusal(reply, 413, -32600, `Request body larger than ${LISTEN_BODY_LIMIT / 1024} KB for subscriptions/listen.`, { code: 'HAMCP_TOO_LARGE' }, listenId)
      }
      // A session subscribes to at most MAX_SUBSCRIPTIONS resources; a stream lists no more.
      const uris = (request.body as { params?: { notifications?: { resourceSubscriptions?: unknown } } }).params?.notifications?.resourceSubscriptions
      if (Array.isArray(uris) && uris.length > MAX_SUBSCRIPTIONS) {
        return rpcRefusal(reply, 200, -32602, `Invalid params: at most ${MAX_SUBSCRIPTIONS} resourceSubscriptions per listen stream`, { code: 'HAMCP_LIMIT_REACHED' }, listenId)
      }
      const owner = (request.identity as Identity).id
      const held = listensOf.get(owner) ?? new Set<ServerResponse>()
      if (held.size >= MAX_LISTENS_PER_TOKEN) {
        return rpcRefusal(reply, 200, -32603, `Subscription limit reached: this token already holds ${MAX_LISTENS_PER_TOKEN} listen streams; close one first`, { code: 'HAMCP_LIMIT_REACHED' }, listenId)
      }
      listensOf.set(owner, held.add(reply.raw))
      reply.raw.once('close', () => {
        held.delete(reply.raw)
        if (held.size === 0 && listensOf.get(owner) === held) listensOf.delete(owner)
      })
      // A long-lived stream of change notifications, written by the SDK's listen router.
      reply.hijack()
      await endpoint.listen(request.raw, reply.raw, request.body, request.identity as Identity)
      return
    }
    // The 2026-07-28 revision has no sessions: a modern request's Mcp-Session-Id is ignored.
    if (decision.era === 'legacy' && sessions.claims(request.headers['mcp-session-id'], checked.messages as Array<{ method?: string }>)) return await toSession(request, reply)
    if (request.log.level === 'debug' || request.log.level === 'trace') {
      request.log.debug({ mcp: checked.messages.map(m => 'method' in m ? m.method : 'response').join(','), identity: request.identity?.name }, 'mcp request')
    }
    // Abandon the work if the client hangs up before its answer is ready.
    const gone = new AbortController()
    const onClose = (): void => { if (!reply.raw.writableFinished) gone.abort() }
    reply.raw.once('close', onClose)
    const answers = await endpoint.handle(checked.messages, request.identity as Identity, gone.signal, decision.era)
    reply.raw.off('close', onClose)
    if (answers.length === 0) return await reply.code(202).send()
    const status = decision.era === 'modern' && !checked.batch ? modernHttpStatus(answers[0]) : 200
    return await reply.code(status).type('application/json').send(checked.batch ? answers : answers[0])
  })
}

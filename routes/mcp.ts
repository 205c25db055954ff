import type { FastifyInstance, FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify'
import type { Identity } from '../src/auth/identity.ts'
import type { Services } from '../src/compose.ts'
import { originAllowed } from '../src/hosts.ts'
import { admitPost, BODY_LIMIT, internalError, ListenAdmission, parseBody, requestRefusal, unsupportedMedia } from '../src/mcp/transport/admission.ts'
import { modernHttpStatus } from '../src/mcp/transport/era.ts'
import { rpcError, RpcRefusal, sendRefusal } from '../src/mcp/transport/rpc-error.ts'
import { createMcpEndpoint } from '../src/mcp/transport/stateless.ts'
import { MAX_SUBSCRIPTIONS } from '../src/sessions/subscriptions.ts'

export interface McpRouteOptions {
  services: Pick<Services, 'mcp' | 'sessions' | 'requestLimits' | 'revocations' | 'config'>
}

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
      done(null, parseBody(body as string))
    } catch (err) {
      done(err as RpcRefusal, undefined)
    }
  })
  fastify.addContentTypeParser('*', { parseAs: 'string', bodyLimit: BODY_LIMIT }, (_request, _body, done) => { done(unsupportedMedia(), undefined) })
  fastify.setErrorHandler((error: Error & { statusCode?: number, code?: string }, request, reply) => {
    const refused = requestRefusal(error)
    if (!refused) request.log.error({ err: error }, 'MCP request failed')
    return sendRefusal(reply, refused ?? internalError())
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
  const listens = new ListenAdmission({ mayRead: (uri, identity) => mcp.surface.mayRead(uri, identity), maxSubscriptions: MAX_SUBSCRIPTIONS, revocations })
  const feed = sessions.liveFeed(uri => { endpoint.resourceUpdated(uri) }, () => endpoint.listening)
  // Listen streams never end by themselves: close them before the server waits for its connections.
  fastify.addHook('preClose', async () => {
    feed.close()
    await endpoint.closeListens()
  })
  fastify.addHook('onClose', async () => { await endpoint.close() })

  fastify.post('/mcp', { onRequest: guarded, preHandler: reauthenticated, bodyLimit: BODY_LIMIT }, async (request, reply) => {
    const admitted = admitPost(request.body, {
      accept: request.headers.accept,
      protocolVersion: header(request.headers['mcp-protocol-version']),
      method: header(request.headers['mcp-method']),
      name: header(request.headers['mcp-name'])
    })
    if ('refused' in admitted) return sendRefusal(reply, admitted.refused, admitted.id)
    const identity = request.identity as Identity
    if (admitted.era === 'modern' && admitted.method === 'subscriptions/listen') {
      const refused = listens.admit(request.body, identity, reply.raw, reason => {
        request.log.debug({ identity: identity.name, reason }, 'ending a listen stream: its credential stopped working')
      })
      if (refused) return sendRefusal(reply, refused, (request.body as { id?: unknown }).id)
      // A long-lived stream of change notifications, written by the SDK's listen router.
      reply.hijack()
      await endpoint.listen(request.raw, reply.raw, request.body, identity, sessions.streamGate(reply.raw))
      return
    }
    // The 2026-07-28 revision has no sessions: a modern request's Mcp-Session-Id is ignored.
    if (admitted.era === 'legacy' && sessions.claims(request.headers['mcp-session-id'], admitted.messages as Array<{ method?: string }>)) return await toSession(request, reply)
    if (request.log.level === 'debug' || request.log.level === 'trace') {
      request.log.debug({ mcp: admitted.messages.map(m => 'method' in m ? m.method : 'response').join(','), identity: request.identity?.name }, 'mcp request')
    }
    // Abandon the work if the client hangs up before its answer is ready.
    const gone = new AbortController()
    reply.raw.once('close', () => { if (!reply.raw.writableFinished) gone.abort() })
    const answers = await endpoint.handle(admitted.messages, identity, gone.signal, admitted.era)
    if (answers.length === 0) return await reply.code(202).send()
    const status = admitted.era === 'modern' && !admitted.batch ? modernHttpStatus(answers[0]) : 200
    // Sent as bytes: Node joins a string body to the headers before writing, and an answer holding any
    // character beyond Latin-1 (an emoji or a CJK name in the home) is a two-byte string, so that join
    // copied every answer once more on the heap before encoding it (a fifth of a list call's garbage).
    return await reply.code(status).type('application/json; charset=utf-8').send(Buffer.from(JSON.stringify(admitted.batch ? answers : answers[0])))
  })
}

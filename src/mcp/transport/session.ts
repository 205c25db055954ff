/**
 * One long-lived MCP session (enable_sessions): its own SDK Server, with the same cached handlers as
 * the stateless endpoint plus subscriptions and confirmations by elicitation, behind the SDK's
 * Streamable HTTP transport (2025 era only: the 2026-07-28 revision has no sessions).
 */
import type { IncomingMessage, ServerResponse } from 'node:http'
import { toNodeHandler } from '@modelcontextprotocol/node'
import { ProtocolErrorCode, SdkError, SdkErrorCode, WebStandardStreamableHTTPServerTransport, type AuthInfo } from '@modelcontextprotocol/server'
import type { Identity } from '../../auth/identity.ts'
import type { ToolContext } from '../runtime/define-tool.ts'
import { authInfoOf, buildServer, type McpServerDeps } from '../handlers.ts'
import { legacyErrorCodes } from './era.ts'
import { rpcErrorBody, withRefusalCode, withRefusalCodes } from './rpc-error.ts'
import { fitText } from '../../shape.ts'
import { QUESTION_MAX_BYTES } from '../runtime/confirm-rounds.ts'
import type { StreamGate } from './stream-gate.ts'

/** The single question a confirmation asks (elicitation form mode allows flat primitive fields only). */
const CONFIRM_SCHEMA = {
  type: 'object' as const,
  properties: {
    confirm: { type: 'boolean' as const, title: 'Confirm', description: 'Yes to let the assistant do this now; anything else refuses it.' }
  },
  required: ['confirm']
}
/** An SSE comment, which clients skip. */
const OPENED = new TextEncoder().encode(': open\n\n')

/**
 * A session's GET stream starts with a comment, so its headers leave at once: Node sends a response's
 * head with its first byte, and the SDK's first byte is its keep-alive, 15 s later, all that time a
 * client waits for the headers before it counts itself listening.
 */
function openedAtOnce (response: Response): Response {
  if (response.body === null || !(response.headers.get('content-type') ?? '').startsWith('text/event-stream')) return response
  const body = response.body.pipeThrough(new TransformStream<Uint8Array, Uint8Array>({ start: controller => { controller.enqueue(OPENED) } }))
  return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers })
}

/** A human may take a while to answer; as long as a confirm token would live. */
const CONFIRM_TIMEOUT_MS = 5 * 60_000

export interface SessionServerHooks {
  subscribe: (uri: string, ctx: ToolContext) => Promise<void>
  unsubscribe: (uri: string) => void
  /** Called when the session's transport closes, whatever closed it (DELETE, close()). */
  onClosed: () => void
  /** The gate in front of the client's notification stream (the GET), so a client that does not read holds little. */
  streamGate?: (res: ServerResponse) => StreamGate
}

export interface McpSession {
  readonly id: string
  /** True once the initialize that opens the session succeeded. */
  readonly initialized: boolean
  /** Serves one HTTP request of this session (POST, GET stream, DELETE); writes the response itself. */
  handle: (req: IncomingMessage, res: ServerResponse, identity: Identity, body?: unknown) => Promise<void>
  resourceUpdated: (uri: string) => void
  /** Sends an MCP log message (`notifications/message`) on the session's stream, at or above the level the client set. */
  log: (level: 'notice' | 'warning', message: string) => void
  /** Ends the client's notification stream (shutdown), leaving requests in flight to finish. */
  closeStream: () => void
  close: () => Promise<void>
}

/**
 * One long-lived MCP session: its own Server (the same cached handlers as the stateless endpoint, plus
 * subscriptions and confirmations by elicitation) behind the SDK's Streamable HTTP transport with SSE
 * responses, so the server can ask the client a question in the middle of a tool call.
 */
export async function createSessionServer (deps: McpServerDeps, id: string, hooks: SessionServerHooks): Promise<McpSession> {
  let initialized = false
  // A client that declared elicitation but fails to answer gets confirm tokens from then on.
  let elicitationBroken = false
  const server = buildServer(deps, {
    era: 'legacy',
    session: session => ({
      confirmerFor: extra => {
        if (elicitationBroken || session.getClientCapabilities()?.elicitation?.form === undefined) return undefined
        return async preview => {
          try {
            const answer = await session.elicitInput(
              { mode: 'form', message: fitText(`Confirm this action? ${preview.preview}`, QUESTION_MAX_BYTES), requestedSchema: CONFIRM_SCHEMA },
              { relatedRequestId: extra.mcpReq.id, signal: extra.mcpReq.signal, timeout: CONFIRM_TIMEOUT_MS }
            )
            return answer.action === 'accept' && answer.content?.confirm === true
          } catch (err) {
          // No answer in time is a refusal; a client that cannot be asked falls back to a confirm token.
            if (err instanceof SdkError && (err.code === SdkErrorCode.RequestTimeout || err.code === SdkErrorCode.ConnectionClosed)) return false
            elicitationBroken = true
            return 'unavailable'
          }
        }
      },
      subscribe: hooks.subscribe,
      unsubscribe: hooks.unsubscribe
    })
  })
  const transport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: () => id,
    onsessioninitialized: () => { initialized = true }
  })
  const send = transport.send.bind(transport)
  // An error gets our code in data.code, whoever raised it (the SDK's own checks have none).
  const coded: typeof transport.send = async (message, options) => { await send('error' in message ? withRefusalCode(legacyErrorCodes(message)) : message, options) }
  transport.send = coded
  // The transport's own HTTP refusals (406, 409, a second initialize...) are JSON bodies without our code: coded on the way out.
  const serve = toNodeHandler({
    fetch: async (request, extra) => {
      const response = await withRefusalCodes(await transport.handleRequest(request, extra))
      return request.method === 'GET' ? openedAtOnce(response) : response
    }
  })
  server.onclose = hooks.onClosed
  await server.connect(transport)
  // The open GET stream's gate: notifications meant for it wait there, one per resource, while it is backed up.
  let stream: StreamGate | undefined
  const toStream = (key: string, send: () => void): void => {
    if (stream === undefined || stream.closed) send()
    else stream.offer(key, send)
  }
  return {
    id,
    get initialized () { return initialized },
    async handle (req, res, identity, body) {
      (req as IncomingMessage & { auth?: AuthInfo }).auth = authInfoOf(identity)
      // One stream at a time (a second GET is refused with 409): the open one keeps its gate.
      if (req.method === 'GET' && hooks.streamGate && (stream === undefined || stream.closed)) stream = hooks.streamGate(res)
      try {
        await serve(req, res, body)
      } catch (err) {
        // The transport gave up mid-way: never leave the client hanging on a half-written response.
        if (!res.headersSent) {
          res.writeHead(500, { 'content-type': 'application/json' })
          res.end(JSON.stringify(rpcErrorBody(ProtocolErrorCode.InternalError, 'Internal error', 'HAMCP_INTERNAL')))
        } else {
          res.destroy(err as Error)
        }
      }
    },
    resourceUpdated (uri) {
      toStream(`resource:${uri}`, () => {
        server.sendResourceUpdated({ uri }).catch(() => {
          // The client is gone or not listening; it re-reads when it comes back.
        })
      })
    },
    log (level, message) {
      toStream(`log:${message}`, () => {
        server.sendLoggingMessage({ level, logger: 'home-assistant', data: message }, id).catch(() => {
          // The client is gone or not listening.
        })
      })
    },
    closeStream () {
      transport.closeStandaloneSSEStream()
    },
    async close () {
      await server.close()
    }
  }
}

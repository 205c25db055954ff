/**
 * Stateless Streamable HTTP without per-request construction: one SDK Server per protocol era lives
 * as long as the app, and each HTTP POST hands its JSON-RPC messages to a small in-process transport
 * that gives each a private id, lets the Server answer, and routes the answer back to that HTTP
 * response. Concurrent clients reusing the same JSON-RPC ids never collide, and nothing is rebuilt
 * per request: that is what keeps a call's cost flat (docs/performance.md). Every POST outside a
 * session takes this one path, whatever its era and method.
 *
 * The SDK's own HTTP entry (`createMcpHandler`) builds a fresh server per request instead; we keep
 * its classification step (`classifyInboundRequest`, in era.ts), so the era decision and the
 * header/body checks are the SDK's, and serve both eras from the two long-lived servers. The in-process
 * transport extends the SDK's per-request transport only so that connecting the modern server binds
 * it to 2026-07-28 the way the SDK's entry does; everything it sends goes through our routing.
 *
 * The transport (src/mcp/transport/) owns how MCP messages travel and knows no tool: the era rules
 * (era.ts), what the /mcp route admits (admission.ts), this endpoint, the sessions' server (session.ts), the bounded notification streams
 * (stream-gate.ts) and the JSON-RPC errors (rpc-error.ts). What a message asks for is answered by
 * the handlers (src/mcp/handlers.ts).
 */
import type { IncomingMessage, ServerResponse } from 'node:http'
import { toNodeHandler } from '@modelcontextprotocol/node'
import { createMcpHandler, Server, PerRequestHTTPServerTransport, ProtocolErrorCode, type JSONRPCMessage, type MessageExtraInfo } from '@modelcontextprotocol/server'
import type { Identity } from '../../auth/identity.ts'
import { createModernConfirmations, type ModernConfirmations } from '../runtime/confirm-rounds.ts'
import { authInfoOf, buildServer, type McpServerDeps } from '../handlers.ts'
import { legacyErrorCodes, MODERN_PROTOCOL_VERSION, type Era } from './era.ts'
import { GatedEventBus, type StreamGate } from './stream-gate.ts'
import { withRefusalCode, withRefusalCodes } from './rpc-error.ts'

/** Routes each request's answer back to whoever asked, under a private id. */
class StatelessMux extends PerRequestHTTPServerTransport {
  #pending = new Map<number, (message: JSONRPCMessage) => void>()
  #nextId = 1
  readonly #era: Era

  constructor (era: Era) {
    super({ classification: era === 'modern' ? { era: 'modern', revision: MODERN_PROTOCOL_VERSION } : { era: 'legacy' } } as ConstructorParameters<typeof PerRequestHTTPServerTransport>[0])
    this.#era = era
  }

  override async start (): Promise<void> {}

  override async close (): Promise<void> {
    for (const resolve of this.#pending.values()) {
      resolve({ jsonrpc: '2.0', id: 0, error: { code: ProtocolErrorCode.InternalError, message: 'Server shutting down', data: { code: 'HAMCP_SHUTTING_DOWN' } } })
    }
    this.#pending.clear()
    this.onclose?.()
  }

  override async send (message: JSONRPCMessage): Promise<void> {
    // Only answers have a destination; notifications about a request (progress, logs) have no
    // stream to travel on in stateless JSON mode and are dropped.
    if ('id' in message && ('result' in message || 'error' in message)) {
      const resolve = this.#pending.get(message.id as number)
      if (resolve) {
        this.#pending.delete(message.id as number)
        // An error gets our code in data.code, whoever raised it (the SDK's own checks have none).
        resolve('error' in message ? withRefusalCode(this.#era === 'legacy' ? legacyErrorCodes(message) : message) : message)
      }
    }
  }

  /**
   * Resolves with the answer to a request, or undefined for a notification or a response, which
   * never reach the server: it knows requests by private ids only, so a client's
   * `notifications/cancelled` naming its own id (or a guess) would cancel whichever request holds
   * that private id, another client's included, and leave it without an answer. A stateless client
   * cancels by closing its connection (`cancelled`). A posted response answers nothing either: a
   * stateless server sends no requests to clients (`send` only routes answers).
   */
  async dispatch (message: JSONRPCMessage, extra: MessageExtraInfo, cancelled: AbortSignal): Promise<JSONRPCMessage | undefined> {
    if (!('method' in message) || !('id' in message)) return undefined
    const privateId = this.#nextId++
    return await new Promise(resolve => {
      this.#pending.set(privateId, answer => resolve({ ...answer, id: message.id } as JSONRPCMessage))
      const onCancel = (): void => {
        if (!this.#pending.has(privateId)) return
        this.#pending.delete(privateId)
        this.onmessage?.({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: privateId, reason: 'client went away' } })
        resolve(undefined)
      }
      cancelled.addEventListener('abort', onCancel, { once: true })
      this.onmessage?.({ ...message, id: privateId }, extra)
    })
  }
}

export interface McpEndpoint {
  /** Answers the messages of one POST: the answers to its requests, in order (empty: 202). */
  handle: (messages: JSONRPCMessage[], identity: Identity, cancelled: AbortSignal, era?: Era) => Promise<JSONRPCMessage[]>
  /** Serves one 2026-07-28 `subscriptions/listen` stream, its notifications behind `gate` (src/mcp/transport/stream-gate.ts); writes the raw response itself. */
  listen: (req: IncomingMessage, res: ServerResponse, body: unknown, identity: Identity, gate?: StreamGate) => Promise<void>
  /** Tells the listen streams that asked for `uri` that it changed. */
  resourceUpdated: (uri: string) => void
  /** Whether any listen stream is open. */
  readonly listening: boolean
  /** Ends every listen stream (shutdown), leaving requests in flight to finish. */
  closeListens: () => Promise<void>
  close: () => Promise<void>
}

/** At most this many listen streams at once; more are refused in-band (-32603) before the ack. */
export const MAX_LISTEN_STREAMS = 64

export async function createMcpEndpoint (deps: McpServerDeps, confirmations: ModernConfirmations = createModernConfirmations()): Promise<McpEndpoint> {
  const servers = { legacy: buildServer(deps, { era: 'legacy' }), modern: buildServer(deps, { era: 'modern', confirmations }) }
  const muxes = { legacy: new StatelessMux('legacy'), modern: new StatelessMux('modern') }
  await servers.legacy.connect(muxes.legacy)
  await servers.modern.connect(muxes.modern)
  // subscriptions/listen: the SDK's own entry serves the stream (ack, subscription ids, per-stream
  // filtering); the instance it asks for only lends its capabilities, so building one per stream is cheap.
  // Each stream's listener behind its own gate: a reader that does not read holds one update per URI, then is closed.
  const bus = new GatedEventBus()
  const listenHandler = createMcpHandler(() => new Server({ name: deps.name, version: deps.version, title: 'Home Assistant' }, {
    capabilities: { tools: { listChanged: false }, resources: { subscribe: true }, prompts: {} },
    supportedProtocolVersions: [MODERN_PROTOCOL_VERSION]
  }), { legacy: 'reject', bus, maxSubscriptions: MAX_LISTEN_STREAMS })
  // Its refusals (a malformed filter...) are JSON answers without our code: coded on the way out; the stream passes untouched.
  const serveListen = toNodeHandler({ fetch: async (request, extra) => await withRefusalCodes(await listenHandler.fetch(request, extra)) })
  return {
    async listen (req, res, body, identity, gate) {
      (req as IncomingMessage & { auth?: unknown }).auth = authInfoOf(identity)
      const serve = async (): Promise<void> => { await serveListen(req as IncomingMessage & { auth?: never }, res, body) }
      const uris = (body as { params?: { notifications?: { resourceSubscriptions?: unknown } } } | null)?.params?.notifications?.resourceSubscriptions
      await (gate ? bus.serve(gate, Array.isArray(uris) ? uris : [], serve) : serve())
    },
    resourceUpdated (uri) { listenHandler.notify.resourceUpdated(uri) },
    get listening () { return bus.listenerCount > 0 },
    async closeListens () { await listenHandler.close() },
    async handle (messages, identity, cancelled, era = 'legacy') {
      const extra: MessageExtraInfo = { authInfo: authInfoOf(identity) }
      const answers = await Promise.all(messages.map(message => muxes[era].dispatch(message, extra, cancelled)))
      return answers.filter((answer): answer is JSONRPCMessage => answer !== undefined)
    },
    async close () {
      await listenHandler.close()
      await Promise.all([servers.legacy.close(), servers.modern.close()])
    }
  }
}

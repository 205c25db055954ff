/**
 * Stateless Streamable HTTP without per-request construction: one SDK Server per protocol era lives
 * as long as the app, and each HTTP POST hands its JSON-RPC messages to a small in-process transport
 * that gives each a private id, lets the Server answer, and routes the answer back to that HTTP
 * response. Concurrent clients reusing the same JSON-RPC ids never collide, and nothing is rebuilt
 * per request: that is what keeps a call's cost flat (docs/performance.md). Every POST outside a
 * session takes this one path, whatever its era and method.
 *
 * The SDK's own HTTP entry (`createMcpHandler`) builds a fresh server per request instead; we keep
 * its classification step (`classifyInboundRequest`), so the era decision and the header/body
 * checks are the SDK's, and serve both eras from the two long-lived servers. The in-process
 * transport extends the SDK's per-request transport only so that connecting the modern server binds
 * it to 2026-07-28 the way the SDK's entry does; everything it sends goes through our routing.
 */
import type { IncomingMessage, ServerResponse } from 'node:http'
import { toNodeHandler } from '@modelcontextprotocol/node'
import {
  classifyInboundRequest, createMcpHandler, Server, isJSONRPCErrorResponse, isJSONRPCNotification, isJSONRPCRequest, isJSONRPCResultResponse,
  PerRequestHTTPServerTransport, ProtocolErrorCode, type JSONRPCMessage, type MessageExtraInfo
} from '@modelcontextprotocol/server'
import type { Identity } from '../../auth/identity.ts'
import { createModernConfirmations, type ModernConfirmations } from '../runtime/confirm-rounds.ts'
import { authInfoOf, buildServer, LEGACY_PROTOCOL_VERSIONS, legacyErrorCodes, MODERN_PROTOCOL_VERSION, type Era, type McpServerDeps } from '../handlers.ts'
import { GatedEventBus, type StreamGate } from './stream-gate.ts'
import { withRefusalCode, withRefusalCodes } from './rpc-error.ts'

export { LEGACY_PROTOCOL_VERSIONS, MODERN_PROTOCOL_VERSION }
/** Every revision the endpoint speaks, newest first. */
export const SUPPORTED_PROTOCOL_VERSIONS: readonly string[] = [MODERN_PROTOCOL_VERSION, ...LEGACY_PROTOCOL_VERSIONS]

/** -32020: the request's headers and body disagree (2026-07-28 Streamable HTTP). */
export const HEADER_MISMATCH = -32020

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

export type McpBodyCheck = { ok: true, messages: JSONRPCMessage[], batch: boolean } | { ok: false, message: string }

function isMessage (item: unknown): item is JSONRPCMessage {
  return isJSONRPCRequest(item) || isJSONRPCNotification(item) || isJSONRPCResultResponse(item) || isJSONRPCErrorResponse(item)
}

/** Messages in one 2025-era batch: 3000 calls in one 377 KB POST held the server for 20 s and built a 35 MB answer. */
export const MAX_BATCH = 100

/**
 * Longest JSON-RPC id served. An id lives as long as its request, and a listen stream stamps it on every
 * notification: eight streams with 64 KB ids took 330 MB in 15 s. Clients send numbers or UUIDs.
 */
export const MAX_ID_LENGTH = 256

/** Checks that a parsed body is one JSON-RPC message (or a batch of them, which older clients send). */
export function checkBody (body: unknown): McpBodyCheck {
  const batch = Array.isArray(body)
  const items: unknown[] = batch ? body : [body]
  if (items.length === 0) return { ok: false, message: 'Invalid Request: empty batch' }
  if (items.length > MAX_BATCH) return { ok: false, message: `Invalid Request: a batch holds at most ${MAX_BATCH} messages` }
  for (const item of items) {
    if (!isMessage(item)) return { ok: false, message: 'Invalid Request: not a JSON-RPC 2.0 message' }
    const id = (item as { id?: unknown }).id
    if (typeof id === 'string' && id.length > MAX_ID_LENGTH) return { ok: false, message: `Invalid Request: an id longer than ${MAX_ID_LENGTH} characters` }
  }
  return { ok: true, messages: items as JSONRPCMessage[], batch }
}

/** The MCP headers of one POST, as received. */
export interface McpHeaders {
  protocolVersion?: string
  method?: string
  name?: string
}

export type EraDecision =
  | { era: 'legacy' }
  | { era: 'modern', method: string | undefined }
  | { era: 'reject', status: number, code: number, message: string, data?: unknown }

const NAME_SOURCE: Record<string, string> = { 'tools/call': 'name', 'prompts/get': 'name', 'resources/read': 'uri' }
const BASE64_VALUE = /^=\?base64\?([A-Za-z0-9+/]*={0,2})\?=$/

/** The `Mcp-Name` header's value: as is, or decoded from its `=?base64?…?=` form (undefined when that is malformed). */
function decodeName (value: string): string | undefined {
  const match = BASE64_VALUE.exec(value)
  if (!match) return value.startsWith('=?base64?') ? undefined : value
  const text = Buffer.from(match[1] as string, 'base64')
  return text.toString('base64') === match[1] ? text.toString('utf8') : undefined
}

/**
 * Which era serves a POST, as the spec's dual-era rules decide it (the SDK's own classification):
 * a request carrying the 2026-07-28 `_meta` envelope is modern, `initialize` and envelope-less
 * requests are legacy. A modern request must also carry `MCP-Protocol-Version`, `Mcp-Method` and,
 * for the methods that name something, `Mcp-Name`, each equal to the body.
 */
export function decideEra (body: unknown, headers: McpHeaders): EraDecision {
  const outcome = classifyInboundRequest({ httpMethod: 'POST', protocolVersionHeader: headers.protocolVersion, mcpMethodHeader: headers.method, mcpNameHeader: headers.name, body })
  if (outcome.kind === 'reject') return { era: 'reject', status: outcome.httpStatus, code: outcome.code, message: outcome.message, ...(outcome.data !== undefined ? { data: outcome.data } : {}) }
  if (outcome.kind === 'legacy') return { era: 'legacy' }
  const revision = outcome.classification.revision
  if (revision !== MODERN_PROTOCOL_VERSION) {
    // Only the revisions server/discover offers: the 2025 ones are reached through initialize.
    return { era: 'reject', status: 400, code: ProtocolErrorCode.UnsupportedProtocolVersion, message: `Unsupported protocol version: ${revision ?? 'unknown'}`, data: { supported: [MODERN_PROTOCOL_VERSION], requested: revision ?? 'unknown' } }
  }
  if (outcome.messageKind !== 'request') return { era: 'modern', method: undefined }
  const message = outcome.message as { method: string, params?: Record<string, unknown> }
  const mismatch = (header: string, detail: string): EraDecision => ({ era: 'reject', status: 400, code: HEADER_MISMATCH, message: `Bad Request: the request headers and body disagree: ${detail}`, data: { mismatch: { header, body: detail } } })
  if (headers.protocolVersion === undefined) return mismatch('(missing)', `the body envelope names protocol version ${revision} but the required MCP-Protocol-Version header is absent`)
  if (headers.method === undefined) return mismatch('(missing)', `the body names method ${message.method} but the required Mcp-Method header is absent`)
  const field = NAME_SOURCE[message.method]
  const bodyName = field ? message.params?.[field] : undefined
  if (field && typeof bodyName === 'string') {
    if (headers.name === undefined) return mismatch('(missing)', `the body carries params.${field}="${bodyName}" but the required Mcp-Name header is absent`)
    const decoded = decodeName(headers.name.trim())
    if (decoded === undefined) return mismatch(headers.name, 'the Mcp-Name header carries an invalid Base64 sentinel value')
    if (decoded !== bodyName) return mismatch(headers.name, `the body carries params.${field}="${bodyName}" but the Mcp-Name header names "${decoded}"`)
  }
  return { era: 'modern', method: message.method }
}

/**
 * The HTTP status of a 2026-07-28 answer: a method this server does not serve is 404 (the spec's
 * signal to a dual-era client), a capability the request did not declare 400; every other answer,
 * errors from a handler included, travels in a 200.
 */
export function modernHttpStatus (answer: unknown): number {
  const code = (answer as { error?: { code?: number } }).error?.code
  if (code === ProtocolErrorCode.MethodNotFound) return 404
  if (code === ProtocolErrorCode.MissingRequiredClientCapability || code === ProtocolErrorCode.UnsupportedProtocolVersion || code === HEADER_MISMATCH) return 400
  return 200
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

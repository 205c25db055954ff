/**
 * Stateless Streamable HTTP without per-request construction: one SDK Server per protocol era lives
 * as long as the app, and each HTTP POST hands its JSON-RPC messages to a small in-process transport
 * that gives each a private id, lets the Server answer, and routes the answer back to that HTTP
 * response. Concurrent clients reusing the same JSON-RPC ids never collide, and nothing is rebuilt
 * per request: that is what keeps a call's cost flat (the README's Bench section measures it).
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
  classifyInboundRequest, createMcpHandler, InMemoryServerEventBus, Server, isJSONRPCErrorResponse, isJSONRPCNotification, isJSONRPCRequest, isJSONRPCResultResponse,
  PerRequestHTTPServerTransport, ProtocolErrorCode, type JSONRPCMessage, type MessageExtraInfo
} from '@modelcontextprotocol/server'
import type { Identity } from '../auth/identity.ts'
import { createModernConfirmations, type ModernConfirmations } from './confirm-rounds.ts'
import { authInfoOf, buildServer, directToolCall, LEGACY_PROTOCOL_VERSIONS, legacyErrorCodes, MODERN_PROTOCOL_VERSION, type Era, type McpServerDeps } from './handlers.ts'
import { hiddenSlot } from './hidden-slot.ts'
import { toolResultJson, type ToolCallResult } from './invoke.ts'
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
  return isPlainMessage(item) || isJSONRPCRequest(item) || isJSONRPCNotification(item) || isJSONRPCResultResponse(item) || isJSONRPCErrorResponse(item)
}

const MESSAGE_KEYS = new Set(['jsonrpc', 'id', 'method', 'params'])

/**
 * A request or notification the SDK's JSON-RPC schemas accept, recognised without a schema parse
 * (which copies the message): `jsonrpc` "2.0", a string method, a string or safe-integer id or no
 * `id` key at all (a notification: HA's client sends `notifications/initialized` on every call),
 * params absent or an object without `_meta`, no other key. False says nothing: the SDK's own checks
 * decide then.
 */
function isPlainMessage (item: unknown): item is JSONRPCMessage & { method: string, params?: Record<string, unknown> } {
  if (item === null || typeof item !== 'object' || Array.isArray(item)) return false
  const message = item as Record<string, unknown>
  if (message.jsonrpc !== '2.0' || typeof message.method !== 'string') return false
  if ('id' in message && typeof message.id !== 'string' && !Number.isSafeInteger(message.id)) return false
  for (const key in message) if (!MESSAGE_KEYS.has(key)) return false
  const params = message.params
  return params === undefined || (params !== null && typeof params === 'object' && !Array.isArray(params) && !('_meta' in params))
}

/** Messages in one 2025-era batch: 3000 calls in one 377 KB POST held the server for 20 s and built a 35 MB answer. */
export const MAX_BATCH = 100

/** Checks that a parsed body is one JSON-RPC message (or a batch of them, which older clients send). */
export function checkBody (body: unknown): McpBodyCheck {
  const batch = Array.isArray(body)
  const items: unknown[] = batch ? body : [body]
  if (items.length === 0) return { ok: false, message: 'Invalid Request: empty batch' }
  if (items.length > MAX_BATCH) return { ok: false, message: `Invalid Request: a batch holds at most ${MAX_BATCH} messages` }
  for (const item of items) {
    if (!isMessage(item)) return { ok: false, message: 'Invalid Request: not a JSON-RPC 2.0 message' }
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
  // The common 2025-era request or notification (initialize included: HA's client sends one per
  // call), decided as the SDK's rules decide it without running them: no envelope claim (no `_meta`
  // at all), no modern MCP-Protocol-Version header (test/redteam/era-fast-path.test.ts).
  if (isPlainMessage(body) && (headers.protocolVersion === undefined || LEGACY_PROTOCOL_VERSIONS.includes(headers.protocolVersion))) return { era: 'legacy' }
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

/** The result of each answer a direct tool call made, kept on the answer, to write it without serializing it twice. */
const directSlot = hiddenSlot<ToolCallResult>('direct answer')
const directResult = directSlot.get

/** Whether an answer came from a direct tool call (tests check which way a call went). */
export function isDirectAnswer (answer: JSONRPCMessage): boolean {
  return directResult(answer) !== undefined
}

/** The JSON-RPC answer the SDK sends for a tools/call whose handler threw (its error path, 2025 era). */
function thrownAnswer (id: unknown, err: unknown): JSONRPCMessage {
  const error = err as { code?: unknown, message?: string, data?: unknown }
  const code = Number.isSafeInteger(error.code) ? error.code as number : ProtocolErrorCode.InternalError
  return withRefusalCode(legacyErrorCodes({ jsonrpc: '2.0', id, error: { code: code === -32002 ? -32602 : code, message: error.message ?? 'Internal error', ...(error.data !== undefined ? { data: error.data } : {}) } } as JSONRPCMessage))
}

/**
 * The HTTP body of a POST's answers, as UTF-8: exactly `JSON.stringify(batch ? answers : answers[0])`,
 * with each direct tool call's result written from the text it already has. The pieces are written
 * into one buffer: joined into a string, the body was copied whole twice more (to measure it, then
 * glued to the headers), a list answer's largest allocations.
 */
export function answersBody (answers: JSONRPCMessage[], batch: boolean): Buffer {
  // Pieces written one after the other.
  const pieces: string[] = []
  if (batch) pieces.push('[')
  answers.forEach((answer, i) => {
    if (i > 0) pieces.push(',')
    const result = directResult(answer)
    if (result === undefined) pieces.push(JSON.stringify(answer))
    else pieces.push('{"result":', ...toolResultJson(result), ',"jsonrpc":"2.0","id":', JSON.stringify((answer as { id: unknown }).id), '}')
  })
  if (batch) pieces.push(']')
  let size = 0
  for (const piece of pieces) size += Buffer.byteLength(piece, 'utf8')
  // Node's own pool under 4 KB, else a buffer of the body's size: either dies young with its answer.
  // (Bodies cut from 128 KB slabs of our own outlived each answer: every slab was promoted, and their
  // native memory, freed only by full collections, drove one a second under small answers.)
  const body = Buffer.allocUnsafe(size)
  let at = 0
  for (const piece of pieces) at += body.write(piece, at, 'utf8')
  // Never an uninitialized byte on the wire (the pool holds earlier answers): JSON allows trailing spaces.
  if (at < body.length) body.fill(0x20, at)
  return body
}

export interface McpEndpoint {
  /** Answers the messages of one POST: the answers to its requests, in order (empty: 202). */
  handle: (messages: JSONRPCMessage[], identity: Identity, cancelled: AbortSignal, era?: Era) => Promise<JSONRPCMessage[]>
  /** Serves one 2026-07-28 `subscriptions/listen` stream; writes the raw response itself. */
  listen: (req: IncomingMessage, res: ServerResponse, body: unknown, identity: Identity) => Promise<void>
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

export interface EndpointOptions {
  /** Answer 2025-era read tool calls without the SDK's round trip (default; test/e2e/direct-calls.test.ts compares both). */
  directToolCalls?: boolean
}

export async function createMcpEndpoint (deps: McpServerDeps, confirmations: ModernConfirmations = createModernConfirmations(), options: EndpointOptions = {}): Promise<McpEndpoint> {
  const directCalls = options.directToolCalls !== false
  const servers = { legacy: buildServer(deps, { era: 'legacy' }), modern: buildServer(deps, { era: 'modern', confirmations }) }
  const muxes = { legacy: new StatelessMux('legacy'), modern: new StatelessMux('modern') }
  await servers.legacy.connect(muxes.legacy)
  await servers.modern.connect(muxes.modern)
  // subscriptions/listen: the SDK's own entry serves the stream (ack, subscription ids, per-stream
  // filtering); the instance it asks for only lends its capabilities, so building one per stream is cheap.
  const bus = new InMemoryServerEventBus()
  const listenHandler = createMcpHandler(() => new Server({ name: deps.name, version: deps.version, title: 'Home Assistant' }, {
    capabilities: { tools: { listChanged: false }, resources: { subscribe: true }, prompts: {} },
    supportedProtocolVersions: [MODERN_PROTOCOL_VERSION]
  }), { legacy: 'reject', bus, maxSubscriptions: MAX_LISTEN_STREAMS })
  // Its refusals (a malformed filter...) are JSON answers without our code: coded on the way out; the stream passes untouched.
  const serveListen = toNodeHandler({ fetch: async (request, extra) => await withRefusalCodes(await listenHandler.fetch(request, extra)) })
  /** A read tool's 2025-era call, answered as the legacy server would answer it (handlers.ts directToolCall); undefined: the server serves it. */
  const direct = (message: JSONRPCMessage, identity: Identity, cancelled: AbortSignal): Promise<JSONRPCMessage | undefined> | undefined => {
    if (!('id' in message) || !('method' in message)) return undefined
    const id = message.id
    let running: Promise<ToolCallResult> | undefined
    try {
      running = directToolCall(deps, message, identity, cancelled)
    } catch (err) {
      return Promise.resolve(thrownAnswer(id, err))
    }
    if (running === undefined) return undefined
    return running.then(result => {
      // A client that went away gets no answer, as through the server.
      if (cancelled.aborted) return undefined
      const answer = { result, jsonrpc: '2.0', id } as unknown as JSONRPCMessage
      directSlot.set(answer, result)
      return answer
    }, (err: unknown) => cancelled.aborted ? undefined : thrownAnswer(id, err))
  }
  return {
    async listen (req, res, body, identity) {
      (req as IncomingMessage & { auth?: unknown }).auth = authInfoOf(identity)
      await serveListen(req as IncomingMessage & { auth?: never }, res, body)
    },
    resourceUpdated (uri) { listenHandler.notify.resourceUpdated(uri) },
    get listening () { return bus.listenerCount > 0 },
    async closeListens () { await listenHandler.close() },
    async handle (messages, identity, cancelled, era = 'legacy') {
      // Built only for a message the server answers (a direct call needs none).
      let extra: MessageExtraInfo | undefined
      const answer = (message: JSONRPCMessage): Promise<JSONRPCMessage | undefined> => {
        const directly = era === 'legacy' && directCalls ? direct(message, identity, cancelled) : undefined
        if (directly !== undefined) return directly
        extra ??= { authInfo: authInfoOf(identity) }
        return muxes[era].dispatch(message, extra, cancelled)
      }
      // One message, the common POST: no Promise.all around it.
      if (messages.length === 1) {
        const only = await answer(messages[0] as JSONRPCMessage)
        return only === undefined ? [] : [only]
      }
      const answers = await Promise.all(messages.map(answer))
      return answers.filter((answer): answer is JSONRPCMessage => answer !== undefined)
    },
    async close () {
      await listenHandler.close()
      await Promise.all([servers.legacy.close(), servers.modern.close()])
    }
  }
}

/**
 * The two protocol eras and the rules that tell them apart, before any handler runs: which era a
 * POST belongs to (the spec's dual-era rules, by the SDK's own classification), whether its headers
 * and body agree, whether the body is JSON-RPC at all (and within the batch and id caps), which HTTP
 * status a 2026-07-28 answer travels in, and the 2025 error codes put back on the way out to a
 * 2025-era client. The /mcp route (routes/mcp.ts) applies them; the endpoint (stateless.ts) and the
 * sessions' server (session.ts) serve what they admit.
 */
import {
  classifyInboundRequest, isJSONRPCErrorResponse, isJSONRPCNotification, isJSONRPCRequest, isJSONRPCResultResponse,
  ProtocolErrorCode, SUPPORTED_PROTOCOL_VERSIONS as SDK_PROTOCOL_VERSIONS, type JSONRPCMessage
} from '@modelcontextprotocol/server'

/** The 2026-07-28 revision, the one modern revision this server speaks. */
export const MODERN_PROTOCOL_VERSION = '2026-07-28'
/** The 2025-era revisions, negotiated by `initialize`. */
export const LEGACY_PROTOCOL_VERSIONS: readonly string[] = SDK_PROTOCOL_VERSIONS.filter(v => v < MODERN_PROTOCOL_VERSION)

export type Era = 'legacy' | 'modern'

/**
 * -32002 is "resource not found" in protocol 2025-11-25; 2026-07-28 (SEP-2164) answers -32602, with
 * the URI in `data`. The SDK encodes -32602 in both eras; `legacyErrorCodes` puts the 2025 code back on
 * the way out to a 2025-era client, so those clients see exactly what they saw before.
 */
export const RESOURCE_NOT_FOUND = ProtocolErrorCode.ResourceNotFound

/** Restores -32002 on a 2025-era "resource not found" answer (see RESOURCE_NOT_FOUND). */
export function legacyErrorCodes<M> (message: M): M {
  const error = (message as { error?: { code: number, message: string, data?: { uri?: unknown } } }).error
  if (error?.code === ProtocolErrorCode.InvalidParams && typeof error.data?.uri === 'string' && error.message.startsWith('Resource not found')) {
    return { ...message, error: { ...error, code: RESOURCE_NOT_FOUND } }
  }
  return message
}

/** Every revision the endpoint speaks, newest first. */
export const SUPPORTED_PROTOCOL_VERSIONS: readonly string[] = [MODERN_PROTOCOL_VERSION, ...LEGACY_PROTOCOL_VERSIONS]

/** -32020: the request's headers and body disagree (2026-07-28 Streamable HTTP). */
export const HEADER_MISMATCH = -32020

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

import type { FastifyReply } from 'fastify'
import { ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/server'
import { CodedError, type RefusalCode, type UserError } from '../../errors.ts'
import { isRecord } from '../../shape.ts'

/** The SDK's JSON-RPC error codes, for the /mcp routes (routes/mcp.ts), which do not import the SDK. */
export { ProtocolErrorCode }

export interface RpcErrorBody {
  jsonrpc: '2.0'
  error: { code: number, message: string, data: { code: RefusalCode } & Record<string, unknown> }
  id: null
}

/**
 * An HTTP refusal on /mcp, before any handler runs: its HTTP `status`, its JSON-RPC error code, our
 * `code` (sent in `error.data.code`) and the extra `data` a spec defines for it.
 */
export class RpcRefusal extends CodedError<RefusalCode> {
  declare readonly status: number
  readonly rpcCode: number
  readonly data: Record<string, unknown> | undefined

  constructor (status: number, rpcCode: number, code: RefusalCode, message: string, options: { data?: Record<string, unknown>, cause?: unknown } = {}) {
    super(code, message, { status, cause: options.cause })
    this.rpcCode = rpcCode
    this.data = options.data
  }
}

/** The body of a JSON-RPC error answered before any request id is known; `error.data.code` is always one of ours. */
export function rpcErrorBody (rpcCode: number, message: string, code: RefusalCode, data?: Record<string, unknown>): RpcErrorBody {
  return { jsonrpc: '2.0', error: { code: rpcCode, message, data: { ...data, code } }, id: null }
}

/** Answers an HTTP request with a JSON-RPC error body and the given status. */
export function rpcError (reply: FastifyReply, status: number, rpcCode: number, message: string, code: RefusalCode): FastifyReply {
  return reply.code(status).type('application/json').send(rpcErrorBody(rpcCode, message, code))
}

/** Answers a refusal: its status and body, echoing the request's id when the body had one. */
export function sendRefusal (reply: FastifyReply, refusal: RpcRefusal, id?: unknown): FastifyReply {
  const echo = typeof id === 'string' || typeof id === 'number' ? id : null
  return reply.code(refusal.status).type('application/json').send({ ...rpcErrorBody(refusal.rpcCode, refusal.message, refusal.code, refusal.data), id: echo })
}

/** A UserError raised under a JSON-RPC method (resources, prompts): invalid params, our code in `data`. */
export function userMcpError (err: UserError): ProtocolError {
  return new ProtocolError(ProtocolErrorCode.InvalidParams, err.hint ? `${err.message} ${err.hint}` : err.message, { code: err.code, ...(err.hint ? { hint: err.hint } : {}) })
}

type ErrorData = Record<string, unknown> & { code?: unknown }
interface JsonRpcError { code: number, message: string, data?: unknown }

/**
 * Our code for a JSON-RPC error the SDK answered by itself, without one (an unknown method, params
 * that fail the method's schema, a requestState it cannot verify, a session transport's HTTP
 * refusal): by its JSON-RPC code and, for the transport's -32000, the HTTP status it answered.
 * Errors our own code raises carry theirs from where they are decided.
 */
export function sdkErrorCode (error: JsonRpcError, status = 200): RefusalCode {
  switch (error.code) {
    case ProtocolErrorCode.ParseError: return 'HAMCP_PARSE_ERROR'
    case ProtocolErrorCode.InvalidRequest: return 'HAMCP_INVALID_REQUEST'
    case ProtocolErrorCode.MethodNotFound: return 'HAMCP_METHOD_NOT_FOUND'
    case ProtocolErrorCode.InvalidParams:
      return (error.data as ErrorData | undefined)?.reason === 'invalid_request_state' ? 'HAMCP_CONFIRM_TOKEN_INVALID' : 'HAMCP_INVALID_ARGUMENT'
    case ProtocolErrorCode.ResourceNotFound: return 'HAMCP_NOT_FOUND'
    case ProtocolErrorCode.UnsupportedProtocolVersion: return 'HAMCP_UNSUPPORTED_PROTOCOL_VERSION'
    case ProtocolErrorCode.MissingRequiredClientCapability: return 'HAMCP_INVALID_REQUEST'
    // -32020, the 2026-07-28 header mismatch (stateless.ts HEADER_MISMATCH).
    case -32020: return 'HAMCP_HEADER_MISMATCH'
    case -32001: return 'HAMCP_SESSION_NOT_FOUND'
  }
  // The listen router's cap on open streams (stateless.ts MAX_LISTEN_STREAMS) answers -32603.
  if (/limit reached/i.test(error.message)) return 'HAMCP_LIMIT_REACHED'
  if (error.code === ProtocolErrorCode.InternalError || status >= 500) return 'HAMCP_INTERNAL'
  if (/protocol version/i.test(error.message)) return 'HAMCP_UNSUPPORTED_PROTOCOL_VERSION'
  const byStatus: Record<number, RefusalCode> = { 403: 'HAMCP_ORIGIN_NOT_ALLOWED', 404: 'HAMCP_SESSION_NOT_FOUND', 406: 'HAMCP_NOT_ACCEPTABLE', 409: 'HAMCP_LIMIT_REACHED', 413: 'HAMCP_TOO_LARGE', 415: 'HAMCP_UNSUPPORTED_MEDIA_TYPE' }
  return byStatus[status] ?? 'HAMCP_INVALID_REQUEST'
}

/**
 * The SDK validates a request's params against the method's schema before any handler runs, and
 * reports a failure as a plain Error, which it answers as -32603 with zod's issue list as the text:
 * that is the caller's mistake, so it becomes -32602 with the issues in words. Undefined for any other error.
 */
function schemaRefusal (error: JsonRpcError): JsonRpcError | undefined {
  if (error.code !== ProtocolErrorCode.InternalError || !error.message.startsWith('[')) return undefined
  let issues: unknown
  try { issues = JSON.parse(error.message) } catch { return undefined }
  if (!Array.isArray(issues) || issues.length === 0 || !issues.every(i => typeof i?.message === 'string' && Array.isArray(i?.path))) return undefined
  const words = (issues as Array<{ path: unknown[], message: string }>).map(i => `${i.path.length > 0 ? `${i.path.join('.')}: ` : ''}${i.message}`).join('; ')
  return { code: ProtocolErrorCode.InvalidParams, message: `Invalid params: ${words}` }
}

/**
 * A JSON-RPC answer with our code in `error.data.code` when it is an error without one; anything else
 * is returned as is. Called on the way out of every SDK server and transport, on errors only.
 */
export function withRefusalCode<M> (message: M, status?: number): M {
  const error = (message as { error?: JsonRpcError }).error
  if (error === undefined || typeof (error.data as ErrorData | undefined)?.code === 'string') return message
  const fixed = schemaRefusal(error) ?? error
  const data = fixed.data === undefined ? {} : isRecord(fixed.data) ? fixed.data as ErrorData : { detail: fixed.data }
  return { ...message, error: { ...fixed, data: { ...data, code: sdkErrorCode(fixed, status) } } }
}

/** A transport's JSON answer (a refusal or an error body) with our codes in it; streams and empty answers pass untouched. */
export async function withRefusalCodes (response: Response): Promise<Response> {
  if (!(response.headers.get('content-type') ?? '').startsWith('application/json')) return response
  const text = await response.text()
  let body: unknown
  try { body = JSON.parse(text) } catch { return new Response(text, response) }
  const coded = Array.isArray(body) ? body.map(item => withRefusalCode(item, response.status)) : withRefusalCode(body, response.status)
  const headers = new Headers(response.headers)
  headers.delete('content-length')
  return new Response(JSON.stringify(coded), { status: response.status, statusText: response.statusText, headers })
}

import type { FastifyReply } from 'fastify'
import { ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/server'
import { CodedError, type RefusalCode, type UserError } from '../errors.ts'

/** The SDK's JSON-RPC error codes, for the /mcp routes (plugins/mcp.ts), which do not import the SDK. */
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

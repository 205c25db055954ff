import type { FastifyReply } from 'fastify'
import { ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/server'
import type { UserError, UserErrorCode } from '../errors.ts'

export interface RpcErrorBody {
  jsonrpc: '2.0'
  error: { code: number, message: string, data?: unknown }
  id: null
}

/** The body of a JSON-RPC error answered before any request id is known; `code` is one of ours when the caller can fix it. */
export function rpcErrorBody (rpcCode: number, message: string, code?: UserErrorCode): RpcErrorBody {
  return { jsonrpc: '2.0', error: { code: rpcCode, message, ...(code ? { data: { code } } : {}) }, id: null }
}

/** Answers an HTTP request with a JSON-RPC error body and the given status. */
export function rpcError (reply: FastifyReply, status: number, rpcCode: number, message: string, code?: UserErrorCode): FastifyReply {
  return reply.code(status).type('application/json').send(rpcErrorBody(rpcCode, message, code))
}

/** A UserError raised under a JSON-RPC method (resources, prompts): invalid params, our code in `data`. */
export function userMcpError (err: UserError): ProtocolError {
  return new ProtocolError(ProtocolErrorCode.InvalidParams, err.hint ? `${err.message} ${err.hint}` : err.message, { code: err.code, ...(err.hint ? { hint: err.hint } : {}) })
}

/** Answers a request the 2026-07-28 rules refuse before it reaches a handler: its status, code and data, echoing its id. */
export function rpcRefusal (reply: FastifyReply, status: number, rpcCode: number, message: string, data: unknown, id: unknown): FastifyReply {
  const echo = typeof id === 'string' || typeof id === 'number' ? id : null
  return reply.code(status).type('application/json').send({ jsonrpc: '2.0', id: echo, error: { code: rpcCode, message, ...(data !== undefined ? { data } : {}) } })
}

import type { FastifyError } from 'fastify'
import { HttpRefusal, type HomeAssistantErrorCode, type RefusalCode } from '../src/errors.ts'

export interface Refusal { status: number, code: RefusalCode | HomeAssistantErrorCode, message: string }

/**
 * Fastify's own refusals of a request (its body too large, of a type no parser reads, not valid JSON)
 * and an HttpRefusal thrown from a hook as a status, our code and a
 * sentence, for the routes that answer coded bodies; undefined for anything else, which is a bug
 * (500, HAMCP_INTERNAL). /mcp answers its own (routes/mcp.ts).
 */
export function fastifyRefusal (error: FastifyError, accepted: string): Refusal | undefined {
  if (error instanceof HttpRefusal) return { status: error.status, code: error.code, message: error.message }
  switch (error.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE': return { status: 413, code: 'HAMCP_TOO_LARGE', message: 'The request body is over the size limit.' }
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE': return { status: 415, code: 'HAMCP_UNSUPPORTED_MEDIA_TYPE', message: `Unsupported Media Type: send the body as ${accepted}.` }
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY': return { status: 400, code: 'HAMCP_PARSE_ERROR', message: 'The body is not valid JSON.' }
  }
  const status = error.statusCode ?? 500
  return status < 500 ? { status, code: 'HAMCP_INVALID_ARGUMENT', message: error.message } : undefined
}

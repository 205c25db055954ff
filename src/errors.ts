import createError from '@fastify/error'

/**
 * Coded errors. Tests assert codes, not prose. `UserError`s are the ones a caller can fix: tools turn them
 * into `isError` results carrying the message and a hint; anything else is a programming error.
 */
export const HA_NOT_CONNECTED = createError('HAMCP_HA_NOT_CONNECTED', 'Home Assistant is not connected%s', 503)
export const HA_TIMEOUT = createError('HAMCP_HA_TIMEOUT', 'Home Assistant did not answer %s within %s ms', 504)
export const HA_COMMAND_FAILED = createError('HAMCP_HA_COMMAND_FAILED', 'Home Assistant refused %s: %s', 502)
export const HA_BAD_PAYLOAD = createError('HAMCP_HA_BAD_PAYLOAD', 'Unexpected answer from Home Assistant to %s: %s', 502)
export const HA_HTTP_FAILED = createError('HAMCP_HA_HTTP_FAILED', '%s answered HTTP %s: %s', 502)
export const SUPERVISOR_UNAVAILABLE = createError('HAMCP_SUPERVISOR_UNAVAILABLE', 'The Supervisor API is not available: %s', 503)

export interface HaErrorDetails {
  /** Home Assistant's own error code (`not_found`, `invalid_format`...), when it sent one. */
  haCode?: string
}

/** An error the caller can fix by changing the call. */
export class UserError extends Error {
  readonly hint: string | undefined
  readonly code: string
  constructor (message: string, hint?: string, code = 'HAMCP_BAD_REQUEST') {
    super(message)
    this.name = 'UserError'
    this.hint = hint
    this.code = code
  }
}

export function isUserError (err: unknown): err is UserError {
  return err instanceof UserError
}

/** True for failures that come from Home Assistant being away or refusing, rather than from our code. */
export function isHomeAssistantError (err: unknown): err is Error & { code: string, haCode?: string } {
  const code = (err as { code?: unknown } | null)?.code
  return typeof code === 'string' && (code.startsWith('HAMCP_HA_') || code === 'HAMCP_SUPERVISOR_UNAVAILABLE')
}

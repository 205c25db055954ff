import createError from '@fastify/error'

/**
 * Coded errors. Tests assert codes, not prose. `UserError`s are the ones a caller can fix: tools turn them
 * into `isError` results carrying the code, the message and a hint; anything else is a programming error.
 */
export const HA_NOT_CONNECTED = createError('HAMCP_HA_NOT_CONNECTED', 'Home Assistant is not connected%s', 503)
export const HA_TIMEOUT = createError('HAMCP_HA_TIMEOUT', 'Home Assistant did not answer %s within %s ms', 504)
export const HA_COMMAND_FAILED = createError('HAMCP_HA_COMMAND_FAILED', 'Home Assistant refused %s: %s', 502)
export const HA_BAD_PAYLOAD = createError('HAMCP_HA_BAD_PAYLOAD', 'Unexpected answer from Home Assistant to %s: %s', 502)
export const HA_HTTP_FAILED = createError('HAMCP_HA_HTTP_FAILED', '%s answered HTTP %s: %s', 502)
export const SUPERVISOR_UNAVAILABLE = createError('HAMCP_SUPERVISOR_UNAVAILABLE', 'The Supervisor API is not available: %s', 503)

/**
 * The closed set of codes for what a caller can fix, each with what it means. The client reads the code
 * (`structuredContent.error.code` of a tool result, `error.data.code` of a JSON-RPC error); the message
 * and hint are for people and may be reworded. docs/errors.md lists the same table.
 */
export const USER_ERROR_CODES = {
  HAMCP_INVALID_ARGUMENT: 'An argument is malformed, out of range, or does not fit with another argument.',
  HAMCP_ENTITY_NOT_FOUND: 'No such entity, or it is hidden from this client (the two read the same).',
  HAMCP_NOT_FOUND: 'Another named thing (area, dashboard, view, blueprint, prompt, add-on, trace run, notification target...) does not exist.',
  HAMCP_WRONG_DOMAIN: 'The entity exists but is not of a domain this tool works on.',
  HAMCP_ALREADY_EXISTS: 'The id or name the call would create is already taken.',
  HAMCP_NOT_SUPPORTED: 'This home or this item cannot do that: defined in YAML, not an add-on, no engine or integration for it.',
  HAMCP_CONFIG_REJECTED: 'Home Assistant rejected the configuration the call sent; nothing was written.',
  HAMCP_CONFLICT: 'What a preview showed changed in Home Assistant before the confirmation, or what ha_undo would overwrite changed since the write; nothing was written (details: changes, and a fresh preview and confirm_token).',
  HAMCP_PARTIAL_WRITE: 'Home Assistant refused a step of a change made of several; the steps before it were applied and ha_undo reverts them.',
  HAMCP_DENIED_SERVICE: 'The service is refused by the service_denylist option.',
  HAMCP_DENIED_ENTITY: 'An entity the call names is refused by an allow or deny list.',
  HAMCP_DENIED_TARGET: 'Targeting by area, device, floor or label is refused while entity lists are set.',
  HAMCP_DENIED_LEVEL: 'The token\'s level for the category this call works on is too low (a multi-kind tool: the category of the kind asked).',
  HAMCP_CONFIRMATION_DECLINED: 'The user said no to the confirmation.',
  HAMCP_CONFIRM_TOKEN_INVALID: 'The confirm_token is unknown, used, expired, for another call or for another client.',
  HAMCP_RATE_LIMITED: 'Too many calls of this kind in a short time; retry after the time the hint gives.',
  HAMCP_LIMIT_REACHED: 'A per-session or per-client cap (subscriptions, sessions) is reached.',
  HAMCP_TOO_LARGE: 'The request or the answer is over a size limit.',
  HAMCP_UNAVAILABLE: 'The device or service exists but gave no usable answer right now.'
} as const

export type UserErrorCode = keyof typeof USER_ERROR_CODES

/** The code of the generic result for a programming error (logged in full, never detailed to the client). */
export const INTERNAL_ERROR_CODE = 'HAMCP_INTERNAL'

/** An error the caller can fix by changing the call: `new UserError('HAMCP_ENTITY_NOT_FOUND', message, hint?)`. */
export class UserError extends Error {
  readonly code: UserErrorCode
  readonly hint: string | undefined
  /** Machine-readable extras, sent in `structuredContent.error.details` (a conflict's fresh preview and token). */
  readonly details: Record<string, unknown> | undefined
  constructor (code: UserErrorCode, message: string, hint?: string, details?: Record<string, unknown>) {
    super(message)
    this.name = 'UserError'
    this.code = code
    this.hint = hint
    this.details = details
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

import { STATUS_CODES } from 'node:http'

/**
 * The one error model. Every error the add-on raises on purpose is a `CodedError`: a stable `code`
 * (what clients and tests branch on), the HTTP `status` it answers with where it has one, and the
 * `cause` it wraps. The families below are its subclasses: `UserError` (the caller can fix the call),
 * `HomeAssistantError` (Home Assistant or the Supervisor away or refusing), `OAuthError`
 * (src/oauth/errors.ts, the RFC codes of the sign-in endpoints) and `RpcRefusal` (src/mcp/transport/rpc-error.ts,
 * an HTTP refusal on /mcp). Anything else thrown is a programming error. docs/errors.md lists every code.
 */
export class CodedError<C extends string = string> extends Error {
  readonly code: C
  /** The HTTP status this error answers with when it reaches a client over HTTP; undefined when it has none. */
  readonly status: number | undefined

  constructor (code: C, message: string, options: { status?: number, cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause })
    this.name = new.target.name
    this.code = code
    this.status = options.status
  }
}

/** The codes of Home Assistant or the Supervisor being away or refusing; retrying later may help. */
export const HOME_ASSISTANT_ERROR_CODES = {
  HAMCP_HA_NOT_CONNECTED: 'The add-on has no working connection to Home Assistant right now (it reconnects by itself).',
  HAMCP_HA_TIMEOUT: 'Home Assistant did not answer in time.',
  HAMCP_HA_COMMAND_FAILED: 'Home Assistant refused a WebSocket command for a reason the caller cannot fix.',
  HAMCP_HA_BAD_PAYLOAD: 'Home Assistant answered something the add-on cannot read.',
  HAMCP_HA_HTTP_FAILED: 'Home Assistant or the Supervisor answered an HTTP error, or an answer over the size limit.',
  HAMCP_SUPERVISOR_UNAVAILABLE: 'The Supervisor API is not available: the add-on is not running under the Supervisor.'
} as const

export type HomeAssistantErrorCode = keyof typeof HOME_ASSISTANT_ERROR_CODES

/** A failure of Home Assistant or the Supervisor rather than of our code or of the call. */
export class HomeAssistantError extends CodedError<HomeAssistantErrorCode> {
  /** The HTTP status Home Assistant or the Supervisor answered, for HAMCP_HA_HTTP_FAILED. */
  readonly upstreamStatus: number | undefined
  /** Home Assistant's own error code and message, for a refused WebSocket command (HAMCP_HA_COMMAND_FAILED). */
  readonly haCode: string | undefined
  readonly haMessage: string | undefined

  constructor (code: HomeAssistantErrorCode, message: string, options: { status: number, cause?: unknown, upstreamStatus?: number, haCode?: string, haMessage?: string }) {
    super(code, message, options)
    this.upstreamStatus = options.upstreamStatus
    this.haCode = options.haCode
    this.haMessage = options.haMessage
  }
}

// One constructor per code, so a call site reads as what happened; `status` is what the add-on answers with.

/** `detail` is appended to the sentence as is: `': no address configured'`, `' (connection refused)'`. */
export class HaNotConnectedError extends HomeAssistantError {
  /** The command was sent and the connection closed before its answer: what a restart of Home Assistant does to its own call. */
  readonly lostDuringCommand: boolean

  constructor (detail = '', cause?: unknown, options: { lostDuringCommand?: boolean } = {}) {
    super('HAMCP_HA_NOT_CONNECTED', `Home Assistant is not connected${detail}`, { status: 503, cause })
    this.lostDuringCommand = options.lostDuringCommand === true
  }
}

export class HaTimeoutError extends HomeAssistantError {
  constructor (what: string, ms: number, cause?: unknown) {
    super('HAMCP_HA_TIMEOUT', `Home Assistant did not answer ${what} within ${ms} ms`, { status: 504, cause })
  }
}

export class HaCommandFailedError extends HomeAssistantError {
  constructor (type: string, text: string, haCode?: string, cause?: unknown) {
    super('HAMCP_HA_COMMAND_FAILED', `Home Assistant refused ${type}: ${text}`, { status: 502, cause, haCode, haMessage: text })
  }
}

export class HaBadPayloadError extends HomeAssistantError {
  constructor (what: string, detail: string, cause?: unknown) {
    super('HAMCP_HA_BAD_PAYLOAD', `Unexpected answer from Home Assistant to ${what}: ${detail}`, { status: 502, cause })
  }
}

/** `upstreamStatus` is the status Home Assistant or the Supervisor answered; retries decide on it, never on the text. */
export class HaHttpFailedError extends HomeAssistantError {
  constructor (what: string, upstreamStatus: number, detail: string) {
    super('HAMCP_HA_HTTP_FAILED', `${what} answered HTTP ${upstreamStatus}: ${detail}`, { status: 502, upstreamStatus })
  }
}

export class SupervisorUnavailableError extends HomeAssistantError {
  constructor (detail: string) {
    super('HAMCP_SUPERVISOR_UNAVAILABLE', `The Supervisor API is not available: ${detail}`, { status: 503 })
  }
}

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
  HAMCP_NOT_PERMITTED: 'Home Assistant or the Supervisor does not give the add-on this right: the Supervisor role the add-on declares (docs/security.md), or in development mode a token that is not an administrator\'s.',
  HAMCP_CONFIG_REJECTED: 'Home Assistant rejected the configuration the call sent; nothing was written.',
  HAMCP_CONFIG_INVALID: 'Home Assistant\'s configuration check found errors in its YAML files, so the restart or reload was not sent (details: errors).',
  HAMCP_CONFLICT: 'What a preview showed changed in Home Assistant before the confirmation, or what ha_undo would overwrite changed since the write; nothing was written (details: changes, and a fresh preview and confirm_token).',
  HAMCP_PARTIAL_WRITE: 'Home Assistant refused a step of a change made of several; the steps before it were applied and ha_undo reverts them.',
  HAMCP_DENIED_SERVICE: 'The service is refused by the service_denylist option.',
  HAMCP_DENIED_ENTITY: 'An entity the call names is refused by an allow or deny list.',
  HAMCP_DENIED_TARGET: 'Targeting by area, device, floor or label is refused while entity lists are set.',
  HAMCP_DENIED_LEVEL: 'The token\'s level for the category this call works on is too low (a multi-kind tool: the category of the kind asked).',
  HAMCP_CONFIRMATION_DECLINED: 'The user said no to the confirmation, or the owner denied it (`confirm_with: owner`).',
  HAMCP_CONFIRM_TOKEN_INVALID: 'The confirm_token is unknown, used, expired, for another call or for another client; or the owner\'s approval expired (`confirm_with: owner`).',
  HAMCP_RATE_LIMITED: 'Too many calls of this kind in a short time; retry after the time the hint gives.',
  HAMCP_LIMIT_REACHED: 'A per-session or per-client cap (subscriptions, sessions, calls waiting for the owner) is reached.',
  HAMCP_TOO_LARGE: 'The request or the answer is over a size limit: a /mcp body over 1 MB, a write\'s data over 64 KB of JSON, a camera image over 4 MB (docs/security.md, Limits).',
  HAMCP_UNAVAILABLE: 'The device or service exists but gave no usable answer right now.'
} as const

export type UserErrorCode = keyof typeof USER_ERROR_CODES

/** The code of the generic result for a programming error (logged in full, never detailed to the client). */
export const INTERNAL_ERROR_CODE = 'HAMCP_INTERNAL'
export const INTERNAL_ERROR_MEANING = 'A bug: the add-on log has the details, the client gets none.'

/**
 * The codes of refusals at the HTTP layer (/mcp and the bearer check), before any tool runs: each
 * answers a JSON-RPC error body whose `error.data.code` is the code, with the HTTP status given.
 */
export const HTTP_REFUSAL_CODES = {
  HAMCP_UNAUTHENTICATED: 'No bearer token was sent (401; WWW-Authenticate names the sign-in metadata).',
  HAMCP_INVALID_TOKEN: 'The bearer token is unknown, expired, revoked, for another resource, or was regenerated (401).',
  HAMCP_ORIGIN_NOT_ALLOWED: 'A browser Origin that is not this machine (403, the DNS-rebinding guard).',
  HAMCP_NOT_ACCEPTABLE: 'The Accept header does not allow application/json (406).',
  HAMCP_UNSUPPORTED_MEDIA_TYPE: 'The body is not sent as Content-Type: application/json (415).',
  HAMCP_PARSE_ERROR: 'The body is not valid JSON (400, JSON-RPC -32700).',
  HAMCP_INVALID_REQUEST: 'The body is not a JSON-RPC 2.0 message or batch of them (400, JSON-RPC -32600).',
  HAMCP_METHOD_NOT_ALLOWED: 'GET or DELETE on /mcp while sessions are off (405, Allow: POST).',
  HAMCP_UNSUPPORTED_PROTOCOL_VERSION: 'The MCP-Protocol-Version header or the request envelope names a revision this server does not speak (400; data lists the supported ones).',
  HAMCP_HEADER_MISMATCH: 'A 2026-07-28 request whose MCP-Protocol-Version, Mcp-Method or Mcp-Name header is missing or disagrees with the body (400, JSON-RPC -32020).',
  HAMCP_SESSION_REQUIRED: 'A session request without the Mcp-Session-Id header (400).',
  HAMCP_SESSION_NOT_FOUND: 'The Mcp-Session-Id names no open session: it ended or expired; initialize a new one (404).',
  HAMCP_SESSION_FORBIDDEN: 'The session belongs to another token (403).',
  HAMCP_METHOD_NOT_FOUND: 'The JSON-RPC method is not one this server serves in this protocol revision, or not without a session (JSON-RPC -32601; HTTP 404 in 2026-07-28).',
  HAMCP_SHUTTING_DOWN: 'The add-on is stopping or restarting: a request that arrives meanwhile (503, Retry-After), or one it could not finish; retry in a moment.'
} as const

export type HttpRefusalCode = keyof typeof HTTP_REFUSAL_CODES

/**
 * The codes only the panel (the ingress page's JSON API) answers, beside the ones above and the
 * caller's codes: each answers `{error, code, message}` (`refusalBody`) with the HTTP status given.
 */
export const PANEL_REFUSAL_CODES = {
  HAMCP_INGRESS_ONLY: 'The panel was reached other than through Home Assistant\'s ingress proxy (loopback outside the add-on) (403).',
  HAMCP_UI_HEADER_MISSING: 'A change on the panel\'s API without the X-HA-MCP-UI header, which a cross-site form cannot send (403).'
} as const

export type PanelRefusalCode = keyof typeof PANEL_REFUSAL_CODES

/** Every code an HTTP refusal body can carry in `error.data.code`. */
export type RefusalCode = UserErrorCode | HttpRefusalCode | PanelRefusalCode | typeof INTERNAL_ERROR_CODE

/** The body of a refusal outside JSON-RPC and OAuth (the panel, unknown routes): the HTTP reason, our code, a sentence for people. */
export function refusalBody<C extends RefusalCode | HomeAssistantErrorCode> (status: number, code: C, message: string): { error: string, code: C, message: string } {
  return { error: STATUS_CODES[status] ?? 'Error', code, message }
}

/**
 * A refusal outside JSON-RPC, answered `refusalBody(status, code, message)`: thrown by a request-limit
 * hook or by the panel's API (src/ingress/panel.ts), written by the route's error handler.
 */
export class HttpRefusal extends CodedError<RefusalCode | HomeAssistantErrorCode> {
  declare readonly status: number

  constructor (status: number, code: RefusalCode | HomeAssistantErrorCode, message: string) {
    super(code, message, { status })
  }
}

/** An error the caller can fix by changing the call: `new UserError('HAMCP_ENTITY_NOT_FOUND', message, hint?)`. */
export class UserError extends CodedError<UserErrorCode> {
  readonly hint: string | undefined
  /** Machine-readable extras, sent in `structuredContent.error.details` (a conflict's fresh preview and token). */
  readonly details: Record<string, unknown> | undefined
  constructor (code: UserErrorCode, message: string, hint?: string, details?: Record<string, unknown>, cause?: unknown) {
    super(code, message, { cause })
    this.hint = hint
    this.details = details
  }
}

export function isUserError (err: unknown): err is UserError {
  return err instanceof UserError
}

/** True for failures that come from Home Assistant being away or refusing, rather than from our code. */
export function isHomeAssistantError (err: unknown): err is HomeAssistantError {
  return err instanceof HomeAssistantError
}

import { CodedError } from '../errors.ts'

/** The error codes of RFC 6749 section 5.2, RFC 7591 section 3.2.2, RFC 8707 and RFC 6750, with what each means here. */
export const OAUTH_ERROR_CODES = {
  invalid_request: 'A parameter is missing, repeated or malformed.',
  invalid_client: 'The client is unknown, its credentials are wrong, or its client_id metadata document cannot be used.',
  invalid_grant: 'The authorization code or refresh token is unknown, used, expired, or for another client or redirect_uri.',
  unsupported_grant_type: 'grant_type is not authorization_code or refresh_token.',
  invalid_scope: 'A requested scope is unknown or beyond what the client registered.',
  invalid_target: 'The resource is not this server\'s MCP endpoint.',
  access_denied: 'The user refused the sign-in.',
  unsupported_response_type: 'response_type is not code.',
  server_error: 'The sign-in failed on the add-on\'s side.',
  invalid_redirect_uri: 'A redirect_uri of the registration cannot be used.',
  invalid_client_metadata: 'A field of the registration is invalid.',
  temporarily_unavailable: 'Too many requests from this address or too many registrations; retry later.',
  invalid_token: 'The token to revoke or the bearer token is unknown, expired or revoked.'
} as const

export type OAuthErrorCode = keyof typeof OAUTH_ERROR_CODES

/**
 * A refusal the client can act on: sent as `{error, error_description}` with its HTTP status. `code`
 * (and `error`, its RFC name) is the RFC code, `status` the HTTP status.
 */
export class OAuthError extends CodedError<OAuthErrorCode> {
  declare readonly status: number

  constructor (error: OAuthErrorCode, description: string, status = 400, cause?: unknown) {
    super(error, description, { status, cause })
    // Named here, not by CodedError's new.target.name: the bundle holds the SDK's OAuthError too and
    // renames ours (`var OAuthError3=class`), which renamed it in every log line (test/system/bundle-names.test.ts).
    this.name = 'OAuthError'
  }

  /** The RFC name of `code`. */
  get error (): OAuthErrorCode {
    return this.code
  }

  toJSON (): { error: OAuthErrorCode, error_description: string } {
    return { error: this.code, error_description: this.message }
  }
}

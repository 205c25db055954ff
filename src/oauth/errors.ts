/** The error codes of RFC 6749 section 5.2, RFC 7591 section 3.2.2, RFC 8707 and RFC 6750. */
export type OAuthErrorCode =
  | 'invalid_request' | 'invalid_client' | 'invalid_grant' | 'unauthorized_client' | 'unsupported_grant_type'
  | 'invalid_scope' | 'invalid_target' | 'access_denied' | 'unsupported_response_type' | 'server_error'
  | 'invalid_redirect_uri' | 'invalid_client_metadata' | 'temporarily_unavailable' | 'invalid_token'

/** A refusal the client can act on: sent as `{error, error_description}` with its HTTP status. */
export class OAuthError extends Error {
  readonly error: OAuthErrorCode
  readonly status: number

  constructor (error: OAuthErrorCode, description: string, status = 400) {
    super(description)
    this.name = 'OAuthError'
    this.error = error
    this.status = status
  }

  toJSON (): { error: OAuthErrorCode, error_description: string } {
    return { error: this.error, error_description: this.message }
  }
}

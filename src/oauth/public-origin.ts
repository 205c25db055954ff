/**
 * Where the user's browser reaches the add-on, for the metadata's `authorization_endpoint`.
 * Minimal version (the request's own origin, or public_url when set); the add-on lookups (Home
 * Assistant's internal_url, the Supervisor's /network/info and the published host port) are added
 * by the HA-compatibility work behind this same function.
 */
export interface AuthorizationOriginInput {
  /** The origin the metadata request came in on. */
  requestOrigin: string
  /** The `public_url` option, when the user set one. */
  publicUrl?: string
}

export async function resolveAuthorizationOrigin (input: AuthorizationOriginInput): Promise<string> {
  if (input.publicUrl) {
    try {
      return new URL(input.publicUrl).origin
    } catch {}
  }
  return input.requestOrigin
}

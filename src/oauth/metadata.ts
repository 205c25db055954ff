import { httpOrigin } from '../hosts.ts'
import { OAUTH_SCOPES } from './scopes.ts'
import { CLIENT_AUTH_METHODS, GRANT_TYPES } from './registration.ts'

export const MCP_PATH = '/mcp'
export const PROTECTED_RESOURCE_PATH = '/.well-known/oauth-protected-resource'
export const AUTHORIZATION_SERVER_PATH = '/.well-known/oauth-authorization-server'
export const ENDPOINTS = { authorize: '/oauth/authorize', token: '/oauth/token', register: '/oauth/register', revoke: '/oauth/revoke' } as const

/** RFC 9728: the resource is the MCP URL exactly as the client reached it (Home Assistant compares strings). */
export function protectedResourceMetadata (origin: string): Record<string, unknown> {
  return {
    resource: `${origin}${MCP_PATH}`,
    authorization_servers: [origin],
    scopes_supported: [...OAUTH_SCOPES],
    bearer_methods_supported: ['header'],
    resource_name: 'Home Assistant (MCP server add-on)'
  }
}

/**
 * RFC 8414. The token, registration and revocation endpoints are on the origin the client used (Home
 * Assistant Core reaches the add-on by its internal name); the authorization endpoint is where the
 * user's browser can reach the add-on.
 */
export function authorizationServerMetadata (origin: string, browserOrigin: string): Record<string, unknown> {
  return {
    issuer: origin,
    authorization_endpoint: `${browserOrigin}${ENDPOINTS.authorize}`,
    token_endpoint: `${origin}${ENDPOINTS.token}`,
    registration_endpoint: `${origin}${ENDPOINTS.register}`,
    revocation_endpoint: `${origin}${ENDPOINTS.revoke}`,
    scopes_supported: [...OAUTH_SCOPES],
    response_types_supported: ['code'],
    response_modes_supported: ['query'],
    grant_types_supported: [...GRANT_TYPES],
    code_challenge_methods_supported: ['S256'],
    token_endpoint_auth_methods_supported: [...CLIENT_AUTH_METHODS],
    revocation_endpoint_auth_methods_supported: [...CLIENT_AUTH_METHODS],
    // An https client_id names the client's metadata document (src/oauth/client-documents.ts).
    client_id_metadata_document_supported: true,
    authorization_response_iss_parameter_supported: true
  }
}

/**
 * RFC 9207: the issuer a client knows this server by, for the `iss` of an authorization answer. The
 * issuer is the origin the client fetched the metadata from, which the browser's request does not
 * show: the origin of the client's `resource` (this server's /mcp) says it, else the origin the
 * client registered at, else the origin of the request itself.
 */
export function authorizationIssuer (input: { resource?: string, isOurs: (resource: string) => boolean, registeredAt?: string, requestOrigin: string }): string {
  const fromResource = input.resource && input.isOurs(input.resource) ? httpOrigin(input.resource) : undefined
  return fromResource ?? input.registeredAt ?? input.requestOrigin
}

function quoted (value: string): string {
  return `"${value.replace(/["\\]/g, '')}"`
}

/** RFC 6750 / RFC 9728 challenge on a 401 from /mcp. */
export function bearerChallenge (origin: string, error?: { code: 'invalid_token', description: string }): string {
  const parts = [
    `resource_metadata=${quoted(`${origin}${PROTECTED_RESOURCE_PATH}${MCP_PATH}`)}`,
    `scope=${quoted(OAUTH_SCOPES.join(' '))}`
  ]
  if (error) parts.push(`error=${quoted(error.code)}`, `error_description=${quoted(error.description)}`)
  return `Bearer ${parts.join(', ')}`
}

import type { Scope } from '../auth/identity.ts'
import { OAuthError } from './errors.ts'
import { redirectProblem } from './redirect.ts'
import { closeScopes, OAUTH_SCOPES, parseScope } from './scopes.ts'

export type ClientAuthMethod = 'none' | 'client_secret_post' | 'client_secret_basic'
export const CLIENT_AUTH_METHODS: readonly ClientAuthMethod[] = ['none', 'client_secret_post', 'client_secret_basic']
export const GRANT_TYPES = ['authorization_code', 'refresh_token'] as const

export interface ClientMetadata {
  redirect_uris: string[]
  token_endpoint_auth_method: ClientAuthMethod
  grant_types: string[]
  response_types: string[]
  client_name: string
  scopes: Scope[]
  application_type?: 'web' | 'native'
}

/** Bounds of a registration: what a real client sends is far below each one; the store stays small. */
export const METADATA_LIMITS = { bodyBytes: 16 * 1024, redirectUris: 10, redirectUriLength: 2000, clientName: 200, scope: 200, listEntries: 5, listEntryLength: 64 }

function stringList (value: unknown, field: string, max: { entries: number, length: number } = { entries: METADATA_LIMITS.listEntries, length: METADATA_LIMITS.listEntryLength }): string[] | undefined {
  if (value === undefined) return undefined
  if (!Array.isArray(value) || !value.every(v => typeof v === 'string')) throw new OAuthError('invalid_client_metadata', `${field} must be an array of strings`)
  if (value.length > max.entries) throw new OAuthError('invalid_client_metadata', `${field} may list at most ${max.entries} entries`)
  if (value.some(v => v.length > max.length)) throw new OAuthError('invalid_client_metadata', `each of ${field} may be at most ${max.length} characters`)
  return value as string[]
}

/** Control characters and bidi overrides would let a client disguise its name on the consent page. */
function cleanName (value: unknown): string {
  if (value === undefined) return 'unnamed client'
  if (typeof value !== 'string') throw new OAuthError('invalid_client_metadata', 'client_name must be a string')
  if (value.length > METADATA_LIMITS.clientName) throw new OAuthError('invalid_client_metadata', `client_name may be at most ${METADATA_LIMITS.clientName} characters`)
  // eslint-disable-next-line no-control-regex
  const name = value.replace(/[\u0000-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g, '').trim().slice(0, 100)
  return name || 'unnamed client'
}

/**
 * RFC 7591 client metadata, checked and completed with the RFC's defaults. Every known scope asked
 * for is granted (Home Assistant aborts otherwise), with the levels below it; the user narrows them
 * on the consent page.
 */
export function readClientMetadata (body: unknown): ClientMetadata {
  if (!body || typeof body !== 'object' || Array.isArray(body)) throw new OAuthError('invalid_client_metadata', 'the body must be a JSON object of client metadata')
  if (Buffer.byteLength(JSON.stringify(body), 'utf8') > METADATA_LIMITS.bodyBytes) throw new OAuthError('invalid_client_metadata', `the client metadata may be at most ${METADATA_LIMITS.bodyBytes / 1024} KB`)
  const input = body as Record<string, unknown>
  if (Array.isArray(input.redirect_uris) && input.redirect_uris.length > METADATA_LIMITS.redirectUris) throw new OAuthError('invalid_redirect_uri', `at most ${METADATA_LIMITS.redirectUris} redirect URIs`)
  const redirectUris = stringList(input.redirect_uris, 'redirect_uris', { entries: METADATA_LIMITS.redirectUris, length: METADATA_LIMITS.redirectUriLength })
  if (!redirectUris?.length) throw new OAuthError('invalid_redirect_uri', 'redirect_uris must list at least one redirect URI')
  for (const uri of redirectUris) {
    const problem = redirectProblem(uri)
    if (problem) throw new OAuthError('invalid_redirect_uri', problem)
  }
  const method = input.token_endpoint_auth_method ?? 'client_secret_basic'
  if (typeof method !== 'string' || !(CLIENT_AUTH_METHODS as readonly string[]).includes(method)) {
    throw new OAuthError('invalid_client_metadata', `token_endpoint_auth_method must be one of ${CLIENT_AUTH_METHODS.join(', ')}`)
  }
  const grantTypes = stringList(input.grant_types, 'grant_types') ?? ['authorization_code']
  const unsupported = grantTypes.filter(g => !(GRANT_TYPES as readonly string[]).includes(g))
  if (unsupported.length > 0) throw new OAuthError('invalid_client_metadata', `unsupported grant_types: ${unsupported.join(', ')} (supported: ${GRANT_TYPES.join(', ')})`)
  if (!grantTypes.includes('authorization_code')) throw new OAuthError('invalid_client_metadata', 'grant_types must include authorization_code')
  const responseTypes = stringList(input.response_types, 'response_types') ?? ['code']
  if (responseTypes.some(r => r !== 'code')) throw new OAuthError('invalid_client_metadata', 'response_types must be ["code"]')
  if (input.scope !== undefined && typeof input.scope !== 'string') throw new OAuthError('invalid_client_metadata', 'scope must be a space-separated string')
  if (typeof input.scope === 'string' && input.scope.length > METADATA_LIMITS.scope) throw new OAuthError('invalid_client_metadata', `scope may be at most ${METADATA_LIMITS.scope} characters`)
  const { scopes, unknown } = parseScope(input.scope as string | undefined)
  if (unknown.length > 0) throw new OAuthError('invalid_client_metadata', `unknown scopes: ${unknown.join(', ')} (supported: ${OAUTH_SCOPES.join(' ')})`)
  const applicationType = input.application_type
  if (applicationType !== undefined && applicationType !== 'web' && applicationType !== 'native') {
    throw new OAuthError('invalid_client_metadata', 'application_type must be "web" or "native"')
  }
  const webMismatch = applicationType === 'web' ? redirectUris.find(uri => !uri.startsWith('https://')) : undefined
  if (webMismatch !== undefined) {
    // OpenID Connect Registration: loopback and app-scheme redirects are a native app's, not a web site's.
    throw new OAuthError('invalid_redirect_uri', `${webMismatch}: a "web" application redirects to https; loopback and app schemes need application_type "native"`)
  }
  return {
    redirect_uris: [...new Set(redirectUris)],
    token_endpoint_auth_method: method as ClientAuthMethod,
    grant_types: [...new Set(grantTypes)],
    response_types: ['code'],
    client_name: cleanName(input.client_name),
    // A level brings the ones below it: `manage` registers as `read write manage` (src/oauth/scopes.ts).
    scopes: input.scope === undefined ? [...OAUTH_SCOPES] : closeScopes(scopes),
    ...(applicationType ? { application_type: applicationType } : {})
  }
}

import { createHash, randomBytes } from 'node:crypto'
import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js'
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js'
import { fakeClock, type FakeClock } from '../helper.ts'
import { form } from './_host-fetch.ts'

export interface Pkce { verifier: string, challenge: string }

export function pkce (): Pkce {
  const verifier = randomBytes(32).toString('base64url')
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') }
}

/** The fake clock (test/helper.ts) that every OAuth expiry reads, at a fixed noon. */
export function signInClock (): FakeClock {
  return fakeClock(Date.parse('2026-12-01T12:00:00Z'))
}

export async function postForm (url: string, fields: Record<string, string | string[]>, headers: Record<string, string> = {}): Promise<Response> {
  return await fetch(url, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers }, body: form(fields), redirect: 'manual' })
}

export async function register (base: string, metadata: Record<string, unknown>): Promise<Response> {
  return await fetch(`${base}/oauth/register`, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json' }, body: JSON.stringify(metadata) })
}

/** Opens the consent page and returns its request id and short code. */
export async function openConsent (authorizeUrl: string): Promise<{ status: number, html: string, requestId?: string, shortCode?: string, location?: string | null }> {
  const response = await fetch(authorizeUrl, { redirect: 'manual' })
  const html = await response.text()
  const requestId = /name="request" value="([^"]+)"/.exec(html)?.[1]
  const shortCode = /data-testid="short-code">([^<]+)</.exec(html)?.[1]
  return { status: response.status, html, requestId, shortCode, location: response.headers.get('location') }
}

export interface SignIn {
  clientId: string
  clientSecret?: string
  redirectUri: string
  pkce: Pkce
}

export function authorizeUrl (base: string, sign: SignIn, extra: Record<string, string> = {}): string {
  const url = new URL(`${base}/oauth/authorize`)
  url.search = new URLSearchParams({
    response_type: 'code',
    client_id: sign.clientId,
    redirect_uri: sign.redirectUri,
    state: 'state-123',
    code_challenge: sign.pkce.challenge,
    code_challenge_method: 'S256',
    ...extra
  }).toString()
  return url.toString()
}

/** Registers a public client, approves with the primary token on the page, returns the code. */
export async function codeFor (base: string, token: string, opts: { redirectUri?: string, scope?: string, extra?: Record<string, string>, grantTypes?: string[] } = {}): Promise<SignIn & { code: string }> {
  const redirectUri = opts.redirectUri ?? 'http://127.0.0.1:33333/callback'
  const grantTypes = opts.grantTypes ?? ['authorization_code', 'refresh_token']
  const registered = await (await register(base, { redirect_uris: [redirectUri], token_endpoint_auth_method: 'none', grant_types: grantTypes, client_name: 'Test app', ...(opts.scope ? { scope: opts.scope } : {}) })).json() as { client_id: string }
  const sign: SignIn = { clientId: registered.client_id, redirectUri, pkce: pkce() }
  const page = await openConsent(authorizeUrl(base, sign, opts.extra))
  if (!page.requestId) throw new Error(`no consent page: ${page.status} ${page.location ?? page.html.slice(0, 200)}`)
  const decided = await postForm(`${base}/oauth/authorize`, { request: page.requestId, api_token: token, action: 'allow', scope: ['read', 'write', 'manage', 'camera'] })
  const location = new URL(decided.headers.get('location') ?? '')
  const code = location.searchParams.get('code')
  if (!code) throw new Error(`no code: ${location}`)
  return { ...sign, code }
}

export async function exchange (base: string, sign: SignIn & { code: string }, extra: Record<string, string> = {}): Promise<Response> {
  return await postForm(`${base}/oauth/token`, {
    grant_type: 'authorization_code',
    code: sign.code,
    redirect_uri: sign.redirectUri,
    code_verifier: sign.pkce.verifier,
    client_id: sign.clientId,
    ...extra
  })
}

/** An OAuth access token granted one level on the consent page (approved with the primary token). */
export async function accessToken (base: string, primaryToken: string, level: 'read' | 'write' | 'manage'): Promise<string> {
  const redirectUri = 'http://127.0.0.1:41003/cb'
  const registered = await (await register(base, { redirect_uris: [redirectUri], token_endpoint_auth_method: 'none', grant_types: ['authorization_code'], client_name: `Grant at ${level}` })).json() as { client_id: string }
  const sign: SignIn = { clientId: registered.client_id, redirectUri, pkce: pkce() }
  const page = await openConsent(authorizeUrl(base, sign))
  if (!page.requestId) throw new Error(`no consent page: ${page.status}`)
  const decided = await postForm(`${base}/oauth/authorize`, { request: page.requestId, api_token: primaryToken, action: 'allow', level })
  const code = new URL(decided.headers.get('location') ?? '').searchParams.get('code')
  if (!code) throw new Error(`no code: ${decided.status}`)
  return ((await (await exchange(base, { ...sign, code })).json()) as { access_token: string }).access_token
}

/**
 * The one OAuth client provider of the tests: what an MCP app keeps between runs (its registration,
 * its tokens, the PKCE verifier of the sign-in in progress), in memory. With `clientMetadataUrl` the
 * SDK signs in with that client ID metadata document's URL instead of registering.
 */
export class MemoryProvider implements OAuthClientProvider {
  readonly redirectUrl: string
  readonly clientMetadataUrl: string | undefined
  readonly name: string
  information?: OAuthClientInformationMixed
  saved?: OAuthTokens
  verifier = ''
  authorizationUrl?: URL

  constructor (redirectUrl: string, opts: { name?: string, clientMetadataUrl?: string } = {}) {
    this.redirectUrl = redirectUrl
    this.clientMetadataUrl = opts.clientMetadataUrl
    this.name = opts.name ?? 'SDK test client'
  }

  get clientMetadata (): OAuthClientMetadata {
    return { client_name: this.name, redirect_uris: [this.redirectUrl], grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'], token_endpoint_auth_method: 'none' }
  }

  clientInformation (): OAuthClientInformationMixed | undefined { return this.information }
  saveClientInformation (information: OAuthClientInformationMixed): void { this.information = information }
  tokens (): OAuthTokens | undefined { return this.saved }
  saveTokens (tokens: OAuthTokens): void { this.saved = tokens }
  redirectToAuthorization (url: URL): void { this.authorizationUrl = url }
  saveCodeVerifier (verifier: string): void { this.verifier = verifier }
  codeVerifier (): string { return this.verifier }
}

import { randomBytes, randomInt } from 'node:crypto'
import type { Scope } from '../auth/identity.ts'
import { validChallenge } from './pkce.ts'
import { redirectHostLabel, redirectMatches } from './redirect.ts'
import { closeScopes, parseScope } from './scopes.ts'
import type { ClientRecord } from './store.ts'

export const REQUEST_TTL_MS = 10 * 60_000
/** Sign-ins waiting per peer address: one device on the LAN cannot fill the list for everyone. */
export const MAX_PENDING_PER_PEER = 10
/** All peers together (memory bound): past it the oldest request of the busiest peer goes first. */
export const MAX_PENDING = 500
// No 0/O, 1/I/L: the user compares the code on two screens.
const CODE_ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789'

export interface AuthorizationRequest {
  /** Unguessable: the consent page holds it, so it doubles as that page's anti-forgery token. */
  id: string
  /** Short, for the eye: the same code is shown on the consent page and in the ingress panel. */
  shortCode: string
  clientId: string
  clientName: string
  redirectUri: string
  redirectHost: string
  state?: string
  codeChallenge: string
  scopes: Scope[]
  resource: string | null
  /** RFC 9207: sent as `iss` with the answer, so the client knows which server answered. */
  issuer?: string
  /** The peer address that opened it: caps count per peer. */
  address: string
  /** The authorization request's parameters: a reload of the same URL finds its request again. */
  key: string
  createdAt: number
  expiresAt: number
  /** Where the browser goes once the user decided (code or error, with the state). */
  outcome?: { redirect: string, approved: boolean }
}

/** An authorization request that cannot be sent back to the client: shown to the user instead. */
export class AuthorizationPageError extends Error {}

/** A refusal sent back to the client's redirect URI (RFC 6749 section 4.1.2.1). */
export class AuthorizationRedirectError extends Error {
  readonly redirect: string
  constructor (redirect: string, message: string) {
    super(message)
    this.redirect = redirect
  }
}

export function redirectWith (redirectUri: string, params: Record<string, string | undefined>): string {
  const url = new URL(redirectUri)
  for (const [key, value] of Object.entries(params)) if (value !== undefined) url.searchParams.set(key, value)
  return url.toString()
}

function shortCode (): string {
  const pick = (): string => CODE_ALPHABET[randomInt(CODE_ALPHABET.length)] as string
  return `${Array.from({ length: 4 }, pick).join('')}-${Array.from({ length: 4 }, pick).join('')}`
}

export interface AuthorizeInput {
  params: Record<string, string | undefined>
  client: (clientId: string) => ClientRecord | undefined
  isOurs: (resource: string) => boolean
  /** The issuer identifier the client knows this server by (RFC 9207 `iss` on every answer). */
  issuer?: string
  /** The peer address the request came from (caps are per peer). */
  address?: string
}

/** The authorization requests waiting for the user (memory only: they live ten minutes). */
export class AuthorizationRequests {
  #pending = new Map<string, AuthorizationRequest>()
  #finished = new Map<string, number>()
  #now: () => number

  constructor (options: { now: () => number }) {
    this.#now = options.now
  }

  /**
   * Checks an authorization request (RFC 6749 4.1.1 with PKCE S256 required and RFC 8707 resource)
   * and keeps it for the user's decision. Problems with the client or its redirect are shown to the
   * user; every other problem goes back to the client.
   */
  open ({ params, client: lookup, isOurs, issuer, address = 'unknown' }: AuthorizeInput): AuthorizationRequest {
    const clientId = params.client_id
    if (!clientId) throw new AuthorizationPageError('The request names no client (client_id is missing).')
    const client = lookup(clientId)
    if (!client) throw new AuthorizationPageError('This client is not registered here (unknown client_id). Let the app register again.')
    const redirectUri = params.redirect_uri ?? (client.redirect_uris.length === 1 ? client.redirect_uris[0] as string : undefined)
    if (!redirectUri || !redirectMatches(client.redirect_uris, redirectUri)) {
      throw new AuthorizationPageError('The redirect_uri does not match one the client registered, so the answer cannot be sent back safely.')
    }
    const refuse = (error: string, description: string): never => {
      throw new AuthorizationRedirectError(redirectWith(redirectUri, { error, error_description: description, state: params.state, iss: issuer }), description)
    }
    if (params.response_type !== 'code') refuse('unsupported_response_type', 'response_type must be code')
    if (!params.code_challenge) refuse('invalid_request', 'code_challenge is required (PKCE S256)')
    if (params.code_challenge_method !== 'S256') refuse('invalid_request', 'code_challenge_method must be S256')
    if (!validChallenge(params.code_challenge as string)) refuse('invalid_request', 'code_challenge is not a base64url SHA-256 value')
    const registered = closeScopes(parseScope(client.scope).scopes)
    const parsed = params.scope === undefined ? { scopes: registered, unknown: [] } : parseScope(params.scope)
    // Asking for a level asks for the ones below it (src/oauth/scopes.ts): the consent page offers levels.
    const asked = { scopes: closeScopes(parsed.scopes), unknown: parsed.unknown }
    if (asked.unknown.length > 0) refuse('invalid_scope', `unknown scopes: ${asked.unknown.join(', ')}`)
    if (asked.scopes.some(s => !registered.includes(s))) refuse('invalid_scope', 'a scope was asked that the client did not register')
    if (asked.scopes.length === 0) refuse('invalid_scope', 'no scope asked')
    const resource = params.resource || null
    if (resource !== null && !isOurs(resource)) refuse('invalid_target', `resource ${resource} is not this server`)
    this.sweep()
    // A reload of the consent page (same client, PKCE challenge, state...) is the same sign-in, not a new one.
    const key = JSON.stringify([clientId, redirectUri, params.state ?? null, params.code_challenge, asked.scopes, resource])
    const same = [...this.#pending.values()].find(r => r.key === key && !r.outcome)
    if (same) return same
    const fromPeer = [...this.#pending.values()].filter(r => r.address === address && !r.outcome)
    if (fromPeer.length >= MAX_PENDING_PER_PEER) refuse('temporarily_unavailable', `too many sign-ins from this address are waiting for approval (at most ${MAX_PENDING_PER_PEER}); answer or let them expire, then retry`)
    if (this.#pending.size >= MAX_PENDING) this.#evictBusiest()
    const now = this.#now()
    const request: AuthorizationRequest = {
      id: randomBytes(24).toString('base64url'),
      shortCode: shortCode(),
      clientId,
      clientName: client.client_name,
      redirectUri,
      redirectHost: redirectHostLabel(redirectUri),
      ...(params.state !== undefined ? { state: params.state } : {}),
      codeChallenge: params.code_challenge as string,
      scopes: asked.scopes,
      resource,
      ...(issuer !== undefined ? { issuer } : {}),
      address,
      key,
      createdAt: now,
      expiresAt: now + REQUEST_TTL_MS
    }
    this.#pending.set(request.id, request)
    return request
  }

  /** A live request by its id; expired ones are gone. */
  get (id: string): AuthorizationRequest | undefined {
    const request = this.#pending.get(id)
    if (!request) return undefined
    if (request.expiresAt <= this.#now()) {
      this.#pending.delete(id)
      return undefined
    }
    return request
  }

  /** Requests still waiting for a decision, newest first. */
  waiting (): AuthorizationRequest[] {
    this.sweep()
    return [...this.#pending.values()].filter(r => !r.outcome).sort((a, b) => b.createdAt - a.createdAt)
  }

  /** Records the decision; the consent page then sends the browser to the returned URL. */
  settle (request: AuthorizationRequest, params: Record<string, string>): string {
    const redirect = redirectWith(request.redirectUri, { ...params, state: request.state, iss: request.issuer })
    request.outcome = { redirect, approved: 'code' in params }
    return redirect
  }

  /** Forgets a request once its outcome reached the browser. */
  close (id: string): void {
    this.#pending.delete(id)
  }

  /** Closes every request of a client that completed a sign-in: its reloads and duplicates leave the list. */
  closeClient (clientId: string): void {
    for (const [id, request] of this.#pending) {
      if (request.clientId !== clientId) continue
      this.#pending.delete(id)
      // Remembered until it would have expired, so its consent page can say why it ended.
      if (!request.outcome) this.#finished.set(id, request.expiresAt)
    }
    while (this.#finished.size > MAX_PENDING) this.#finished.delete(this.#finished.keys().next().value as string)
  }

  /** Whether this request was closed because its client finished signing in elsewhere. */
  finishedElsewhere (id: string): boolean {
    return (this.#finished.get(id) ?? 0) > this.#now()
  }

  /** Drops the oldest request of the peer holding the most: a flood only ever displaces itself. */
  #evictBusiest (): void {
    const byPeer = new Map<string, AuthorizationRequest[]>()
    for (const request of this.#pending.values()) byPeer.set(request.address, [...(byPeer.get(request.address) ?? []), request])
    const busiest = [...byPeer.values()].sort((a, b) => b.length - a.length)[0] ?? []
    const oldest = busiest.sort((a, b) => a.createdAt - b.createdAt)[0]
    if (oldest) this.#pending.delete(oldest.id)
  }

  sweep (): void {
    const now = this.#now()
    for (const [id, request] of this.#pending) if (request.expiresAt <= now) this.#pending.delete(id)
    for (const [id, until] of this.#finished) if (until <= now) this.#finished.delete(id)
  }
}

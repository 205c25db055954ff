import { randomBytes } from 'node:crypto'
import type { Identity, Scope } from '../auth/identity.ts'
import { identityForScopes } from '../auth/identity.ts'
import type { Revocations } from '../auth/revocations.ts'
import { generateToken } from '../auth/tokens.ts'
import { realClock, type Clock } from '../clock.ts'
import { sameAuthority } from '../hosts.ts'
import { ClientDocuments, type ClientDocumentOptions } from './client-documents.ts'
import { OAuthClients } from './clients.ts'
import { OAuthError } from './errors.ts'
import { verifierMatches } from './pkce.ts'
import { AuthorizationRequests, type AuthorizationRequest } from './requests.ts'
import { formatScope, levelOfScopes, parseScope, scopesClosed, scopesForLevel, SCOPES_NOT_CLOSED } from './scopes.ts'
import { hashSecret, OAuthFile, type ClientRecord, type GrantRecord } from './store.ts'

export const ACCESS_TTL_MS = 60 * 60_000
export const REFRESH_TTL_MS = 90 * 24 * 60 * 60_000
export const CODE_TTL_MS = 60_000
/** Live access tokens per sign-in: a client refreshing early keeps working; the oldest past this stops. */
const ACCESS_TOKENS_KEPT = 5

export interface AuthorizationServerOptions {
  dataDir: string
  log: { error: (message: string) => void, warn: (message: string) => void }
  /** Injected clock: every expiry reads it. */
  now?: () => number
  /** The timers it starts (client document fetches); real ones unless a test brings its clock. */
  schedule?: Clock['schedule']
  /** How client ID metadata documents are fetched (tests inject the address check and TLS trust). */
  clientDocuments?: ClientDocumentOptions
  /** Told when a sign-in or one of its access tokens stops working, so what it opened ends with it. */
  revocations?: Pick<Revocations, 'announce'>
}

export interface TokenAnswer {
  access_token: string
  token_type: 'Bearer'
  expires_in: number
  refresh_token?: string
  scope: string
}

interface CodeRecord {
  clientId: string
  redirectUri: string
  challenge: string
  scopes: Scope[]
  resource: string | null
  approvedBy: string
  expiresAt: number
  /** Set when exchanged: a second exchange revokes the grant it produced (RFC 6749 section 4.1.2). */
  grantId?: string
}

export interface GrantSummary {
  id: string
  client_id: string
  client_name: string
  scopes: Scope[]
  approved_by: string
  created_at: string
  last_used_at: string | null
}

/** The identity of a sign-in (grant): what its sessions and streams are held by. */
function grantIdentity (grantId: string): string {
  return `oauth:${grantId}`
}

/** Names one access token among its grant's (its hash's first bytes: never the token). */
function accessCredential (hash: string): string {
  return `access:${hash.slice(0, 16)}`
}

/** Same resource, ignoring a trailing slash (RFC 8707 resources are absolute URIs without fragment). */
export function sameResource (a: string, b: string): boolean {
  return a.replace(/\/+$/, '') === b.replace(/\/+$/, '')
}

/**
 * The add-on's own OAuth 2.1 authorization server: the authorization requests waiting for the user,
 * single-use codes, opaque access tokens and rotating refresh tokens, over the clients of
 * src/oauth/clients.ts. Only hashes are kept; each grant is a named token the user can revoke.
 */
export class AuthorizationServer {
  readonly requests: AuthorizationRequests
  /** Clients whose client_id is the https URL of their metadata document. */
  readonly documents: ClientDocuments
  /** Registered and metadata-document clients, and client authentication. */
  readonly clients: OAuthClients
  #file: OAuthFile
  #now: () => number
  #log: AuthorizationServerOptions['log']
  #revocations: AuthorizationServerOptions['revocations']
  #codes = new Map<string, CodeRecord>()
  #accessIndex = new Map<string, string>()
  #refreshIndex = new Map<string, string>()
  #spentIndex = new Map<string, string>()
  #dirty = false

  constructor (options: AuthorizationServerOptions) {
    this.#now = options.now ?? realClock.now
    this.#log = options.log
    this.#revocations = options.revocations
    this.#file = new OAuthFile({ dataDir: options.dataDir, log: options.log, now: this.#now })
    this.requests = new AuthorizationRequests({ now: this.#now })
    this.documents = new ClientDocuments({ now: this.#now, schedule: options.schedule, ...options.clientDocuments })
    this.clients = new OAuthClients({ file: this.#file, documents: this.documents, now: this.#now })
    for (const grant of this.#file.grants.values()) {
      // Grants from before levels were enforced: only what their levels really hold (read+manage is read).
      grant.scopes = scopesForLevel(levelOfScopes(grant.scopes), grant.scopes.includes('camera'))
      this.#index(grant)
    }
  }

  get file (): string {
    return this.#file.file
  }

  // Authorization --------------------------------------------------------------------------------

  /**
   * Issues the code for a request the owner approved with these scopes (decided by
   * src/oauth/approval.ts: a level, camera on top, within what was asked) and returns the URL to send
   * the browser to.
   */
  issueCode (request: AuthorizationRequest, granted: Scope[], approvedBy: string): string {
    if (granted.length === 0 || !scopesClosed(granted) || granted.some(s => !request.scopes.includes(s))) {
      throw new Error(`refusing to issue a code for ${formatScope(granted) || 'no scope'}: not a level within ${formatScope(request.scopes)}`)
    }
    const code = generateToken()
    this.#codes.set(hashSecret(code), {
      clientId: request.clientId,
      redirectUri: request.redirectUri,
      challenge: request.codeChallenge,
      scopes: granted,
      resource: request.resource,
      approvedBy,
      expiresAt: this.#now() + CODE_TTL_MS
    })
    return this.requests.settle(request, { code })
  }

  deny (request: AuthorizationRequest): string {
    return this.requests.settle(request, { error: 'access_denied', error_description: 'the user denied the request' })
  }

  // Token endpoint -------------------------------------------------------------------------------

  async exchangeCode (client: ClientRecord, params: { code?: string, redirect_uri?: string, code_verifier?: string, resource?: string }, isOurs: (resource: string) => boolean): Promise<TokenAnswer> {
    if (!params.code) throw new OAuthError('invalid_request', 'code is required')
    if (!params.code_verifier) throw new OAuthError('invalid_request', 'code_verifier is required (PKCE)')
    const key = hashSecret(params.code)
    const code = this.#codes.get(key)
    if (!code) throw new OAuthError('invalid_grant', 'unknown or expired authorization code')
    if (code.grantId) {
      // A replayed code: whoever holds it may not be the client; end what it produced.
      await this.revokeGrant(code.grantId, 'authorization code used twice')
      throw new OAuthError('invalid_grant', 'authorization code already used; the tokens issued for it are revoked')
    }
    if (code.expiresAt <= this.#now()) {
      this.#codes.delete(key)
      throw new OAuthError('invalid_grant', 'authorization code expired (codes live 60 seconds)')
    }
    if (code.clientId !== client.client_id) throw new OAuthError('invalid_grant', 'authorization code was issued to another client')
    if (params.redirect_uri !== code.redirectUri) throw new OAuthError('invalid_grant', 'redirect_uri differs from the one of the authorization request')
    if (!verifierMatches(params.code_verifier, code.challenge)) throw new OAuthError('invalid_grant', 'code_verifier does not match the code_challenge (PKCE)')
    const resource = this.#resourceFor(params.resource, code.resource, isOurs)
    const now = this.#now()
    const grant: GrantRecord = {
      id: `g${randomBytes(6).toString('hex')}`,
      client_id: client.client_id,
      client_name: client.client_name,
      scopes: code.scopes,
      resource,
      approved_by: code.approvedBy,
      created_at: now,
      last_used_at: null,
      access: [],
      refresh: null,
      spent_refresh: []
    }
    code.grantId = grant.id
    client.used_at = now
    this.requests.closeClient(client.client_id)
    const answer = this.#issue(grant, client.grant_types.includes('refresh_token'))
    this.#file.grants.set(grant.id, grant)
    await this.#file.save()
    return answer
  }

  async refresh (client: ClientRecord, params: { refresh_token?: string, scope?: string, resource?: string }, isOurs: (resource: string) => boolean): Promise<TokenAnswer> {
    if (!params.refresh_token) throw new OAuthError('invalid_request', 'refresh_token is required')
    const hash = hashSecret(params.refresh_token)
    const spentBy = this.#spentIndex.get(hash)
    if (spentBy) {
      await this.revokeGrant(spentBy, 'a refresh token was used twice')
      throw new OAuthError('invalid_grant', 'refresh token already used; the whole sign-in is revoked, sign in again')
    }
    const grant = this.#grantOf(this.#refreshIndex.get(hash))
    if (!grant?.refresh || grant.client_id !== client.client_id) throw new OAuthError('invalid_grant', 'unknown or revoked refresh token')
    if (grant.refresh.expires_at <= this.#now()) throw new OAuthError('invalid_grant', 'refresh token expired; sign in again')
    const { scopes, unknown } = parseScope(params.scope)
    if (params.scope !== undefined && (unknown.length > 0 || scopes.some(s => !grant.scopes.includes(s)))) {
      throw new OAuthError('invalid_scope', `a refresh may only keep or narrow the granted scopes (${formatScope(grant.scopes)})`)
    }
    if (params.scope !== undefined && !scopesClosed(scopes)) throw new OAuthError('invalid_scope', SCOPES_NOT_CLOSED)
    this.#resourceFor(params.resource, grant.resource, isOurs)
    this.#refreshIndex.delete(hash)
    grant.spent_refresh = [...grant.spent_refresh, hash].slice(-50)
    this.#spentIndex.set(hash, grant.id)
    const answer = this.#issue(grant, true, params.scope === undefined ? undefined : scopes)
    await this.#file.save()
    return answer
  }

  /** RFC 7009: a refresh token ends its whole grant; an access token ends itself. Unknown tokens are fine. */
  async revokeToken (client: ClientRecord, presented: string): Promise<void> {
    const hash = hashSecret(presented)
    const byRefresh = this.#grantOf(this.#refreshIndex.get(hash) ?? this.#spentIndex.get(hash))
    if (byRefresh && byRefresh.client_id === client.client_id) {
      await this.revokeGrant(byRefresh.id, 'revoked by the client')
      return
    }
    const byAccess = this.#grantOf(this.#accessIndex.get(hash))
    if (byAccess && byAccess.client_id === client.client_id) {
      byAccess.access = byAccess.access.filter(a => a.hash !== hash)
      this.#accessIndex.delete(hash)
      this.#revocations?.announce({ identity: grantIdentity(byAccess.id), credential: accessCredential(hash), reason: 'the client revoked its access token' })
      await this.#file.save()
    }
  }

  /** Ends a grant at once: its access and refresh tokens stop working together. */
  async revokeGrant (id: string, why: string): Promise<boolean> {
    const grant = this.#file.grants.get(id)
    if (!grant) return false
    for (const access of grant.access) this.#accessIndex.delete(access.hash)
    if (grant.refresh) this.#refreshIndex.delete(grant.refresh.hash)
    for (const spent of grant.spent_refresh) this.#spentIndex.delete(spent)
    this.#file.grants.delete(id)
    this.#log.warn(`OAuth sign-in of "${grant.client_name}" (${id}) revoked: ${why}`)
    this.#revocations?.announce({ identity: grantIdentity(id), reason: `the sign-in was revoked: ${why}` })
    await this.#file.save()
    return true
  }

  // Resource server ------------------------------------------------------------------------------

  /**
   * The identity of an access token, or undefined when it is unknown, expired, revoked, or bound to
   * another resource than the host it is presented to.
   */
  verifyAccess (presented: string, requestHost: string | undefined): Identity | undefined {
    const hash = hashSecret(presented)
    const grant = this.#grantOf(this.#accessIndex.get(hash))
    const entry = grant?.access.find(a => a.hash === hash)
    if (!grant || !entry || entry.expires_at <= this.#now()) return undefined
    if (grant.resource !== null && !sameAuthority(grant.resource, requestHost)) return undefined
    grant.last_used_at = this.#now()
    this.#dirty = true
    // Which access token it was, and until when: a stream it opens ends with it, not with its siblings.
    return { ...identityForScopes(grantIdentity(grant.id), grant.client_name, entry.scopes ?? grant.scopes), credential: accessCredential(hash), expiresAt: entry.expires_at }
  }

  /**
   * Whether the identity of a sign-in can still act at this moment: a live access token, or a refresh
   * token to get one. Undefined for an identity that is not a sign-in's. Between expiry and the minute's
   * sweep, a grant is dead here already.
   */
  signInAlive (identity: string): boolean | undefined {
    if (!identity.startsWith(grantIdentity(''))) return undefined
    const grant = this.#file.grants.get(identity.slice(grantIdentity('').length))
    if (!grant) return false
    const now = this.#now()
    return grant.access.some(a => a.expires_at > now) || (grant.refresh !== null && grant.refresh.expires_at > now)
  }

  grants (): GrantSummary[] {
    return [...this.#file.grants.values()].map(g => ({
      id: g.id,
      client_id: g.client_id,
      client_name: g.client_name,
      scopes: g.scopes,
      approved_by: g.approved_by,
      created_at: new Date(g.created_at).toISOString(),
      last_used_at: g.last_used_at === null ? null : new Date(g.last_used_at).toISOString()
    }))
  }

  /** Drops what expired: codes, requests, unused registrations, grants whose refresh token ran out. */
  async sweep (): Promise<void> {
    const now = this.#now()
    for (const [key, code] of this.#codes) if (code.expiresAt + CODE_TTL_MS <= now) this.#codes.delete(key)
    this.requests.sweep()
    this.documents.sweep()
    let changed = this.clients.expireUnused(now) || this.#dirty
    for (const grant of this.#file.grants.values()) {
      const live = grant.access.filter(a => a.expires_at > now)
      if (live.length !== grant.access.length) {
        for (const gone of grant.access.filter(a => a.expires_at <= now)) this.#accessIndex.delete(gone.hash)
        grant.access = live
        changed = true
      }
      if (live.length === 0 && (!grant.refresh || grant.refresh.expires_at <= now)) {
        await this.revokeGrant(grant.id, 'expired')
      }
    }
    if (changed) await this.flush()
  }

  /** Writes last-used times (kept in memory between writes so a busy client does not write per call). */
  async flush (): Promise<void> {
    this.#dirty = false
    await this.#file.save()
  }

  // Internals ------------------------------------------------------------------------------------

  #resourceFor (presented: string | undefined, bound: string | null, isOurs: (resource: string) => boolean): string | null {
    if (presented === undefined || presented === '') return bound
    if (!isOurs(presented)) throw new OAuthError('invalid_target', `resource ${presented} is not this server; tokens from here only work at its /mcp`)
    if (bound !== null && !sameResource(bound, presented)) throw new OAuthError('invalid_target', 'resource differs from the one of the authorization request')
    return presented
  }

  #issue (grant: GrantRecord, withRefresh: boolean, narrowed?: Scope[]): TokenAnswer {
    const now = this.#now()
    const access = generateToken()
    const accessHash = hashSecret(access)
    const held = [...grant.access, { hash: accessHash, expires_at: now + ACCESS_TTL_MS, ...(narrowed ? { scopes: narrowed } : {}) }]
    grant.access = held.filter(a => a.expires_at > now).slice(-ACCESS_TOKENS_KEPT)
    this.#accessIndex.set(accessHash, grant.id)
    // Older ones stop working now: what they opened ends with them (the expired ones' streams already did).
    for (const gone of held.filter(a => !grant.access.includes(a))) {
      this.#accessIndex.delete(gone.hash)
      if (gone.expires_at > now) this.#revocations?.announce({ identity: grantIdentity(grant.id), credential: accessCredential(gone.hash), reason: 'a newer access token of the sign-in replaced it' })
    }
    let refresh: string | undefined
    if (withRefresh) {
      refresh = generateToken()
      grant.refresh = { hash: hashSecret(refresh), expires_at: now + REFRESH_TTL_MS }
      this.#refreshIndex.set(grant.refresh.hash, grant.id)
    }
    return {
      access_token: access,
      token_type: 'Bearer',
      expires_in: Math.floor(ACCESS_TTL_MS / 1000),
      ...(refresh ? { refresh_token: refresh } : {}),
      scope: formatScope(narrowed ?? grant.scopes)
    }
  }

  #index (grant: GrantRecord): void {
    for (const access of grant.access) this.#accessIndex.set(access.hash, grant.id)
    if (grant.refresh) this.#refreshIndex.set(grant.refresh.hash, grant.id)
    for (const spent of grant.spent_refresh) this.#spentIndex.set(spent, grant.id)
  }

  #grantOf (id: string | undefined): GrantRecord | undefined {
    return id === undefined ? undefined : this.#file.grants.get(id)
  }
}

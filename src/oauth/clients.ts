import { randomBytes, timingSafeEqual } from 'node:crypto'
import { generateToken, hashToken } from '../auth/tokens.ts'
import { SlidingWindow } from '../sliding-window.ts'
import { isClientDocumentId, type ClientDocuments } from './client-documents.ts'
import { OAuthError } from './errors.ts'
import { readClientMetadata } from './registration.ts'
import { formatScope } from './scopes.ts'
import { hashSecret, type ClientRecord, type OAuthFile } from './store.ts'

/** A registration no sign-in used is forgotten after this. */
export const UNUSED_CLIENT_TTL_MS = 60 * 60_000
/**
 * Registrations per peer address per window, registrations never used per peer, and never used in
 * all (past that the oldest unused one of the busiest peer is dropped: no peer can lock out another).
 */
export const REGISTRATION_LIMIT = { perWindow: 10, windowMs: 10 * 60_000, unusedPerPeer: 20, maxUnused: 200 }

export interface ClientCredentials { clientId?: string, clientSecret?: string }

function sameSecret (presented: string, hash: string): boolean {
  const a = hashToken(presented)
  const b = Buffer.from(hash, 'hex')
  return a.length === b.length && timingSafeEqual(a, b)
}

/**
 * Who may sign in: RFC 7591 dynamic registrations (bounded per peer, forgotten when never used),
 * clients named by their metadata document URL, and RFC 6749 client authentication.
 */
export class OAuthClients {
  #file: OAuthFile
  #documents: ClientDocuments
  #now: () => number
  #registrations: SlidingWindow

  constructor (options: { file: OAuthFile, documents: ClientDocuments, now: () => number }) {
    this.#file = options.file
    this.#documents = options.documents
    this.#now = options.now
    this.#registrations = new SlidingWindow(REGISTRATION_LIMIT.perWindow, REGISTRATION_LIMIT.windowMs, options.now)
  }

  async register (body: unknown, address: string, issuer?: string): Promise<Record<string, unknown>> {
    const now = this.#now()
    this.expireUnused(now)
    const unused = [...this.#file.clients.values()].filter(c => c.used_at === null)
    const unusedHere = unused.filter(c => c.registered_from === address).length
    const slot = unusedHere >= REGISTRATION_LIMIT.unusedPerPeer ? undefined : this.#registrations.take(address)
    if (slot === undefined || 'retryAfterS' in slot) {
      throw new OAuthError('temporarily_unavailable', 'too many client registrations from this address; retry in a few minutes', 429)
    }
    let metadata: ReturnType<typeof readClientMetadata>
    try {
      metadata = readClientMetadata(body)
    } catch (err) {
      // A registration refused for its metadata does not count against the address.
      slot.release()
      throw err
    }
    if (unused.length >= REGISTRATION_LIMIT.maxUnused) this.#dropBusiestUnused(unused)
    const clientId = `ha-mcp-${randomBytes(12).toString('base64url')}`
    const secret = metadata.token_endpoint_auth_method === 'none' ? undefined : generateToken()
    const record: ClientRecord = {
      client_id: clientId,
      ...(secret ? { secret_hash: hashSecret(secret) } : {}),
      auth_method: metadata.token_endpoint_auth_method,
      client_name: metadata.client_name,
      redirect_uris: metadata.redirect_uris,
      grant_types: metadata.grant_types,
      scope: formatScope(metadata.scopes),
      ...(metadata.application_type ? { application_type: metadata.application_type } : {}),
      ...(issuer ? { issuer } : {}),
      created_at: now,
      used_at: null,
      registered_from: address
    }
    this.#file.clients.set(clientId, record)
    await this.#file.save()
    return {
      client_id: clientId,
      client_id_issued_at: Math.floor(now / 1000),
      // A confidential client's secret never expires: Home Assistant refuses one that does.
      ...(secret ? { client_secret: secret, client_secret_expires_at: 0 } : {}),
      client_name: record.client_name,
      redirect_uris: record.redirect_uris,
      grant_types: record.grant_types,
      response_types: metadata.response_types,
      token_endpoint_auth_method: record.auth_method,
      scope: record.scope,
      ...(record.application_type ? { application_type: record.application_type } : {})
    }
  }

  /** A registered client. */
  get (clientId: string): ClientRecord | undefined {
    return this.#file.clients.get(clientId)
  }

  /**
   * A registered client, or the one an https client_id's metadata document describes (fetched or
   * cached; a document that cannot be used throws a ClientDocumentError saying why).
   */
  async find (clientId: string, peer: string): Promise<ClientRecord | undefined> {
    return isClientDocumentId(clientId) ? await this.#documents.client(clientId, peer) : this.get(clientId)
  }

  /** RFC 6749 section 2.3: a public client names itself; a confidential one proves its secret. */
  async authenticate (credentials: ClientCredentials, peer = 'local'): Promise<ClientRecord> {
    const client = credentials.clientId ? await this.find(credentials.clientId, peer) : undefined
    if (!client) throw new OAuthError('invalid_client', 'unknown client: register first', 401)
    if (client.auth_method !== 'none') {
      if (!credentials.clientSecret || !client.secret_hash || !sameSecret(credentials.clientSecret, client.secret_hash)) {
        throw new OAuthError('invalid_client', 'client authentication failed', 401)
      }
    }
    return client
  }

  /** Forgets registrations no sign-in used within UNUSED_CLIENT_TTL_MS and spent registration windows; true when a client went. */
  expireUnused (now: number): boolean {
    this.#registrations.sweep()
    let changed = false
    for (const client of this.#file.clients.values()) {
      if (client.used_at === null && now - client.created_at > UNUSED_CLIENT_TTL_MS) {
        this.#file.clients.delete(client.client_id)
        changed = true
      }
    }
    return changed
  }

  /** The store is full of unused registrations: the busiest peer's oldest one makes room. */
  #dropBusiestUnused (unused: ClientRecord[]): void {
    const byPeer = new Map<string, ClientRecord[]>()
    for (const client of unused) byPeer.set(client.registered_from ?? '', [...(byPeer.get(client.registered_from ?? '') ?? []), client])
    const busiest = [...byPeer.values()].sort((a, b) => b.length - a.length)[0] ?? []
    const oldest = busiest.sort((a, b) => a.created_at - b.created_at)[0]
    if (oldest) this.#file.clients.delete(oldest.client_id)
  }
}

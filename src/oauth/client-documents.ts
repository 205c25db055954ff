import { lookup as dnsLookup } from 'node:dns/promises'
import type { ClientRequest, IncomingMessage } from 'node:http'
import { request } from 'node:https'
import { isIP, type LookupFunction } from 'node:net'
import { rootCertificates } from 'node:tls'
import { LRUCache } from 'lru-cache'
import { realClock, type Clock } from '../clock.ts'
import { publicAddress, urlHost } from '../hosts.ts'
import { SlidingWindow } from '../sliding-window.ts'
import { OAuthError } from './errors.ts'
import { GRANT_TYPES, readClientMetadata } from './registration.ts'
import { OAUTH_SCOPES, formatScope } from './scopes.ts'
import type { ClientRecord } from './store.ts'

/**
 * What the add-on allows itself when it fetches a client ID metadata document
 * (draft-ietf-oauth-client-id-metadata-document): the request is made on a stranger's behalf from
 * inside the home network, so it is small, short and only ever to a public address.
 */
export const CLIENT_DOCUMENT_LIMITS = {
  /** The draft recommends 5 KB; a real document (claude.ai, VS Code) is well under 1 KB. */
  maxBytes: 5 * 1024,
  /** Until the response headers: DNS, TCP, TLS and the server's first answer. */
  connectMs: 3_000,
  /** Until the whole body. */
  totalMs: 5_000,
  /** Cache lifetime bounds around the document's own Cache-Control max-age. */
  minTtlMs: 60_000,
  defaultTtlMs: 10 * 60_000,
  maxTtlMs: 24 * 60 * 60_000,
  /** While the client's site is down or slow, the last valid document stands in, this long at most. */
  staleMs: 7 * 24 * 60 * 60_000,
  cacheEntries: 100,
  /**
   * Fetches under way at once, and new fetches per peer address and document site per window: behind
   * the owner's reverse proxy every remote client is one peer, so a stranger's documents spend only
   * their own site's budget, never that of another app's sign-in.
   */
  inFlight: 8,
  perPeer: { fetches: 10, windowMs: 10 * 60_000 },
  urlLength: 2000
}

/** Why a document was refused: stable, for tests and logs (docs/security.md lists them). */
export type ClientDocumentRefusal =
  | 'invalid_url' | 'address_refused' | 'unreachable' | 'timeout' | 'redirect_refused' | 'http_status'
  | 'too_large' | 'not_json' | 'client_id_mismatch' | 'invalid_metadata' | 'auth_method_unsupported' | 'too_many_fetches'

export class ClientDocumentError extends OAuthError {
  readonly reason: ClientDocumentRefusal
  /** The site is down or slow (not: the document is wrong or gone). */
  readonly transient: boolean
  constructor (reason: ClientDocumentRefusal, clientId: string, detail: string, transient = reason === 'unreachable' || reason === 'timeout' || reason === 'too_many_fetches') {
    const busy = reason === 'too_many_fetches'
    super(busy ? 'temporarily_unavailable' : 'invalid_client', `client metadata document ${clientId}: ${detail}`, busy ? 429 : 401)
    this.reason = reason
    this.transient = transient
  }
}

/** Authentication methods by key rather than secret: a document may name them, the add-on does not offer them. */
const KEY_AUTH_METHODS = new Set(['private_key_jwt', 'tls_client_auth', 'self_signed_tls_client_auth'])

/** A client_id that names a metadata document (this server's own client ids never start so). */
export function isClientDocumentId (clientId: string): boolean {
  return clientId.startsWith('https://')
}

/** The host shown to the user for a document client: the only identity it has is its domain. */
export function clientDocumentHost (clientId: string): string | undefined {
  return isClientDocumentId(clientId) ? urlHost(clientId)?.authority : undefined
}

/** The draft's rules for the URL itself (section 3), or undefined when it may be fetched. */
export function clientIdUrlProblem (clientId: string): string | undefined {
  if (clientId.length > CLIENT_DOCUMENT_LIMITS.urlLength) return `longer than ${CLIENT_DOCUMENT_LIMITS.urlLength} characters`
  let url: URL
  try {
    url = new URL(clientId)
  } catch {
    return 'not a URL'
  }
  if (url.protocol !== 'https:') return 'must be https'
  if (url.username || url.password || /^https:\/\/[^/?#]*@/i.test(clientId)) return 'must not carry a user name or password'
  if (clientId.includes('#')) return 'must not have a fragment'
  const path = /^https:\/\/[^/?#]*(\/[^?#]*)?/i.exec(clientId)?.[1] ?? ''
  if (path === '' || path === '/') return 'must have a path (https://host/path)'
  if (path.split('/').some(segment => segment === '.' || segment === '..' || /^%2e(%2e)?$/i.test(segment) || /^\.%2e$|^%2e\.$/i.test(segment))) return 'must not have . or .. path segments'
  return undefined
}

export interface ClientDocumentOptions {
  now?: () => number
  /** The connect and total timeouts; real timers unless a test brings its clock. */
  schedule?: Clock['schedule']
  /** Every address a host name resolves to (default: the system resolver, all families). */
  resolve?: (hostname: string) => Promise<string[]>
  /** Which resolved addresses may be connected to (default: publicAddress). Tests allow 127.0.0.1. */
  addressAllowed?: (address: string) => boolean
  /** Extra certificate authorities to trust besides the system's (tests: a self-signed one). */
  ca?: string
  limits?: Partial<Omit<typeof CLIENT_DOCUMENT_LIMITS, 'perPeer'>>
}

interface Fetched { body: Buffer, cacheControl: string | undefined }

async function systemResolve (hostname: string): Promise<string[]> {
  return (await dnsLookup(hostname, { all: true, order: 'verbatim' })).map(a => a.address)
}

/** Seconds of Cache-Control max-age, within the bounds; no-store and no-cache mean the lower bound. */
export function cacheLifetime (cacheControl: string | undefined, limits: Pick<typeof CLIENT_DOCUMENT_LIMITS, 'minTtlMs' | 'defaultTtlMs' | 'maxTtlMs'>): number {
  const directives = (cacheControl ?? '').toLowerCase()
  if (/(^|[\s,])(no-store|no-cache)([\s,=]|$)/.test(directives)) return limits.minTtlMs
  const maxAge = /(?:^|[\s,])max-age\s*=\s*"?(\d+)/.exec(directives)?.[1]
  const ms = maxAge === undefined ? limits.defaultTtlMs : Number(maxAge) * 1000
  return Math.min(limits.maxTtlMs, Math.max(limits.minTtlMs, ms))
}

/**
 * Client ID metadata documents: fetched on first use with every bound above, validated like a
 * registration, and cached (only valid documents, for their bounded lifetime, LRU-bounded).
 */
export class ClientDocuments {
  #now: () => number
  #schedule: Clock['schedule']
  #resolve: (hostname: string) => Promise<string[]>
  #allowed: (address: string) => boolean
  #ca: string[] | undefined
  #limits: typeof CLIENT_DOCUMENT_LIMITS
  #cache: LRUCache<string, { record: ClientRecord, expiresAt: number }>
  #inFlight = new Map<string, Promise<ClientRecord>>()
  #peers: SlidingWindow

  constructor (options: ClientDocumentOptions = {}) {
    this.#now = options.now ?? realClock.now
    this.#schedule = options.schedule ?? realClock.schedule
    this.#resolve = options.resolve ?? systemResolve
    this.#allowed = options.addressAllowed ?? publicAddress
    this.#ca = options.ca ? [...rootCertificates, options.ca] : undefined
    this.#limits = { ...CLIENT_DOCUMENT_LIMITS, ...options.limits }
    this.#cache = new LRUCache({ max: this.#limits.cacheEntries })
    this.#peers = new SlidingWindow(CLIENT_DOCUMENT_LIMITS.perPeer.fetches, CLIENT_DOCUMENT_LIMITS.perPeer.windowMs, this.#now)
  }

  /** The client a document URL describes, from the cache or fetched now; refusals are ClientDocumentError. */
  async client (clientId: string, peer: string): Promise<ClientRecord> {
    const cached = this.#cache.get(clientId)
    const now = this.#now()
    if (cached && cached.expiresAt > now) return cached.record
    const running = this.#inFlight.get(clientId)
    if (running) return await running
    const problem = clientIdUrlProblem(clientId)
    if (problem) throw new ClientDocumentError('invalid_url', clientId, `the client_id URL ${problem}`)
    const stale = cached && now - cached.expiresAt < this.#limits.staleMs ? cached.record : undefined
    const fetching = (async () => {
      try {
        this.#countFetch(clientId, peer)
        return await this.#fetchClient(clientId)
      } catch (err) {
        // The client's site is down or slow: the document it served last still describes it (a
        // refresh a day later must not sign the user out for that). A wrong or gone document is final.
        if (stale && err instanceof ClientDocumentError && err.transient) return stale
        this.#cache.delete(clientId)
        throw err
      }
    })().finally(() => this.#inFlight.delete(clientId))
    this.#inFlight.set(clientId, fetching)
    return await fetching
  }

  /** Forgets per-peer counts that ran out (the OAuth sweep calls it). */
  sweep (): void {
    this.#peers.sweep()
  }

  #countFetch (clientId: string, peer: string): void {
    // A fetch counts whatever it brings back: a failing document costs the site as much as a good one.
    if (this.#inFlight.size >= this.#limits.inFlight || 'retryAfterS' in this.#peers.take(`${peer} ${urlHost(clientId)?.authority ?? clientId}`)) {
      throw new ClientDocumentError('too_many_fetches', clientId, 'too many client metadata documents fetched from this site for this address; retry in a few minutes')
    }
  }

  async #fetchClient (clientId: string): Promise<ClientRecord> {
    const fetched = await this.#fetch(clientId)
    const record = this.#validate(clientId, fetched.body)
    this.#cache.set(clientId, { record, expiresAt: this.#now() + cacheLifetime(fetched.cacheControl, this.#limits) })
    return record
  }

  /** Every address the host resolves to must be allowed; the connection then goes to the one checked. */
  async #pinnedAddress (clientId: string, hostname: string): Promise<{ address: string, family: number }> {
    let addresses: string[]
    if (isIP(hostname)) addresses = [hostname]
    else {
      try {
        addresses = await this.#resolve(hostname)
      } catch (err) {
        throw new ClientDocumentError('unreachable', clientId, `${hostname} does not resolve (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`)
      }
    }
    if (addresses.length === 0) throw new ClientDocumentError('unreachable', clientId, `${hostname} does not resolve`)
    const refused = addresses.find(a => !this.#allowed(a))
    if (refused !== undefined) throw new ClientDocumentError('address_refused', clientId, `${hostname} resolves to ${refused}, a private, loopback or other special-use address; the add-on only fetches documents from public addresses`)
    const address = addresses[0] as string
    return { address, family: isIP(address) }
  }

  /** One GET, bounded in time (DNS included) and size; no redirect is followed. */
  async #fetch (clientId: string): Promise<Fetched> {
    const url = new URL(clientId)
    const limits = this.#limits
    const host = urlHost(clientId)?.hostname ?? ''
    return await new Promise<Fetched>((resolve, reject) => {
      let settled = false
      let outgoing: ClientRequest | undefined
      const finish = (): boolean => {
        if (settled) return false
        settled = true
        cancelConnect()
        cancelTotal()
        return true
      }
      const fail = (error: unknown): void => {
        if (!finish()) return
        outgoing?.destroy()
        reject(error)
      }
      const refuse = (reason: ClientDocumentRefusal, detail: string): void => { fail(new ClientDocumentError(reason, clientId, detail)) }
      const cancelConnect = this.#schedule(() => { refuse('timeout', `no answer within ${limits.connectMs / 1000} s`) }, limits.connectMs)
      const cancelTotal = this.#schedule(() => { refuse('timeout', `not complete within ${limits.totalMs / 1000} s`) }, limits.totalMs)
      this.#pinnedAddress(clientId, host).then(pinned => {
        if (settled) return
        // The lookup answers only the checked address: a second resolution (a DNS rebind) never happens.
        const lookup: LookupFunction = (_hostname, options, callback) => {
          if (options.all) callback(null, [pinned])
          else callback(null, pinned.address, pinned.family)
        }
        outgoing = request({
          host,
          port: url.port || 443,
          path: `${url.pathname}${url.search}`,
          method: 'GET',
          headers: { accept: 'application/json', 'user-agent': 'ha-mcp-addon (client ID metadata document fetch)' },
          lookup,
          ...(isIP(host) ? {} : { servername: host }),
          ...(this.#ca ? { ca: this.#ca } : {}),
          agent: false
        }, (response: IncomingMessage) => {
          cancelConnect()
          const status = response.statusCode ?? 0
          if (status >= 300 && status < 400) return refuse('redirect_refused', `answered ${status} (a redirect); redirects are not followed`)
          if (status !== 200) return fail(new ClientDocumentError('http_status', clientId, `answered HTTP ${status}, not 200`, status >= 500))
          const type = String(response.headers['content-type'] ?? '')
          if (!/^application\/([\w.-]+\+)?json\s*(;|$)/i.test(type)) return refuse('not_json', `content type is ${type ? JSON.stringify(type) : 'missing'}, not application/json`)
          const declared = Number(response.headers['content-length'])
          if (Number.isFinite(declared) && declared > limits.maxBytes) return refuse('too_large', `${declared} bytes, more than ${limits.maxBytes}`)
          const chunks: Buffer[] = []
          let size = 0
          response.on('data', (chunk: Buffer) => {
            size += chunk.length
            if (size > limits.maxBytes) return refuse('too_large', `more than ${limits.maxBytes} bytes`)
            chunks.push(chunk)
          })
          response.on('end', () => {
            if (finish()) resolve({ body: Buffer.concat(chunks), cacheControl: response.headers['cache-control'] })
          })
          response.on('error', err => { refuse('unreachable', err.message) })
        })
        outgoing.on('error', err => { refuse('unreachable', `${(err as NodeJS.ErrnoException).code ?? ''} ${err.message}`.trim()) })
        outgoing.end()
      }, fail)
    })
  }

  #validate (clientId: string, body: Buffer): ClientRecord {
    let document: unknown
    try {
      document = JSON.parse(body.toString('utf8'))
    } catch {
      throw new ClientDocumentError('not_json', clientId, 'the body is not JSON')
    }
    if (!document || typeof document !== 'object' || Array.isArray(document)) throw new ClientDocumentError('not_json', clientId, 'the body is not a JSON object')
    const input = document as Record<string, unknown>
    if (input.client_id !== clientId) throw new ClientDocumentError('client_id_mismatch', clientId, `its client_id ${JSON.stringify(input.client_id)} is not the URL it was fetched from`)
    if (input.client_secret !== undefined || input.client_secret_expires_at !== undefined) throw new ClientDocumentError('invalid_metadata', clientId, 'a metadata document cannot carry a client secret')
    const method = input.token_endpoint_auth_method ?? 'none'
    if (typeof method === 'string' && KEY_AUTH_METHODS.has(method)) {
      // A client that proves itself with a key (RFC 7523 private_key_jwt, mutual TLS) is refused, not
      // downgraded: it holds no PKCE-only sign-in, and its key is never checked here.
      throw new ClientDocumentError('auth_method_unsupported', clientId, `token_endpoint_auth_method ${JSON.stringify(method)} is not supported: the add-on signs in document clients as public clients (PKCE, token_endpoint_auth_method "none"), as its authorization server metadata says`)
    }
    if (method !== 'none') throw new ClientDocumentError('invalid_metadata', clientId, `token_endpoint_auth_method ${JSON.stringify(method)} is not supported here; a document client is public ("none")`)
    // One document serves every server the client talks to: its scope names others' scopes (ours are
    // asked at authorize), and grants we do not offer (VS Code lists device_code) are simply not used.
    const { scope: _scope, ...rest } = input
    const grantTypes = Array.isArray(input.grant_types) ? input.grant_types.filter(g => (GRANT_TYPES as readonly unknown[]).includes(g)) : undefined
    let metadata
    try {
      metadata = readClientMetadata({ ...rest, token_endpoint_auth_method: 'none', ...(grantTypes ? { grant_types: grantTypes } : {}) })
    } catch (err) {
      if (err instanceof OAuthError) throw new ClientDocumentError('invalid_metadata', clientId, err.message)
      throw err
    }
    return {
      client_id: clientId,
      auth_method: 'none',
      client_name: metadata.client_name,
      redirect_uris: metadata.redirect_uris,
      grant_types: metadata.grant_types,
      scope: formatScope([...OAUTH_SCOPES]),
      ...(metadata.application_type ? { application_type: metadata.application_type } : {}),
      created_at: this.#now(),
      used_at: null
    }
  }
}

import { hash as digest, randomBytes, timingSafeEqual } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { z } from 'zod'
import { realClock } from '../clock.ts'
import { writeFileAtomic } from '../files.ts'
import { CATEGORY_PATTERN, isLevel, levelSchema, levelsFromScopes, PRIMARY_IDENTITY, scopeSchema, type Identity, type Level, type Levels, type Scope } from './identity.ts'
import type { Revocations } from './revocations.ts'

/** Where the primary token came from: the add-on option, MCP_API_TOKEN, DATA_DIR/token, or made at first start. */
export type TokenSource = 'option' | 'env' | 'file' | 'generated'

export function hashToken (token: string): Buffer {
  // The one-shot digest, without a Hash object to make and drop: every request is authenticated.
  return digest('sha256', token, 'buffer')
}

export function generateToken (): string {
  return randomBytes(32).toString('base64url')
}

const storedTokenSchema = z.object({
  id: z.string(),
  name: z.string(),
  hash: z.string().regex(/^[0-9a-f]{64}$/),
  prefix: z.string(),
  /** Level per tool category; `*` for every category not named (src/auth/identity.ts). */
  levels: z.record(z.string(), levelSchema).optional(),
  /** Before levels: four flat scopes. Read once and migrated to levels. */
  scopes: z.array(scopeSchema).optional(),
  entity_allowlist: z.array(z.string()).optional(),
  entity_denylist: z.array(z.string()).optional(),
  created_at: z.string(),
  /** When the token last authenticated a request, as of the last save (see TokenStore.saveLastUsed). */
  last_used_at: z.string().optional()
})
type StoredToken = z.infer<typeof storedTokenSchema>
export type NamedToken = Omit<StoredToken, 'scopes' | 'levels'> & { levels: Record<string, Level> }
const storeSchema = z.object({ tokens: z.array(storedTokenSchema) })

export interface NewToken {
  name: string
  levels?: Levels
  /** Shorthand for levels: read/write/manage everywhere, camera for the camera. */
  scopes?: Scope[]
  entity_allowlist?: string[]
  entity_denylist?: string[]
}

/** A stored token as it is now: a token written with flat scopes gets the matching levels. */
function migrate (token: StoredToken): { token: NamedToken, migrated: boolean } {
  const { scopes, levels, ...rest } = token
  if (levels) return { token: { ...rest, levels }, migrated: scopes !== undefined }
  return { token: { ...rest, levels: { ...levelsFromScopes(scopes ?? []) } }, migrated: true }
}

function cleanLevels (levels: Levels): Record<string, Level> {
  return Object.fromEntries(Object.entries(levels).filter(([category, level]) => CATEGORY_PATTERN.test(category) && isLevel(level)))
}

export interface TokenStoreOptions {
  dataDir: string
  primary: string
  /** Where the primary token came from (src/auth/bootstrap.ts); decides whether it can be regenerated here. */
  primarySource?: TokenSource
  onError?: (message: string) => void
  onInfo?: (message: string) => void
  /** When a token was made or retired; real time unless a test brings its clock. */
  now?: () => number
  /** Told when a token stops working (revoked, replaced), so what it opened ends with it. */
  revocations?: Pick<Revocations, 'announce'>
}

/**
 * Bearer tokens: the primary one (all scopes, capped by the options) and named ones created on the
 * ingress page, stored hashed in DATA_DIR/tokens.json. Comparisons are constant-time.
 */
export class TokenStore {
  #primaryHash: Buffer
  #primary: string
  /** Primary tokens replaced since start: presenting one gets a 401 that says where the new one is. */
  #retired: Array<{ hash: Buffer, at: number }> = []
  #named: NamedToken[] = []
  /** The named tokens' hashes as bytes, in #named's order; rebuilt when the list changes, not per request. */
  #namedHashes: Buffer[] | undefined
  /**
   * When each named token last authenticated a request, in memory: a call must not write the store,
   * so the times reach tokens.json with the next save (saveLastUsed, once a minute, and every change).
   */
  #usedAt = new Map<NamedToken, number>()
  #usedSinceSave = false
  #file: string
  #now: () => number
  #revocations: Pick<Revocations, 'announce'> | undefined
  primarySource: TokenSource

  constructor (options: TokenStoreOptions) {
    this.#primaryHash = hashToken(options.primary)
    this.#primary = options.primary
    this.primarySource = options.primarySource ?? 'file'
    this.#now = options.now ?? realClock.now
    this.#revocations = options.revocations
    this.#file = join(options.dataDir, 'tokens.json')
    try {
      const parsed = storeSchema.safeParse(JSON.parse(readFileSync(this.#file, 'utf8')))
      if (parsed.success) {
        const read = parsed.data.tokens.map(migrate)
        this.#named = read.map(r => r.token)
        if (read.some(r => r.migrated)) {
          this.#save().then(() => options.onInfo?.(`${this.#file}: named tokens moved from flat scopes to levels per tool category`), (err: unknown) => options.onError?.(`cannot write ${this.#file}: ${(err as Error).message}`))
        }
      } else options.onError?.(`${this.#file} is malformed; named tokens ignored`)
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') options.onError?.(`cannot read ${this.#file}: ${(err as Error).message}`)
    }
  }

  /**
   * The identity a presented token belongs to, or undefined. The token is hashed and every stored hash
   * compared in constant time, whichever matches, so how long it takes says nothing of which did.
   */
  verify (presented: string): Identity | undefined {
    const hash = hashToken(presented)
    let found: { identity: Identity, token: NamedToken | undefined } | undefined
    if (timingSafeEqual(hash, this.#primaryHash)) found = { identity: PRIMARY_IDENTITY, token: undefined }
    const named = this.#named
    const hashes = this.#namedHashes ??= named.map(token => Buffer.from(token.hash, 'hex'))
    for (let i = 0; i < named.length; i++) {
      const token = named[i] as NamedToken
      if (timingSafeEqual(hash, hashes[i] as Buffer) && !found) found = { identity: identityOf(token), token }
    }
    if (!found) return undefined
    if (found.token) {
      this.#usedAt.set(found.token, this.#now())
      this.#usedSinceSave = true
    }
    return found.identity
  }

  /** The primary token in clear, for the ingress page's Connect tab (shown only when asked). */
  primary (): string {
    return this.#primary
  }

  /** Replaces the primary token: the old one stops working with the next request, and what it opened ends now. */
  replacePrimary (token: string, source: TokenSource): void {
    this.#retired = [...this.#retired, { hash: this.#primaryHash, at: this.#now() }].slice(-5)
    this.#primaryHash = hashToken(token)
    this.#primary = token
    this.primarySource = source
    this.#revocations?.announce({ identity: PRIMARY_IDENTITY.id, reason: 'the API token was regenerated' })
  }

  /** When this token was the primary one and got replaced (since start), or undefined. */
  retiredAt (presented: string): number | undefined {
    const hash = hashToken(presented)
    return this.#retired.find(r => timingSafeEqual(r.hash, hash))?.at
  }

  /** The named tokens without their hashes; `last_used_at` is null for a token never used. */
  list (): Array<Omit<NamedToken, 'hash' | 'last_used_at'> & { last_used_at: string | null }> {
    return this.#named.map(token => {
      const { hash: _hash, ...rest } = token
      const at = this.#usedAt.get(token)
      return { ...rest, last_used_at: at === undefined ? token.last_used_at ?? null : new Date(at).toISOString() }
    })
  }

  /** Writes the last-use times kept in memory, when any changed since the last save (the auth plugin's minute sweep, and on close). */
  async saveLastUsed (): Promise<void> {
    if (!this.#usedSinceSave) return
    await this.#save()
  }

  async create (input: NewToken): Promise<{ token: string, entry: Omit<NamedToken, 'hash'> }> {
    const token = generateToken()
    const entry: NamedToken = {
      id: randomBytes(6).toString('hex'),
      name: input.name,
      hash: hashToken(token).toString('hex'),
      prefix: token.slice(0, 8),
      levels: cleanLevels(input.levels ?? levelsFromScopes(input.scopes ?? [])),
      ...(input.entity_allowlist?.length ? { entity_allowlist: input.entity_allowlist } : {}),
      ...(input.entity_denylist?.length ? { entity_denylist: input.entity_denylist } : {}),
      created_at: new Date(this.#now()).toISOString()
    }
    this.#named.push(entry)
    this.#namedHashes = undefined
    await this.#save()
    const { hash: _hash, ...rest } = entry
    return { token, entry: rest }
  }

  async revoke (id: string): Promise<boolean> {
    const before = this.#named.length
    this.#named = this.#named.filter(t => t.id !== id)
    this.#namedHashes = undefined
    if (this.#named.length === before) return false
    this.#revocations?.announce({ identity: `token:${id}`, reason: 'the token was revoked' })
    await this.#save()
    return true
  }

  async #save (): Promise<void> {
    this.#usedSinceSave = false
    for (const [token, at] of this.#usedAt) token.last_used_at = new Date(at).toISOString()
    this.#usedAt.clear()
    await writeFileAtomic(this.#file, JSON.stringify({ tokens: this.#named }, null, 2), 0o600)
  }
}

function identityOf (token: NamedToken): Identity {
  return {
    id: `token:${token.id}`,
    name: token.name,
    levels: token.levels,
    ...(token.entity_allowlist ? { entityAllowlist: token.entity_allowlist } : {}),
    ...(token.entity_denylist ? { entityDenylist: token.entity_denylist } : {})
  }
}

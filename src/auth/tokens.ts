import { createHash, randomBytes, timingSafeEqual } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { z } from 'zod'
import { writeFileAtomic } from '../files.ts'
import { ALL_SCOPES, PRIMARY_IDENTITY, type Identity, type Scope } from './identity.ts'

export function hashToken (token: string): Buffer {
  return createHash('sha256').update(token, 'utf8').digest()
}

export function generateToken (): string {
  return randomBytes(32).toString('base64url')
}

const namedTokenSchema = z.object({
  id: z.string(),
  name: z.string(),
  hash: z.string().regex(/^[0-9a-f]{64}$/),
  prefix: z.string(),
  scopes: z.array(z.enum(['read', 'write', 'manage', 'camera'])),
  entity_allowlist: z.array(z.string()).optional(),
  entity_denylist: z.array(z.string()).optional(),
  created_at: z.string()
})
export type NamedToken = z.infer<typeof namedTokenSchema>
const storeSchema = z.object({ tokens: z.array(namedTokenSchema) })

export interface TokenStoreOptions {
  dataDir: string
  primary: string
  onError?: (message: string) => void
}

/**
 * Bearer tokens: the primary one (all scopes, capped by the options) and named ones created on the
 * ingress page, stored hashed in DATA_DIR/tokens.json. Comparisons are constant-time.
 */
export class TokenStore {
  #primaryHash: Buffer
  #named: NamedToken[] = []
  #file: string

  constructor (options: TokenStoreOptions) {
    this.#primaryHash = hashToken(options.primary)
    this.#file = join(options.dataDir, 'tokens.json')
    try {
      const parsed = storeSchema.safeParse(JSON.parse(readFileSync(this.#file, 'utf8')))
      if (parsed.success) this.#named = parsed.data.tokens
      else options.onError?.(`${this.#file} is malformed; named tokens ignored`)
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') options.onError?.(`cannot read ${this.#file}: ${(err as Error).message}`)
    }
  }

  /** The identity a presented token belongs to, or undefined. Every stored hash is compared. */
  verify (presented: string): Identity | undefined {
    const hash = hashToken(presented)
    let found: Identity | undefined
    if (timingSafeEqual(hash, this.#primaryHash)) found = PRIMARY_IDENTITY
    for (const token of this.#named) {
      if (timingSafeEqual(hash, Buffer.from(token.hash, 'hex')) && !found) found = identityOf(token)
    }
    return found
  }

  list (): Array<Omit<NamedToken, 'hash'>> {
    return this.#named.map(({ hash: _hash, ...rest }) => rest)
  }

  async create (input: { name: string, scopes: Scope[], entity_allowlist?: string[], entity_denylist?: string[] }): Promise<{ token: string, entry: Omit<NamedToken, 'hash'> }> {
    const token = generateToken()
    const entry: NamedToken = {
      id: randomBytes(6).toString('hex'),
      name: input.name,
      hash: hashToken(token).toString('hex'),
      prefix: token.slice(0, 8),
      scopes: [...new Set(input.scopes)],
      ...(input.entity_allowlist?.length ? { entity_allowlist: input.entity_allowlist } : {}),
      ...(input.entity_denylist?.length ? { entity_denylist: input.entity_denylist } : {}),
      created_at: new Date().toISOString()
    }
    this.#named.push(entry)
    await this.#save()
    const { hash: _hash, ...rest } = entry
    return { token, entry: rest }
  }

  async revoke (id: string): Promise<boolean> {
    const before = this.#named.length
    this.#named = this.#named.filter(t => t.id !== id)
    if (this.#named.length === before) return false
    await this.#save()
    return true
  }

  async #save (): Promise<void> {
    await writeFileAtomic(this.#file, JSON.stringify({ tokens: this.#named }, null, 2), 0o600)
  }
}

function identityOf (token: NamedToken): Identity {
  const scopes = new Set<Scope>(token.scopes.filter(s => ALL_SCOPES.has(s)))
  return {
    id: `token:${token.id}`,
    name: token.name,
    scopes,
    ...(token.entity_allowlist ? { entityAllowlist: token.entity_allowlist } : {}),
    ...(token.entity_denylist ? { entityDenylist: token.entity_denylist } : {})
  }
}

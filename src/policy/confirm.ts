import { createHash, randomBytes } from 'node:crypto'
import { LRUCache } from 'lru-cache'

/** What a confirmation is bound to: the exact call, never anything the caller may change afterwards. */
export interface CallFingerprintParts {
  tool?: string
  domain: string
  service: string
  target?: unknown
  data?: unknown
  baseHash?: string
}

/** JSON with object keys sorted at every level, so equal calls always give equal text. */
export function stableJson (value: unknown): string {
  if (value === undefined) return 'null'
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null'
  if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`
  const record = value as Record<string, unknown>
  const keys = Object.keys(record).filter(key => record[key] !== undefined).sort()
  return `{${keys.map(key => `${JSON.stringify(key)}:${stableJson(record[key])}`).join(',')}}`
}

export function callFingerprint (parts: CallFingerprintParts): string {
  return createHash('sha256').update(stableJson({
    tool: parts.tool,
    domain: parts.domain,
    service: parts.service,
    target: parts.target ?? null,
    data: parts.data ?? null,
    base: parts.baseHash ?? null
  })).digest('hex')
}

/** A short, non-reversible reference to a secret, for the audit. */
export function shortRef (secret: string): string {
  return createHash('sha256').update(secret).digest('hex').slice(0, 12)
}

export type RedeemVerdict = 'ok' | 'unknown' | 'expired' | 'mismatch' | 'changed' | 'other_identity'

/** For a config edit: which item the preview was of, and the hash of its config then. */
export interface ConfirmBase {
  subject: string
  hash: string
}

export interface ConfirmStoreOptions {
  ttlMs?: number
  now?: () => number
  /** Pending tokens kept at most; the oldest are dropped beyond it. */
  maxPending?: number
}

interface Pending {
  identityId: string
  fingerprint: string
  expiresAt: number
  base?: ConfirmBase
}

export const CONFIRM_TTL_MS = 5 * 60_000

/**
 * Single-use confirm tokens. A token is random, bound to one call fingerprint and one identity, and
 * burnt on its first presentation whatever the verdict, so a refused attempt cannot be retried with it.
 */
export class ConfirmStore {
  readonly ttlMs: number
  readonly #now: () => number
  readonly #pending: LRUCache<string, Pending>

  constructor (options: ConfirmStoreOptions = {}) {
    this.ttlMs = options.ttlMs ?? CONFIRM_TTL_MS
    this.#now = options.now ?? Date.now
    this.#pending = new LRUCache({ max: options.maxPending ?? 200 })
  }

  /** `base` binds a config edit to the item's config as previewed, so a change meanwhile reads as such. */
  issue (identityId: string, fingerprint: string, base?: ConfirmBase): string {
    this.#sweep()
    const token = randomBytes(16).toString('hex')
    this.#pending.set(token, { identityId, fingerprint, expiresAt: this.#now() + this.ttlMs, ...(base ? { base } : {}) })
    return token
  }

  redeem (identityId: string, token: string, fingerprint: string, base?: ConfirmBase): RedeemVerdict {
    const pending = this.#pending.get(token)
    if (!pending) return 'unknown'
    this.#pending.delete(token)
    if (pending.expiresAt <= this.#now()) return 'expired'
    if (pending.identityId !== identityId) return 'other_identity'
    if (pending.fingerprint !== fingerprint) {
      return pending.base && base && pending.base.subject === base.subject && pending.base.hash !== base.hash ? 'changed' : 'mismatch'
    }
    return 'ok'
  }

  get size (): number {
    return this.#pending.size
  }

  #sweep (): void {
    const now = this.#now()
    for (const [token, pending] of this.#pending.entries()) {
      if (pending.expiresAt <= now) this.#pending.delete(token)
    }
  }
}

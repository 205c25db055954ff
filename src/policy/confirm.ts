import { realClock } from '../clock.ts'
import { createHash, randomBytes } from 'node:crypto'

/** What a confirmation is bound to: the exact call, never anything the caller may change afterwards. */
export interface CallFingerprintParts {
  tool?: string
  domain?: string
  service?: string
  /** A write no service does (WriteName). */
  operation?: string
  target?: unknown
  data?: unknown
  baseHash?: string
}

/** Why a confirmed write writes nothing: what it would change is no longer what the human saw. */
export function changedSincePreview (subject: string): string {
  return `${subject} was changed in Home Assistant after the preview was shown, so that confirmation no longer applies; nothing was written.`
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
    ...(parts.operation === undefined ? {} : { operation: parts.operation }),
    target: parts.target ?? null,
    data: parts.data ?? null,
    base: parts.baseHash ?? null
  })).digest('hex')
}

/** A short, non-reversible reference to a secret, for the audit. */
export function shortRef (secret: string): string {
  return createHash('sha256').update(secret).digest('hex').slice(0, 12)
}

/** SHA-256 of the stable JSON of any value: equal values, equal fingerprints. */
export function fingerprintOf (value: unknown): string {
  return createHash('sha256').update(stableJson(value)).digest('hex')
}

/**
 * What a preview showed, as named facts (`"area kitchen: devices" -> "[\"d1\"]"`, `"lock.front" -> "locked"`).
 * Its fingerprint binds a confirmation; kept whole, it lets a conflict say which facts changed.
 */
export type Shown = Record<string, string>

/** The facts that differ between two previews' `Shown`, worded for a person, at most `limit` of them. */
export function changedFacts (before: Shown, after: Shown, limit = 10): string[] {
  const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])].sort()
  const changed = keys.filter(key => before[key] !== after[key]).map(key =>
    before[key] === undefined ? `${key}: now ${after[key] ?? ''}` : after[key] === undefined ? `${key}: was ${before[key]}, now gone` : `${key}: was ${before[key]}, now ${after[key] ?? ''}`)
  return changed.length > limit ? [...changed.slice(0, limit), `and ${changed.length - limit} more`] : changed
}

/** A confirmation waiting for the human's yes. */
export interface PendingConfirmation {
  identityId: string
  /** Fingerprint of the call as asked: tool and arguments, nothing derived from the house. */
  call: string
  /** What the preview showed (see `Shown`); its fingerprint is what the yes approves. */
  shown: Shown
  /** The preview text the human saw. */
  preview: string
}

/**
 * The answer of `consume`. `conflict`: same call, but what the preview showed no longer holds (the
 * caller answers HAMCP_CONFLICT with a fresh preview, listing `changes`); `mismatch`: another call.
 */
export type ConsumeResult =
  | { verdict: 'ok', pending: PendingConfirmation }
  | { verdict: 'conflict', pending: PendingConfirmation, changes: string[] }
  | { verdict: 'unknown' | 'expired' | 'other_identity' | 'mismatch' }

export type RedeemVerdict = ConsumeResult['verdict']

export interface ConfirmStoreOptions {
  ttlMs?: number
  now?: () => number
  /** Pending confirmations kept per identity; that identity's oldest are dropped beyond it. */
  maxPerIdentity?: number
  /** What one identity's pending confirmations may hold (previews and facts, in characters); its oldest are dropped beyond it. */
  maxBytesPerIdentity?: number
}

interface Entry extends PendingConfirmation {
  expiresAt: number
  /** What the entry holds, in characters (each at least a byte): its preview, call and facts. */
  size: number
}

/** One identity's pending confirmations by token, oldest first, and what they hold in all. */
interface Pool { entries: Map<string, Entry>, size: number }

export const CONFIRM_TTL_MS = 5 * 60_000
export const MAX_PENDING_PER_IDENTITY = 100
/**
 * What one identity's pending confirmations may hold: 1 MB of previews and facts. Counts alone let 60
 * previews of 3.9 MB each take the heap; a write's data is itself bounded (MAX_DATA_BYTES), so this
 * holds at least fifteen of the largest previews, and far more of ordinary ones.
 */
export const MAX_PENDING_BYTES_PER_IDENTITY = 1024 * 1024

function sizeOf (pending: PendingConfirmation): number {
  let size = pending.preview.length + pending.call.length + pending.identityId.length
  for (const [key, value] of Object.entries(pending.shown)) size += key.length + value.length
  return size
}

/**
 * Single-use confirmations, shared by confirm tokens (src/policy/guard.ts) and any other way of asking
 * (MCP `input_required`/`requestState`):
 *
 *   const token = store.create({ identityId, call: fingerprintOf(callAsAsked), shown, preview })
 *   // ...the human says yes; the same call comes back with the token...
 *   const result = store.consume(identityId, token, { call: fingerprintOf(callAsAsked), shown: freshShown })
 *   // 'ok' -> write; 'conflict' -> HAMCP_CONFLICT with a new preview; anything else -> HAMCP_CONFIRM_TOKEN_INVALID
 *
 * A token is random, bound to one identity, one call and the fingerprint of what its preview showed,
 * and burnt on its first presentation whatever the verdict, so a refused attempt cannot be retried
 * with it. Each identity has its own pool, bounded in count and in bytes: no client can push out
 * another's confirmations, nor fill the memory with its own.
 */
export class ConfirmStore {
  readonly ttlMs: number
  readonly maxPerIdentity: number
  readonly maxBytesPerIdentity: number
  readonly #now: () => number
  /** Identity id -> its pending confirmations. */
  readonly #pools = new Map<string, Pool>()

  constructor (options: ConfirmStoreOptions = {}) {
    this.ttlMs = options.ttlMs ?? CONFIRM_TTL_MS
    this.maxPerIdentity = options.maxPerIdentity ?? MAX_PENDING_PER_IDENTITY
    this.maxBytesPerIdentity = options.maxBytesPerIdentity ?? MAX_PENDING_BYTES_PER_IDENTITY
    this.#now = options.now ?? realClock.now
  }

  /** Stores a pending confirmation and returns its token (32 hex characters); the newest is always kept. */
  create (pending: PendingConfirmation): string {
    this.#sweep()
    const token = randomBytes(16).toString('hex')
    let pool = this.#pools.get(pending.identityId)
    if (!pool) this.#pools.set(pending.identityId, pool = { entries: new Map(), size: 0 })
    const entry = { ...pending, shown: { ...pending.shown }, expiresAt: this.#now() + this.ttlMs, size: sizeOf(pending) }
    pool.entries.set(token, entry)
    pool.size += entry.size
    for (const [oldest, old] of pool.entries) {
      if (oldest === token || (pool.entries.size <= this.maxPerIdentity && pool.size <= this.maxBytesPerIdentity)) break
      pool.entries.delete(oldest)
      pool.size -= old.size
    }
    return token
  }

  /**
   * Checks a token against the call as asked now and what its preview would show now; always burns it.
   * A call rebuilt from what changed (a config edit merged into the current config) differs, yet is the
   * same item changed: a fact named by both previews with another value makes that a conflict too.
   */
  consume (identityId: string, token: string, now: { call: string, shown: Shown, preview?: string }): ConsumeResult {
    for (const [owner, pool] of this.#pools) {
      const entry = pool.entries.get(token)
      if (!entry) continue
      pool.entries.delete(token)
      pool.size -= entry.size
      if (pool.entries.size === 0) this.#pools.delete(owner)
      if (entry.expiresAt <= this.#now()) return { verdict: 'expired' }
      if (entry.identityId !== identityId) return { verdict: 'other_identity' }
      const { expiresAt: _expiresAt, size: _size, ...pending } = entry
      const changes = changedFacts(entry.shown, now.shown)
      if (entry.call !== now.call) {
        const sameItemChanged = Object.keys(entry.shown).some(key => key in now.shown && entry.shown[key] !== now.shown[key])
        return sameItemChanged ? { verdict: 'conflict', pending, changes } : { verdict: 'mismatch' }
      }
      if (changes.length > 0) return { verdict: 'conflict', pending, changes }
      if (now.preview !== undefined && now.preview !== entry.preview) return { verdict: 'conflict', pending, changes: ['the preview: it reads differently now'] }
      return { verdict: 'ok', pending }
    }
    return { verdict: 'unknown' }
  }

  /** Pending confirmations of one identity, or of all. */
  size (identityId?: string): number {
    if (identityId !== undefined) return this.#pools.get(identityId)?.entries.size ?? 0
    let total = 0
    for (const pool of this.#pools.values()) total += pool.entries.size
    return total
  }

  /** What one identity's pending confirmations hold, in characters. */
  bytes (identityId: string): number {
    return this.#pools.get(identityId)?.size ?? 0
  }

  #sweep (): void {
    const now = this.#now()
    for (const [owner, pool] of this.#pools) {
      for (const [token, entry] of pool.entries) {
        if (entry.expiresAt > now) continue
        pool.entries.delete(token)
        pool.size -= entry.size
      }
      if (pool.entries.size === 0) this.#pools.delete(owner)
    }
  }
}

import { realClock } from '../clock.ts'
import { LRUCache } from 'lru-cache'
import { exponentialDelay } from '../retry-delay.ts'

export interface BackoffOptions {
  /** Failures allowed before blocking starts. */
  freeFailures?: number
  baseBlockMs?: number
  maxBlockMs?: number
  /** Entries idle this long are forgotten. */
  idleMs?: number
  /** Most addresses tracked at once; the oldest is forgotten first. */
  maxTracked?: number
  now?: () => number
}

interface Entry { failures: number, blockedUntil: number }

/**
 * Backoff after failed authentications per client (src/hosts.ts clientKey: a /64 is one client): some
 * free failures, then a block that doubles up to a ceiling. A success clears the client. Memory is bounded by count (least recently failed
 * forgotten first) and by idle time, in an LRU cache that reads the injected clock.
 */
export class AuthBackoff {
  /** Made on the first failure: an LRU preallocates its slots (0.6 MB for 10,000), held for nothing until then. */
  #entries: LRUCache<string, Entry> | undefined
  #maxTracked: number
  #free: number
  #base: number
  #max: number
  #idle: number
  #now: () => number

  constructor (options: BackoffOptions = {}) {
    this.#free = options.freeFailures ?? 5
    this.#base = options.baseBlockMs ?? 1_000
    this.#max = options.maxBlockMs ?? 60_000
    this.#idle = options.idleMs ?? 15 * 60_000
    this.#now = options.now ?? realClock.now
    this.#maxTracked = options.maxTracked ?? 10_000
  }

  get size (): number {
    return this.#entries?.size ?? 0
  }

  /** Milliseconds this address must still wait, or 0 when it may try. */
  blockedFor (address: string): number {
    const entry = this.#entries?.get(address)
    if (!entry) return 0
    return Math.max(0, entry.blockedUntil - this.#now())
  }

  fail (address: string): void {
    const now = this.#now()
    // ttlResolution 0: every check reads the clock (a fake one in tests) instead of a cached time.
    this.#entries ??= new LRUCache({ max: this.#maxTracked, ttlResolution: 0, perf: { now: this.#now } })
    const entry = this.#entries.get(address) ?? { failures: 0, blockedUntil: 0 }
    entry.failures++
    if (entry.failures > this.#free) entry.blockedUntil = now + exponentialDelay(entry.failures - this.#free, this.#base, this.#max)
    // Forgotten once idle, never while still blocked.
    this.#entries.set(address, entry, { ttl: this.#idle + Math.max(0, entry.blockedUntil - now) })
  }

  succeed (address: string): void {
    this.#entries?.delete(address)
  }

  /** Forgets idle addresses; called on a timer. */
  sweep (): void {
    this.#entries?.purgeStale()
  }
}

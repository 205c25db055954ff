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

interface Entry { failures: number, blockedUntil: number, lastSeen: number }

/**
 * Per-address backoff after failed authentications: some free failures, then a block that doubles
 * up to a ceiling. A success clears the address. Memory is bounded by count and by idle time.
 */
export class AuthBackoff {
  #entries = new Map<string, Entry>()
  #free: number
  #base: number
  #max: number
  #idle: number
  #cap: number
  #now: () => number

  constructor (options: BackoffOptions = {}) {
    this.#free = options.freeFailures ?? 5
    this.#base = options.baseBlockMs ?? 1_000
    this.#max = options.maxBlockMs ?? 60_000
    this.#idle = options.idleMs ?? 15 * 60_000
    this.#cap = options.maxTracked ?? 10_000
    this.#now = options.now ?? Date.now
  }

  get size (): number {
    return this.#entries.size
  }

  /** Milliseconds this address must still wait, or 0 when it may try. */
  blockedFor (address: string): number {
    const entry = this.#entries.get(address)
    if (!entry) return 0
    return Math.max(0, entry.blockedUntil - this.#now())
  }

  fail (address: string): void {
    const now = this.#now()
    const entry = this.#entries.get(address) ?? { failures: 0, blockedUntil: 0, lastSeen: now }
    entry.failures++
    entry.lastSeen = now
    if (entry.failures > this.#free) {
      const exponent = Math.min(entry.failures - this.#free - 1, 16)
      entry.blockedUntil = now + Math.min(this.#max, this.#base * 2 ** exponent)
    }
    // Re-insert so Map order is least-recently-seen first.
    this.#entries.delete(address)
    this.#entries.set(address, entry)
    this.#evict(now)
  }

  succeed (address: string): void {
    this.#entries.delete(address)
  }

  /** Forgets idle addresses; called on a timer. */
  sweep (): void {
    const now = this.#now()
    for (const [address, entry] of this.#entries) {
      if (now - entry.lastSeen > this.#idle && entry.blockedUntil <= now) this.#entries.delete(address)
    }
  }

  #evict (now: number): void {
    if (this.#entries.size <= this.#cap) return
    for (const [address, entry] of this.#entries) {
      if (this.#entries.size <= this.#cap) break
      if (entry.blockedUntil <= now || this.#entries.size > this.#cap) this.#entries.delete(address)
    }
  }
}

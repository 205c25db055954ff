/**
 * A sliding one-window cap per key (e.g. 6 notifications a minute per target). A slot is taken before
 * the write and given back when the write did not happen, so concurrent calls cannot overshoot.
 */
export class TargetRateLimiter {
  readonly limit: number
  readonly windowMs: number
  readonly #now: () => number
  readonly #hits = new Map<string, number[]>()

  constructor (limit: number, windowMs: number, now: () => number = Date.now) {
    this.limit = limit
    this.windowMs = windowMs
    this.#now = now
  }

  /** Takes a slot (release it if the write did not happen), or says how long until one frees up. */
  take (key: string): { release: () => void } | { retryAfterS: number } {
    const now = this.#now()
    const hits = (this.#hits.get(key) ?? []).filter(at => now - at < this.windowMs)
    if (hits.length >= this.limit) {
      this.#hits.set(key, hits)
      return { retryAfterS: Math.max(1, Math.ceil((hits[0]! + this.windowMs - now) / 1000)) }
    }
    hits.push(now)
    this.#hits.set(key, hits)
    if (this.#hits.size > 1000) this.#forgetIdle(now)
    return {
      release: () => {
        const list = this.#hits.get(key)
        const index = list?.lastIndexOf(now) ?? -1
        if (list && index >= 0) list.splice(index, 1)
      }
    }
  }

  #forgetIdle (now: number): void {
    for (const [key, hits] of this.#hits) {
      if (hits.every(at => now - at >= this.windowMs)) this.#hits.delete(key)
    }
  }
}

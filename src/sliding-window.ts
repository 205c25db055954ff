/** Keys tracked before the idle ones are forgotten, so memory stays bounded whatever the callers send. */
const MAX_KEYS = 1000

export type Slot = { release: () => void } | { retryAfterS: number }

/**
 * A sliding one-window cap per key: at most `limit` events in any `windowMs` (6 notifications a
 * minute per target, 10 client registrations per address in 10 minutes). A slot is taken before the
 * work and given back when the work did not happen, so concurrent calls cannot overshoot.
 */
export class SlidingWindow {
  readonly limit: number
  readonly windowMs: number
  readonly #now: () => number
  readonly #hits = new Map<string, number[]>()

  constructor (limit: number, windowMs: number, now: () => number) {
    this.limit = limit
    this.windowMs = windowMs
    this.#now = now
  }

  /** Takes a slot (release it if the work did not happen), or says how long until one frees up. */
  take (key: string): Slot {
    const now = this.#now()
    const hits = (this.#hits.get(key) ?? []).filter(at => now - at < this.windowMs)
    if (hits.length >= this.limit) {
      this.#hits.set(key, hits)
      return { retryAfterS: Math.max(1, Math.ceil((hits[0]! + this.windowMs - now) / 1000)) }
    }
    hits.push(now)
    this.#hits.set(key, hits)
    if (this.#hits.size > MAX_KEYS) this.sweep()
    return {
      release: () => {
        const list = this.#hits.get(key)
        const index = list?.lastIndexOf(now) ?? -1
        if (list && index >= 0) list.splice(index, 1)
      }
    }
  }

  /** Forgets the keys whose events all left the window. */
  sweep (): void {
    const now = this.#now()
    for (const [key, hits] of this.#hits) {
      if (hits.every(at => now - at >= this.windowMs)) this.#hits.delete(key)
    }
  }
}

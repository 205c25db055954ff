/**
 * Bookkeeping for MCP sessions, with no I/O: who owns each session, when it was last used, whether a
 * request is in flight or its client is listening on a stream. Closing is the caller's job: every
 * method that drops a session hands it back.
 */
import { realClock } from '../clock.ts'
export interface SessionRegistryOptions {
  /** Most sessions open at once. */
  max?: number
  /** A session with no request for this long is closed by the sweep (unless its client is listening). */
  idleTimeoutMs?: number
  /** At the cap, a session with no request for this long may be closed to make room. */
  evictableAfterMs?: number
  now?: () => number
}

interface Entry<T> {
  value: T
  owner: string
  lastUsed: number
  inFlight: number
  /** Open notification streams (GET). */
  streams: number
}

export type Admission<T> = { ok: true, evicted?: { id: string, value: T } } | { ok: false }

export const MAX_SESSIONS = 16
export const IDLE_TIMEOUT_MS = 30 * 60_000
export const EVICTABLE_AFTER_MS = 60_000

export class SessionRegistry<T> {
  readonly max: number
  readonly idleTimeoutMs: number
  readonly evictableAfterMs: number
  readonly #now: () => number
  readonly #entries = new Map<string, Entry<T>>()

  constructor (options: SessionRegistryOptions = {}) {
    this.max = options.max ?? MAX_SESSIONS
    this.idleTimeoutMs = options.idleTimeoutMs ?? IDLE_TIMEOUT_MS
    this.evictableAfterMs = options.evictableAfterMs ?? EVICTABLE_AFTER_MS
    this.#now = options.now ?? realClock.now
  }

  get size (): number { return this.#entries.size }

  get (id: string): T | undefined {
    return this.#entries.get(id)?.value
  }

  owner (id: string): string | undefined {
    return this.#entries.get(id)?.owner
  }

  /**
   * Makes room for one more session of `owner`. Below the cap nothing happens. At the cap, each owner
   * is owed a fair share (the cap divided among the owners holding sessions, this one included): an
   * owner below its share takes the least recently used session, not busy, of the owner furthest over
   * its share, however recently used. Otherwise the least recently used session idle for longer than
   * `evictableAfterMs` makes room. The session removed is returned so the caller can close it; refused
   * when none qualifies.
   */
  admit (owner?: string): Admission<T> {
    if (this.#entries.size < this.max) return { ok: true }
    const now = this.#now()
    const victim = (owner === undefined ? undefined : this.#overShare(owner)) ??
      this.#leastRecent(entry => now - entry.lastUsed > this.evictableAfterMs)
    if (!victim) return { ok: false }
    this.#entries.delete(victim[0])
    return { ok: true, evicted: { id: victim[0], value: victim[1].value } }
  }

  /** Sessions held per owner. */
  counts (): Map<string, number> {
    const counts = new Map<string, number>()
    for (const entry of this.#entries.values()) counts.set(entry.owner, (counts.get(entry.owner) ?? 0) + 1)
    return counts
  }

  /** For an owner below its fair share: the least recently used idle-or-listening session of the owner furthest over its share. */
  #overShare (owner: string): [string, Entry<T>] | undefined {
    const counts = this.counts()
    const owners = new Set([...counts.keys(), owner]).size
    const share = Math.max(1, Math.floor(this.max / owners))
    if ((counts.get(owner) ?? 0) >= share) return undefined
    const over = [...counts].filter(([who, count]) => who !== owner && count > share).sort((a, b) => b[1] - a[1])
    for (const [who] of over) {
      const found = this.#leastRecent(entry => entry.owner === who)
      if (found) return found
    }
    return undefined
  }

  #leastRecent (eligible: (entry: Entry<T>) => boolean): [string, Entry<T>] | undefined {
    let oldest: [string, Entry<T>] | undefined
    for (const pair of this.#entries) {
      const entry = pair[1]
      if (entry.inFlight > 0 || !eligible(entry)) continue
      if (!oldest || entry.lastUsed < oldest[1].lastUsed) oldest = pair
    }
    return oldest
  }

  /** Records a new session; call `admit()` first. */
  add (id: string, owner: string, value: T): void {
    this.#entries.set(id, { value, owner, lastUsed: this.#now(), inFlight: 0, streams: 0 })
  }

  /** A request started on this session; `end` must follow when its response is finished. */
  begin (id: string): void {
    const entry = this.#entries.get(id)
    if (!entry) return
    entry.inFlight++
    entry.lastUsed = this.#now()
  }

  end (id: string): void {
    const entry = this.#entries.get(id)
    if (!entry) return
    entry.inFlight = Math.max(0, entry.inFlight - 1)
    entry.lastUsed = this.#now()
  }

  /** The client opened (+1) or closed (-1) a notification stream; either counts as use. */
  stream (id: string, delta: 1 | -1): void {
    const entry = this.#entries.get(id)
    if (!entry) return
    entry.streams = Math.max(0, entry.streams + delta)
    entry.lastUsed = this.#now()
  }

  /** Whether the client holds a notification stream open. */
  listening (id: string): boolean {
    return (this.#entries.get(id)?.streams ?? 0) > 0
  }

  remove (id: string): T | undefined {
    const entry = this.#entries.get(id)
    this.#entries.delete(id)
    return entry?.value
  }

  /**
   * Removes and returns the sessions idle for longer than `idleTimeoutMs`. A session whose client
   * still listens on its stream is not idle: the stream dies with the client, and then it is.
   */
  expired (): Array<{ id: string, value: T }> {
    const now = this.#now()
    const gone: Array<{ id: string, value: T }> = []
    for (const [id, entry] of this.#entries) {
      if (entry.inFlight > 0 || entry.streams > 0 || now - entry.lastUsed <= this.idleTimeoutMs) continue
      this.#entries.delete(id)
      gone.push({ id, value: entry.value })
    }
    return gone
  }

  entries (): Array<{ id: string, value: T }> {
    return [...this.#entries].map(([id, entry]) => ({ id, value: entry.value }))
  }

  /** Removes and returns every session (shutdown). */
  drain (): Array<{ id: string, value: T }> {
    const all = [...this.#entries].map(([id, entry]) => ({ id, value: entry.value }))
    this.#entries.clear()
    return all
  }
}

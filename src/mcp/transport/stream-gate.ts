/**
 * One client's notification stream (a 2026-07-28 `subscriptions/listen` stream, a 2025 session's GET
 * stream), bounded. The SDK queues every notification it is given in the stream without limit, and
 * writes them only as fast as the client reads: a reader that does not read kept the whole history of
 * a busy house in memory. The gate hands the SDK a notification only while the response is not backed
 * up; while it is, notifications wait here, one per key (a URI: a later update of the same resource
 * replaces the earlier one, since the client re-reads the resource anyway), and go out when the
 * response drains. A response backed up for longer than `stallMs` is closed, and everything waiting
 * for it is dropped with it.
 */
import { AsyncLocalStorage } from 'node:async_hooks'
import type { ServerEvent, ServerEventBus } from '@modelcontextprotocol/server'

/** What a gate reads of a response (a node `ServerResponse`). */
export interface GatedResponse {
  readonly writableNeedDrain: boolean
  readonly destroyed: boolean
  on: (event: 'drain' | 'close', listener: () => void) => unknown
  off: (event: 'drain' | 'close', listener: () => void) => unknown
  destroy: () => unknown
}

/** How long a stream may stay backed up before it is closed: a client that reads catches up well within it. */
export const STREAM_STALL_MS = 60_000
/** Distinct notifications that may wait for one stream (a listen stream names at most 50 URIs). */
export const MAX_WAITING = 200

export interface StreamGateOptions {
  now: () => number
  stallMs?: number
  maxWaiting?: number
}

export class StreamGate {
  readonly #res: GatedResponse
  readonly #now: () => number
  readonly #stallMs: number
  readonly #maxWaiting: number
  /** Key -> what sends its latest notification, oldest key first. */
  readonly #waiting = new Map<string, () => void>()
  #backedUpSince: number | undefined
  #closed = false
  readonly #onDrain = (): void => { this.#flush() }
  readonly #onClose = (): void => { this.#release() }

  constructor (res: GatedResponse, options: StreamGateOptions) {
    this.#res = res
    this.#now = options.now
    this.#stallMs = options.stallMs ?? STREAM_STALL_MS
    this.#maxWaiting = options.maxWaiting ?? MAX_WAITING
    res.on('drain', this.#onDrain)
    res.on('close', this.#onClose)
    if (res.destroyed) this.#release()
  }

  /** Notifications waiting for the client to read; 0 once the stream ended. */
  get waiting (): number { return this.#waiting.size }

  get closed (): boolean { return this.#closed }

  /** Sends now when the stream keeps up; else keeps `send` as the latest for `key`, or closes a stalled stream. */
  offer (key: string, send: () => void): void {
    if (this.#closed) return
    if (!this.#res.writableNeedDrain && this.#waiting.size === 0) {
      this.#backedUpSince = undefined
      send()
      return
    }
    const now = this.#now()
    this.#backedUpSince ??= now
    this.#waiting.delete(key)
    this.#waiting.set(key, send)
    if (now - this.#backedUpSince >= this.#stallMs || this.#waiting.size > this.#maxWaiting) this.#stall()
  }

  #flush (): void {
    for (const [key, send] of this.#waiting) {
      if (this.#closed || this.#res.writableNeedDrain) return
      this.#waiting.delete(key)
      send()
    }
    if (!this.#closed && !this.#res.writableNeedDrain) this.#backedUpSince = undefined
  }

  #stall (): void {
    this.#release()
    this.#res.destroy()
  }

  #release (): void {
    if (this.#closed) return
    this.#closed = true
    this.#waiting.clear()
    this.#res.off('drain', this.#onDrain)
    this.#res.off('close', this.#onClose)
  }
}

/** The key a change event coalesces under: its URI for a resource update, its kind otherwise. */
function keyOf (event: ServerEvent): string {
  return event.kind === 'resource_updated' ? `resource:${event.uri}` : event.kind
}

/** One listen stream as the bus sees it: its gate, and the URIs it asked for. */
interface GatedStream { gate: StreamGate, uris: ReadonlySet<string> }

/**
 * The event bus of the listen streams, each listener behind its stream's gate. The SDK's listen router
 * subscribes once per stream while serving it: `serve` runs that in the stream's context, so the
 * listener it subscribes is found without the router knowing of gates. Updates of URIs the stream did
 * not ask for never reach its gate (the router would drop them anyway), so what waits is bounded by
 * what the stream asked for.
 */
export class GatedEventBus implements ServerEventBus {
  readonly #listeners = new Set<(event: ServerEvent) => void>()
  readonly #streamOf = new AsyncLocalStorage<GatedStream>()

  get listenerCount (): number { return this.#listeners.size }

  publish (event: ServerEvent): void {
    for (const listener of this.#listeners) {
      try {
        listener(event)
      } catch {
        // One stream failing never stops the others.
      }
    }
  }

  subscribe (listener: (event: ServerEvent) => void): () => void {
    const stream = this.#streamOf.getStore()
    const gated = stream === undefined
      ? listener
      : (event: ServerEvent): void => {
          if (event.kind === 'resource_updated' && !stream.uris.has(event.uri)) return
          stream.gate.offer(keyOf(event), () => { listener(event) })
        }
    this.#listeners.add(gated)
    return () => { this.#listeners.delete(gated) }
  }

  /** Runs `fn` (which serves one stream asking for `uris`) with `gate` in front of the listener it subscribes. */
  async serve<T> (gate: StreamGate, uris: readonly unknown[], fn: () => Promise<T>): Promise<T> {
    const wanted = new Set(uris.filter((uri): uri is string => typeof uri === 'string'))
    return await this.#streamOf.run({ gate, uris: wanted }, fn)
  }
}

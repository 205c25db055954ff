import { isIPv6 } from 'node:net'
import { Address6 } from 'ip-address'
import fp from 'fastify-plugin'
import type { FastifyInstance, FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify'
import { REQUEST_LIMIT_WINDOW_MS } from '../src/request-limits.ts'

export type RequestLimitKey = 'address' | 'token'

/**
 * An onRequest hook in Fastify's callback style: under the cap it calls `done` at once (no promise
 * per request), over it answers 429 and does not.
 */
export type RequestLimitHook = (request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction) => void

export interface RequestLimitHookOptions {
  /** Requests per minute; 0 turns the limit off. */
  max: number
  /** The body of the 429 answer, from a sentence a human can read. */
  body: (message: string) => object
}

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * An onRequest hook that caps requests per source address or per token (place it after
     * `authenticate`), with its own counter: over the cap, 429 with Retry-After and `opts.body`.
     */
    requestLimit: (by: RequestLimitKey, opts: RequestLimitHookOptions) => RequestLimitHook
  }
}

const ALLOWED: RequestLimitHook = (_request, _reply, done) => { done() }
const MAX_NOTICED = 1000
/** Keys each limit counts at once; beyond it the least recently seen is forgotten (as @fastify/rate-limit's store did). */
const MAX_COUNTED = 5000
const MAX_CACHED_KEYS = 1000

/** One key's window: requests counted since it started. */
interface Window {
  count: number
  startedAt: number
}

/**
 * Fixed one-minute windows per key, the rules @fastify/rate-limit's local store applied (its
 * `continueExceeding` and backoff off): a window starts at a key's first request and counts every
 * request until it is over. Counted in place: a request allocates nothing.
 */
export class WindowCounters {
  readonly #windowMs: number
  readonly #capacity: number
  /** In least-recently-used order, oldest first. */
  #windows = new Map<string, Window>()
  #lastKey: string | undefined

  constructor (windowMs: number, capacity = MAX_COUNTED) {
    this.#windowMs = windowMs
    this.#capacity = capacity
  }

  /** Counts one request for `key` at `now`; the window it counted in (read it before the next call). */
  hit (key: string, now: number): Readonly<Window> {
    let window = this.#windows.get(key)
    if (window === undefined) {
      if (this.#windows.size >= this.#capacity) this.#windows.delete(this.#windows.keys().next().value as string)
      window = { count: 0, startedAt: now }
      this.#windows.set(key, window)
    } else if (key !== this.#lastKey) {
      // Most recently used last (the same key again, the common case, is already there).
      this.#windows.delete(key)
      this.#windows.set(key, window)
    }
    this.#lastKey = key
    if (window.startedAt + this.#windowMs <= now) {
      window.count = 0
      window.startedAt = now
    } else if (window.startedAt > now) {
      // The clock was set back: the window runs from now, its count kept, so no client waits more
      // than a minute (from a start in the future, Retry-After would say an hour after a one-hour step).
      window.startedAt = now
    }
    window.count++
    return window
  }

  /** Milliseconds until `window` is over. */
  remainingMs (window: Readonly<Window>, now: number): number {
    return this.#windowMs - (now - window.startedAt)
  }
}

/**
 * The key an address counts under, as @fastify/rate-limit made it: an IPv4-mapped address is its IPv4
 * one, any other IPv6 address counts with its whole /64 (one host usually holds all of it).
 */
export function addressKeyOf (ip: string): string {
  if (!isIPv6(ip)) return ip.toLowerCase()
  const address = new Address6(ip)
  if (address.isMapped4()) return address.to4().correctForm()
  return new Address6(`${ip}/64`).startAddress().correctForm()
}

/** `make(key)` remembered for the last MAX_CACHED_KEYS keys asked for: the same few come again and again. */
function cached (make: (key: string) => string): (key: string | undefined) => string {
  const known = new Map<string, string>()
  return given => {
    // request.ip is the socket's remoteAddress: undefined once the socket is gone.
    const key = given ?? ''
    let value = known.get(key)
    if (value === undefined) {
      if (known.size >= MAX_CACHED_KEYS) known.clear()
      value = make(key)
      known.set(key, value)
    }
    return value
  }
}

const addressKey = cached(addressKeyOf)
const tokenKey = cached(id => `token:${id}`)
// Per address as the address limit counts it (one IPv6 /64 is one address), or one host's many
// addresses would each take a key and push the tokens' windows out beyond MAX_COUNTED.
const unauthenticatedKey = cached(ip => `address:${addressKey(ip)}`)

/** Request rate limits, one set of counters per limit (only where a route asks, never globally). */
async function requestLimitsPlugin (fastify: FastifyInstance, clock: { now: () => number }): Promise<void> {
  fastify.decorate('requestLimit', (by: RequestLimitKey, opts: RequestLimitHookOptions): RequestLimitHook => {
    if (opts.max === 0) return ALLOWED
    const counters = new WindowCounters(REQUEST_LIMIT_WINDOW_MS)
    // The token's id, never the token itself; requests that reach this unauthenticated count per address.
    const keyOf = by === 'token'
      ? (request: FastifyRequest) => request.identity ? tokenKey(request.identity.id) : unauthenticatedKey(request.ip)
      : (request: FastifyRequest) => addressKey(request.ip)
    // One notice per key and window in the Log tab, however many requests a runaway client sends.
    const noticed = new Map<string, number>()
    return function requestLimit (request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction): void {
      const key = keyOf(request)
      const now = clock.now()
      const window = counters.hit(key, now)
      if (window.count <= opts.max) {
        done()
        return
      }
      const ttl = counters.remainingMs(window, now)
      const seconds = Math.max(1, Math.ceil(ttl / 1000))
      if ((noticed.get(key) ?? 0) <= now) {
        if (noticed.size >= MAX_NOTICED) noticed.clear()
        noticed.set(key, now + ttl)
        request.log.notice({ by, address: request.ip, identity: request.identity?.name, max: opts.max }, 'request rate limit reached; answering 429 until the minute is over')
      }
      const who = by === 'token' ? 'this token' : 'this address'
      reply.code(429).header('retry-after', String(seconds))
        .send(opts.body(`Too many requests from ${who}: at most ${opts.max} a minute. Retry in ${seconds} s.`))
    }
  })
}

export default fp(requestLimitsPlugin, { name: 'request-limits', fastify: '5.x' })

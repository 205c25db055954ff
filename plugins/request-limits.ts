import rateLimit, { type errorResponseBuilderContext, type FastifyRateLimitStore, type FastifyRateLimitStoreCtor } from '@fastify/rate-limit'
import fp from 'fastify-plugin'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { clientKey } from '../src/hosts.ts'
import { REQUEST_LIMIT_WINDOW_MS } from '../src/request-limits.ts'

export type RequestLimitKey = 'address' | 'token'

/** An onRequest hook: under the cap it returns, over it throws the limit's refusal (429, Retry-After set). */
export type RequestLimitHook = (request: FastifyRequest, reply: FastifyReply) => Promise<void>

export interface RequestLimitHookOptions {
  /** What is counted: the client (`clientKey`), or the token (place it after `authenticate`). */
  by: RequestLimitKey
  /** Requests per minute; 0 turns the limit off. */
  max: number
  /** The error a refused request is answered with, built from a sentence a human can read; the route's error handler writes its coded body. */
  refusal: (message: string) => Error
}

declare module 'fastify' {
  interface FastifyInstance {
    /** A request limit for a route's onRequest hooks, on @fastify/rate-limit with its own counter. */
    requestLimit: (opts: RequestLimitHookOptions) => RequestLimitHook
  }
}

/** Keys each limit counts at once; beyond it the least recently seen is forgotten (as the library's own store does). */
const MAX_COUNTED = 5000
const MAX_NOTICED = 1000

interface Window { current: number, ttl: number, startedAt: number }

/**
 * @fastify/rate-limit's store contract with its local store's rules (a fixed window from a key's
 * first request), on the injected clock rather than the wall clock, so that tests move it and a clock set
 * back an hour never holds a client for more than a window.
 */
export function windowStoreOn (now: () => number, capacity = MAX_COUNTED): FastifyRateLimitStoreCtor {
  return class WindowStore implements FastifyRateLimitStore {
    /** In least-recently-used order, oldest first. */
    readonly #windows = new Map<string, Window>()

    incr (key: string, callback: (error: Error | null, result?: { current: number, ttl: number }) => void, timeWindow: number): void {
      const at = now()
      let window = this.#windows.get(key)
      if (window === undefined) {
        if (this.#windows.size >= capacity) this.#windows.delete(this.#windows.keys().next().value as string)
        window = { current: 0, ttl: timeWindow, startedAt: at }
      } else {
        this.#windows.delete(key)
      }
      this.#windows.set(key, window)
      // Over, or started in the future (the clock was set back): a fresh window from now.
      if (window.startedAt + timeWindow <= at) window.current = 0
      if (window.startedAt + timeWindow <= at || window.startedAt > at) window.startedAt = at
      window.current++
      window.ttl = timeWindow - (at - window.startedAt)
      callback(null, window)
    }

    child (): FastifyRateLimitStore {
      return new WindowStore()
    }
  }
}

const tokenKey = (request: FastifyRequest): string => request.identity ? `token:${request.identity.id}` : `address:${clientKey(request)}`
const allowed: RequestLimitHook = async () => {}

/**
 * Request rate limits on @fastify/rate-limit, one counter per limit (only where a route asks, never
 * globally), keyed by `clientKey` or by token. A refusal is the route's own coded error (through the
 * library's `errorResponseBuilder`), logged once per key and window (`onExceeded`).
 */
async function requestLimitsPlugin (fastify: FastifyInstance, opts: { now: () => number }): Promise<void> {
  await fastify.register(rateLimit, {
    global: false,
    store: windowStoreOn(opts.now),
    // Retry-After only: the limits sit far above any working client, so the other headers would tell it nothing.
    addHeaders: { 'x-ratelimit-limit': false, 'x-ratelimit-remaining': false, 'x-ratelimit-reset': false, 'retry-after': true },
    addHeadersOnExceeding: { 'x-ratelimit-limit': false, 'x-ratelimit-remaining': false, 'x-ratelimit-reset': false }
  })

  fastify.decorate('requestLimit', ({ by, max, refusal }: RequestLimitHookOptions): RequestLimitHook => {
    if (max === 0) return allowed
    const noticed = new Map<string, number>()
    const who = by === 'token' ? 'this token' : 'this address'
    const settings = {
      max,
      timeWindow: REQUEST_LIMIT_WINDOW_MS,
      keyGenerator: by === 'token' ? tokenKey : clientKey,
      errorResponseBuilder: (_request: FastifyRequest, context: Pick<errorResponseBuilderContext, 'ttl'>): Error => {
        const seconds = Math.max(1, Math.ceil(context.ttl / 1000))
        return refusal(`Too many requests from ${who}: at most ${max} a minute. Retry in ${seconds} s.`)
      },
      onExceeded: (request: FastifyRequest, key: string): void => {
        const now = opts.now()
        if ((noticed.get(key) ?? 0) > now) return
        if (noticed.size >= MAX_NOTICED) noticed.clear()
        noticed.set(key, now + REQUEST_LIMIT_WINDOW_MS)
        request.log.notice({ by, address: request.ip, identity: request.identity?.name, max }, 'request rate limit reached; answering 429 until the minute is over')
      }
    }
    if (by === 'address') return fastify.rateLimit(settings) as RequestLimitHook
    // The library's own hook runs once per request (its first limit marks the request), and the
    // per-token limit comes after the per-address one on /mcp: the same rules through its
    // createRateLimit, which leaves the request unmarked.
    const limiter = fastify.createRateLimit(settings)
    return async function tokenLimit (request, reply) {
      const outcome = await limiter(request)
      if (outcome.isAllowed || !outcome.isExceeded) return
      settings.onExceeded(request, outcome.key)
      reply.header('retry-after', String(outcome.ttlInSeconds))
      throw settings.errorResponseBuilder(request, outcome)
    }
  })
}

export default fp(requestLimitsPlugin, { name: 'request-limits', fastify: '5.x' })

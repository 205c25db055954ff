import fastifyRateLimit from '@fastify/rate-limit'
import fp from 'fastify-plugin'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { REQUEST_LIMIT_WINDOW_MS } from '../src/request-limits.ts'

export type RequestLimitKey = 'address' | 'token'

/** An onRequest hook: answers 429 (and returns the reply) over the cap, does nothing under it. */
export type RequestLimitHook = (request: FastifyRequest, reply: FastifyReply) => Promise<FastifyReply | undefined>

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

const ALLOWED: RequestLimitHook = async () => undefined
const MAX_NOTICED = 1000

/** Request rate limits over @fastify/rate-limit's counters (only where a route asks, never globally). */
async function requestLimitsPlugin (fastify: FastifyInstance, clock: { now: () => number }): Promise<void> {
  await fastify.register(fastifyRateLimit, { global: false, timeWindow: REQUEST_LIMIT_WINDOW_MS })
  fastify.decorate('requestLimit', (by: RequestLimitKey, opts: RequestLimitHookOptions): RequestLimitHook => {
    if (opts.max === 0) return ALLOWED
    const check = fastify.createRateLimit({
      max: opts.max,
      timeWindow: REQUEST_LIMIT_WINDOW_MS,
      // The token's id, never the token itself; requests that reach this unauthenticated count per address.
      ...(by === 'token' ? { keyGenerator: (request: FastifyRequest) => request.identity ? `token:${request.identity.id}` : `address:${request.ip}` } : {})
    })
    // One notice per key and window in the Log tab, however many requests a runaway client sends.
    const noticed = new Map<string, number>()
    return async function requestLimit (request: FastifyRequest, reply: FastifyReply) {
      const result = await check(request)
      if (result.isAllowed || !result.isExceeded) return undefined
      const seconds = Math.max(1, result.ttlInSeconds)
      const now = clock.now()
      if ((noticed.get(result.key) ?? 0) <= now) {
        if (noticed.size >= MAX_NOTICED) noticed.clear()
        noticed.set(result.key, now + result.ttl)
        request.log.notice({ by, address: request.ip, identity: request.identity?.name, max: opts.max }, 'request rate limit reached; answering 429 until the minute is over')
      }
      const who = by === 'token' ? 'this token' : 'this address'
      return await reply.code(429).header('retry-after', String(seconds))
        .send(opts.body(`Too many requests from ${who}: at most ${opts.max} a minute. Retry in ${seconds} s.`))
    }
  })
}

export default fp(requestLimitsPlugin, { name: 'request-limits', fastify: '5.x' })

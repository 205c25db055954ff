import fp from 'fastify-plugin'
import type { FastifyInstance } from 'fastify'
import type { PolicyServices } from '../src/policy/create.ts'

declare module 'fastify' {
  interface FastifyInstance {
    policy: PolicyServices['guard']
    audit: PolicyServices['audit']
    undo: PolicyServices['undo']
    rateLimits: PolicyServices['rateLimits']
  }
}

/** The guarded write path, its audit trail, undo history and per-target rate caps; the audit is flushed on close. */
async function policyPlugin (fastify: FastifyInstance, opts: { policy: PolicyServices }): Promise<void> {
  const { guard, audit, undo, rateLimits } = opts.policy
  fastify.decorate('policy', guard)
  fastify.decorate('audit', audit)
  fastify.decorate('undo', undo)
  fastify.decorate('rateLimits', rateLimits)
  fastify.addHook('onClose', async () => { await audit.flush() })
}

export default fp(policyPlugin, { name: 'policy', dependencies: ['config', 'home-assistant'], fastify: '5.x' })

import fp from 'fastify-plugin'
import type { FastifyInstance } from 'fastify'
import type { PolicyServices } from '../src/policy/create.ts'

/** The guarded write path's lifecycle: the audit trail is flushed on close. */
async function policyPlugin (fastify: FastifyInstance, opts: { policy: PolicyServices }): Promise<void> {
  const { audit } = opts.policy
  fastify.addHook('onClose', async () => { await audit.flush() })
}

export default fp(policyPlugin, { name: 'policy', dependencies: ['config', 'home-assistant'], fastify: '5.x' })

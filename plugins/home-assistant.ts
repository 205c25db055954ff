import fp from 'fastify-plugin'
import type { FastifyInstance } from 'fastify'
import type { Services } from '../src/compose.ts'

/**
 * The one connection to Home Assistant and the filtered read view over it. Connecting happens in the
 * background once the app is ready: registration never waits for Home Assistant, /health reports the state.
 */
async function homeAssistantPlugin (fastify: FastifyInstance, opts: Pick<Services, 'ha'>): Promise<void> {
  const { ha } = opts
  fastify.addHook('onReady', async () => { ha.start() })
  fastify.addHook('onClose', async () => { await ha.close() })
}

export default fp(homeAssistantPlugin, { name: 'home-assistant', dependencies: ['config'], fastify: '5.x' })

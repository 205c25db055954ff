import { every, type Clock } from '../src/clock.ts'
import fp from 'fastify-plugin'
import type { FastifyInstance } from 'fastify'
import type { AppLogger } from '../src/logger.ts'
import type { SessionService } from '../src/sessions/service.ts'

/**
 * The MCP sessions (src/sessions/service.ts) and their lifecycle: an idle sweep while the app runs;
 * at shutdown, notification streams end first (they would hold the HTTP server open), then every
 * session closes once requests in flight are done.
 */
async function sessionsPlugin (fastify: FastifyInstance, opts: { sessions: SessionService, clock: Clock }): Promise<void> {
  const { sessions } = opts
  const log: AppLogger = fastify.log
  if (!sessions.enabled) return

  const stopSweep = every(opts.clock, sessions.sweepEveryMs, () => { sessions.sweep().catch(err => { log.warning({ err }, 'MCP session sweep failed') }) })
  fastify.addHook('preClose', async () => { await sessions.closeStreams() })
  fastify.addHook('onClose', async () => {
    stopSweep()
    await sessions.closeAll()
  })
}

export default fp(sessionsPlugin, { name: 'sessions', fastify: '5.x' })

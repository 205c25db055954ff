import type { FastifyInstance } from 'fastify'
import type { HomeAssistant } from '../src/ha/index.ts'

export interface HealthOptions {
  ha: Pick<HomeAssistant, 'status'>
  /** How long Home Assistant may be away before /health answers 503 (the container is then restarted). */
  degradedAfterMs?: number
  /** The one clock's `now` (src/clock.ts). */
  now: () => number
}

/** GET /health, unauthenticated: `{status, websocket}`; 503 once Home Assistant has been away too long. */
export default async function healthRoutes (fastify: FastifyInstance, opts: HealthOptions): Promise<void> {
  const degradedAfterMs = opts.degradedAfterMs ?? 5 * 60_000
  const startedAt = opts.now()
  fastify.get('/health', { logLevel: 'silent' }, async (_request, reply) => {
    const status = opts.ha.status()
    const websocket = status.connected
    const downFor = websocket ? 0 : opts.now() - (status.downSince ?? startedAt)
    const degraded = !websocket && downFor > degradedAfterMs
    return await reply.code(degraded ? 503 : 200).send({ status: degraded ? 'degraded' : 'ok', websocket })
  })
}

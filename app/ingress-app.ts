import Fastify, { LogController, type FastifyInstance } from 'fastify'
import closingPlugin from '../plugins/closing.ts'
import ingressRoutes from '../routes/ingress.ts'
import requestLimitsPlugin from '../plugins/request-limits.ts'
import type { Services } from '../src/compose.ts'
import { refusalBody } from '../src/errors.ts'
import type { IngressServices } from '../src/ingress/panel.ts'
import type { AppLogger } from '../src/logger.ts'

export interface IngressAppOptions {
  services: IngressServices
  logger: AppLogger
  publicDir?: string
}

/** The ingress page as its own Fastify instance (its own port), over the MCP app's services. Never listens. */
export async function buildIngressApp (opts: IngressAppOptions): Promise<FastifyInstance> {
  const fastify = Fastify({
    loggerInstance: opts.logger.child({ component: 'ingress' }),
    logController: new LogController({ disableRequestLogging: true }),
    trustProxy: false,
    forceCloseConnections: 'idle',
    // plugins/closing.ts answers while closing, with a coded body.
    return503OnClosing: false,
    bodyLimit: 64 * 1024
  })
  await fastify.register(closingPlugin, { body: () => refusalBody(503, 'HAMCP_SHUTTING_DOWN', 'The add-on is stopping or restarting; retry in a moment.') })
  await fastify.register(requestLimitsPlugin, { now: opts.services.clock.now })
  await fastify.register(ingressRoutes, { services: opts.services, publicDir: opts.publicDir })
  await fastify.ready()
  return fastify
}

/** What the ingress page reads of the composition root's services; shared, never duplicated. */
export function ingressServicesOf (services: Services): IngressServices {
  const { config, ha, home, tokens, usage, catalog, primaryToken, requestLimits, clock } = services
  return { config, ha, home, tokens, usage, catalog, primaryToken, clock, audit: services.policy.audit, approvals: services.policy.approvals, requestLimits, oauth: services.oauth, ...(services.secrets ? { secrets: services.secrets } : {}) }
}

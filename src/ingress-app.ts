import Fastify, { LogController, type FastifyInstance } from 'fastify'
import ingressRoutes, { type IngressServices } from '../plugins/ingress.ts'
import type { AppLogger } from './logger.ts'
import type { ToolCatalog } from './mcp/registry.ts'
import type { AuditApi } from './policy/types.ts'

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
    return503OnClosing: true,
    bodyLimit: 64 * 1024
  })
  await fastify.register(ingressRoutes, { services: opts.services, publicDir: opts.publicDir })
  await fastify.ready()
  return fastify
}

/** The services of a built MCP app, for the ingress page (the audit only once the policy plugin provides it). */
export function ingressServicesOf (app: FastifyInstance, catalog: ToolCatalog, primaryToken: string): IngressServices {
  return {
    config: app.config,
    ha: app.ha,
    home: app.home,
    tokens: app.tokens,
    usage: app.usage,
    catalog,
    primaryToken,
    audit: app.hasDecorator('audit') ? app.getDecorator<AuditApi>('audit') : undefined,
    oauth: app.hasDecorator('oauth') ? app.oauth : null
  }
}

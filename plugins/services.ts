import fp from 'fastify-plugin'
import type { FastifyInstance } from 'fastify'
import type { Services } from '../src/compose.ts'

declare module 'fastify' {
  interface FastifyInstance {
    /** Everything src/compose.ts built: app/start.ts hands it to the ingress app, tests reach services through it. */
    services: Services
  }
}

/**
 * The one decoration of services: the composition root itself. Plugins never read it (they get what
 * they use in their registration options); app/start.ts and tests do.
 */
async function servicesPlugin (fastify: FastifyInstance, opts: { services: Services }): Promise<void> {
  fastify.decorate('services', opts.services)
}

export default fp(servicesPlugin, { name: 'services', fastify: '5.x' })

import fp from 'fastify-plugin'
import type { FastifyInstance } from 'fastify'
import type { Services } from '../src/compose.ts'

declare module 'fastify' {
  interface FastifyInstance {
    /** Everything src/compose.ts built, for the ingress page and for tests. */
    services: Services
    usage: Services['usage']
  }
}

/** Decorates the composition root's services and the usage counters. */
async function servicesPlugin (fastify: FastifyInstance, opts: { services: Services }): Promise<void> {
  fastify.decorate('services', opts.services)
  fastify.decorate('usage', opts.services.usage)
}

export default fp(servicesPlugin, { name: 'services', fastify: '5.x' })

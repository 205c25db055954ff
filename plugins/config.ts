import fp from 'fastify-plugin'
import type { FastifyInstance } from 'fastify'
import type { Config } from '../src/config.ts'

declare module 'fastify' {
  interface FastifyInstance {
    config: Config
  }
}

/** Decorates the validated configuration; problems found while reading options.json are logged here. */
async function configPlugin (fastify: FastifyInstance, opts: { config: Config }): Promise<void> {
  for (const message of opts.config.optionErrors) fastify.log.error(message)
  fastify.decorate('config', opts.config)
}

export default fp(configPlugin, { name: 'config', fastify: '5.x' })

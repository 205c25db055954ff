import fp from 'fastify-plugin'
import type { FastifyInstance } from 'fastify'
import type { Config } from '../src/config.ts'

/** Problems found while reading options.json are logged here, once, when the app starts. */
async function configPlugin (fastify: FastifyInstance, opts: { config: Config }): Promise<void> {
  for (const message of opts.config.optionErrors) fastify.log.error(message)
}

export default fp(configPlugin, { name: 'config', fastify: '5.x' })

import fp from 'fastify-plugin'
import type { FastifyInstance } from 'fastify'
import { HomeAssistant } from '../src/ha/index.ts'
import { EntityCatalog } from '../src/home/catalog.ts'
import { HomeView } from '../src/home/view.ts'
import { Visibility } from '../src/home/visibility.ts'

declare module 'fastify' {
  interface FastifyInstance {
    ha: HomeAssistant
    home: HomeView
  }
}

export interface HomeAssistantPluginOptions {
  /** Shorter retry and ping timings for tests. */
  connection?: ConstructorParameters<typeof HomeAssistant>[0]['connection']
}

/**
 * The one connection to Home Assistant and the filtered read view over it. Connecting happens in the
 * background: registration never waits for Home Assistant, /health reports the state.
 */
async function homeAssistantPlugin (fastify: FastifyInstance, opts: HomeAssistantPluginOptions): Promise<void> {
  const { homeAssistant, supervisor, options } = fastify.config
  const ha = new HomeAssistant({
    mode: homeAssistant.mode,
    baseUrl: homeAssistant.baseUrl,
    token: homeAssistant.token,
    supervisorUrl: supervisor.url,
    supervisorToken: supervisor.token,
    log: fastify.log.child({ component: 'ha' }),
    connection: opts.connection
  })
  const home = new HomeView(ha, new EntityCatalog(ha), new Visibility(options))
  fastify.decorate('ha', ha)
  fastify.decorate('home', home)
  fastify.addHook('onReady', async () => { ha.start() })
  fastify.addHook('onClose', async () => { await ha.close() })
}

export default fp(homeAssistantPlugin, { name: 'home-assistant', dependencies: ['config'], fastify: '5.x' })

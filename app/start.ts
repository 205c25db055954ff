import type { AddressInfo } from 'node:net'
import type { FastifyInstance } from 'fastify'
import { startAddonTasks } from '../src/addon/index.ts'
import { realClock } from '../src/clock.ts'
import { resolvePrimaryToken, type PrimaryToken } from '../src/auth/bootstrap.ts'
import { loadConfig, type Config, type Env } from '../src/config.ts'
import { createLogger, SecretScrubber, type AppLogger } from '../src/logger.ts'
import type { Options } from '../src/options.ts'
import { buildApp } from './app.ts'
import { buildIngressApp, ingressServicesOf } from './ingress-app.ts'

/** How long requests in flight may run after a stop before their connections are closed. */
const DRAIN_MS = 5_000
/** A stop that takes longer than this exits the process anyway. */
const FORCE_EXIT_MS = 10_000

export interface StartOptions {
  env: Env
  /** Options that win over DATA_DIR/options.json (the demo's --options file). */
  options?: Partial<Options>
  /** Listening addresses; by default MCP_PORT and HOST, and INGRESS_PORT on loopback outside the add-on. */
  listen?: { mcpPort?: number, host?: string, ingressPort?: number }
}

export interface RunningServer {
  config: Config
  logger: AppLogger
  primary: PrimaryToken
  app: FastifyInstance
  ingress: FastifyInstance
  mcpPort: number
  ingressPort: number
  /** Graceful stop: both servers stop accepting, requests in flight get DRAIN_MS, then the HA connection closes. */
  stop: () => Promise<void>
}

export function portOf (app: FastifyInstance): number {
  return (app.server.address() as AddressInfo | null)?.port ?? 0
}

/** Configuration, logger and token from the environment, then the MCP app and the ingress page, listening. */
export async function startServer (opts: StartOptions): Promise<RunningServer> {
  const { env } = opts
  const config = loadConfig(env, opts.options)
  const scrubber = new SecretScrubber()
  scrubber.add(config.homeAssistant.token)
  scrubber.add(config.supervisor.token)
  const logger = createLogger({ level: config.logLevel, scrubber })
  const primary = await resolvePrimaryToken({ option: config.options.api_token, envToken: config.envApiToken, dataDir: config.dataDir, log: logger })
  scrubber.add(primary.token)

  const app = await buildApp({ config, primaryToken: primary.token, primarySource: primary.source, secrets: scrubber, logger })
  const host = opts.listen?.host ?? config.host
  await app.listen({ port: opts.listen?.mcpPort ?? config.mcpPort, host })
  // The port really listened on (the demo's --port, 0 for any) is the one the Connect tab shows.
  config.mcpPort = portOf(app)
  logger.info({ port: portOf(app), version: config.version, haMode: config.homeAssistant.mode }, 'MCP server listening on /mcp')
  // Only the Supervisor's ingress proxy may reach the page in the add-on; elsewhere it stays on loopback.
  const ingress = await buildIngressApp({ services: ingressServicesOf(app.services), logger })
  await ingress.listen({ port: opts.listen?.ingressPort ?? config.ingressPort, host: config.addonMode ? host : '127.0.0.1' })
  logger.info({ port: portOf(ingress) }, 'ingress page listening')
  const addonTasks = config.supervisor.token
    ? startAddonTasks({ supervisor: app.services.ha.supervisor, primary, mcpPort: portOf(app), log: logger, retry: { clock: app.services.clock } })
    : undefined

  return {
    config,
    logger,
    primary,
    app,
    ingress,
    mcpPort: portOf(app),
    ingressPort: portOf(ingress),
    async stop () {
      // Requests in flight get DRAIN_MS to finish; then their sockets are cut so the close can complete.
      const cancelDrain = app.services.clock.schedule(() => {
        logger.warning('requests still running after the drain period; closing their connections')
        app.server.closeAllConnections()
        ingress.server.closeAllConnections()
      }, DRAIN_MS)
      addonTasks?.stop()
      try {
        await Promise.all([ingress.close(), app.close()])
      } finally {
        cancelDrain()
      }
    }
  }
}

/** SIGTERM/SIGINT stop the server gracefully (then `after`, e.g. the demo home) and exit: 0 if all went well. */
export function stopOnSignals (running: RunningServer, after?: () => Promise<void>): void {
  const { logger } = running
  let closing = false
  const shutdown = (signal: string): void => {
    if (closing) return
    closing = true
    logger.info({ signal }, 'shutting down')
    // Real time on purpose: the last resort over the whole process, whatever clock the services run on.
    realClock.schedule(() => { logger.error('shutdown took too long; exiting'); process.exit(1) }, FORCE_EXIT_MS)
    running.stop().then(after).then(() => process.exit(0), (err: unknown) => {
      logger.error({ err }, 'error during shutdown')
      process.exit(1)
    })
  }
  process.once('SIGTERM', () => shutdown('SIGTERM'))
  process.once('SIGINT', () => shutdown('SIGINT'))
}

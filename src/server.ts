import type { AddressInfo } from 'node:net'
import type { FastifyInstance } from 'fastify'
import { startAddonTasks } from './addon/index.ts'
import { loadConfig, type Env } from './config.ts'
import { buildApp } from './app.ts'
import { resolvePrimaryToken } from './auth/bootstrap.ts'
import { buildIngressApp, ingressServicesOf } from './ingress-app.ts'
import { createLogger, SecretScrubber } from './logger.ts'
import { loadToolCatalog } from './mcp/registry.ts'

/** HEALTH_DEGRADED_AFTER_S shortens the 5 minutes /health waits before answering 503 (tests, impatient setups). */
function healthThresholdMs (env: Env): number | undefined {
  const seconds = Number(env.HEALTH_DEGRADED_AFTER_S)
  return env.HEALTH_DEGRADED_AFTER_S && Number.isFinite(seconds) && seconds >= 0 ? seconds * 1000 : undefined
}

/** How long requests in flight may run after SIGTERM before their connections are closed. */
const DRAIN_MS = 5_000

function portOf (app: FastifyInstance): number {
  return (app.server.address() as AddressInfo | null)?.port ?? 0
}

/** Production entry: builds the app, listens, and shuts down gracefully on SIGTERM/SIGINT. */
export async function main (env = process.env): Promise<void> {
  const config = loadConfig(env)
  const scrubber = new SecretScrubber()
  scrubber.add(config.homeAssistant.token)
  scrubber.add(config.supervisor.token)
  const logger = createLogger({ level: config.logLevel, scrubber })
  const primary = await resolvePrimaryToken({ option: config.options.api_token, envToken: config.envApiToken, dataDir: config.dataDir, log: logger })
  scrubber.add(primary.token)

  const catalog = await loadToolCatalog()
  const app = await buildApp({ config, primaryToken: primary.token, logger, catalog, healthDegradedAfterMs: healthThresholdMs(env) })
  await app.listen({ port: config.mcpPort, host: config.host })
  logger.info({ port: portOf(app), version: config.version, haMode: config.homeAssistant.mode }, 'MCP server listening on /mcp')
  // Only the Supervisor's ingress proxy may reach the page in the add-on; elsewhere it stays on loopback.
  const ingress = await buildIngressApp({ services: ingressServicesOf(app, catalog, primary.token), logger })
  await ingress.listen({ port: config.ingressPort, host: config.addonMode ? config.host : '127.0.0.1' })
  logger.info({ port: portOf(ingress) }, 'ingress page listening')
  const addonTasks = config.supervisor.token
    ? startAddonTasks({ supervisor: app.ha.supervisor, primary, mcpPort: portOf(app), log: logger })
    : undefined

  let closing = false
  const shutdown = (signal: string): void => {
    if (closing) return
    closing = true
    logger.info({ signal }, 'shutting down')
    // Requests in flight get DRAIN_MS to finish; then their sockets are cut so the close can complete.
    const drain = setTimeout(() => {
      logger.warning('requests still running after the drain period; closing their connections')
      app.server.closeAllConnections()
      ingress.server.closeAllConnections()
    }, DRAIN_MS)
    drain.unref()
    const force = setTimeout(() => { logger.error('shutdown took too long; exiting'); process.exit(1) }, 10_000)
    force.unref()
    addonTasks?.stop()
    // Both servers stop accepting at once; in-flight requests drain, then the HA connection closes (app onClose).
    Promise.all([ingress.close(), app.close()]).then(() => process.exit(0), (err: unknown) => {
      logger.error({ err }, 'error during shutdown')
      process.exit(1)
    })
  }
  process.once('SIGTERM', () => shutdown('SIGTERM'))
  process.once('SIGINT', () => shutdown('SIGINT'))
}

const entry = process.argv[1] ?? ''
if (/server\.(ts|js)$/.test(entry)) {
  main().catch((err: unknown) => {
    process.stderr.write(`fatal: ${(err as Error).stack ?? String(err)}\n`)
    process.exit(1)
  })
}

import { loadConfig } from './config.ts'
import { buildApp } from './app.ts'
import { resolvePrimaryToken } from './auth/bootstrap.ts'
import { createLogger, SecretScrubber } from './logger.ts'

/** Production entry: builds the app, listens, and shuts down gracefully on SIGTERM/SIGINT. */
export async function main (env = process.env): Promise<void> {
  const config = loadConfig(env)
  const scrubber = new SecretScrubber()
  scrubber.add(config.homeAssistant.token)
  scrubber.add(config.supervisor.token)
  const logger = createLogger({ level: config.logLevel, scrubber })
  const primary = await resolvePrimaryToken({ option: config.options.api_token, envToken: config.envApiToken, dataDir: config.dataDir, log: logger })
  scrubber.add(primary.token)

  const app = await buildApp({ config, primaryToken: primary.token, logger })
  await app.listen({ port: config.mcpPort, host: config.host })
  logger.info({ port: config.mcpPort, version: config.version, haMode: config.homeAssistant.mode }, 'MCP server listening on /mcp')

  let closing = false
  const shutdown = (signal: string): void => {
    if (closing) return
    closing = true
    logger.info({ signal }, 'shutting down')
    const force = setTimeout(() => { logger.error('shutdown took too long; exiting'); process.exit(1) }, 10_000)
    force.unref()
    app.close().then(() => process.exit(0), (err: unknown) => {
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

/**
 * `npm run demo`: the demo home and the MCP server in one command, no Home Assistant needed.
 * Prints the MCP URL, the token and ready-to-paste client configs.
 *   npm run demo -- [--port 9583] [--ingress-port 9584] [--entities 150] [--seed 1] [--options my-options.json]
 */
import { readFileSync } from 'node:fs'
import { parseArgs } from 'node:util'
import { buildApp } from '../src/app.ts'
import { resolvePrimaryToken } from '../src/auth/bootstrap.ts'
import { loadConfig } from '../src/config.ts'
import { clientConfigs } from '../src/connect/client-configs.ts'
import { buildIngressApp, ingressServicesOf } from '../src/ingress-app.ts'
import { loadToolCatalog } from '../src/mcp/registry.ts'
import { createLogger, SecretScrubber } from '../src/logger.ts'
import { optionsSchema, type Options } from '../src/options.ts'
import { startDemoHome } from '../demo/index.ts'

const { values } = parseArgs({
  options: {
    port: { type: 'string', default: process.env.MCP_PORT ?? '9583' },
    'ingress-port': { type: 'string', default: process.env.INGRESS_PORT ?? '9584' },
    host: { type: 'string', default: '127.0.0.1' },
    entities: { type: 'string', default: '150' },
    seed: { type: 'string', default: '1' },
    options: { type: 'string' }
  }
})

function readOptionsFile (file: string | undefined): Partial<Options> {
  if (!file) return {}
  const parsed = optionsSchema.partial().safeParse(JSON.parse(readFileSync(file, 'utf8')))
  if (!parsed.success) throw new Error(`${file}: ${parsed.error.issues.map(i => `${i.path.join('.')}: ${i.message}`).join('; ')}`)
  return parsed.data
}

async function main (): Promise<void> {
  const home = await startDemoHome({ entities: Number(values.entities), seed: Number(values.seed) })
  const env = { ...process.env, HA_URL: home.url, HA_TOKEN: home.token, DATA_DIR: process.env.DATA_DIR ?? './data' }
  const config = loadConfig(env, readOptionsFile(values.options))
  const scrubber = new SecretScrubber()
  const logger = createLogger({ level: config.logLevel, scrubber })
  const primary = await resolvePrimaryToken({ option: config.options.api_token, envToken: config.envApiToken, dataDir: config.dataDir, log: logger })
  const catalog = await loadToolCatalog()
  const app = await buildApp({ config, primaryToken: primary.token, logger, catalog })
  await app.listen({ port: Number(values.port), host: values.host })
  // The status page the add-on shows in Home Assistant's sidebar, here on loopback.
  const ingress = await buildIngressApp({ services: ingressServicesOf(app, catalog, primary.token), logger })
  await ingress.listen({ port: Number(values['ingress-port']), host: '127.0.0.1' })
  const ingressAddress = ingress.server.address()
  const ingressPort = typeof ingressAddress === 'object' && ingressAddress ? ingressAddress.port : Number(values['ingress-port'])
  await app.ha.whenReady(15_000)
  const address = app.server.address()
  const port = typeof address === 'object' && address ? address.port : Number(values.port)
  const mcpUrl = `http://${values.host}:${port}/mcp`

  const out: string[] = [
    '',
    `Demo home: ${home.entityIds().length} entities, simulated Home Assistant at ${home.url}`,
    `MCP endpoint: ${mcpUrl}`,
    `Status page:  http://127.0.0.1:${ingressPort}/   (the add-on's ingress page)`,
    `Token:        ${primary.token}   (stored in ${config.dataDir}/token)`,
    `Writes: allow_write=${config.options.allow_write}, allow_config_write=${config.options.allow_config_write} (pass --options FILE to change)`,
    ''
  ]
  for (const client of clientConfigs(mcpUrl, primary.token)) {
    out.push(`--- ${client.title} (${client.where}) ---`, client.text, '')
  }
  out.push('Ctrl+C stops both.', '')
  process.stdout.write(out.join('\n'))

  const stop = (): void => {
    Promise.all([ingress.close(), app.close()]).then(() => home.close()).then(() => process.exit(0), () => process.exit(1))
  }
  process.once('SIGINT', stop)
  process.once('SIGTERM', stop)
}

main().catch((err: unknown) => {
  process.stderr.write(`demo failed: ${(err as Error).message}\n`)
  process.exit(1)
})

/**
 * `npm run demo`: the demo home and the MCP server in one command, no Home Assistant needed.
 * Prints the MCP URL, the token and ready-to-paste client configs.
 *   npm run demo -- [--port 9583] [--ingress-port 9584] [--entities 150] [--seed 1] [--options my-options.json]
 */
import { readFileSync } from 'node:fs'
import { parseArgs } from 'node:util'
import { startServer, stopOnSignals } from '../app/start.ts'
import { clientConfigs } from '../src/connect/client-configs.ts'
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
  const running = await startServer({
    env,
    options: readOptionsFile(values.options),
    listen: { mcpPort: Number(values.port), host: values.host, ingressPort: Number(values['ingress-port']) }
  })
  // Stops the home too, even when the server never became ready.
  stopOnSignals(running, async () => { await home.close() })
  const { config, primary } = running
  await running.app.ha.whenReady(15_000)
  const mcpUrl = `http://${values.host}:${running.mcpPort}/mcp`

  const out: string[] = [
    '',
    `Demo home: ${home.entityIds().length} entities, simulated Home Assistant at ${home.url}`,
    `MCP endpoint: ${mcpUrl}`,
    `Status page:  http://127.0.0.1:${running.ingressPort}/   (the add-on's ingress page)`,
    `Token:        ${primary.token}   (stored in ${config.dataDir}/token)`,
    `Writes: allow_write=${config.options.allow_write}, allow_config_write=${config.options.allow_config_write} (pass --options FILE to change)`,
    ''
  ]
  for (const client of clientConfigs(mcpUrl, primary.token)) {
    out.push(`--- ${client.title} (${client.where}) ---`, client.text, '')
  }
  out.push(
    '--- OAuth sign-in (no token to paste: what Home Assistant\'s own MCP client and mcp-remote do) ---',
    `  npx -y mcp-remote ${mcpUrl}`,
    '  The client registers itself and opens the sign-in page in your browser. Approve it there with the',
    '  token above ("Allow"), or on the status page, tab Sign-ins, next to the same short code.',
    `  Metadata: ${mcpUrl.replace(/\/mcp$/, '')}/.well-known/oauth-protected-resource/mcp`,
    '  The sign-in then appears on the status page, tab Tokens, under "Signed-in apps".',
    ''
  )
  out.push('Ctrl+C stops both.', '')
  process.stdout.write(out.join('\n'))
}

main().catch((err: unknown) => {
  process.stderr.write(`demo failed: ${(err as Error).message}\n`)
  process.exit(1)
})

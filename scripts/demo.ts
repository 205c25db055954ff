/**
 * `npm run demo`: the demo home and the MCP server in one command, no Home Assistant needed.
 * Prints the MCP URL, the token and ready-to-paste client configs. `npm run demo -- --help` for the flags.
 */
import { readFileSync } from 'node:fs'
import { parseArgs } from 'node:util'
import { startServer, stopOnSignals } from '../app/start.ts'
import { clientConfigs } from '../src/connect/client-configs.ts'
import { optionsSchema, type Options } from '../src/options.ts'
import { startDemoHome } from '../demo/index.ts'

export const USAGE = `Usage: npm run demo -- [flags]

Starts a simulated Home Assistant and the MCP server in front of it, then prints the MCP URL,
the token and ready-to-paste client configs. Ctrl+C stops both.

Flags:
  --allow-write            expose the tools that act on the home (service calls, scripts, ...)
  --allow-config-write     expose the tools that change automations, scripts, dashboards, areas ...
  --allow-camera           expose the camera snapshot tool
  --sessions               keep long-lived MCP sessions (enable_sessions)
  --options FILE           add-on options as JSON, e.g. {"allow_write": true, "entity_denylist": ["lock.*"]};
                           the flags above win over the file
  --port N                 MCP port (default 9583, or $MCP_PORT; 0 picks a free one)
  --ingress-port N         status page port (default 9584, or $INGRESS_PORT; 0 picks a free one)
  --host ADDRESS           address to listen on (default 127.0.0.1)
  --entities N             entities in the demo home (default 150)
  --seed N                 seed of the demo home (default 1)
  -h, --help               print this help
`

const FLAGS = {
  port: { type: 'string', default: process.env.MCP_PORT ?? '9583' },
  'ingress-port': { type: 'string', default: process.env.INGRESS_PORT ?? '9584' },
  host: { type: 'string', default: '127.0.0.1' },
  entities: { type: 'string', default: '150' },
  seed: { type: 'string', default: '1' },
  options: { type: 'string' },
  'allow-write': { type: 'boolean' },
  'allow-config-write': { type: 'boolean' },
  'allow-camera': { type: 'boolean' },
  sessions: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' }
} as const

/** A wrong command line: told in one sentence with the usage, exit code 2 (no stack trace). */
function usageError (message: string): never {
  process.stderr.write(`demo: ${message}\n\n${USAGE}`)
  process.exit(2)
}

function parseCommandLine (): ReturnType<typeof parseArgs<{ options: typeof FLAGS }>>['values'] {
  try {
    return parseArgs({ options: FLAGS, allowPositionals: false }).values
  } catch (err) {
    // Node's messages name the flag: "Unknown option '--foo'", "Option '--port <value>' argument missing".
    return usageError((err as Error).message.split('. ')[0] ?? 'bad command line')
  }
}

const values = parseCommandLine()
if (values.help === true) {
  process.stdout.write(USAGE)
  process.exit(0)
}

function whole (name: keyof typeof FLAGS, text: string): number {
  if (!/^\d+$/.test(text)) usageError(`--${name} wants a whole number, not "${text}"`)
  return Number(text)
}
const numbers = {
  port: whole('port', values.port),
  ingressPort: whole('ingress-port', values['ingress-port']),
  entities: whole('entities', values.entities),
  seed: whole('seed', values.seed)
}

function readOptionsFile (file: string | undefined): Partial<Options> {
  if (!file) return {}
  let text: string
  try {
    text = readFileSync(file, 'utf8')
  } catch (err) {
    return usageError(`--options ${file}: ${(err as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (err as Error).message}`)
  }
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch (err) {
    return usageError(`--options ${file} is not JSON: ${(err as Error).message}`)
  }
  const parsed = optionsSchema.partial().safeParse(json)
  if (!parsed.success) return usageError(`--options ${file}: ${parsed.error.issues.map(i => `${i.path.join('.')}: ${i.message}`).join('; ')}`)
  return parsed.data
}

/** The options file, then the flags on top of it. */
function demoOptions (): Partial<Options> {
  const options = readOptionsFile(values.options)
  if (values['allow-write'] !== undefined) options.allow_write = values['allow-write']
  if (values['allow-config-write'] !== undefined) options.allow_config_write = values['allow-config-write']
  if (values['allow-camera'] !== undefined) options.allow_camera = values['allow-camera']
  if (values.sessions !== undefined) options.enable_sessions = values.sessions
  return options
}
const options = demoOptions()

async function main (): Promise<void> {
  const home = await startDemoHome({ entities: numbers.entities, seed: numbers.seed })
  const env = { ...process.env, HA_URL: home.url, HA_TOKEN: home.token, DATA_DIR: process.env.DATA_DIR ?? './data' }
  const running = await startServer({
    env,
    options,
    listen: { mcpPort: numbers.port, host: values.host, ingressPort: numbers.ingressPort }
  })
  // Stops the home too, even when the server never became ready.
  stopOnSignals(running, async () => { await home.close() })
  const { config, primary } = running
  await running.app.services.ha.whenReady(15_000)
  const mcpUrl = `http://${values.host}:${running.mcpPort}/mcp`

  const out: string[] = [
    '',
    `Demo home: ${home.entityIds().length} entities, simulated Home Assistant at ${home.url}`,
    `MCP endpoint: ${mcpUrl}`,
    `Status page:  http://127.0.0.1:${running.ingressPort}/   (the add-on's ingress page)`,
    `Token:        ${primary.token}   (stored in ${config.dataDir}/token)`,
    `Options: allow_write=${config.options.allow_write}, allow_config_write=${config.options.allow_config_write}, allow_camera=${config.options.allow_camera}, enable_sessions=${config.options.enable_sessions}`,
    '              (change with --allow-write, --allow-config-write, --allow-camera, --sessions or --options FILE; --help lists all)',
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

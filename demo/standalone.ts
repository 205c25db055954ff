import { parseArgs } from 'node:util'
import { startDemoHome } from './index.ts'

/** `npm run demo:ha -- --port 8123 --entities 2000 --token T --seed 1`: the demo home alone, for developing against it. */
async function main (): Promise<void> {
  const { values } = parseArgs({
    options: {
      port: { type: 'string', default: '8123' },
      host: { type: 'string', default: '127.0.0.1' },
      entities: { type: 'string', default: '150' },
      seed: { type: 'string', default: '1' },
      token: { type: 'string' },
      'supervisor-token': { type: 'string' },
      help: { type: 'boolean', short: 'h', default: false }
    },
    strict: true
  })
  if (values.help) {
    process.stdout.write('Usage: npm run demo:ha -- [--port 8123] [--host 127.0.0.1] [--entities 150] [--seed 1] [--token T] [--supervisor-token S]\n')
    return
  }
  const numberOption = (name: string, value: string): number => {
    const n = Number(value)
    if (!Number.isInteger(n) || n < 0) throw new Error(`--${name} must be a non-negative integer, got "${value}"`)
    return n
  }
  const started = performance.now()
  const home = await startDemoHome({
    port: numberOption('port', values.port),
    host: values.host,
    entities: numberOption('entities', values.entities),
    seed: numberOption('seed', values.seed),
    ...(values.token === undefined ? {} : { token: values.token }),
    ...(values['supervisor-token'] === undefined ? {} : { supervisorToken: values['supervisor-token'] })
  })
  const lines = [
    `Demo Home Assistant ready in ${(performance.now() - started).toFixed(0)} ms (${home.entityIds().length} entities)`,
    `  URL:             ${home.url}   (WebSocket ${home.url.replace(/^http/, 'ws')}/api/websocket, REST ${home.url}/api/)`,
    `  Token:           ${home.token}${values.token === undefined ? '   (default; pass --token to change it)' : ''}`,
    `  Supervisor URL:  ${home.supervisorUrl}   (core proxy at ${home.supervisorUrl}/core, token ${home.supervisorToken})`,
    '  Ctrl+C to stop.'
  ]
  process.stdout.write(lines.join('\n') + '\n')
  let stopping = false
  const stop = (): void => {
    if (stopping) return
    stopping = true
    home.close().then(() => process.exit(0), () => process.exit(1))
  }
  process.once('SIGINT', stop)
  process.once('SIGTERM', stop)
}

main().catch((err: unknown) => {
  process.stderr.write(`demo:ha failed: ${err instanceof Error ? err.message : String(err)}\n`)
  process.exit(1)
})

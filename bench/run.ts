/**
 * `npm run bench`: SPEC section 15's figures. For each home size, starts a demo home, runs the real
 * server in a child process against it, and drives it with concurrent stateless clients over HTTP.
 * Prints throughput, latency percentiles, the server's peak RSS and the tools/list size; writes
 * bench/results/report.json. A script, not a timed test: machines here are noisy.
 *   npm run bench -- [--sizes 1000,10000] [--clients 16] [--seconds 10]
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process'
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { startDemoHome, type DemoHome } from '../demo/index.ts'

const { values } = parseArgs({
  options: {
    sizes: { type: 'string', default: '1000,10000' },
    clients: { type: 'string', default: '16' },
    seconds: { type: 'string', default: '10' },
    options: { type: 'string', default: '' }
  }
})

/** `npm start`'s flags (package.json's start script is where the add-on's memory flags live). */
const START_FLAGS = (JSON.parse(readFileSync('package.json', 'utf8')) as { scripts: { start: string } }).scripts.start.split(' ').filter(arg => arg.startsWith('--'))
const TOKEN = 'bench-token-0123456789abcdef0123'
const CLIENTS = Number(values.clients)
const SECONDS = Number(values.seconds)

interface Scenario {
  name: string
  args: (ids: string[], i: number) => Record<string, unknown>
  tool: string
  /** Home Assistant's MCP client: a new session for every call (initialize, initialized, GET for SSE, call). */
  haSession?: boolean
}

const SCENARIOS: Scenario[] = [
  // Mostly distinct queries (two words of some entity's id), so the search cache rarely helps; every
  // tenth call is one of five fixed questions, as a model repeating itself would ask.
  { name: 'search', tool: 'ha_search_entities', args: (ids, i) => ({ query: i % 10 === 0 ? ['kitchen light', 'temperature', 'étage', 'door', 'motion'][(i / 10) % 5] : (ids[(i * 7919) % ids.length] ?? '').split('.')[1]?.split('_').slice(0, 2).join(' '), limit: 20 }) },
  { name: 'get', tool: 'ha_get_entity', args: (ids, i) => ({ entity_id: ids[(i * 7919) % ids.length] }) },
  { name: 'list', tool: 'ha_list_entities', args: (_ids, i) => ({ domain: ['light', 'sensor', 'switch', 'binary_sensor'][i % 4], limit: 50 }) },
  { name: 'ha-call', tool: 'ha_get_entity', haSession: true, args: (ids, i) => ({ entity_id: ids[(i * 7919) % ids.length] }) }
]

function percentile (sorted: number[], p: number): number {
  if (sorted.length === 0) return 0
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] as number
}

/** CPU time (user + system) the process has used so far, in ms; load-independent cost per call. */
function cpuMs (pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? []
    return (Number(fields[11]) + Number(fields[12])) * 10
  } catch {
    return 0
  }
}

/** VmHWM (peak resident) or VmRSS (current) of a process, in MB. */
function memoryMb (pid: number, field: 'VmHWM' | 'VmRSS' = 'VmHWM'): number {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8')
    const value = new RegExp(`${field}:\\s+(\\d+) kB`).exec(status)
    return value ? Math.round(Number(value[1]) / 1024) : 0
  } catch {
    return 0
  }
}

const BENCH_REQUEST_LIMIT = '100000000'

async function startServer (home: DemoHome, port: number): Promise<ChildProcess> {
  const dataDir = mkdtempSync(join(tmpdir(), 'ha-mcp-bench-'))
  if (values.options) writeFileSync(join(dataDir, 'options.json'), readFileSync(values.options))
  // BENCH_PROFILE=dir writes a V8 CPU profile of the server there, to see where a call's time goes.
  const profile = process.env.BENCH_PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROFILE}`] : []
  // The production build, as the image runs it (tsx would add its compiler to the memory figures).
  // The add-on's own memory flags, from npm start's command line; BENCH_NODE_ARGS overrides.
  const nodeArgs = process.env.BENCH_NODE_ARGS === undefined ? START_FLAGS : process.env.BENCH_NODE_ARGS.split(' ').filter(Boolean)
  const child = spawn(process.execPath, [...profile, ...nodeArgs, 'dist/app/server.js'], {
    // 16 clients with one token on loopback far outrun any real client: the request limits stay on
    // (their cost is measured) but so high that they never throttle the bench. RATE_LIMIT_*=0 measures without them.
    env: { ...process.env, HA_URL: home.url, HA_TOKEN: home.token, MCP_API_TOKEN: TOKEN, DATA_DIR: dataDir, MCP_PORT: String(port), INGRESS_PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'warning', RATE_LIMIT_PER_TOKEN: process.env.RATE_LIMIT_PER_TOKEN ?? BENCH_REQUEST_LIMIT, RATE_LIMIT_PER_ADDRESS: process.env.RATE_LIMIT_PER_ADDRESS ?? BENCH_REQUEST_LIMIT },
    stdio: ['ignore', 'inherit', 'inherit']
  })
  const deadline = Date.now() + 60_000
  while (Date.now() < deadline) {
    try {
      const health = await fetch(`http://127.0.0.1:${port}/health`)
      const body = await health.json() as { websocket?: boolean }
      if (body.websocket) return child
    } catch {}
    await new Promise(resolve => setTimeout(resolve, 100))
  }
  child.kill('SIGKILL')
  throw new Error('server did not become ready')
}

const HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: `Bearer ${TOKEN}` }

async function rpc (port: number, method: string, params: unknown): Promise<{ status: number, text: string }> {
  const res = await fetch(`http://127.0.0.1:${port}/mcp`, {
    method: 'POST',
    headers: HEADERS,
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params })
  })
  return { status: res.status, text: await res.text() }
}

/** What Home Assistant's client sends for one tool call: its own session from scratch, then the call. */
async function haSessionCall (port: number, name: string, args: unknown): Promise<{ status: number, text: string }> {
  const init = await rpc(port, 'initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'home-assistant', version: '2026.12' } })
  if (init.status !== 200) return init
  await fetch(`http://127.0.0.1:${port}/mcp`, { method: 'POST', headers: HEADERS, body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) }).then(async r => await r.text())
  // The SDK's client opens a GET for server-sent events; stateless, the server answers 405 at once.
  await fetch(`http://127.0.0.1:${port}/mcp`, { method: 'GET', headers: HEADERS }).then(async r => await r.text())
  return await rpc(port, 'tools/call', { name, arguments: args })
}

async function runScenario (port: number, pid: number, ids: string[], scenario: Scenario): Promise<Record<string, number>> {
  const cpuBefore = cpuMs(pid)
  const latencies: number[] = []
  let errors = 0
  let maxBytes = 0
  const end = Date.now() + SECONDS * 1000
  let counter = 0
  const worker = async (): Promise<void> => {
    while (Date.now() < end) {
      const i = counter++
      const started = performance.now()
      const { status, text } = scenario.haSession === true
        ? await haSessionCall(port, scenario.tool, scenario.args(ids, i))
        : await rpc(port, 'tools/call', { name: scenario.tool, arguments: scenario.args(ids, i) })
      latencies.push(performance.now() - started)
      maxBytes = Math.max(maxBytes, Buffer.byteLength(text))
      if (status !== 200 || text.includes('"isError":true')) errors++
    }
  }
  const started = performance.now()
  await Promise.all(Array.from({ length: CLIENTS }, worker))
  const elapsed = (performance.now() - started) / 1000
  latencies.sort((a, b) => a - b)
  return {
    calls: latencies.length,
    calls_per_s: Math.round(latencies.length / elapsed),
    p50_ms: Math.round(percentile(latencies, 50) * 10) / 10,
    p99_ms: Math.round(percentile(latencies, 99) * 10) / 10,
    errors,
    max_answer_bytes: maxBytes,
    server_cpu_ms_per_call: Math.round(((cpuMs(pid) - cpuBefore) / Math.max(1, latencies.length)) * 100) / 100
  }
}

async function benchSize (entities: number, port: number): Promise<Record<string, unknown>> {
  const startedHome = performance.now()
  const home = await startDemoHome({ entities, token: 'bench-ha-token' })
  const homeStartMs = Math.round(performance.now() - startedHome)
  const startedServer = performance.now()
  const server = await startServer(home, port)
  const readyMs = Math.round(performance.now() - startedServer)
  try {
    const listing = await rpc(port, 'tools/list', {})
    const tools = (JSON.parse(listing.text) as { result: { tools: unknown[] } }).result.tools
    const listBytes = Buffer.byteLength(JSON.stringify({ tools }))
    const readyRss = memoryMb(server.pid as number, 'VmRSS')
    const ids = home.entityIds()
    // Warm up: let the JIT and the caches settle.
    for (const scenario of SCENARIOS) for (let i = 0; i < 50; i++) await rpc(port, 'tools/call', { name: scenario.tool, arguments: scenario.args(ids, i) })
    const results: Record<string, unknown> = {}
    for (const scenario of SCENARIOS) results[scenario.name] = await runScenario(port, server.pid as number, ids, scenario)
    return {
      entities: ids.length,
      demo_home_start_ms: homeStartMs,
      server_ready_ms: readyMs,
      clients: CLIENTS,
      seconds_per_scenario: SECONDS,
      tools: tools.length,
      tools_list_bytes: listBytes,
      tools_list_bytes_per_tool: Math.round(listBytes / Math.max(1, tools.length)),
      scenarios: results,
      server_rss_ready_mb: readyRss,
      server_peak_rss_mb: memoryMb(server.pid as number)
    }
  } finally {
    server.kill('SIGTERM')
    await new Promise(resolve => server.once('exit', resolve))
    await home.close()
  }
}

async function main (): Promise<void> {
  process.stdout.write('building (npm run build)...\n')
  execFileSync('npm', ['run', '--silent', 'build'], { stdio: 'inherit' })
  const sizes = values.sizes.split(',').map(Number).filter(n => n > 0)
  const report: Record<string, unknown> = { date: new Date().toISOString(), node: process.version, cpus: (await import('node:os')).cpus().length, runs: [] as unknown[] }
  let port = 19_583
  for (const size of sizes) {
    process.stdout.write(`\n== ${size} entities, ${CLIENTS} clients, ${SECONDS} s per scenario ==\n`)
    const run = await benchSize(size, port++)
    ;(report.runs as unknown[]).push(run)
    const scenarios = run.scenarios as Record<string, Record<string, number>>
    for (const [name, r] of Object.entries(scenarios)) {
      process.stdout.write(`${name.padEnd(8)} ${String(r.calls_per_s).padStart(6)} calls/s  p50 ${r.p50_ms} ms  p99 ${r.p99_ms} ms  cpu/call ${r.server_cpu_ms_per_call} ms  errors ${r.errors}  max answer ${r.max_answer_bytes} B\n`)
    }
    process.stdout.write(`tools/list: ${run.tools as number} tools, ${run.tools_list_bytes as number} bytes (${run.tools_list_bytes_per_tool as number}/tool)  RSS ready ${run.server_rss_ready_mb as number} MB, peak ${run.server_peak_rss_mb as number} MB  demo start ${run.demo_home_start_ms as number} ms  server ready ${run.server_ready_ms as number} ms\n`)
  }
  mkdirSync('bench/results', { recursive: true })
  writeFileSync('bench/results/report.json', JSON.stringify(report, null, 2))
  process.stdout.write('\nreport: bench/results/report.json\n')
}

main().catch((err: unknown) => {
  process.stderr.write(`bench failed: ${(err as Error).stack ?? String(err)}\n`)
  process.exit(1)
})

/**
 * `npm run bench`: the figures docs/performance.md lists; `npm run test:perf` (`--check`) also exits 1
 * when a figure is over the budget (bench/budget.ts). For each home size, starts a demo home, runs the real
 * server in a child process against it (npm start's command line), and
 *  1. drives the lookups (search, get, list, an HA-style session per call) with concurrent stateless
 *     clients over HTTP, each after a warm-up under the same load: throughput, latency percentiles,
 *     server CPU per call;
 *  2. calls every tool once with its broadest arguments (bench/broad-requests.ts), one at a time: the
 *     heavy reads, each with its time, the server's CPU for it and its peak memory above the RSS
 *     before the call (the kernel's peak-RSS mark is reset before each call);
 *  3. reports the server's peak RSS over all of it.
 * Prints the Node version, the machine (CPU, cores, load average) and the concurrency with the
 * figures, and writes bench/results/report.json. A script, not a timed test: machines here are noisy.
 *   npm run bench -- [--sizes 1000,10000] [--clients 16] [--seconds 10] [--heavy-only | --no-heavy] [--no-build]
 *     [--scenarios search,get,list,ha-call] [--check]
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process'
import { Agent, request } from 'node:http'
import { createServer, type AddressInfo } from 'node:net'
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { cpus, loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { startDemoHome, type DemoHome } from '../demo/index.ts'
import { broadestArguments, extraHeavyReads, requiredArguments, type Args } from './broad-requests.ts'
import { overBudget } from './budget.ts'
import { cpuMs, memoryMb, resetPeak, START_SCRIPT, startSettings } from './process-figures.ts'

const { values } = parseArgs({
  options: {
    sizes: { type: 'string', default: '1000,10000' },
    clients: { type: 'string', default: '16' },
    seconds: { type: 'string', default: '10' },
    options: { type: 'string', default: '' },
    'heavy-only': { type: 'boolean', default: false },
    'no-heavy': { type: 'boolean', default: false },
    'no-build': { type: 'boolean', default: false },
    scenarios: { type: 'string', default: '' },
    check: { type: 'boolean', default: false }
  }
})

/** What the server runs with (addon/start.sh, npm start's command line), printed beside the figures. */
const START_SETTINGS = startSettings()
const TOKEN = 'bench-token-0123456789abcdef0123'
const CLIENTS = Number(values.clients)
const SECONDS = Number(values.seconds)
/** Seconds of each scenario's load before the measured ones. */
const WARMUP_SECONDS = 2

interface Scenario {
  name: string
  args: (ids: string[], i: number) => Record<string, unknown>
  tool: string
  /** Home Assistant's MCP client: a new session for every call (initialize, initialized, GET for SSE, call). */
  haSession?: boolean
}

const SCENARIOS: Scenario[] = [
  // Mostly distinct queries (two words of some entity's id); every tenth call is one of five fixed
  // questions, as a model repeating itself would ask, broad ones among them ("étage" matches a third
  // of the home).
  { name: 'search', tool: 'ha_search_entities', args: (ids, i) => ({ query: i % 10 === 0 ? ['kitchen light', 'temperature', 'étage', 'door', 'motion'][(i / 10) % 5] : (ids[(i * 7919) % ids.length] ?? '').split('.')[1]?.split('_').slice(0, 2).join(' '), limit: 20 }) },
  { name: 'get', tool: 'ha_get_entity', args: (ids, i) => ({ entity_id: ids[(i * 7919) % ids.length] }) },
  { name: 'list', tool: 'ha_list_entities', args: (_ids, i) => ({ domain: ['light', 'sensor', 'switch', 'binary_sensor'][i % 4], limit: 50 }) },
  { name: 'ha-call', tool: 'ha_get_entity', haSession: true, args: (ids, i) => ({ entity_id: ids[(i * 7919) % ids.length] }) }
]

/** The bench's own CPU time since `before`, in ms: its clients share the machine with the server. */
function clientCpu (before: NodeJS.CpuUsage): number {
  const used = process.cpuUsage(before)
  return (used.user + used.system) / 1000
}

function percentile (sorted: number[], p: number): number {
  if (sorted.length === 0) return 0
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] as number
}

function machine (): string {
  const [one, five] = loadavg()
  return `${cpus()[0]?.model.trim() ?? 'unknown CPU'}, ${cpus().length} cores, load average ${one?.toFixed(1)} (1 min) ${five?.toFixed(1)} (5 min)`
}

const BENCH_REQUEST_LIMIT = '100000000'

/** A port free on loopback now: two benches at once (or a test server) must not meet on a fixed one. */
async function freePort (): Promise<number> {
  return await new Promise((resolve, reject) => {
    const probe = createServer()
    probe.once('error', reject)
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo
      probe.close(() => { resolve(port) })
    })
  })
}

async function startServer (home: DemoHome, port: number): Promise<ChildProcess> {
  const dataDir = mkdtempSync(join(tmpdir(), 'ha-mcp-bench-'))
  // Every tool listed (tool_list full, every allow_ option), so the heavy reads call each one; writes
  // are called with dry_run where they take it, and the ones that must be confirmed only ask.
  writeFileSync(join(dataDir, 'options.json'), values.options ? readFileSync(values.options) : JSON.stringify({ allow_write: true, allow_config_write: true, allow_camera: true, allow_addon_control: true, tool_list: 'full' }))
  // BENCH_PROFILE=dir writes a V8 CPU profile of the server there, to see where a call's time goes;
  // BENCH_NODE_ARGS adds node flags after addon/start.sh's own (the last of a V8 flag wins), to try one.
  const nodeArgs = [
    ...(process.env.BENCH_PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROFILE}`] : []),
    ...(process.env.BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean)
  ]
  // The production build, as the image runs it (tsx would add its compiler to the memory figures).
  const child = spawn('sh', [START_SCRIPT, ...nodeArgs], {
    // 16 clients with one token on loopback far outrun any real client: the request limits stay on
    // (their cost is measured) but so high that they never throttle the bench. RATE_LIMIT_*=0 measures without them.
    env: { ...process.env, NODE_OPTIONS: undefined, NODE_BIN: process.execPath, HA_URL: home.url, HA_TOKEN: home.token, SUPERVISOR_URL: home.supervisorUrl, SUPERVISOR_TOKEN: home.supervisorToken, MCP_API_TOKEN: TOKEN, DATA_DIR: dataDir, MCP_PORT: String(port), INGRESS_PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'warning', RATE_LIMIT_PER_TOKEN: process.env.RATE_LIMIT_PER_TOKEN ?? BENCH_REQUEST_LIMIT, RATE_LIMIT_PER_ADDRESS: process.env.RATE_LIMIT_PER_ADDRESS ?? BENCH_REQUEST_LIMIT },
    stdio: ['ignore', 'pipe', 'pipe']
  })
  // The server's log, without the audit lines of the heavy reads' dry runs: not the bench's output.
  for (const stream of [child.stdout, child.stderr]) {
    let partial = ''
    stream?.on('data', (chunk: Buffer) => {
      const lines = (partial + chunk.toString('utf8')).split('\n')
      partial = lines.pop() ?? ''
      for (const line of lines) if (!line.includes('"audit":true')) process.stderr.write(`${line}\n`)
    })
  }
  const deadline = Date.now() + 60_000
  while (Date.now() < deadline) {
    // Never measure someone else's server on that port: ours must still be running.
    if (child.exitCode !== null) throw new Error(`server exited (${child.exitCode}) before it was ready`)
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

/**
 * The clients share the machine with the server, so they are kept cheap: node:http over kept-alive
 * sockets costs the bench about a third of the CPU per call that fetch() does, leaving the cores to the
 * server being measured (a real client runs elsewhere).
 */
const agent = new Agent({ keepAlive: true, maxSockets: 64 })

async function send (port: number, method: 'GET' | 'POST', body?: string): Promise<{ status: number, text: string }> {
  return await new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path: '/mcp', method, agent, headers: body === undefined ? HEADERS : { ...HEADERS, 'content-length': Buffer.byteLength(body) } }, res => {
      const chunks: Buffer[] = []
      res.on('data', (chunk: Buffer) => chunks.push(chunk))
      res.on('end', () => { resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }) })
      res.on('error', reject)
    })
    req.on('error', reject)
    req.end(body)
  })
}

async function rpc (port: number, method: string, params: unknown): Promise<{ status: number, text: string }> {
  return await send(port, 'POST', JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }))
}

/** What Home Assistant's client sends for one tool call: its own session from scratch, then the call. */
async function haSessionCall (port: number, name: string, args: unknown): Promise<{ status: number, text: string }> {
  const init = await rpc(port, 'initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'home-assistant', version: '2026.12' } })
  if (init.status !== 200) return init
  await send(port, 'POST', JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }))
  // The SDK's client opens a GET for server-sent events; stateless, the server answers 405 at once.
  await send(port, 'GET')
  return await rpc(port, 'tools/call', { name, arguments: args })
}

async function runScenario (port: number, pid: number, ids: string[], scenario: Scenario, peak: { mb: number }, seconds = SECONDS): Promise<Record<string, number>> {
  // The scenario's own peak: the mark is reset before it (the peak so far is kept first).
  peak.mb = Math.max(peak.mb, memoryMb(pid))
  resetPeak(pid)
  const cpuBefore = cpuMs(pid)
  const clientCpuBefore = process.cpuUsage()
  const latencies: number[] = []
  let errors = 0
  let maxBytes = 0
  const end = Date.now() + seconds * 1000
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
  const scenarioPeak = memoryMb(pid)
  peak.mb = Math.max(peak.mb, scenarioPeak)
  return {
    calls: latencies.length,
    calls_per_s: Math.round(latencies.length / elapsed),
    p50_ms: Math.round(percentile(latencies, 50) * 10) / 10,
    p90_ms: Math.round(percentile(latencies, 90) * 10) / 10,
    p99_ms: Math.round(percentile(latencies, 99) * 10) / 10,
    p999_ms: Math.round(percentile(latencies, 99.9) * 10) / 10,
    max_ms: Math.round((latencies[latencies.length - 1] ?? 0) * 10) / 10,
    errors,
    max_answer_bytes: maxBytes,
    server_cpu_ms_per_call: Math.round(((cpuMs(pid) - cpuBefore) / Math.max(1, latencies.length)) * 100) / 100,
    client_cpu_ms_per_call: Math.round((clientCpu(clientCpuBefore) / Math.max(1, latencies.length)) * 100) / 100,
    peak_rss_mb: Math.round(scenarioPeak),
    load_average: Math.round((loadavg()[0] ?? 0) * 10) / 10
  }
}

/**
 * Before the heavy reads: a few calls, then wait for the server to go quiet, so the work it does after
 * connecting (registries, catalogue, add-on tasks) is not counted against the first tool measured.
 */
async function settle (port: number, pid: number, ids: string[]): Promise<void> {
  for (let i = 0; i < 20; i++) await rpc(port, 'tools/call', { name: 'ha_get_entity', arguments: { entity_id: ids[i] } })
  const deadline = Date.now() + 20_000
  while (Date.now() < deadline) {
    const before = cpuMs(pid)
    await new Promise(resolve => setTimeout(resolve, 500))
    if (cpuMs(pid) - before <= 20) return
  }
}

interface HeavyResult { label: string, tool: string, ms: number, server_cpu_ms: number, rss_before_mb: number, peak_above_mb: number, answer_bytes: number, error: string | null }

/**
 * Every listed tool once with its broadest arguments, then the extra heavy reads, one call at a time:
 * wall time, the server's CPU time for the call, and how far its RSS rose above where it was before.
 */
async function heavyReads (port: number, pid: number, ids: string[], areaIds: string[], tools: Array<{ name: string, inputSchema: Record<string, unknown> }>, peak: { mb: number }): Promise<HeavyResult[]> {
  const broad = broadestArguments(ids, areaIds)
  const calls: Array<[string, string, Args]> = tools.map(tool => [tool.name, tool.name, broad[tool.name] ?? requiredArguments(tool.inputSchema, ids)])
  calls.push(...extraHeavyReads(ids))
  const results: HeavyResult[] = []
  for (const [label, tool, args] of calls) {
    peak.mb = Math.max(peak.mb, memoryMb(pid))
    const before = memoryMb(pid, 'VmRSS')
    const resettable = resetPeak(pid)
    const cpuBefore = cpuMs(pid)
    const started = performance.now()
    let answer: { status: number, text: string }
    try {
      answer = await rpc(port, 'tools/call', { name: tool, arguments: args })
    } catch (err) {
      // The server died (out of memory, say): that is the finding; the rest cannot be measured.
      results.push({ label, tool, ms: Math.round(performance.now() - started), server_cpu_ms: 0, rss_before_mb: Math.round(before), peak_above_mb: Number.NaN, answer_bytes: 0, error: `no answer: ${(err as Error).message}` })
      break
    }
    const { status, text } = answer
    const ms = performance.now() - started
    const after = memoryMb(pid)
    peak.mb = Math.max(peak.mb, after)
    let error: string | null = status === 200 ? null : `HTTP ${status}`
    if (text.includes('"isError":true')) error = (/"code":"([A-Z_]+)"/.exec(text)?.[1]) ?? 'error'
    results.push({ label, tool, ms: Math.round(ms), server_cpu_ms: cpuMs(pid) - cpuBefore, rss_before_mb: Math.round(before), peak_above_mb: resettable ? Math.round(Math.max(0, after - before)) : Number.NaN, answer_bytes: Buffer.byteLength(text), error })
  }
  return results
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
    const tools = (JSON.parse(listing.text) as { result: { tools: Array<{ name: string, inputSchema: Record<string, unknown> }> } }).result.tools
    const listBytes = Buffer.byteLength(JSON.stringify({ tools }))
    const pid = server.pid as number
    const readyRss = Math.round(memoryMb(pid, 'VmRSS'))
    const ids = home.entityIds()
    const peak = { mb: memoryMb(pid) }
    // The peak until ready (the first states read), before any call.
    const startupPeak = Math.round(peak.mb)
    const results: Record<string, unknown> = {}
    let warmupPeak: number | undefined
    const loadAtStart = loadavg()[0]
    if (values['heavy-only'] !== true) {
      // Warm up: let the JIT and the caches settle.
      for (const scenario of SCENARIOS) for (let i = 0; i < 50; i++) await rpc(port, 'tools/call', { name: scenario.tool, arguments: scenario.args(ids, i) })
      // Start-up's peak: the registries and the catalogue are built while the first calls wait.
      warmupPeak = Math.round(memoryMb(pid))
      const only = values.scenarios ? new Set(values.scenarios.split(',')) : undefined
      for (const scenario of SCENARIOS) {
        if (only !== undefined && !only.has(scenario.name)) continue
        // Each scenario first runs WARMUP_SECONDS under the same load, not counted: V8 compiles the
        // scenario's hot path meanwhile (the first of them, 2 s after start, ran at twice its later p99).
        const warmup = await runScenario(port, pid, ids, scenario, peak, WARMUP_SECONDS)
        results[scenario.name] = { ...await runScenario(port, pid, ids, scenario, peak), warmup_p99_ms: warmup.p99_ms as number }
      }
    }
    peak.mb = Math.max(peak.mb, memoryMb(pid))
    if (values['no-heavy'] !== true) await settle(port, pid, ids)
    const heavy = values['no-heavy'] === true ? [] : await heavyReads(port, pid, ids, [...home.house.areas.keys()].slice(0, 50), tools, peak)
    peak.mb = Math.max(peak.mb, memoryMb(pid))
    return {
      entities: ids.length,
      machine: machine(),
      load_average_at_start: loadAtStart,
      demo_home_start_ms: homeStartMs,
      server_ready_ms: readyMs,
      clients: CLIENTS,
      seconds_per_scenario: SECONDS,
      tools: tools.length,
      tools_list_bytes: listBytes,
      tools_list_bytes_per_tool: Math.round(listBytes / Math.max(1, tools.length)),
      scenarios: results,
      heavy_reads: heavy,
      server_rss_ready_mb: readyRss,
      server_startup_peak_rss_mb: startupPeak,
      server_warmup_peak_rss_mb: warmupPeak ?? null,
      server_peak_rss_mb: Math.round(peak.mb)
    }
  } finally {
    server.kill('SIGTERM')
    await new Promise(resolve => server.once('exit', resolve))
    await home.close()
  }
}

async function main (): Promise<void> {
  if (values['no-build'] !== true) {
    process.stdout.write('building (npm run build)...\n')
    execFileSync('npm', ['run', '--silent', 'build'], { stdio: 'inherit' })
  }
  const sizes = values.sizes.split(',').map(Number).filter(n => n > 0)
  const report: Record<string, unknown> = { date: new Date().toISOString(), node: process.version, machine: machine(), cpus: cpus().length, server_settings: START_SETTINGS.join(' '), runs: [] as unknown[] }
  process.stdout.write(`Node ${process.version}; ${machine()}\nserver: ${START_SCRIPT} (npm start): ${START_SETTINGS.join(' ')}\n`)
  for (const size of sizes) {
    process.stdout.write(`\n== ${size} entities; lookups: ${CLIENTS} concurrent stateless clients, ${SECONDS} s per scenario; load average ${loadavg()[0]?.toFixed(1)} ==\n`)
    const run = await benchSize(size, await freePort())
    ;(report.runs as unknown[]).push(run)
    const scenarios = run.scenarios as Record<string, Record<string, number>>
    const described: Record<string, string> = { search: 'ha_search_entities, mostly distinct two-word queries, limit 20', get: 'ha_get_entity, a different entity each call', list: 'ha_list_entities by domain, limit 50', 'ha-call': 'ha_get_entity in a new MCP session per call, as HA\'s client' }
    for (const [name, r] of Object.entries(scenarios)) {
      process.stdout.write(`${name.padEnd(8)} ${String(r.calls_per_s).padStart(6)} calls/s  p50 ${r.p50_ms} ms  p90 ${r.p90_ms} ms  p99 ${r.p99_ms} ms (max ${r.max_ms}; warm-up p99 ${r.warmup_p99_ms})  cpu/call ${r.server_cpu_ms_per_call} ms (bench client ${r.client_cpu_ms_per_call} ms)  peak RSS ${r.peak_rss_mb} MB  errors ${r.errors}  max answer ${r.max_answer_bytes} B  load ${r.load_average}  (${described[name] ?? name})\n`)
    }
    const heavy = run.heavy_reads as HeavyResult[]
    if (heavy.length > 0) {
      process.stdout.write(`heavy reads: every tool once with its broadest arguments, one call at a time (load average ${loadavg()[0]?.toFixed(1)}); slowest and largest:\n`)
      const shown = [...heavy].sort((a, b) => Math.max(b.ms, b.peak_above_mb * 20) - Math.max(a.ms, a.peak_above_mb * 20)).slice(0, 12)
      for (const h of shown) process.stdout.write(`  ${h.label.padEnd(40)} ${String(h.ms).padStart(6)} ms  server cpu ${String(h.server_cpu_ms).padStart(5)} ms  peak +${h.peak_above_mb} MB  answer ${h.answer_bytes} B${h.error ? `  ${h.error}` : ''}\n`)
      const worst = (key: 'ms' | 'peak_above_mb'): HeavyResult => heavy.reduce((a, b) => (b[key] > a[key] ? b : a))
      process.stdout.write(`  ${heavy.length} calls: slowest ${worst('ms').label} ${worst('ms').ms} ms; most memory ${worst('peak_above_mb').label} +${worst('peak_above_mb').peak_above_mb} MB\n`)
    }
    process.stdout.write(`tools/list: ${run.tools as number} tools, ${run.tools_list_bytes as number} bytes (${run.tools_list_bytes_per_tool as number}/tool)  RSS ready ${run.server_rss_ready_mb as number} MB (peak until ready ${run.server_startup_peak_rss_mb as number} MB, until the first calls are answered ${String(run.server_warmup_peak_rss_mb)} MB), peak over the whole run (lookups and heavy reads) ${run.server_peak_rss_mb as number} MB  demo start ${run.demo_home_start_ms as number} ms  server ready ${run.server_ready_ms as number} ms\n`)
  }
  mkdirSync('bench/results', { recursive: true })
  writeFileSync('bench/results/report.json', JSON.stringify(report, null, 2))
  process.stdout.write('\nreport: bench/results/report.json\n')
  if (values.check) {
    const over = (report.runs as Array<Parameters<typeof overBudget>[0] & { entities: number }>).flatMap(run => overBudget(run).map(line => `${run.entities} entities: ${line}`))
    process.stdout.write(over.length === 0 ? 'budget: holds\n' : `budget: over\n${over.map(line => `  ${line}\n`).join('')}`)
    if (over.length > 0) process.exitCode = 1
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`bench failed: ${(err as Error).stack ?? String(err)}\n`)
  process.exit(1)
})

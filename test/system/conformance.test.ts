// The official MCP conformance suite (@modelcontextprotocol/conformance, pinned in package.json) run
// against the product, for both protocol eras with sessions off (the default), and for the 2025 era
// with sessions on (a 2026-07-28 request never opens or names a session, so its answers are the same). It has no way
// to send a bearer token, so a loopback proxy adds ours. The baselines list only what needs the
// suite's own fixture tools, resources and prompts (each entry says which), and the few deliberate
// exceptions with their reason; a new failure, or a listed entry that starts passing, fails the test.
//
// The suite's exit code ignores the scenarios it does not score for a revision (pending ones,
// extensions, those added after its release: server-session-lifecycle, server-sse-polling, the Tasks
// scenarios...), so this test reads every scenario's checks and holds all of them to the baseline.
//
// Bounded on a loaded machine: the three runs share one deadline (the file's own timeout is raised to
// match, since .taprc's 90 s is too short when other tests load both cores), each run is killed when
// it would pass it, and a scenario failing unexpectedly gets one more run on its own before it counts (some of
// the suite's checks read a stream for only 1 or 2 s, a window a busy 2-core machine can miss).
import { spawn } from 'node:child_process'
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import t, { type Test } from 'tap'
import { parse } from 'yaml'
import { startHome, startServer, TEST_TOKEN } from '../helper.ts'
import { tokenProxy } from './conformance/_token-proxy.ts'

const SUITE = join(import.meta.dirname, '../../node_modules/@modelcontextprotocol/conformance/dist/index.js')
const major = Number(process.versions.node.split('.')[0])
/** All three runs together (each takes about 10 s on an idle machine, 30 to 60 s under heavy load). */
const BUDGET_MS = 360_000
/** At most this many scenarios are run a second time, per run. */
const MAX_RETRIES = 3

interface Check { id: string, status: string, errorMessage?: string }
type Results = Map<string, Check[]>

async function runSuite (args: string[], deadline: number): Promise<{ code: number | null, output: string, killed: boolean }> {
  return await new Promise(resolve => {
    const child = spawn(process.execPath, [SUITE, 'server', ...args], { stdio: ['ignore', 'pipe', 'pipe'] })
    let output = ''
    let killed = false
    child.stdout.on('data', chunk => { output += String(chunk) })
    child.stderr.on('data', chunk => { output += String(chunk) })
    const timer = setTimeout(() => { killed = true; child.kill('SIGKILL') }, Math.max(1000, deadline - Date.now()))
    child.on('close', code => {
      clearTimeout(timer)
      resolve({ code, output, killed })
    })
  })
}

/** Every scenario's checks, from the suite's output directory (`server-<scenario>-<time>/checks.json`). */
function readResults (dir: string): Results {
  const results: Results = new Map()
  for (const entry of readdirSync(dir)) {
    const scenario = entry.replace(/^server-/, '').replace(/-\d{4}-\d{2}-\d{2}T[\d-]+Z$/, '')
    results.set(scenario, JSON.parse(readFileSync(join(dir, entry, 'checks.json'), 'utf8')) as Check[])
  }
  return results
}

/** The baseline's entries: `scenario` (the whole scenario fails) or `scenario:check-id`. */
function readBaseline (file: string): string[] {
  return ((parse(readFileSync(file, 'utf8')) as { server?: string[] }).server ?? []).map(String)
}

const failing = (check: Check): boolean => check.status === 'FAILURE' || check.status === 'WARNING'

/** The suite's own baseline rules, applied to every scenario it ran, scored or not. */
function compare (results: Results, baseline: string[]): { unexpected: string[], stale: string[] } {
  const whole = new Set(baseline.filter(entry => !entry.includes(':')))
  const checks = new Set(baseline.filter(entry => entry.includes(':')))
  const unexpected: string[] = []
  const stale: string[] = []
  for (const [scenario, list] of results) {
    if (whole.has(scenario)) {
      if (!list.some(failing)) stale.push(scenario)
      continue
    }
    for (const check of list.filter(failing)) {
      if (!checks.has(`${scenario}:${check.id}`)) unexpected.push(`${scenario}:${check.id} (${check.status}: ${check.errorMessage ?? ''})`)
    }
    for (const entry of checks) {
      const [name, id] = entry.split(':') as [string, string]
      if (name !== scenario) continue
      const mine = list.filter(check => check.id === id && check.status !== 'INFO')
      if (mine.length > 0 && !mine.some(failing)) stale.push(entry)
    }
  }
  return { unexpected, stale }
}

function scenarioOf (finding: string): string {
  return finding.split(':')[0] as string
}

const deadline = Date.now() + BUDGET_MS
t.setTimeout(BUDGET_MS + 60_000)

async function conformance (t: Test, url: string, requirements: string, baselineFile: string, outputDir: string): Promise<void> {
  const baselinePath = join(import.meta.dirname, 'conformance', baselineFile)
  const dir = join(outputDir, requirements)
  const started = Date.now()
  const run = await runSuite(['--url', url, '--requirements', requirements, '--expected-failures', baselinePath, '-o', dir], deadline)
  t.notOk(run.killed, `--requirements ${requirements} finished within the test's time budget`)
  const total = /Total: \d+ passed, \d+ failed/.exec(run.output)?.[0]
  t.ok(total, `--requirements ${requirements} ran`)
  t.comment(`--requirements ${requirements} against ${baselineFile}: ${total ?? 'no total'} in ${Math.round((Date.now() - started) / 1000)} s`)
  const results = readResults(dir)
  const baseline = readBaseline(baselinePath)
  let { unexpected, stale } = compare(results, baseline)
  const retry = [...new Set(unexpected.map(scenarioOf))]
  if (retry.length > 0 && retry.length <= MAX_RETRIES) {
    for (const scenario of retry) {
      t.comment(`retrying ${scenario} alone: ${unexpected.filter(f => scenarioOf(f) === scenario).join('; ')}`)
      const again = join(outputDir, `${requirements}-retry-${scenario}`)
      const rerun = await runSuite(['--url', url, '--spec-version', requirements, '--scenario', scenario, '-o', again], deadline)
      t.notOk(rerun.killed, `${scenario} rerun finished within the time budget`)
      for (const [name, list] of readResults(again)) results.set(name, list)
    }
    ;({ unexpected, stale } = compare(results, baseline))
  }
  t.same(unexpected, [], `--requirements ${requirements}: no failure outside ${baselineFile}`)
  t.same(stale, [], `--requirements ${requirements}: every entry of ${baselineFile} still fails`)
  // The suite's own verdict over the scenarios it scores (retried scenarios excepted).
  if (retry.length === 0) t.equal(run.code, 0, 'the suite\'s own baseline check passes', { output: run.output.split('\n').filter(line => /unexpected|stale| {2}✗ /i.test(line)) })
}

t.test('the MCP conformance suite passes, but for what needs its fixture tools', { skip: major < 22 ? 'the suite needs Node >= 22 (npm scripts run Node 26)' : false, timeout: BUDGET_MS + 60_000 }, async t => {
  const outputDir = mkdtempSync(join(tmpdir(), 'ha-mcp-conformance-'))
  t.teardown(() => { rmSync(outputDir, { recursive: true, force: true }) })

  await t.test('sessions off (the default)', async t => {
    const home = await startHome(t)
    const server = await startServer(t, { home, options: { allow_write: true }, logLevel: 'warning' })
    const proxy = await tokenProxy(server.url, TEST_TOKEN)
    t.teardown(() => proxy.close())
    await conformance(t, `${proxy.url}/mcp`, '2026-07-28', 'baseline-2026-07-28.yml', join(outputDir, 'off'))
    await conformance(t, `${proxy.url}/mcp`, '2025-11-25', 'baseline-2025-11-25.yml', join(outputDir, 'off'))
  })

  await t.test('sessions on', async t => {
    const home = await startHome(t)
    // The suite opens a session per scenario and closes none; the 16-session cap would refuse the
    // 17th (test/system/sessions-capacity.test.ts holds the cap and its fair shares).
    const server = await startServer(t, { home, options: { allow_write: true, enable_sessions: true }, logLevel: 'warning', app: { sessions: { max: 64 } } })
    const proxy = await tokenProxy(server.url, TEST_TOKEN)
    t.teardown(() => proxy.close())
    await conformance(t, `${proxy.url}/mcp`, '2025-11-25', 'baseline-2025-11-25-sessions.yml', join(outputDir, 'on'))
  })
})

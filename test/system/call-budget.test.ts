// Home Assistant's MCP client opens a new MCP session for every tool call and gives up after 10 s
// (homeassistant/components/mcp/coordinator.py, TIMEOUT = 10, around initialize + call). This test
// calls every tool the catalogue lists, each on a fresh connection as HA does, with the broadest
// arguments the schema allows, on a 10,000-entity home, and holds each call to that budget. Reads are
// also bounded by invokeTool's READ_BUDGET_MS whatever Home Assistant does (test/ha-client/read-budget.test.ts).
import t from 'tap'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { ALL_LEVELS } from '../../src/auth/identity.ts'
import { loadToolCatalog } from '../../src/mcp/runtime/registry.ts'
import { eventually, startHome, startServer, TEST_TOKEN } from '../helper.ts'
import { broadestArguments, requiredArguments } from '../../bench/broad-requests.ts'
import { TOOLS_DIR } from '../../app/tools-dir.ts'

const HA_CALL_TIMEOUT_MS = 10_000

// Two 10,000-entity homes and some 50 calls: minutes on a loaded 2-core machine, not tap's 90 s.
t.setTimeout(10 * 60_000)

async function freshConnection (url: string): Promise<Client> {
  const client = new Client({ name: 'home-assistant', version: '2026.12' })
  await client.connect(new StreamableHTTPClientTransport(new URL(`${url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${TEST_TOKEN}` } } }))
  return client
}

t.test('every tool answers within Home Assistant\'s 10 s on a 10,000-entity home', async t => {
  const home = await startHome(t, { entities: 10_000 })
  const server = await startServer(t, { home, options: { allow_write: true, allow_config_write: true, allow_camera: true, tool_list: 'full' }, env: { SUPERVISOR_TOKEN: home.supervisorToken, SUPERVISOR_URL: home.supervisorUrl } })
  const ids = home.entityIds()
  const table = broadestArguments(ids, [...home.house.areas.keys()].slice(0, 50))
  const catalog = await loadToolCatalog(TOOLS_DIR)
  const timings: Array<[string, number]> = []
  // What the server does right after connecting (the catalogue, the add-on tasks) is no call's cost.
  await server.app.services.home.ready()
  for (const id of ids.slice(0, 10)) await (await freshConnection(server.url)).callTool({ name: 'ha_get_entity', arguments: { entity_id: id } })
  for (const tool of catalog.listFor(server.app.services.config.options, { id: 'primary', name: 'primary', levels: ALL_LEVELS }).tools) {
    const broad = table[tool.name]
    const args = broad ?? requiredArguments(tool.inputSchema, ids)
    const started = performance.now()
    const cpu = process.cpuUsage()
    const client = await freshConnection(server.url)
    const result = await client.callTool({ name: tool.name, arguments: args })
    await client.close()
    const ms = performance.now() - started
    const used = process.cpuUsage(cpu)
    // This one process is the server, the home and the client: the CPU time it spent on the session
    // and the call is what that costs on an idle core, whatever else shares this machine.
    const work = (used.user + used.system) / 1000
    timings.push([tool.name, ms])
    t.ok(work < HA_CALL_TIMEOUT_MS, `${tool.name}: ${Math.round(work)} ms of work for the session and the call (${Math.round(ms)} ms on the clock)`)
    if (broad !== undefined) {
      const text = (result.content as Array<{ text?: string }>).map(c => c.text ?? '').join('')
      t.notOk(result.isError === true && !/confirm/i.test(text), `${tool.name} did the broad request (not an argument error): ${text.slice(0, 160)}`)
      // What a model gets back must also fit its context: no answer of megabytes.
      t.ok(text.length < 200_000, `${tool.name} answer is bounded (${text.length} chars)`)
    }
  }
  const called = new Set(timings.map(([name]) => name))
  t.same(Object.keys(table).filter(name => !called.has(name)), [], 'every broad request names a listed tool (a renamed tool would drop its broad case silently)')
  timings.sort((a, b) => b[1] - a[1])
  t.comment(`slowest calls (fresh connection + call): ${timings.slice(0, 6).map(([n, ms]) => `${n} ${Math.round(ms)} ms`).join(', ')}`)
})

t.test('a new connection per call stays cheap: initialize + tools/list + call', async t => {
  const home = await startHome(t, { entities: 10_000 })
  const server = await startServer(t, { home, options: { allow_write: true, allow_config_write: true } })
  const entity = home.entityIds().find(id => id.startsWith('light.')) as string
  const samples: number[] = []
  const work: number[] = []
  for (let i = 0; i < 25; i++) {
    const started = performance.now()
    const cpu = process.cpuUsage()
    const client = await freshConnection(server.url)
    await client.listTools()
    const result = await client.callTool({ name: 'ha_get_entity', arguments: { entity_id: entity } })
    await client.close()
    samples.push(performance.now() - started)
    const used = process.cpuUsage(cpu)
    work.push((used.user + used.system) / 1000)
    t.notOk(result.isError, 'the call succeeded')
  }
  const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number
  t.comment(`HA-style session (initialize, tools/list, tools/call, close) on 10,000 entities: median ${median(samples).toFixed(1)} ms on the clock, ${median(work).toFixed(1)} ms of CPU, worst ${Math.max(...samples).toFixed(1)} ms over ${samples.length}`)
  // CPU time, not the clock: the machine running the suite may be loaded many times over.
  t.ok(median(work) < 1000, 'a whole session costs well under a second of work')
})

t.test('with enable_sessions, a session per call is opened and ended each time (HA\'s client DELETEs it on close)', async t => {
  const home = await startHome(t)
  const server = await startServer(t, { home, options: { enable_sessions: true } })
  const entity = home.entityIds().find(id => id.startsWith('light.')) as string
  // More calls than the 16-session cap, in a burst, as a conversation with many tool calls makes.
  for (let i = 0; i < 40; i++) {
    const transport = new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${TEST_TOKEN}` } } })
    const client = new Client({ name: 'home-assistant', version: '2026.12' })
    await client.connect(transport)
    t.type(transport.sessionId, 'string', 'a session was opened')
    const result = await client.callTool({ name: 'ha_get_entity', arguments: { entity_id: entity } })
    t.notOk(result.isError, `call ${i + 1} answered`)
    // The Python SDK's streamable_http_client ends its session on exit (terminate_on_close).
    await transport.terminateSession()
    await client.close()
  }
  t.equal(server.app.services.sessions.registry.size, 0, 'no session left behind')
})

t.test('the registries and the catalogue are built right after connecting, not by the first call', async t => {
  const home = await startHome(t, { entities: 2_000 })
  const server = await startServer(t, { home })
  const { catalog } = server.app.services.home
  await eventually(() => catalog.registries !== undefined, 10_000, 'the warm-up after connecting')
  t.ok(catalog.get(home.entityIds()[0] as string), 'rows are there before any tool call')
  const before = catalog.registries
  home.faults.dropConnections()
  await eventually(() => catalog.registries !== undefined && catalog.registries !== before, 10_000, 'the warm-up after reconnecting')
  t.pass('rebuilt after a reconnection, again without a call')
})

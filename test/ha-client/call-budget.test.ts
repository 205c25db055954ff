// Home Assistant's MCP client opens a new MCP session for every tool call and gives up after 10 s
// (homeassistant/components/mcp/coordinator.py, TIMEOUT = 10, around initialize + call). This test
// calls every tool the catalogue lists, each on a fresh connection as HA does, with the broadest
// arguments the schema allows, on a 10,000-entity home, and holds each call to that budget. Reads are
// also bounded by invokeTool's READ_BUDGET_MS whatever Home Assistant does (test/ha-client/read-budget.test.ts).
import t from 'tap'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { ALL_LEVELS } from '../../src/auth/identity.ts'
import { loadToolCatalog } from '../../src/mcp/registry.ts'
import { eventually, startHome, startServer, TEST_TOKEN } from '../helper.ts'

const HA_CALL_TIMEOUT_MS = 10_000

type Args = Record<string, unknown>

/** The heaviest valid request of each tool a model could send; tools not named here get required-only arguments. */
function broadestArguments (ids: string[], areas: string[]): Record<string, Args> {
  const of = (domain: string, n = 1): string[] => ids.filter(id => id.startsWith(`${domain}.`)).slice(0, n)
  const first = (domain: string): string => of(domain)[0] ?? `${domain}.missing`
  const sensors = ids.filter(id => /^sensor\..*(temperature|power|energy)/.test(id))
  // Every area of the home (an unknown area id is refused before the call).
  const everyArea = areas
  return {
    ha_list_entities: { limit: 200 },
    ha_search_entities: { query: 'light', limit: 50 },
    ha_list_devices: { limit: 200 },
    ha_list_automations: { limit: 200, include_config: true },
    ha_list_scripts: { limit: 200 },
    ha_list_blueprints: { limit: 50 },
    ha_list_services: {},
    ha_list_areas: {},
    ha_list_floors: {},
    ha_list_labels: {},
    ha_list_dashboards: {},
    ha_get_entity: { entity_id: first('climate') },
    ha_get_history: { entity_id: sensors.slice(0, 5), hours: 168 },
    ha_get_logbook: { hours: 168 },
    ha_get_statistics: { statistic_id: sensors.slice(0, 10), period: '5minute', hours: 8760 },
    ha_get_calendar: { hours: 720 },
    ha_get_presence: { hours: 168 },
    ha_get_health: { battery_threshold: 99, stale_days: 1 },
    ha_get_energy: { period: 'month', compare: true },
    ha_get_forecast: { type: 'hourly' },
    ha_get_todo_list: {},
    ha_get_addons: {},
    ha_get_self_test: {},
    ha_get_system: { section: 'updates' },
    ha_explain_event: { entity_id: first('light') },
    ha_get_automation: { entity_id: first('automation') },
    ha_get_automation_trace: { entity_id: first('automation') },
    ha_get_camera_snapshot: { entity_id: first('camera') },
    // One pass over every state: the demo renders it like Home Assistant would.
    ha_render_template: { template: '{% for s in states %}{{ s.entity_id }}={{ s.state }};{% endfor %}' },
    ha_call_service: { domain: 'light', service: 'turn_on', target: { area_id: everyArea, entity_id: of('light', 100) }, dry_run: true },
    ha_snapshot_scene: { name: 'Everything', entities: of('light', 50), dry_run: true },
    ha_create_automation: { alias: 'Budget', triggers: [{ trigger: 'state', entity_id: of('binary_sensor', 100) }], actions: [{ action: 'light.turn_on', target: { entity_id: of('light', 100) } }], dry_run: true },
    ha_create_script: { alias: 'Budget', sequence: [{ action: 'light.turn_on', target: { entity_id: of('light', 100) } }], dry_run: true }
  }
}

/** Required-only arguments from the listed schema, with real ids where a field names an entity. */
function requiredArguments (schema: Record<string, unknown>, ids: string[]): Args {
  const properties = (schema.properties ?? {}) as Record<string, Record<string, unknown>>
  const required = Array.isArray(schema.required) ? schema.required.map(String) : []
  const args: Args = {}
  for (const key of required) {
    const property = properties[key] ?? {}
    if (Array.isArray(property.enum)) args[key] = property.enum[0]
    else if (key.includes('entity')) args[key] = ids.find(id => id.startsWith('light.'))
    else if (property.type === 'boolean') args[key] = false
    else if (property.type === 'integer') args[key] = 1
    else if (property.type === 'array') args[key] = []
    else if (property.type === 'object') args[key] = {}
    else args[key] = 'x'
  }
  if ('dry_run' in properties) args.dry_run = true
  return args
}

async function freshConnection (url: string): Promise<Client> {
  const client = new Client({ name: 'home-assistant', version: '2026.12' })
  await client.connect(new StreamableHTTPClientTransport(new URL(`${url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${TEST_TOKEN}` } } }))
  return client
}

t.test('every tool answers within Home Assistant\'s 10 s on a 10,000-entity home', async t => {
  const home = await startHome(t, { entities: 10_000 })
  const server = await startServer(t, { home, options: { allow_write: true, allow_config_write: true, allow_camera: true }, env: { SUPERVISOR_TOKEN: home.supervisorToken, SUPERVISOR_URL: home.supervisorUrl } })
  const ids = home.entityIds()
  const table = broadestArguments(ids, [...home.house.areas.keys()])
  const catalog = await loadToolCatalog()
  const timings: Array<[string, number]> = []
  for (const tool of catalog.listFor(server.app.config.options, { id: 'primary', name: 'primary', levels: ALL_LEVELS }).tools) {
    const broad = table[tool.name]
    const args = broad ?? requiredArguments(tool.inputSchema, ids)
    const started = performance.now()
    const client = await freshConnection(server.url)
    const result = await client.callTool({ name: tool.name, arguments: args })
    await client.close()
    const ms = performance.now() - started
    timings.push([tool.name, ms])
    t.ok(ms < HA_CALL_TIMEOUT_MS, `${tool.name} answered in ${Math.round(ms)} ms`)
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
  for (let i = 0; i < 25; i++) {
    const started = performance.now()
    const client = await freshConnection(server.url)
    await client.listTools()
    const result = await client.callTool({ name: 'ha_get_entity', arguments: { entity_id: entity } })
    await client.close()
    samples.push(performance.now() - started)
    t.notOk(result.isError, 'the call succeeded')
  }
  samples.sort((a, b) => a - b)
  const median = samples[Math.floor(samples.length / 2)] as number
  t.comment(`HA-style session (initialize, tools/list, tools/call, close) on 10,000 entities: median ${median.toFixed(1)} ms, worst ${samples[samples.length - 1]?.toFixed(1)} ms over ${samples.length}`)
  // Loose bound for a shared CI machine; the figure above is what to watch.
  t.ok(median < 1000, 'a whole session costs well under a second')
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
  t.equal(server.app.sessions.registry.size, 0, 'no session left behind')
})

t.test('the registries and the catalogue are built right after connecting, not by the first call', async t => {
  const home = await startHome(t, { entities: 2_000 })
  const server = await startServer(t, { home })
  const { catalog } = server.app.home
  await eventually(() => catalog.registries !== undefined, 10_000, 'the warm-up after connecting')
  t.ok(catalog.get(home.entityIds()[0] as string), 'rows are there before any tool call')
  const before = catalog.registries
  home.faults.dropConnections()
  await eventually(() => catalog.registries !== undefined && catalog.registries !== before, 10_000, 'the warm-up after reconnecting')
  t.pass('rebuilt after a reconnection, again without a call')
})

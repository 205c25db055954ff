import t from 'tap'
import { RESPONSE_CAP_BYTES } from '../../src/shape.ts'
import { connectClient, startHome, startServer, TEST_TOKEN } from '../helper.ts'
import { sweepCatalog } from '../read/_catalog.ts'
import { argsFromSchema, enumVariants, type HomeSamples } from '../read/_schema-args.ts'

type Schema = { properties?: Record<string, { type?: string | string[], maximum?: number }>, required?: string[] }

/** The broadest arguments a schema allows: every bounded number at its maximum, every flag that adds data on. */
function broadest (schema: Schema, base: Record<string, unknown>): Record<string, unknown> {
  const out = { ...base }
  for (const [name, property] of Object.entries(schema.properties ?? {})) {
    if (name in out || name === 'offset') continue
    if ((property.type === 'integer' || property.type === 'number') && property.maximum !== undefined) out[name] = property.maximum
    if (property.type === 'boolean' && /include|compare|all/.test(name)) out[name] = true
  }
  return out
}

/**
 * On a 10,000-entity home, every read tool (from the registry, so new ones are measured too) called with
 * its broadest arguments answers within the 15 KB cap. The sizes are printed for the report.
 */
t.test('every read tool fits the cap on a 10,000-entity home', async t => {
  const catalog = await sweepCatalog(text => t.comment(text))
  const home = await startHome(t, { entities: 10_000 })
  // Every read tool, the ones listed only with allow_config_write (integrations, updates) included.
  const server = await startServer(t, { home, options: { allow_config_write: true, tool_list: 'full' }, app: { catalog }, env: { SUPERVISOR_TOKEN: home.supervisorToken, SUPERVISOR_URL: home.supervisorUrl } })
  const client = await connectClient(t, server, TEST_TOKEN, { inject: false })
  await server.app.services.home.ready()
  const rows = server.app.services.home.entities()
  t.ok(rows.length >= 9_900, `${rows.length} entities`)
  const area = [...server.app.services.home.registries.areas.values()].sort((a, b) => (server.app.services.home.counts().area.get(b.area_id) ?? 0) - (server.app.services.home.counts().area.get(a.area_id) ?? 0))[0]
  const samples: HomeSamples = { entityIds: rows.map(row => row.entity_id), areaId: area?.area_id as string }
  const sensors = rows.filter(row => row.domain === 'sensor' && server.app.services.home.state(row.entity_id)?.attributes.state_class === 'measurement').map(row => row.entity_id)
  // Broad calls a schema cannot guess: the widest filters on the biggest home.
  const extra: Record<string, Array<Record<string, unknown>>> = {
    ha_list_entities: [{ domain: 'sensor', limit: 200 }, { area: area?.area_id, limit: 200 }],
    ha_search_entities: [{ query: 'sensor', limit: 50 }],
    ha_list_services: [{ search: 'on' }, { domain: 'light' }],
    ha_list_devices: [{ limit: 200 }],
    ha_get_history: [{ entity_id: sensors.slice(0, 5), hours: 168 }],
    ha_get_statistics: [{ statistic_id: sensors.slice(0, 10), hours: 8760, period: '5minute' }],
    ha_get_logbook: [{ area: area?.area_id, hours: 168 }],
    ha_get_automation: [{ entity_id: 'automation.hallway_motion_light' }],
    ha_get_automation_trace: [{ entity_id: 'automation.wake_up' }],
    ha_explain_event: [{ entity_id: rows.find(row => row.domain === 'light')?.entity_id }],
    ha_get_entity: [{ entity_id: 'sensor.package_tracker' }]
  }
  const sizes: string[] = []
  for (const tool of catalog.tools) {
    const kind = tool.definition.kind
    // Camera snapshots are images with their own 4 MB limit; write tools are measured elsewhere.
    if (kind !== 'read') continue
    const name = tool.definition.name
    const base = broadest(tool.inputSchema as Schema, argsFromSchema(tool.inputSchema, samples))
    for (const args of [base, ...enumVariants(tool.inputSchema, base), ...(extra[name] ?? [])]) {
      const started = performance.now()
      const result = await client.callTool({ name, arguments: args })
      const ms = Math.round(performance.now() - started)
      const text = (result.content as Array<{ type: string, text?: string }>).map(c => c.text ?? '').join('')
      const bytes = Buffer.byteLength(text)
      sizes.push(`${bytes.toString().padStart(6)} B ${String(ms).padStart(5)} ms ${result.isError ? 'ERR ' : ''}${name} ${JSON.stringify(args).slice(0, 90)}`)
      t.ok(bytes <= RESPONSE_CAP_BYTES, `${name} ${JSON.stringify(args).slice(0, 80)}: ${bytes} bytes`)
    }
  }
  const listing = Buffer.byteLength(JSON.stringify((await client.listTools()).tools))
  const readCount = catalog.tools.filter(tool => tool.definition.kind === 'read').length
  t.comment(`tools/list: ${listing} bytes for the tools this server lists; ${readCount} read tools in the registry`)
  t.comment(`sizes (bytes, ms, tool, args):\n${sizes.join('\n')}`)
})

import t from 'tap'
import { callTool, connectClient, startHome, startServer, TEST_TOKEN } from '../helper.ts'

// The broadest call of every part-A read tool on a 10,000-entity home stays under the 15 KB cap.
t.test('broadest read calls on a 10,000-entity home fit the cap', async t => {
  const home = await startHome(t, { entities: 10_000 })
  const server = await startServer(t, { home })
  const client = await connectClient(t, server, TEST_TOKEN, { inject: false })
  await server.app.services.home.ready()
  const ids = home.entityIds()
  const sensors = ids.filter(id => id.startsWith('sensor.') && home.getState(id)?.attributes.unit_of_measurement === '°C')
  const light = ids.find(id => id.startsWith('light.')) as string
  const area = [...server.app.services.home.registries.areas.values()][0]?.area_id as string
  const floor = [...server.app.services.home.registries.floors.values()][0]?.floor_id as string
  const calls: Array<[string, Record<string, unknown>]> = [
    ['ha_list_automations', { limit: 200 }],
    ['ha_list_automations', { include_config: true, limit: 10 }],
    ['ha_get_automation', { entity_id: 'automation.hallway_motion_light' }],
    ['ha_get_automation_trace', { entity_id: 'automation.wake_up' }],
    ['ha_list_scripts', { limit: 200 }],
    ['ha_list_blueprints', { limit: 50 }],
    ['ha_list_dashboards', {}],
    ['ha_list_dashboards', { dashboard: 'lovelace' }],
    ['ha_get_history', { entity_id: sensors.slice(0, 5), hours: 168 }],
    ['ha_get_history', { entity_id: sensors[0], hours: 168 }],
    ['ha_get_statistics', { statistic_id: sensors.slice(0, 10), hours: 8760, period: '5minute' }],
    ['ha_get_logbook', { hours: 168 }],
    ['ha_get_logbook', { area, hours: 168 }],
    ['ha_get_logbook', { floor, hours: 168 }],
    ['ha_explain_event', { entity_id: light }]
  ]
  for (const [name, args] of calls) {
    const started = performance.now()
    const answer = await callTool(client, name, args)
    const ms = Math.round(performance.now() - started)
    const bytes = Buffer.byteLength(answer.text)
    t.notOk(answer.isError, `${name} answers: ${answer.text.slice(0, 200)}`)
    t.ok(bytes <= 15_000, `${name} ${JSON.stringify(args).slice(0, 80)}: ${bytes} bytes`)
    t.comment(`${name} ${JSON.stringify(args).slice(0, 70)} -> ${bytes} bytes, ${ms} ms`)
  }
})

// ha_list_entities by domain keeps each domain's run of the catalogue (src/home/catalog.ts, f4394ab)
// until the list or one of its rows changes: a registry edit (rename, hide, area move), a state
// change and a new or removed entity must each show in the very next list, on the direct path.
import t from 'tap'
import { eventually, rpc, startHome, startServer, TEST_TOKEN } from '../helper.ts'

const auth = { authorization: `Bearer ${TEST_TOKEN}` }

t.test('the next ha_list_entities by domain shows every change', async t => {
  const home = await startHome(t)
  const server = await startServer(t, { home })
  await server.app.services.home.ready()
  const { ha } = server.app.services
  const list = async (domain: string): Promise<Array<Record<string, unknown>>> => {
    const res = await rpc(server.url, { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'ha_list_entities', arguments: { domain, limit: 200 } } }, auth)
    const body = await res.json() as { result?: { structuredContent?: { items?: Array<Record<string, unknown>> } } }
    return body.result?.structuredContent?.items ?? []
  }
  const row = async (entityId: string): Promise<Record<string, unknown> | undefined> => (await list(entityId.split('.')[0] as string)).find(r => r.entity_id === entityId)
  const lights = await list('light')
  t.ok(lights.length > 1, 'the demo has lights')
  const light = lights[0]?.entity_id as string
  t.comment(JSON.stringify(lights[0]))
  // Each domain cached, more than the cache holds, so eviction is exercised too.
  for (let i = 0; i < 70; i++) await list(`nodomain${i}`)
  await list('light')

  await ha.command({ type: 'config/entity_registry/update', entity_id: light, name: 'Renamed By Red Team' })
  await eventually(async () => (await row(light))?.name === 'Renamed By Red Team', 5000, 'the rename in the list')
  t.pass('a registry rename shows')

  const areas = await ha.command<Array<{ area_id: string, name: string }>>({ type: 'config/area_registry/list' })
  const before = (await row(light))?.area
  const area = areas.find(a => a.name !== before) as { area_id: string, name: string }
  await ha.command({ type: 'config/entity_registry/update', entity_id: light, area_id: area.area_id })
  await eventually(async () => (await row(light))?.area === area.name, 5000, 'the area move in the list')
  t.pass('an area move shows')

  await ha.command({ type: 'config/area_registry/update', area_id: area.area_id, name: 'Red Team Room' })
  await eventually(async () => (await row(light))?.area === 'Red Team Room', 5000, 'the area rename in the list')
  t.pass('an area rename shows')

  const other = lights[1]?.entity_id as string
  const state = (await row(other))?.state === 'on' ? 'off' : 'on'
  home.setState(other, state, home.getState(other)?.attributes)
  await eventually(async () => (await row(other))?.state === state, 5000, 'the state change in the list')
  t.pass('a state change shows')

  home.setState('light.red_team_new', 'on', { friendly_name: 'Red Team New' })
  await eventually(async () => (await row('light.red_team_new')) !== undefined, 5000, 'the new entity in the list')
  t.pass('a new entity shows')
  home.setState('light.red_team_new', 'off', { friendly_name: 'Red Team New' })
  await eventually(async () => (await row('light.red_team_new'))?.state === 'off', 5000, 'the new entity\'s state change in the list')
  t.pass('the new entity\'s next state shows')
})

import t from 'tap'
import { callTool, connectClient, startHome, startServer } from '../helper.ts'

t.test('entity tools end to end through the SDK client', async t => {
  const home = await startHome(t)
  const server = await startServer(t, { home })
  const client = await connectClient(t, server)

  const { tools } = await client.listTools()
  const names = tools.map(tool => tool.name).sort()
  t.same(names, ['ha_get_entity', 'ha_list_areas', 'ha_list_devices', 'ha_list_entities', 'ha_list_floors', 'ha_list_labels', 'ha_search_entities'].filter(n => names.includes(n)))
  t.ok(names.includes('ha_search_entities'))

  const histogram = await callTool(client, 'ha_list_entities')
  t.notOk(histogram.isError, histogram.text)
  t.equal(histogram.json.total, home.entityIds().length, 'histogram counts every entity')

  const anyLight = home.entityIds().find(id => id.startsWith('light.')) as string
  const got = await callTool(client, 'ha_get_entity', { entity_id: anyLight })
  t.notOk(got.isError, got.text)
  t.equal(got.json.entity_id, anyLight)

  const search = await callTool(client, 'ha_search_entities', { query: anyLight })
  t.equal(search.json.items[0].entity_id, anyLight, 'exact id ranks first')
})

// Ranking reads the search index's own rows (their text never changes without a rebuild), but an
// answer shows each entity as it is now: a state change after the index was built, with the ranking
// cached or not, is what search and list answer.
import t from 'tap'
import { eventually, rpc, startHome, startServer, TEST_TOKEN } from '../helper.ts'

const auth = { authorization: `Bearer ${TEST_TOKEN}` }

t.test('search answers current states, not the indexed rows', async t => {
  const home = await startHome(t)
  const server = await startServer(t, { home })
  await server.app.services.home.ready()
  const call = async (name: string, args: Record<string, unknown>): Promise<{ items: Array<{ entity_id: string, state: string }> }> => {
    const res = await rpc(server.url, { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } }, auth)
    return ((await res.json()) as { result: { structuredContent: { items: Array<{ entity_id: string, state: string }> } } }).result.structuredContent
  }
  const light = home.entityIds().find(id => id.startsWith('light.')) as string
  const query = light.split('.')[1]?.replaceAll('_', ' ') as string
  const first = await call('ha_search_entities', { query })
  t.ok(first.items.some(item => item.entity_id === light), `found by "${query}"`)
  for (const state of ['off', 'on', 'unavailable']) {
    home.setState(light, state, home.getState(light)?.attributes ?? {})
    await eventually(() => server.app.services.ha.states.get(light)?.state === state, 5000, state)
    for (const args of [{ query }, { query, limit: 5 }]) {
      const found = (await call('ha_search_entities', args)).items.find(item => item.entity_id === light)
      t.equal(found?.state, state, `search ${JSON.stringify(args)} shows ${state}`)
    }
    const listed = (await call('ha_list_entities', { search: query, limit: 200 })).items.find(item => item.entity_id === light)
    t.equal(listed?.state, state, `list by search shows ${state}`)
  }
})

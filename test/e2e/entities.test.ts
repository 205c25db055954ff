import t from 'tap'
import { callTool, caughtUp, connectClient, rpc, setSeen, startHome, startServer, TEST_TOKEN } from '../helper.ts'

t.test('entity and registry tools end to end through the SDK client', async t => {
  const home = await startHome(t)
  const server = await startServer(t, { home, options: { tool_list: 'full' } })
  const client = await connectClient(t, server)

  const { tools } = await client.listTools()
  const names = tools.map(tool => tool.name)
  for (const name of ['ha_search_entities', 'ha_list_entities', 'ha_get_entity', 'ha_list_areas', 'ha_list_devices', 'ha_list_floors', 'ha_list_labels']) {
    t.ok(names.includes(name), `${name} listed`)
  }
  const ids = home.entityIds()
  const light = ids.find(id => id.startsWith('light.')) as string

  t.test('list_entities: histogram without filters, pages with them', async t => {
    const histogram = await callTool(client, 'ha_list_entities')
    t.equal(histogram.json.total, ids.length, 'histogram counts every entity')
    t.ok(histogram.json.by_domain.light > 0)
    t.notOk('items' in histogram.json, 'no dump')

    const lights = await callTool(client, 'ha_list_entities', { domain: 'light', limit: 3 })
    t.equal(lights.json.returned, 3)
    t.equal(lights.json.total, ids.filter(id => id.startsWith('light.')).length)
    t.equal(lights.json.has_more, true)
    t.equal(lights.json.next_offset, 3)
    const next = await callTool(client, 'ha_list_entities', { domain: 'light', limit: 3, offset: 3 })
    t.not(next.json.items[0].entity_id, lights.json.items[0].entity_id, 'paging moves on')

    const unavailable = await callTool(client, 'ha_list_entities', { state: 'unavailable' })
    t.ok(unavailable.json.items.every((row: { state: string }) => row.state === 'unavailable'))

    const badArea = await callTool(client, 'ha_list_entities', { area: 'Atlantis' })
    t.ok(badArea.isError)
    t.equal(badArea.code, 'HAMCP_NOT_FOUND')
    t.match(badArea.text, /Unknown area "Atlantis".*ha_list_areas/s, 'says how to fix it')

    const badLimit = await callTool(client, 'ha_list_entities', { domain: 'light', limit: 5000 })
    t.ok(badLimit.isError)
    t.equal(badLimit.code, 'HAMCP_INVALID_ARGUMENT')
    t.match(badLimit.text, /limit/)
  })

  t.test('areas, floors, labels, devices', async t => {
    const areas = await callTool(client, 'ha_list_areas')
    t.ok(areas.json.total > 3)
    const withEntities = areas.json.items.find((a: { entities: number }) => a.entities > 0)
    t.ok(withEntities, 'areas carry entity counts')
    const inArea = await callTool(client, 'ha_list_entities', { area: withEntities.name, limit: 200 })
    t.equal(inArea.json.total, withEntities.entities, 'an area by name lists exactly its counted entities')

    const floors = await callTool(client, 'ha_list_floors')
    t.ok(floors.json.total >= 1)
    const floor = floors.json.items[0]
    const onFloor = await callTool(client, 'ha_list_entities', { floor: floor.floor_id, limit: 1 })
    t.equal(onFloor.json.total, floor.entities, 'floor filter agrees with the floor count')

    const labels = await callTool(client, 'ha_list_labels')
    const label = labels.json.items.find((l: { entities: number }) => l.entities > 0)
    const labelled = await callTool(client, 'ha_list_entities', { label: label.name, limit: 1 })
    t.equal(labelled.json.total, label.entities, 'label filter by name agrees with the count')

    const devices = await callTool(client, 'ha_list_devices', { limit: 200 })
    t.ok(devices.json.total > 0)
    const child = devices.json.items.find((d: { parent_device_id?: string }) => d.parent_device_id)
    t.ok(child, 'the demo home has child devices')
    t.ok(child?.area, 'a child device shows its parent\'s area')
    const oneArea = await callTool(client, 'ha_list_devices', { area: withEntities.area_id })
    t.ok(oneArea.json.items.every((d: { area: string }) => d.area === withEntities.name))
  })

  t.test('get_entity: full state; unknown and malformed ids answered clearly', async t => {
    const got = await callTool(client, 'ha_get_entity', { entity_id: light })
    t.equal(got.json.entity_id, light)
    t.equal(got.json.state, home.getState(light)?.state)
    t.type(got.json.attributes, 'object')

    const big = ids.map(id => ({ id, attrs: home.getState(id)?.attributes ?? {} }))
      .find(({ attrs }) => Object.values(attrs).some(v => JSON.stringify(v).length > 500))
    t.ok(big, 'the demo home has a very large attribute')
    if (big) {
      const answer = await callTool(client, 'ha_get_entity', { entity_id: big.id })
      t.match(answer.json.note, /truncated/, 'very large attributes are truncated')
      t.ok(answer.text.length < 15_000)
    }

    const unknownRaw = await client.callTool({ name: 'ha_get_entity', arguments: { entity_id: 'light.does_not_exist' } })
    t.same(unknownRaw.structuredContent, {
      error: { code: 'HAMCP_ENTITY_NOT_FOUND', message: 'Entity light.does_not_exist not found.', hint: 'Use ha_search_entities to find the right entity_id.' }
    }, 'an error result carries its code, message and hint as data')
    t.equal((unknownRaw.content as Array<{ text: string }>)[0]?.text,
      'Entity light.does_not_exist not found.\nHint: Use ha_search_entities to find the right entity_id.\nCode: HAMCP_ENTITY_NOT_FOUND', 'and the same in its text')
    const malformed = await callTool(client, 'ha_get_entity', { entity_id: 'kitchen' })
    t.ok(malformed.isError)
    t.equal(malformed.code, 'HAMCP_INVALID_ARGUMENT')
    t.match(malformed.text, /entity_id/)
  })

  t.test('search: exact id first, accents and scripts, every word must match', async t => {
    const exact = await callTool(client, 'ha_search_entities', { query: light })
    t.equal(exact.json.items[0].entity_id, light, 'exact id ranks first')

    const areas = (await callTool(client, 'ha_list_areas')).json.items as Array<{ name: string, entities: number }>
    const accented = areas.find(a => /[À-ž]/.test(a.name) && a.entities > 0)
    t.ok(accented, 'the demo home has an accented area name')
    if (accented) {
      const plain = accented.name.normalize('NFKD').replace(/\p{M}/gu, '').toUpperCase()
      const found = await callTool(client, 'ha_search_entities', { query: plain, limit: 50 })
      t.ok(found.json.total > 0, `"${plain}" finds entities of "${accented.name}"`)
    }
    const cjk = areas.find(a => /\p{Script=Han}|\p{Extended_Pictographic}/u.test(a.name) && a.entities > 0)
    t.ok(cjk, 'the demo home has a CJK or emoji area name')
    if (cjk) {
      const found = await callTool(client, 'ha_search_entities', { query: cjk.name })
      t.ok(found.json.total > 0, `"${cjk.name}" is searchable`)
    }
    const alias = await callTool(client, 'ha_search_entities', { query: 'sprinklers' })
    const irrigation = alias.json.items.find((row: { entity_id: string }) => row.entity_id.includes('irrigation'))
    t.ok(irrigation, 'an Assist alias (from the extended registry entries) is searchable')
    const withAlias = await callTool(client, 'ha_get_entity', { entity_id: irrigation.entity_id })
    t.same(withAlias.json.aliases, ['Sprinklers'], 'and shown by ha_get_entity')

    const none = await callTool(client, 'ha_search_entities', { query: 'light zzzqqq' })
    t.equal(none.json.total, 0, 'every token must match')
    t.match(none.json.note, /No match/)
    const empty = await callTool(client, 'ha_search_entities', { query: '' })
    t.ok(empty.isError, 'empty query refused')
  })
})

// ha_list_entities by domain keeps each domain's run of the catalogue (src/home/catalog.ts)
// until the list or one of its rows changes: a registry edit (rename, hide, area move), a state
// change and a new or removed entity must each show in the very next list.
t.test('red team: ha_list_entities by domain after every kind of change', async t => {
  const auth = { authorization: `Bearer ${TEST_TOKEN}` }

  t.test('the next ha_list_entities by domain shows every change', async t => {
    const home = await startHome(t)
    const server = await startServer(t, { home })
    await server.app.services.home.ready()
    const { ha } = server.app.services
    const list = async (domain: string): Promise<Array<Record<string, unknown>>> => {
      const res = await rpc(server, { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'ha_list_entities', arguments: { domain, limit: 200 } } }, auth)
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
    await caughtUp(server)
    t.equal((await row(light))?.name, 'Renamed By Red Team', 'a registry rename shows')

    const areas = await ha.command<Array<{ area_id: string, name: string }>>({ type: 'config/area_registry/list' })
    const before = (await row(light))?.area
    const area = areas.find(a => a.name !== before) as { area_id: string, name: string }
    await ha.command({ type: 'config/entity_registry/update', entity_id: light, area_id: area.area_id })
    await caughtUp(server)
    t.equal((await row(light))?.area, area.name, 'an area move shows')

    await ha.command({ type: 'config/area_registry/update', area_id: area.area_id, name: 'Red Team Room' })
    await caughtUp(server)
    t.equal((await row(light))?.area, 'Red Team Room', 'an area rename shows')

    const other = lights[1]?.entity_id as string
    const state = (await row(other))?.state === 'on' ? 'off' : 'on'
    home.setState(other, state, home.getState(other)?.attributes)
    await caughtUp(server)
    t.equal((await row(other))?.state, state, 'a state change shows')

    home.setState('light.red_team_new', 'on', { friendly_name: 'Red Team New' })
    await caughtUp(server)
    t.not(await row('light.red_team_new'), undefined, 'a new entity shows')
    home.setState('light.red_team_new', 'off', { friendly_name: 'Red Team New' })
    await caughtUp(server)
    t.equal((await row('light.red_team_new'))?.state, 'off', 'the new entity\'s next state shows')
  })
})

// Ranking reads the search index's own rows (their text never changes without a rebuild), but an
// answer shows each entity as it is now: a state change after the index was built, with the ranking
// cached or not, is what search and list answer.
const auth = { authorization: `Bearer ${TEST_TOKEN}` }

t.test('search answers current states, not the indexed rows', async t => {
  const home = await startHome(t)
  const server = await startServer(t, { home })
  await server.app.services.home.ready()
  const call = async (name: string, args: Record<string, unknown>): Promise<{ items: Array<{ entity_id: string, state: string }> }> => {
    const res = await rpc(server, { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } }, auth)
    return ((await res.json()) as { result: { structuredContent: { items: Array<{ entity_id: string, state: string }> } } }).result.structuredContent
  }
  const light = home.entityIds().find(id => id.startsWith('light.')) as string
  const query = light.split('.')[1]?.replaceAll('_', ' ') as string
  const first = await call('ha_search_entities', { query })
  t.ok(first.items.some(item => item.entity_id === light), `found by "${query}"`)
  for (const state of ['off', 'on', 'unavailable']) {
    await setSeen(t, server, light, state, home.getState(light)?.attributes ?? {}, `the add-on sees it ${state}`)
    for (const args of [{ query }, { query, limit: 5 }]) {
      const found = (await call('ha_search_entities', args)).items.find(item => item.entity_id === light)
      t.equal(found?.state, state, `search ${JSON.stringify(args)} shows ${state}`)
    }
    const listed = (await call('ha_list_entities', { search: query, limit: 200 })).items.find(item => item.entity_id === light)
    t.equal(listed?.state, state, `list by search shows ${state}`)
  }
})

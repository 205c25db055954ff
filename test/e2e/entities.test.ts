import t from 'tap'
import { callTool, connectClient, startHome, startServer } from '../helper.ts'

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

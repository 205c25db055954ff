import t from 'tap'
import { connectClient, setSeen, startHome, startServer } from '../helper.ts'

t.test('resources, completions and prompts end to end', async t => {
  const home = await startHome(t)
  const server = await startServer(t, { home })
  const client = await connectClient(t, server)
  await server.app.services.home.ready()
  const areas = [...server.app.services.home.registries.areas.values()]
  const read = async (uri: string): Promise<any> => JSON.parse(((await client.readResource({ uri })).contents[0] as { text: string }).text)

  t.test('fixed resources and templates are listed and readable', async t => {
    const { resources } = await client.listResources()
    t.same(resources.map(r => r.uri).sort(), ['ha://areas', 'ha://config', 'ha://services'])
    t.ok(resources.every(r => r.mimeType === 'application/json' && r.description))
    const { resourceTemplates } = await client.listResourceTemplates()
    t.same(resourceTemplates.map(r => r.uriTemplate).sort(), ['ha://area/{area_id}', 'ha://entity/{entity_id}'])

    const areaList = await read('ha://areas')
    t.equal(areaList.total, areas.length)
    const counts = server.app.services.home.counts().area
    t.ok(areaList.items.every((a: { area_id: string, entities: number }) => a.entities === (counts.get(a.area_id) ?? 0)), 'entity counts per area')
    const services = await read('ha://services')
    t.ok(services.domains.some((d: { domain: string, services: number }) => d.domain === 'light' && d.services >= 3))
    const config = await read('ha://config')
    t.equal(config.version, '2026.11.2')
    t.notOk('latitude' in config)
  })

  t.test('entity and area templates: happy path and not found', async t => {
    const entity = await read('ha://entity/weather.home')
    t.match(entity, { entity_id: 'weather.home', name: 'Home', state: String })
    t.equal(typeof entity.attributes, 'object')
    const packages = await read('ha://entity/sensor.package_tracker')
    t.match(packages.attributes.packages, /truncated/, 'long attributes truncated')
    const withLights = areas.find(a => server.app.services.home.entities().some(row => row.area_id === a.area_id && row.domain === 'light')) ?? areas[0]
    const area = await read(`ha://area/${withLights?.area_id}`)
    t.equal(area.area_id, withLights?.area_id)
    t.ok(area.entity_count > 0 && area.by_domain.light > 0)
    t.ok(area.notable.length <= 10)
    await t.rejects(client.readResource({ uri: 'ha://entity/light.nowhere' }), /not found/i)
    await t.rejects(client.readResource({ uri: 'ha://area/atlantis' }), /not found/i)
    await t.rejects(client.readResource({ uri: 'ha://nothing' }), /not found/i)
  })

  t.test('a resource stays under the answer cap, however many attributes its entity has', async t => {
    // Each attribute is truncated to 500 characters, but nothing bounded how many: 100 of them made 50 KB.
    const attributes = Object.fromEntries(Array.from({ length: 100 }, (_, i) => [`attribute_${i}`, 'x'.repeat(480)]))
    await setSeen(t, server, 'sensor.package_tracker', 'many', attributes)
    const text = ((await client.readResource({ uri: 'ha://entity/sensor.package_tracker' })).contents[0] as { text: string }).text
    t.ok(Buffer.byteLength(text) <= 15_000, `${Buffer.byteLength(text)} bytes`)
    t.equal(JSON.parse(text).entity_id, 'sensor.package_tracker', 'still the entity, with a note saying how to refine')
  })

  t.test('completions: prefix first, names too, at most 50', async t => {
    const complete = async (uri: string, name: string, value: string): Promise<{ values: string[], total?: number, hasMore?: boolean }> =>
      (await client.complete({ ref: { type: 'ref/resource', uri }, argument: { name, value } })).completion
    const lights = await complete('ha://entity/{entity_id}', 'entity_id', 'light.')
    t.same(lights.values, home.entityIds().filter(id => id.startsWith('light.')).sort(), 'every light of the demo home')
    const capped = await complete('ha://entity/{entity_id}', 'entity_id', '')
    t.equal(capped.values.length, 50, 'at most 50 values')
    const byName = await complete('ha://entity/{entity_id}', 'entity_id', 'packag')
    t.equal(byName.values[0], 'sensor.package_tracker', 'matches the object id after the domain')
    const byFriendly = await complete('ha://entity/{entity_id}', 'entity_id', 'zzqx')
    t.same(byFriendly.values, [], 'nothing matches nonsense')
    const area = areas[0]
    const areaValues = await complete('ha://area/{area_id}', 'area_id', area?.name.slice(0, 3) as string)
    t.ok(areaValues.values.includes(area?.area_id as string), 'areas complete by name')
    const automations = await client.complete({ ref: { type: 'ref/prompt', name: 'diagnose-automation' }, argument: { name: 'automation', value: 'wake' } })
    t.same(automations.completion.values, ['automation.wake_up'])
    const periods = await client.complete({ ref: { type: 'ref/prompt', name: 'energy-report' }, argument: { name: 'period', value: 'w' } })
    t.same(periods.completion.values, ['week'])
    const none = await client.complete({ ref: { type: 'ref/prompt', name: 'propose-script' }, argument: { name: 'goal', value: 'x' } })
    t.same(none.completion.values, [], 'free text has no completions')
  })

  t.test('prompts: listed with described arguments, validated, point at tools', async t => {
    const { prompts } = await client.listPrompts()
    t.same(prompts.map(p => p.name).sort(), ['daily-briefing', 'diagnose-automation', 'energy-report', 'health-report', 'propose-automation', 'propose-dashboard-card', 'propose-script'])
    t.ok(prompts.every(p => p.description && (p.arguments ?? []).every(a => a.description)))
    const text = async (name: string, args: Record<string, string> = {}): Promise<string> => {
      const answer = await client.getPrompt({ name, arguments: args })
      return (answer.messages[0]?.content as { text: string }).text
    }
    t.match(await text('diagnose-automation', { automation: 'automation.wake_up' }), /ha_get_automation_trace/)
    t.match(await text('energy-report', { period: 'month' }), /ha_get_energy with period month/)
    t.match(await text('health-report'), /ha_get_health/)
    t.match(await text('propose-automation', { goal: 'lights on at sunset', area: areas[0]?.name as string }), /ha_list_blueprints[\s\S]*Write nothing/)
    t.match(await text('propose-script', { goal: 'movie mode' }), /ha_list_services/)
    t.match(await text('propose-dashboard-card', { goal: 'energy today' }), /ha_list_dashboards/)
    t.match(await text('daily-briefing'), /ha_get_presence[\s\S]*ha_get_calendar[\s\S]*ha_get_forecast/)
    await t.rejects(client.getPrompt({ name: 'diagnose-automation', arguments: { automation: 'automation.nope' } }), { code: -32602, data: { code: 'HAMCP_ENTITY_NOT_FOUND' } })
    await t.rejects(client.getPrompt({ name: 'diagnose-automation', arguments: {} }), { code: -32602, data: { code: 'HAMCP_INVALID_ARGUMENT' }, message: /needs the argument automation/ })
    await t.rejects(client.getPrompt({ name: 'energy-report', arguments: { period: 'year' } }), { code: -32602, data: { code: 'HAMCP_INVALID_ARGUMENT' }, message: /must be one of day, week, month/ })
    // mcp-ha's energy-report takes hours: the window is those hours, through the tools that can do it.
    const hours = await text('energy-report', { hours: '6' })
    t.match(hours, /last 6 hours/)
    t.match(hours, /ha_get_energy with period day/, 'the nearest energy window that covers it')
    t.match(hours, /ha_get_statistics with period hour .*last 6 hours/, 'and the exact window from statistics')
    t.match(await text('energy-report', { hours: '72' }), /ha_get_energy with period week[\s\S]*period hour/)
    t.match(await text('energy-report', { hours: '720' }), /ha_get_energy with period month[\s\S]*period day/)
    t.ok(prompts.find(p => p.name === 'energy-report')?.arguments?.some(a => a.name === 'hours'), 'hours is a listed argument')
    await t.rejects(client.getPrompt({ name: 'energy-report', arguments: { hours: 'soon' } }), { code: -32602, data: { code: 'HAMCP_INVALID_ARGUMENT' }, message: /hours must be a number of hours from 1 to 8760/ })
    await t.rejects(client.getPrompt({ name: 'energy-report', arguments: { hours: '0' } }), { code: -32602, data: { code: 'HAMCP_INVALID_ARGUMENT' }, message: /hours must be a number of hours from 1 to 8760/ })
    await t.rejects(client.getPrompt({ name: 'energy-report', arguments: { hours: '24', period: 'week' } }), { code: -32602, data: { code: 'HAMCP_INVALID_ARGUMENT' }, message: /either hours or period/ })
    await t.rejects(client.getPrompt({ name: 'propose-script', arguments: { goal: 'x', area: 'Atlantis' } }), { code: -32602, data: { code: 'HAMCP_NOT_FOUND' } })
    await t.rejects(client.getPrompt({ name: 'health-report', arguments: { extra: 'x' } }), { code: -32602, data: { code: 'HAMCP_INVALID_ARGUMENT' }, message: /Unknown argument extra/ })
    await t.rejects(client.getPrompt({ name: 'make-coffee' }), { code: -32602, data: { code: 'HAMCP_NOT_FOUND' } })
  })
})

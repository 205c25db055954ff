import t from 'tap'
import { callTool, connectClient, startHome, startServer } from '../helper.ts'
import { entriesOf } from '../../demo/config-entries.ts'

t.test('ha_list_integrations: the config entries of the demo home as Home Assistant reports them', async t => {
  const home = await startHome(t, { entities: 400 })
  const server = await startServer(t, { home, options: { allow_write: true, allow_config_write: true } })
  const client = await connectClient(t, server)
  const store = entriesOf(home.house)
  const hue = [...store.entries.values()].find(e => e.domain === 'hue')!

  const all = await callTool(client, 'ha_list_integrations', {})
  t.notOk(all.isError, all.text)
  t.equal(all.json.total, store.entries.size - 1, 'every entry but the ignored one')
  const hueRow = all.json.items.find((row: any) => row.entry_id === hue.entry_id)
  const hueEntities = [...home.house.entities.values()].filter(e => e.config_entry_id === hue.entry_id).length
  const hueDevices = [...home.house.devices.values()].filter(d => d.config_entry_id === hue.entry_id).length
  t.ok(hueEntities > 0 && hueDevices > 0)
  t.same(hueRow, { entry_id: hue.entry_id, domain: 'hue', title: 'Hue Bridge', state: 'loaded', options: true, reconfigure: true, devices: hueDevices, entities: hueEntities })
  t.match(all.json.note, /1 ignored/, 'says discoveries and ignored entries exist without listing them')
  t.ok(Buffer.byteLength(all.text) < 15_000)

  const failing = await callTool(client, 'ha_list_integrations', { state: 'failing' })
  t.same(failing.json.items.map((row: any) => [row.domain, row.state, row.reason]), [['nut', 'setup_error', 'Connection refused by 192.168.1.40:3493']])
  const disabled = await callTool(client, 'ha_list_integrations', { state: 'disabled' })
  t.same(disabled.json.items.map((row: any) => [row.domain, row.disabled_by]), [['spotify', 'user']])
  const byQuery = await callTool(client, 'ha_list_integrations', { query: 'closet' })
  t.same(byQuery.json.items.map((row: any) => row.domain), ['nut'])
  const byDomain = await callTool(client, 'ha_list_integrations', { domain: 'hue', include_discovered: true })
  t.same(byDomain.json.items.map((row: any) => row.domain), ['hue'])
  t.same(byDomain.json.discovered, [], 'discoveries of other integrations are left out')

  const discovered = await callTool(client, 'ha_list_integrations', { include_discovered: true, limit: 1 })
  t.same(discovered.json.discovered.map((f: any) => [f.domain, f.name, f.source, f.step]).sort(), [
    ['homekit_controller', 'Eve Door 20EBY9901', 'zeroconf', 'pair'],
    ['shelly', 'shellyplus1pm-441793a1b2c3', 'zeroconf', 'confirm_discovery']
  ])
  t.match(discovered.json.ignored, [{ domain: 'esphome', title: 'garage-door-esp' }])
  t.equal(discovered.json.returned, 1)
  t.equal(discovered.json.has_more, true)
})

t.test('ha_list_integrations is listed only with allow_config_write, and needs the integrations category', async t => {
  const home = await startHome(t)
  const off = await startServer(t, { home, options: { allow_write: true } })
  const offClient = await connectClient(t, off)
  t.notOk((await offClient.listTools()).tools.some(tool => tool.name === 'ha_list_integrations'))

  const server = await startServer(t, { home, options: { allow_write: true, allow_config_write: true } })
  const tokens = server.app.services.tokens
  const none = await tokens.create({ name: 'no integrations', levels: { '*': 'manage', integrations: 'none' } })
  const noneClient = await connectClient(t, server, none.token)
  t.notOk((await noneClient.listTools()).tools.some(tool => tool.name === 'ha_list_integrations'))
  await t.rejects(noneClient.callTool({ name: 'ha_list_integrations', arguments: {} }), { code: -32602, data: { code: 'HAMCP_NOT_FOUND' } }, 'a tool beyond the token is not callable')
  const reader = await tokens.create({ name: 'reader', levels: { integrations: 'read' } })
  const readClient = await connectClient(t, server, reader.token)
  const read = await callTool(readClient, 'ha_list_integrations', {})
  t.notOk(read.isError, read.text)
})

t.test('with filter_reads, hidden entities are not counted', async t => {
  const home = await startHome(t, { entities: 400 })
  const hue = [...entriesOf(home.house).entries.values()].find(e => e.domain === 'hue')!
  const hueEntities = [...home.house.entities.values()].filter(e => e.config_entry_id === hue.entry_id).map(e => e.entity_id)
  const hidden = hueEntities.find(id => id.startsWith('light.'))!
  const server = await startServer(t, { home, options: { allow_config_write: true, filter_reads: true, entity_denylist: [hidden] } })
  const answer = await callTool(await connectClient(t, server), 'ha_list_integrations', { domain: 'hue' })
  t.equal(answer.json.items[0].entities, hueEntities.length - 1, answer.text)
})

// The config entry commands and flows as core's config/config_entries.py and helpers/data_entry_flow.py
// answer them: what the integrations tools rest on, checked at the protocol level.
import t from 'tap'
import { startDemoHome } from '../index.ts'
import { entriesOf } from '../config-entries.ts'
import { RawClient } from './fixtures/ws-client.ts'

t.test('config entries over WebSocket and REST', async t => {
  const home = await startDemoHome({ entities: 300 })
  t.teardown(() => home.close())
  const c = await RawClient.connect(home.url, home.token)
  t.teardown(() => c.close())
  const rest = async (method: string, path: string, body?: unknown): Promise<{ status: number, json: any }> => {
    const answer = await fetch(`${home.url}${path}`, { method, headers: { authorization: `Bearer ${home.token}`, 'content-type': 'application/json' }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) })
    return { status: answer.status, json: await answer.json() }
  }

  const entries = await c.ok({ type: 'config_entries/get' }) as any[]
  const hue = entries.find(e => e.domain === 'hue')
  t.match(hue, { title: 'Hue Bridge', state: 'loaded', supports_options: true, disabled_by: null, reason: null, source: 'user' })
  t.same((await c.ok({ type: 'config_entries/get', domain: 'nut' }) as any[]).map(e => [e.state, e.reason]), [['setup_error', 'Connection refused by 192.168.1.40:3493']])
  t.ok(entries.some(e => e.source === 'ignore' && e.domain === 'esphome'), 'an ignored discovery is an entry of source ignore')

  const flows = await c.ok({ type: 'config_entries/flow/progress' }) as any[]
  t.same(flows.map(f => f.handler).sort(), ['homekit_controller', 'shelly'])
  t.match(flows[0], { flow_id: /^[0-9a-f]{32}$/, context: { source: 'zeroconf' } })

  t.match(await c.command({ type: 'config_entries/disable', entry_id: 'nope', disabled_by: 'user' }), { success: false, error: { code: 'not_found', message: 'Config entry not found' } })
  t.match(await c.command({ type: 'config_entries/disable', entry_id: hue.entry_id, disabled_by: 'integration' }), { success: false, error: { code: 'invalid_format' } }, 'the API sets only "user" or null')
  t.same(await c.ok({ type: 'config_entries/disable', entry_id: hue.entry_id, disabled_by: 'user' }), { require_restart: false })
  const light = [...home.house.entities.values()].find(e => e.config_entry_id === hue.entry_id && e.entity_id.startsWith('light.'))!
  t.notOk(home.house.states.has(light.entity_id), 'a disabled entry is unloaded: its states go')
  t.equal(light.disabled_by, 'config_entry')
  await c.ok({ type: 'config_entries/disable', entry_id: hue.entry_id, disabled_by: null })
  t.ok(home.house.states.has(light.entity_id), 'enabled again, its states come back')
  t.equal(light.disabled_by, null)

  t.same(await rest('POST', '/api/config/config_entries/entry/nope/reload'), { status: 404, json: { message: 'Invalid entry specified' } })
  t.same(await rest('POST', `/api/config/config_entries/entry/${hue.entry_id}/reload`), { status: 200, json: { require_restart: false } })

  // The options flow: the handler is the entry id, the form carries the current options as defaults.
  t.same(await rest('POST', '/api/config/config_entries/options/flow', { handler: 'nope' }), { status: 404, json: { message: 'Invalid handler specified' } })
  const nut = entries.find(e => e.domain === 'nut')
  t.equal((await rest('POST', '/api/config/config_entries/options/flow', { handler: nut.entry_id })).status, 404, 'an entry without an options flow')
  const form = await rest('POST', '/api/config/config_entries/options/flow', { handler: hue.entry_id, show_advanced_options: false })
  t.match(form.json, { type: 'form', handler: hue.entry_id, step_id: 'init', errors: null, data_schema: [{ name: 'allow_hue_groups', type: 'boolean', optional: true, default: false }, { name: 'allow_unreachable' }] })
  const flowPath = `/api/config/config_entries/options/flow/${form.json.flow_id as string}`
  t.same(await rest('POST', flowPath, { allow_hue_groups: 'yes' }), { status: 400, json: { errors: { allow_hue_groups: 'expected bool' } } })
  // An extra key is no field of the form: data_entry_flow.py _map_error_to_schema_errors lists it under base, with its path.
  t.same(await rest('POST', flowPath, { colour: 'red' }), { status: 400, json: { errors: { base: ["extra keys not allowed @ data['colour']"] } } })
  t.match(await rest('POST', flowPath, { allow_hue_groups: true }), { status: 200, json: { type: 'create_entry', handler: hue.entry_id } })
  t.same(entriesOf(home.house).entries.get(hue.entry_id)?.options, { allow_hue_groups: true, allow_unreachable: false })
  t.same(await rest('POST', flowPath, {}), { status: 404, json: { message: 'Invalid flow specified' } }, 'a finished flow is gone')
  const again = await rest('POST', '/api/config/config_entries/options/flow', { handler: hue.entry_id })
  t.match(again.json.data_schema[0], { name: 'allow_hue_groups', default: true }, 'the next form shows the saved value')
  t.same(await rest('DELETE', `/api/config/config_entries/options/flow/${again.json.flow_id as string}`), { status: 200, json: { message: 'Flow aborted' } })

  // A discovery: its step read, answered, then it is an entry.
  const shelly = flows.find(f => f.handler === 'shelly')
  t.match((await rest('GET', `/api/config/config_entries/flow/${shelly.flow_id as string}`)).json, { type: 'form', step_id: 'confirm_discovery', data_schema: [] })
  const added = await rest('POST', `/api/config/config_entries/flow/${shelly.flow_id as string}`, {})
  t.match(added.json, { type: 'create_entry', title: 'Shelly Plus 1PM', result: { domain: 'shelly', source: 'zeroconf', state: 'loaded' } })
  const homekit = flows.find(f => f.handler === 'homekit_controller')
  t.same(await rest('POST', `/api/config/config_entries/flow/${homekit.flow_id as string}`, {}), { status: 400, json: { errors: { pairing_code: 'required key not provided' } } })
  t.match(await c.command({ type: 'config_entries/ignore_flow', flow_id: 'nope', title: 'x' }), { success: false, error: { code: 'not_found' } })
  await c.ok({ type: 'config_entries/ignore_flow', flow_id: homekit.flow_id, title: 'Eve Door' })
  t.same(await c.ok({ type: 'config_entries/flow/progress' }), [], 'an ignored discovery no longer waits')

  // Deleting an entry removes its devices and entities from the registries.
  const device = [...home.house.devices.values()].find(d => d.config_entry_id === hue.entry_id)!
  t.same(await rest('DELETE', `/api/config/config_entries/entry/${hue.entry_id}`), { status: 200, json: { require_restart: false } })
  t.notOk(home.house.devices.has(device.id))
  t.notOk(home.house.entities.has(light.entity_id))
  t.same(await rest('DELETE', `/api/config/config_entries/entry/${hue.entry_id}`), { status: 404, json: { message: 'Invalid entry specified' } })
})

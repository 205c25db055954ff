// Wire-level fidelity of the core WebSocket protocol (ha-protocol.md A2-A5).
import t, { type Test } from 'tap'
import { startDemoHome, type DemoHome } from '../index.ts'
import { RawClient } from './fixtures/ws-client.ts'
import { splitDevice } from '../device-split.ts'

const ISO_MICRO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}\+00:00$/

let home: DemoHome
t.before(async () => { home = await startDemoHome({ token: 'tok', authTimeoutMs: 300 }) })
t.teardown(() => home.close())

const client = async (t: Test): Promise<RawClient> => await RawClient.open(t, home)

t.test('auth phase', async t => {
  const c = new RawClient(home.url.replace('http', 'ws') + '/api/websocket')
  t.same(await c.next(m => true), { type: 'auth_required', ha_version: '2026.11.2' })
  c.sendRaw({ type: 'auth', access_token: 'nope' })
  t.same(await c.next(m => true), { type: 'auth_invalid', message: 'Invalid access token or password' })
  await c.closed

  const malformed = new RawClient(home.url.replace('http', 'ws') + '/api/websocket')
  await malformed.next(m => m.type === 'auth_required')
  malformed.sendRaw({ type: 'login' })
  t.match((await malformed.next(m => true)).message, /^Auth message incorrectly formatted: /)

  const started = Date.now()
  const silent = new RawClient(home.url.replace('http', 'ws') + '/api/websocket')
  await silent.next(m => m.type === 'auth_required')
  await silent.closed
  t.ok(Date.now() - started >= 295, 'closed by the auth timeout (300 ms here)')

  const proxy = new RawClient(home.url.replace('http', 'ws') + '/core/websocket')
  await proxy.next(m => m.type === 'auth_required')
  proxy.sendRaw({ type: 'auth', access_token: 'bad' })
  t.same(await proxy.next(m => true), { type: 'auth_invalid', message: 'Invalid access' }, 'the Supervisor proxy says it differently')
})

t.test('ids, formats and unknown commands', async t => {
  const c = await client(t)
  c.sendRaw({ id: 5, type: 'ping' })
  t.same(await c.next(m => m.id === 5), { id: 5, type: 'pong' })
  c.sendRaw({ id: 5, type: 'ping' })
  t.same((await c.next(m => m.id === 5)).error, { code: 'id_reuse', message: 'Identifier values have to increase.' })
  c.sendRaw({ id: 6, type: 'no_such_thing' })
  t.same((await c.next(m => m.id === 6)).error, { code: 'unknown_command', message: 'Unknown command.' })
  c.sendRaw({ type: 'ping' })
  t.same(await c.next(m => m.id === 0), { id: 0, type: 'result', success: false, error: { code: 'invalid_format', message: 'Message incorrectly formatted.' } })
  c.sendRaw({ id: 7, type: 'get_states', foo: 1 })
  t.same((await c.next(m => m.id === 7)).error, { code: 'invalid_format', message: "extra keys not allowed @ data['foo']. Got 1" })
  c.sendRaw({ id: 8, type: 'call_service', service: 'turn_on' })
  t.same((await c.next(m => m.id === 8)).error, { code: 'invalid_format', message: "required key not provided @ data['domain']. Got None" })
  c.sendRaw([{ id: 9, type: 'ping' }, { id: 10, type: 'ping' }])
  t.equal((await c.next(m => m.id === 10)).type, 'pong', 'arrays of commands are handled in order')
  c.sendRaw('{not json')
  t.equal(await c.closed, 1005, 'invalid JSON closes the connection')
})

t.test('coalesced messages after supported_features', async t => {
  const c = await client(t)
  t.same(await c.ok({ type: 'supported_features', features: { coalesce_messages: 1 } }), null)
  c.useId(2)
  c.sendRaw([{ id: 2, type: 'ping' }, { id: 3, type: 'ping' }, { id: 4, type: 'get_config' }])
  await c.next(m => m.id === 4)
  const last = c.frames.at(-1)
  t.ok(Array.isArray(last), 'several ready messages arrive as one JSON array')
  t.same((last as Array<{ id: number }>).map(m => m.id), [2, 3, 4])
})

t.test('get_states shape', async t => {
  const c = await client(t)
  const states = await c.ok({ type: 'get_states' }) as Array<Record<string, any>>
  const s = states[0] as Record<string, any>
  t.same(Object.keys(s).sort(), ['attributes', 'context', 'entity_id', 'last_changed', 'last_reported', 'last_updated', 'state'])
  t.match(s.last_changed, ISO_MICRO)
  t.equal(s.context.id.length, 26)
  t.ok(states.some(x => x.state === 'unavailable'), 'an unavailable entity')
  t.ok(states.some(x => x.state === 'unknown'), 'an unknown entity')
  t.ok(states.some(x => JSON.stringify(x.attributes).length > 5000), 'one very large attribute')
  t.notOk(states.some(x => x.entity_id === 'sensor.zigbee_coordinator_signal_strength'), 'disabled entities have no state')
})

t.test('call_service results and errors', async t => {
  const c = await client(t)
  home.clearServiceCalls()
  const result = await c.ok({ type: 'call_service', domain: 'switch', service: 'turn_on', target: { entity_id: 'switch.does_not_exist' } })
  t.same(Object.keys(result), ['context'], 'unknown targets succeed silently, no response key')
  t.equal(home.serviceCalls.length, 1)
  t.match(home.serviceCalls[0], { domain: 'switch', service: 'turn_on', target: { entity_id: 'switch.does_not_exist' }, return_response: false, via: 'ws' })

  const missing = await c.command({ type: 'call_service', domain: 'light', service: 'turn_onn' })
  t.same(missing.error, { code: 'not_found', message: 'Service light.turn_onn not found.', translation_key: 'service_not_found', translation_domain: 'homeassistant', translation_placeholders: { domain: 'light', service: 'turn_onn' } })

  const noResponse = await c.command({ type: 'call_service', domain: 'switch', service: 'turn_on', target: { entity_id: 'switch.irrigation' }, return_response: true })
  t.equal(noResponse.error.code, 'service_validation_error')
  t.equal(noResponse.error.translation_key, 'service_does_not_support_response')
  const lacks = await c.command({ type: 'call_service', domain: 'weather', service: 'get_forecasts', service_data: { type: 'daily' }, target: { entity_id: 'weather.home' } })
  t.equal(lacks.error.translation_key, 'service_lacks_response_request')

  const forecast = await c.ok({ type: 'call_service', domain: 'weather', service: 'get_forecasts', service_data: { type: 'daily' }, target: { entity_id: 'weather.home' }, return_response: true })
  t.equal(forecast.response['weather.home'].forecast.length, 7)
  const noMatch = await c.command({ type: 'call_service', domain: 'weather', service: 'get_forecasts', service_data: { type: 'daily' }, target: { entity_id: 'weather.nowhere' }, return_response: true })
  t.same(noMatch.error, { code: 'home_assistant_error', message: 'Service call requested response data but did not match any entities' })

  const light = home.entityIds().find(id => id.startsWith('light.')) as string
  const bad = await c.command({ type: 'call_service', domain: 'light', service: 'turn_on', service_data: { brightness_pct: 150 }, target: { entity_id: light } })
  t.same(bad.error, { code: 'invalid_format', message: "value must be at most 100 for dictionary value @ data['brightness_pct']" })
})

t.test('subscribe_events: state_changed with old/new state and context, unsubscribe', async t => {
  const c = await client(t)
  const sub = await c.subscribe({ type: 'subscribe_events', event_type: 'state_changed' })
  const call = await c.ok({ type: 'call_service', domain: 'input_boolean', service: 'toggle', target: { entity_id: 'input_boolean.guest_mode' } })
  const event = await c.nextEvent(sub, e => e.data.entity_id === 'input_boolean.guest_mode')
  t.equal(event.event_type, 'state_changed')
  t.equal(event.origin, 'LOCAL')
  t.match(event.time_fired, ISO_MICRO)
  t.equal(event.data.old_state.state, 'off')
  t.equal(event.data.new_state.state, 'on')
  t.same(event.context, call.context)
  t.same(await c.ok({ type: 'unsubscribe_events', subscription: sub }), null)
  t.same((await c.command({ type: 'unsubscribe_events', subscription: sub })).error, { code: 'not_found', message: 'Subscription not found.' })
})

t.test('subscribe_entities compressed format and lc/lu rules', async t => {
  const c = await client(t)
  const sub = await c.subscribe({ type: 'subscribe_entities', entity_ids: ['input_number.target_temperature', 'sensor.outside_temperature'] })
  const snapshot = await c.nextEvent(sub)
  t.same(Object.keys(snapshot.a).sort(), ['input_number.target_temperature', 'sensor.outside_temperature'])
  const added = snapshot.a['input_number.target_temperature']
  t.type(added.lc, 'number')
  t.notOk('lu' in added, 'lu omitted when equal to lc')
  t.type(added.c, 'string', 'context without parent/user is a bare id')
  t.notOk('entity_id' in added)

  await c.ok({ type: 'call_service', domain: 'input_number', service: 'set_value', service_data: { value: 22.5 }, target: { entity_id: 'input_number.target_temperature' } })
  const change = await c.nextEvent(sub)
  const plus = change.c['input_number.target_temperature']['+']
  t.equal(plus.s, '22.5')
  t.type(plus.lc, 'number')
  t.notOk('lu' in plus, 'lu not sent alongside lc')
  t.type(plus.c, 'object', 'user_id changed: context object with the changed keys')
  t.ok(plus.lc > added.lc)
  t.not(Math.round(plus.lc), plus.lc * 1000, 'float seconds, not milliseconds')

  home.setState('sensor.outside_temperature', home.getState('sensor.outside_temperature')?.state ?? '', { unit_of_measurement: '°C', friendly_name: 'Outside temperature' })
  const attrOnly = await c.nextEvent(sub)
  const diff = attrOnly.c['sensor.outside_temperature']
  t.notOk('s' in diff['+'])
  t.type(diff['+'].lu, 'number', 'attribute-only change sends lu')
  t.same(diff['-'], { a: ['device_class', 'state_class'] })
})

t.test('registry lists and registry_updated events', async t => {
  const c = await client(t)
  const areas = await c.ok({ type: 'config/area_registry/list' }) as Array<Record<string, any>>
  t.ok(areas.some(a => a.name === 'Küche') && areas.some(a => a.name === '和室') && areas.some(a => a.name.startsWith('🎮')))
  t.type(areas[0]?.created_at, 'number', 'created_at is epoch float seconds')
  const floors = await c.ok({ type: 'config/floor_registry/list' }) as Array<Record<string, any>>
  t.ok(floors.some(f => f.name === 'Premier Étage'))
  const devices = await c.ok({ type: 'config/device_registry/list' }) as Array<Record<string, any>>
  const child = devices.find(d => d.parent_device_id !== null)
  t.ok(child, 'child devices are listed')
  t.equal(child?.area_id, null, 'a child device takes its area from the parent')
  t.same(Object.keys(child ?? {}).sort(), Object.keys(devices.find(d => d.parent_device_id === null) ?? {}).sort(), 'a child device is a DeviceEntry like any other, with its parent_device_id')
  t.ok(devices.some(d => d.via_device_id !== null && d.parent_device_id === null))
  const entities = await c.ok({ type: 'config/entity_registry/list' }) as Array<Record<string, any>>
  t.ok(entities.some(e => e.disabled_by !== null), 'disabled entries are listed')
  t.ok(entities.some(e => e.hidden_by !== null))
  t.ok(entities.some(e => e.entity_category === 'diagnostic'))
  t.notOk('aliases' in (entities[0] ?? {}), 'aliases only in the extended shape')
  const missing = await c.command({ type: 'config/entity_registry/get', entity_id: 'light.nope' })
  t.same(missing.error, { code: 'not_found', message: 'Entity not found' })

  const sub = await c.subscribe({ type: 'subscribe_events', event_type: 'entity_registry_updated' })
  const updated = await c.ok({ type: 'config/entity_registry/update', entity_id: 'input_boolean.vacances', name: 'Holiday', aliases: ['Congés'] })
  t.equal(updated.entity_entry.name, 'Holiday')
  t.same(updated.entity_entry.aliases, ['Congés'])
  const event = await c.nextEvent(sub)
  t.same(event.data, { action: 'update', entity_id: 'input_boolean.vacances', changes: { name: null, aliases: ['Holiday mode'] } })
  t.equal(home.getState('input_boolean.vacances')?.attributes.friendly_name, 'Holiday')

  const areaSub = await c.subscribe({ type: 'subscribe_events', event_type: 'area_registry_updated' })
  const created = await c.ok({ type: 'config/area_registry/create', name: 'Dépendance' })
  t.equal(created.area_id, 'dependance')
  t.same((await c.nextEvent(areaSub)).data, { action: 'create', area_id: 'dependance' })
  const dup = await c.command({ type: 'config/area_registry/create', name: 'Dépendance' })
  t.equal(dup.error.code, 'invalid_info')
  t.equal(await c.ok({ type: 'config/area_registry/delete', area_id: 'dependance' }), 'success')
})

t.test('faults: delay and websocket down', async t => {
  const c = await client(t)
  home.faults.setDelay(120)
  const started = Date.now()
  await c.ok({ type: 'get_config' })
  t.ok(Date.now() - started >= 110, 'results are delayed')
  home.faults.setDelay(0)
  home.faults.setWebSocketDown(true)
  await c.closed
  const refused = await fetch(`${home.url}/core/api/`, { headers: { authorization: 'Bearer tok' } })
  t.equal(refused.status, 502, 'the proxy answers 502 while core is down')
  const upgrade = new RawClient(home.url.replace('http', 'ws') + '/api/websocket')
  const error = await new Promise<string>(resolve => upgrade.ws.on('unexpected-response', (_req, res) => resolve(String(res.statusCode))))
  t.equal(error, '502')
  home.faults.setWebSocketDown(false)
  const again = await client(t)
  t.ok(await again.ok({ type: 'get_config' }))
})

t.test('faults: holdAnswers holds one command type or HTTP path until released, nothing else', async t => {
  const c = await client(t)
  const config = home.faults.holdAnswers('get_config')
  let answered = false
  const held = c.ok({ type: 'get_config' }).then(result => { answered = true; return result })
  await config.held
  t.equal((await c.command({ type: 'get_services' })).success, true, 'other commands are answered meanwhile')
  t.notOk(answered, 'the held command is not')
  config.release()
  t.match(await held, { version: '2026.11.2' }, 'answered once released')

  const rest = home.faults.holdAnswers('/api/config')
  const fetched = fetch(`${home.url}/api/config`, { headers: { authorization: 'Bearer tok' } })
  await rest.held
  t.equal((await fetch(`${home.url}/api/`, { headers: { authorization: 'Bearer tok' } })).status, 200, 'another path is answered meanwhile')
  rest.release()
  t.equal((await fetched).status, 200, 'the held request is answered once released')
})

t.test('calendar/event/create refuses what WEBSOCKET_EVENT_SCHEMA refuses (core calendar/__init__.py)', async t => {
  const c = await client(t)
  const create = async (event: Record<string, unknown>): Promise<any> => await c.command({ type: 'calendar/event/create', entity_id: 'calendar.family', event: { summary: 'x', ...event } })
  t.match((await create({ dtstart: '2026-12-24', dtend: '2026-12-24' })).error, { code: 'invalid_format', message: /Expected minimum event duration/ }, 'an all-day event ending the day it starts')
  t.match((await create({ dtstart: '2026-12-24T09:00:00+01:00', dtend: '2026-12-24T10:00:00Z' })).error, { code: 'invalid_format', message: /same timezone/ }, 'two offsets')
  t.match((await create({ dtstart: '2026-12-24', dtend: '2026-12-24T10:00:00Z' })).error, { code: 'invalid_format', message: /same type/ })
  t.equal((await create({ dtstart: '2026-12-24T09:00:00Z', dtend: '2026-12-24T10:00:00+00:00' })).success, true, 'Z and +00:00 are one timezone')
})

t.test('validate_config: a string condition must be a dynamic template (cv.dynamic_template), nested ones too', async t => {
  const c = await client(t)
  const verdict = async (body: Record<string, unknown>): Promise<any> => await c.ok({ type: 'validate_config', ...body })
  t.equal((await verdict({ conditions: ['sun is down'] })).conditions.valid, false)
  t.equal((await verdict({ conditions: ['{{ true }}', '{# note #}{{ 1 }}'] })).conditions.valid, true)
  t.equal((await verdict({ actions: [{ if: ['sun is down'], then: [{ delay: 1 }] }] })).actions.valid, false, 'an if: inside an action')
  t.equal((await verdict({ actions: [{ choose: [{ conditions: 'nope', sequence: [] }] }] })).actions.valid, false, 'a choose option')
  t.equal((await verdict({ actions: [{ repeat: { until: ['nope'], sequence: [] } }] })).actions.valid, false, 'a repeat')
  t.equal((await verdict({ actions: [{ if: ['{{ true }}'], then: [{ delay: 1 }], else: [{ condition: 'moon' }] }] })).actions.valid, false, 'a condition action in else')
  t.equal((await verdict({ actions: [{ if: ['{{ true }}'], then: [{ delay: 1 }] }] })).actions.valid, true)
})

t.test('a device id from before the 2026.8 split still reaches the devices it became, in targets and device updates', async t => {
  const c = await client(t)
  const light = home.entityIds().find(id => id.startsWith('light.') && home.house.entities.get(id)?.device_id) as string
  const oldId = home.house.entities.get(light)?.device_id as string
  const splits = splitDevice(home.house, oldId, 'matter_entry')
  const listed = await c.ok({ type: 'config/device_registry/list' }) as Array<Record<string, any>>
  t.notOk(listed.some(d => d.id === oldId), 'the old id is listed nowhere')
  t.ok(splits.every(id => listed.some(d => d.id === id)), 'the devices it became are')
  await c.ok({ type: 'call_service', domain: 'light', service: 'turn_on', target: { device_id: oldId } })
  t.equal(home.getState(light)?.state, 'on', 'a target naming the old id reaches the light')
  await c.ok({ type: 'config/device_registry/update', device_id: oldId, name_by_user: 'Split lamp' })
  t.ok(splits.every(id => home.house.devices.get(id)?.name_by_user === 'Split lamp'), 'an update on the old id goes to each device')
})

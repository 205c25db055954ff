// Config-side commands: traces, blueprints, dashboards, energy, helpers, repairs, logs, search, validation, templates.
import t, { type Test } from 'tap'
import { startDemoHome, type DemoHome } from '../index.ts'
import { RawClient } from './fixtures/ws-client.ts'

let home: DemoHome
t.before(async () => { home = await startDemoHome() })
t.teardown(() => home.close())

const client = async (t: Test): Promise<RawClient> => await RawClient.open(t, home)

t.test('traces: list, get, a new run after automation.trigger', async t => {
  const c = await client(t)
  const list = await c.ok({ type: 'trace/list', domain: 'automation', item_id: '1700000000001' }) as Array<Record<string, any>>
  t.equal(list.length, 3, 'seeded past runs')
  t.same(Object.keys(list[0] ?? {}).sort(), ['domain', 'item_id', 'last_step', 'run_id', 'script_execution', 'state', 'timestamp', 'trigger'])
  const one = await c.ok({ type: 'trace/get', domain: 'automation', item_id: '1700000000001', run_id: list[0]?.run_id })
  t.ok(one.trace['trigger/0'] && one.trace['action/0'])
  t.equal(one.config.alias, 'Wake up')
  t.same((await c.command({ type: 'trace/get', domain: 'automation', item_id: '1700000000001', run_id: 'nope' })).error, { code: 'not_found', message: 'The trace could not be found' })
  const failed = (await c.ok({ type: 'trace/list', domain: 'automation', item_id: '1700000000005' }) as Array<Record<string, any>>).find(x => x.script_execution === 'error')
  t.ok(failed?.error, 'a failed run with its error')

  const light = (one.config.actions[0].target.entity_id) as string
  home.setState(light, 'off')
  await c.ok({ type: 'call_service', domain: 'automation', service: 'trigger', target: { entity_id: 'automation.wake_up' } })
  t.equal(home.getState(light)?.state, 'on', 'the automation ran its actions')
  const after = await c.ok({ type: 'trace/list', domain: 'automation', item_id: '1700000000001' }) as Array<Record<string, any>>
  t.equal(after.length, 4)
  t.match(after.at(-1), { state: 'stopped', script_execution: 'finished', trigger: 'action' })
  t.equal(home.serviceCalls.filter(x => x.domain === 'light').length, 0, 'actions inside the house are not recorded as incoming calls')
})

t.test('automation and script config over WS', async t => {
  const c = await client(t)
  const cfg = await c.ok({ type: 'automation/config', entity_id: 'automation.welcome_home' })
  t.equal(cfg.config.id, '1700000000002')
  t.same((await c.command({ type: 'automation/config', entity_id: 'automation.nope' })).error, { code: 'not_found', message: 'Entity not found' })
  const script = await c.ok({ type: 'script/config', entity_id: 'script.good_night' })
  t.ok(Array.isArray(script.config.sequence))
  const blueprints = await c.ok({ type: 'blueprint/list', domain: 'automation' })
  t.ok(blueprints['homeassistant/motion_light.yaml'].metadata.input)
  t.ok(Object.values(blueprints).some((b: any) => typeof b.error === 'string'), 'a broken blueprint')
})

t.test('lovelace: storage and yaml dashboards', async t => {
  const c = await client(t)
  const list = await c.ok({ type: 'lovelace/dashboards/list' }) as Array<Record<string, any>>
  t.ok(list.some(d => d.mode === 'yaml') && list.some(d => d.mode === 'storage'))
  const yaml = await c.ok({ type: 'lovelace/config', url_path: 'wall-panel' })
  t.ok(Array.isArray(yaml.views), 'yaml mode still returns its config')
  t.same((await c.command({ type: 'lovelace/config/save', url_path: 'wall-panel', config: { views: [] } })).error, { code: 'home_assistant_error', message: 'Not supported' })
  t.same((await c.command({ type: 'lovelace/config', url_path: 'dashboard-nouveau' })).error, { code: 'config_not_found', message: 'No config found.' })
  const sub = await c.subscribe({ type: 'subscribe_events', event_type: 'lovelace_updated' })
  t.same(await c.ok({ type: 'lovelace/config/save', url_path: 'dashboard-energie', config: { views: [{ title: 'Nouveau' }] } }), null)
  t.same((await c.nextEvent(sub)).data, { url_path: 'dashboard-energie' })
  t.same(await c.ok({ type: 'lovelace/config', url_path: 'dashboard-energie' }), { views: [{ title: 'Nouveau' }] })
  const main = await c.ok({ type: 'lovelace/config' })
  t.ok(main.views.length >= 2, 'default dashboard')
})

t.test('lovelace eras: the migrated Overview, a new install, a core before the migration', async t => {
  // migrated (the default): a listed "lovelace" entry; no url_path finds it (lovelace/websocket.py _handle_errors).
  const c = await client(t)
  const list = await c.ok({ type: 'lovelace/dashboards/list' }) as Array<Record<string, any>>
  t.match(list.find(d => d.url_path === 'lovelace'), { mode: 'storage', title: 'Overview', icon: 'mdi:view-dashboard' })
  t.same(await c.ok({ type: 'lovelace/config' }), await c.ok({ type: 'lovelace/config', url_path: 'lovelace' }))
  t.same(await c.ok({ type: 'frontend/get_system_data', key: 'core' }), { value: { default_panel: 'lovelace' } })
  const panels = await c.ok({ type: 'get_panels' })
  t.same(panels.lovelace.config, { mode: 'storage' })
  t.ok(['home', 'light', 'security', 'climate', 'energy', 'maintenance'].every(p => panels[p] !== undefined), 'the built-in dashboards are panels')

  const era = async (overview: 'fresh' | 'legacy'): Promise<RawClient> => {
    const other = await startDemoHome({ overview })
    t.teardown(() => other.close())
    return await RawClient.open(t, other)
  }
  const fresh = await era('fresh')
  t.notOk((await fresh.ok({ type: 'lovelace/dashboards/list' }) as Array<Record<string, any>>).some(d => d.url_path === 'lovelace'))
  t.same((await fresh.command({ type: 'lovelace/config' })).error, { code: 'config_not_found', message: 'No config found.' })
  t.same(await fresh.ok({ type: 'frontend/get_system_data', key: 'core' }), { value: null })
  t.equal((await fresh.ok({ type: 'get_panels' })).lovelace.config, null, 'no Overview: the lovelace panel has no config')

  const legacy = await era('legacy')
  t.ok((await legacy.ok({ type: 'lovelace/config' })).views.length >= 2, 'the unnamed default holds the Overview')
  t.same((await legacy.command({ type: 'lovelace/config', url_path: 'lovelace' })).error, { code: 'config_not_found', message: 'Unknown config specified: lovelace' })
  t.equal((await legacy.command({ type: 'frontend/get_system_data', key: 'core' })).error.code, 'unknown_command')
})

t.test('energy prefs, repairs, system log, search/related, validate_config', async t => {
  const c = await client(t)
  const prefs = await c.ok({ type: 'energy/get_prefs' })
  t.same(prefs.energy_sources.map((s: any) => s.type), ['grid', 'solar', 'gas'])
  t.ok(prefs.device_consumption.length > 0)
  const issues = await c.ok({ type: 'repairs/list_issues' })
  t.ok(issues.issues.some((i: any) => i.severity === 'error'))
  const log = await c.ok({ type: 'system_log/list' }) as Array<Record<string, any>>
  t.ok(log.some(l => l.level === 'ERROR' && Array.isArray(l.message) && typeof l.timestamp === 'number'))

  const related = await c.ok({ type: 'search/related', item_type: 'entity', item_id: 'person.alice' })
  t.ok(related.automation.includes('automation.welcome_home'))
  t.notOk((related.entity ?? []).includes('person.alice'), 'the item itself is left out')
  const byArea = await c.ok({ type: 'search/related', item_type: 'area', item_id: 'kuche' })
  t.ok(byArea.device.length > 0 && byArea.entity.length > 0)
  t.same(byArea.floor, ['ground_floor'])

  const ok = await c.ok({ type: 'validate_config', triggers: [{ trigger: 'state', entity_id: 'light.x' }], actions: [{ action: 'light.turn_on' }] })
  t.same(ok, { triggers: { valid: true, error: null }, actions: { valid: true, error: null } })
  const lenient = await c.ok({ type: 'validate_config', actions: [{ service: 'Light.Turn_On' }, { action: "{{ 'light' ~ '.turn_on' }}" }] })
  t.same(lenient.actions, { valid: true, error: null }, 'action names are lower-cased (cv.service) and may be templates')
  const bad = await c.ok({ type: 'validate_config', triggers: [{ trigger: 'florp' }], conditions: [{ condition: 'state', entity_id: 'x', state: 'on' }] })
  t.same(bad.triggers, { valid: false, error: "Invalid trigger 'florp' specified" })
  t.equal(bad.conditions.valid, true)
})

t.test('helpers: create and delete with registry and state events', async t => {
  const c = await client(t)
  const reg = await c.subscribe({ type: 'subscribe_events', event_type: 'entity_registry_updated' })
  const states = await c.subscribe({ type: 'subscribe_events', event_type: 'state_changed' })
  const item = await c.ok({ type: 'input_number/create', name: 'Température cible', min: 10, max: 30, step: 0.5 })
  t.equal(item.id, 'temperature_cible')
  t.same((await c.nextEvent(reg)).data, { action: 'create', entity_id: 'input_number.temperature_cible' })
  const created = await c.nextEvent(states, e => e.data.entity_id === 'input_number.temperature_cible')
  t.equal(created.data.old_state, null)
  t.equal(created.data.new_state.attributes.max, 30)
  const bad = await c.command({ type: 'input_number/create', name: 'Broken' })
  t.same(bad.error, { code: 'invalid_format', message: "required key not provided @ data['min']. Got None" })
  const select = await c.command({ type: 'input_select/create', name: 'Empty', options: [] })
  t.equal(select.error.code, 'invalid_format')
  for (const domain of ['input_boolean', 'input_text', 'counter', 'timer']) {
    const made = await c.ok({ type: `${domain}/create`, name: `Demo ${domain}` })
    t.ok(home.getState(`${domain}.${made.id}`), `${domain} helper has a state`)
  }
  await c.ok({ type: 'input_datetime/create', name: 'Réveil', has_time: true })
  t.equal(home.getState('input_datetime.reveil')?.state, '00:00:00')
  t.same(await c.ok({ type: 'input_number/delete', input_number_id: 'temperature_cible' }), null)
  t.same((await c.nextEvent(reg, e => e.data.action === 'remove')).data, { action: 'remove', entity_id: 'input_number.temperature_cible' })
  t.equal(home.getState('input_number.temperature_cible'), undefined)
  t.same((await c.command({ type: 'input_number/delete', input_number_id: 'temperature_cible' })).error, { code: 'not_found', message: 'Unable to find input_number_id temperature_cible' })
})

t.test('render_template subscription: native result, listeners, re-render, template_error', async t => {
  const c = await client(t)
  const sub = await c.subscribe({ type: 'render_template', template: "{{ states('input_number.target_temperature') | float * 2 }}" })
  const first = await c.nextEvent(sub)
  t.same(first, { result: 42, listeners: { all: false, domains: [], entities: ['input_number.target_temperature'], time: false } })
  await c.ok({ type: 'call_service', domain: 'input_number', service: 'set_value', service_data: { value: 20 }, target: { entity_id: 'input_number.target_temperature' } })
  t.equal((await c.nextEvent(sub)).result, 40, 're-rendered when the entity changed')
  const list = await c.subscribe({ type: 'render_template', template: "{{ states.person | map(attribute='name') | list }}" })
  const listed = await c.nextEvent(list)
  t.same(listed.result, ['Alice', 'Bob'])
  t.same(listed.listeners.domains, ['person'])
  const lax = await c.subscribe({ type: 'render_template', template: 'a{{ nothing_here }}b' })
  t.equal((await c.nextEvent(lax)).result, 'ab', 'undefined renders empty by default')
  const strict = await c.command({ type: 'render_template', template: '{{ nothing_here }}', strict: true })
  t.same(strict.error, { code: 'template_error', message: "UndefinedError: 'nothing_here' is undefined" })
  const withVars = await c.subscribe({ type: 'render_template', template: '{{ x * 2 }}', variables: { x: 21 } })
  t.equal((await c.nextEvent(withVars)).result, 42)
  const broken = await c.command({ type: 'render_template', template: '{% if %}' })
  t.equal(broken.error.code, 'template_error')
  t.match(broken.error.message, /^TemplateSyntaxError: /)
})

t.test('service behaviours: scenes, todo, notify, tts, assist, cover, climate, lock, timer', async t => {
  const c = await client(t)
  const cover = home.entityIds().find(id => id.startsWith('cover.')) as string
  await c.ok({ type: 'call_service', domain: 'cover', service: 'set_cover_position', service_data: { position: 40 }, target: { entity_id: cover } })
  t.match(home.getState(cover), { state: 'open', attributes: { current_position: 40 } })
  const lock = home.entityIds().find(id => id.startsWith('lock.')) as string
  await c.ok({ type: 'call_service', domain: 'lock', service: 'unlock', target: { entity_id: lock } })
  t.equal(home.getState(lock)?.state, 'unlocked')
  const climate = home.entityIds().find(id => id.startsWith('climate.'))
  if (climate !== undefined) {
    const wrong = await c.command({ type: 'call_service', domain: 'climate', service: 'set_hvac_mode', service_data: { hvac_mode: 'sauna' }, target: { entity_id: climate } })
    t.equal(wrong.error.code, 'service_validation_error')
  }

  const lights = home.entityIds().filter(id => id.startsWith('light.')).slice(0, 2)
  await c.ok({ type: 'call_service', domain: 'scene', service: 'create', service_data: { scene_id: 'avant', snapshot_entities: lights } })
  t.ok(home.getState('scene.avant'))
  const before = lights.map(id => home.getState(id)?.state)
  await c.ok({ type: 'call_service', domain: 'light', service: 'turn_off', target: { entity_id: lights } })
  await c.ok({ type: 'call_service', domain: 'scene', service: 'turn_on', target: { entity_id: 'scene.avant' } })
  t.same(lights.map(id => home.getState(id)?.state), before, 'the snapshot is restored')

  await c.ok({ type: 'call_service', domain: 'todo', service: 'add_item', service_data: { item: 'Œufs' }, target: { entity_id: 'todo.shopping_list' } })
  t.equal(home.getState('todo.shopping_list')?.state, '4')
  const items = await c.ok({ type: 'call_service', domain: 'todo', service: 'get_items', service_data: { status: ['needs_action'] }, target: { entity_id: 'todo.shopping_list' }, return_response: true })
  t.ok(items.response['todo.shopping_list'].items.some((i: any) => i.summary === 'Œufs'))
  await c.ok({ type: 'call_service', domain: 'todo', service: 'update_item', service_data: { item: 'Œufs', status: 'completed' }, target: { entity_id: 'todo.shopping_list' } })
  t.equal(home.getState('todo.shopping_list')?.state, '3')

  await c.ok({ type: 'call_service', domain: 'notify', service: 'mobile_app_alice_phone', service_data: { message: 'Hello' } })
  await c.ok({ type: 'call_service', domain: 'tts', service: 'speak', service_data: { message: 'Dinner is ready', media_player_entity_id: home.entityIds().find(id => id.startsWith('media_player.')) }, target: { entity_id: 'tts.google_translate_en_com' } })
  const satellite = home.entityIds().find(id => id.startsWith('assist_satellite.')) as string
  const sub = await c.subscribe({ type: 'subscribe_events', event_type: 'state_changed' })
  await c.ok({ type: 'call_service', domain: 'assist_satellite', service: 'announce', service_data: { message: 'Hi' }, target: { entity_id: satellite } })
  t.equal((await c.nextEvent(sub, e => e.data.entity_id === satellite)).data.new_state.state, 'responding')
  t.same(home.serviceCalls.slice(-3).map(x => `${x.domain}.${x.service}`), ['notify.mobile_app_alice_phone', 'tts.speak', 'assist_satellite.announce'])

  await c.ok({ type: 'call_service', domain: 'timer', service: 'start', service_data: { duration: '00:10:00' }, target: { entity_id: 'timer.laundry' } })
  t.match(home.getState('timer.laundry'), { state: 'active', attributes: { duration: '0:10:00' } })
  await c.ok({ type: 'call_service', domain: 'script', service: 'turn_on', target: { entity_id: 'script.good_night' } })
  t.equal(home.getState(lock)?.state, 'locked', 'the script ran its sequence')
  t.equal(home.getState('script.good_night')?.state, 'off')
})

// The helper integrations' config and options flows, walked over REST as Home Assistant's frontend
// walks them (core config/config_entries.py views, helpers/schema_config_entry_flow.py): each type's
// fields, its validation, the entry it makes and the entity that entry sets up.
import t from 'tap'
import { entriesOf } from '../config-entries.ts'

import { FLOW, OPTIONS, demo, type Rest } from './_flow-rest.ts'

/** Starts a flow, picks a menu entry when given, answers the form: the last answer. */
async function create (rest: Rest, handler: string, input: Record<string, unknown>, menu?: string): Promise<{ status: number, json: any }> {
  const started = await rest('POST', FLOW, { handler, show_advanced_options: false })
  let flowId = started.json.flow_id as string
  if (menu !== undefined) flowId = (await rest('POST', `${FLOW}/${flowId}`, { next_step_id: menu })).json.flow_id
  return await rest('POST', `${FLOW}/${flowId}`, input)
}

const entityOf = (home: any, entryId: string): any => [...home.house.entities.values()].find((e: any) => e.config_entry_id === entryId)

t.test('flows: unknown handler and flow ids, a menu, an abort', async t => {
  const { rest } = await demo(t)
  t.same(await rest('POST', FLOW, { handler: 'no_such_helper' }), { status: 404, json: { message: 'Invalid handler specified' } })
  t.same(await rest('POST', FLOW, {}), { status: 400, json: { message: "Message format incorrect: required key not provided @ data['handler']" } })
  t.same(await rest('POST', `${FLOW}/0123456789abcdef0123456789abcdef`, {}), { status: 404, json: { message: 'Invalid flow specified' } })
  t.same(await rest('GET', `${FLOW}/nope`), { status: 404, json: { message: 'Invalid flow specified' } })

  const menu = await rest('POST', FLOW, { handler: 'group' })
  t.match(menu.json, { type: 'menu', handler: 'group', step_id: 'user', flow_id: /^[0-9a-f]{32}$/, menu_options: ['binary_sensor', 'button', 'cover', 'event', 'fan', 'light', 'lock', 'media_player', 'notify', 'sensor', 'siren', 'switch'] })
  t.same(menu.json.data_schema, [{ type: 'select', options: menu.json.menu_options.map((o: string) => [o, o]), name: 'next_step_id' }])
  const path = `${FLOW}/${menu.json.flow_id as string}`
  t.match(await rest('POST', path, { next_step_id: 'garden' }), { status: 400, json: { errors: { next_step_id: /^value must be one of \['binary_sensor', 'button'/ } } })
  t.same(await rest('POST', path, { next_step_id: 'light', name: 'x' }), { status: 400, json: { errors: { base: ["extra keys not allowed @ data['name']"] } } })
  const light = await rest('POST', path, { next_step_id: 'light' })
  t.match(light.json, { type: 'form', step_id: 'light', errors: null, last_step: true, preview: 'group' })
  t.same(light.json.data_schema.map((f: any) => [f.name, f.required === true, f.default, Object.keys(f.selector)[0]]), [['name', true, undefined, 'text'], ['entities', true, undefined, 'entity'], ['hide_members', true, false, 'boolean']])
  t.same(light.json.data_schema[1].selector, { entity: { domain: ['light'], multiple: true } }, 'the domain filter is kept as a list (helpers/selector.py ENTITY_FILTER_SELECTOR_CONFIG_SCHEMA)')
  t.match((await rest('GET', path)).json, { type: 'form', step_id: 'light' }, 'reading the flow shows the same step')
  t.same(await rest('DELETE', path), { status: 200, json: { message: 'Flow aborted' } })
  t.same(await rest('POST', path, { name: 'x', entities: [] }), { status: 404, json: { message: 'Invalid flow specified' } }, 'an aborted flow is gone')
})

t.test('template: a sensor from the menu, its state rendered, syntax refused, options change the state', async t => {
  const { home, rest } = await demo(t)
  const started = await rest('POST', FLOW, { handler: 'template' })
  t.match(started.json, { type: 'menu', menu_options: ['alarm_control_panel', 'binary_sensor', 'button', 'cover', 'event', 'fan', 'image', 'light', 'lock', 'number', 'select', 'sensor', 'switch', 'update', 'vacuum', 'weather'] })
  const path = `${FLOW}/${started.json.flow_id as string}`
  const form = await rest('POST', path, { next_step_id: 'sensor' })
  t.same(form.json.data_schema.map((f: any) => f.name), ['name', 'state', 'unit_of_measurement', 'device_class', 'state_class', 'device_id', 'advanced_options'])
  t.match(form.json.data_schema[1], { name: 'state', required: true, selector: { template: {} } })
  t.match(form.json.data_schema[6], { name: 'advanced_options', type: 'expandable', expanded: false, schema: [{ name: 'availability' }] })

  t.match(await rest('POST', path, { name: 'Feels like', state: '{{ states("sensor.outside_temperature") | float - }}' }), { status: 400, json: { errors: { state: /^invalid template \(TemplateSyntaxError: / } } })
  t.same(await rest('POST', path, { state: '{{ 1 }}' }), { status: 400, json: { errors: { name: 'required key not provided' } } })
  t.same(await rest('POST', path, { name: 42, state: '{{ 1 }}' }), { status: 400, json: { errors: { name: 'expected str' } } }, 'a text selector takes a string only (vol.Schema(str))')
  t.same(await rest('POST', path, { name: 'Feels like', state: '{{ 1 }}', colour: 'red' }), { status: 400, json: { errors: { base: ["extra keys not allowed @ data['colour']"] } } })
  t.same(await rest('POST', path, { name: 'Feels like', state: '{{ 1 }}', advanced_options: { availability: '{{ 1 + }}' } }), { status: 400, json: { errors: { base: ["invalid template (TemplateSyntaxError: unexpected end of template) @ data['advanced_options']['availability']"] } } }, 'an error inside a section is listed under base with its path')

  const made = await rest('POST', path, { name: 'Feels like', state: '{{ states("sensor.outside_temperature") | float - 2 }}', unit_of_measurement: '\u00b0C', device_class: 'temperature' })
  t.match(made.json, { type: 'create_entry', handler: 'template', title: 'Feels like', options: { template_type: 'sensor', name: 'Feels like', unit_of_measurement: '\u00b0C' }, result: { domain: 'template', title: 'Feels like', state: 'loaded', supports_options: true, source: 'user' } })
  const entryId = made.json.result.entry_id as string
  t.match(home.house.states.get('sensor.feels_like'), { state: '12.2', attributes: { friendly_name: 'Feels like', unit_of_measurement: '\u00b0C', device_class: 'temperature' } })
  t.match(entityOf(home, entryId), { entity_id: 'sensor.feels_like', platform: 'template', unique_id: entryId })

  // The options flow goes straight to the sensor's step: no name, the current values suggested.
  const options = await rest('POST', OPTIONS, { handler: entryId })
  t.match(options.json, { type: 'form', step_id: 'sensor', handler: entryId })
  t.notOk(options.json.data_schema.some((f: any) => f.name === 'name'), 'the name is set once, in the config flow')
  t.match(options.json.data_schema.find((f: any) => f.name === 'state'), { description: { suggested_value: '{{ states("sensor.outside_temperature") | float - 2 }}' } })
  const changed = await rest('POST', `${OPTIONS}/${options.json.flow_id as string}`, { state: '{{ states("sensor.outside_temperature") | float + 1 }}', unit_of_measurement: '\u00b0C', device_class: 'temperature' })
  t.match(changed.json, { type: 'create_entry', handler: entryId })
  t.equal(home.house.states.get('sensor.feels_like')?.state, '15.2', 'the entry reloads and the entity takes the new template')
  t.match(entriesOf(home.house).entries.get(entryId)?.options, { name: 'Feels like', template_type: 'sensor', state: '{{ states("sensor.outside_temperature") | float + 1 }}' })

  // Deleting the entry removes the entity from the state machine and the registry.
  t.same(await rest('DELETE', `/api/config/config_entries/entry/${entryId}`), { status: 200, json: { require_restart: false } })
  t.notOk(home.house.states.has('sensor.feels_like'))
  t.notOk(home.house.entities.has('sensor.feels_like'))
})

t.test('template: binary_sensor, switch, number, select and button entities', async t => {
  const { home, rest } = await demo(t)
  t.equal((await create(rest, 'template', { name: 'Warm outside', state: '{{ states("sensor.outside_temperature") | float > 10 }}', device_class: 'heat' }, 'binary_sensor')).status, 200)
  t.match(home.house.states.get('binary_sensor.warm_outside'), { state: 'on', attributes: { device_class: 'heat' } })
  await create(rest, 'template', { name: 'Fake switch', turn_on: [], turn_off: [] }, 'switch')
  t.equal(home.house.states.get('switch.fake_switch')?.state, 'off', 'an optimistic switch starts off')
  const number = await create(rest, 'template', { name: 'Target', state: '{{ 21 }}', set_value: [] }, 'number')
  t.match(number.json.options, { min: 0, max: 100, step: 1 }, 'defaults fill the fields left out')
  t.match(home.house.states.get('number.target'), { state: '21', attributes: { min: 0, max: 100, step: 1 } })
  t.match(await create(rest, 'template', { name: 'Target', state: '{{ 21 }}' }, 'number'), { status: 400, json: { errors: { set_value: 'required key not provided' } } })
  await create(rest, 'template', { name: 'Mode', state: 'eco', options: "{{ ['eco', 'comfort'] }}" }, 'select')
  t.match(home.house.states.get('select.mode'), { state: 'eco', attributes: { options: ['eco', 'comfort'] } })
  await create(rest, 'template', { name: 'Ring', press: [] }, 'button')
  t.equal(home.house.states.get('button.ring')?.state, 'unknown')
  await create(rest, 'template', { name: 'Mode', state: 'comfort', options: "{{ ['eco', 'comfort'] }}" }, 'select')
  t.equal(home.house.states.get('select.mode_2')?.state, 'comfort', 'a name in use gets the next free entity id')
})

t.test('group: a light group hides its members, options change the members, delete shows them again', async t => {
  const { home, rest } = await demo(t)
  const members = ['light.living_room_ceiling_light', 'light.hallway_ceiling_light']
  t.match(await create(rest, 'group', { name: 'Downstairs', entities: ['switch.irrigation'] }, 'light'), { status: 400, json: { errors: { entities: "Entity switch.irrigation belongs to domain switch, expected ['light']" } } })
  const made = await create(rest, 'group', { name: 'Downstairs', entities: members, hide_members: true }, 'light')
  t.match(made.json, { type: 'create_entry', title: 'Downstairs', options: { group_type: 'light', entities: members, hide_members: true } })
  t.match(home.house.states.get('light.downstairs'), { state: 'on', attributes: { entity_id: members } })
  t.same(members.map(id => home.house.entities.get(id)?.hidden_by), ['integration', 'integration'])

  const entryId = made.json.result.entry_id as string
  const options = await rest('POST', OPTIONS, { handler: entryId, show_advanced_options: true })
  t.match(options.json, { type: 'form', step_id: 'light' })
  t.same(options.json.data_schema.map((f: any) => f.name), ['entities', 'hide_members', 'all'], 'the advanced field shows with show_advanced_options')
  t.match(options.json.data_schema[0], { selector: { entity: { exclude_entities: ['light.downstairs'] } }, description: { suggested_value: members } })
  const path = `${OPTIONS}/${options.json.flow_id as string}`
  t.match(await rest('POST', path, { entities: ['light.downstairs'] }), { status: 400, json: { errors: { entities: /^value must not be one of/ } } }, 'a group cannot hold itself')
  await rest('POST', path, { entities: ['light.hallway_ceiling_light'], hide_members: false })
  t.match(home.house.states.get('light.downstairs'), { state: 'off', attributes: { entity_id: ['light.hallway_ceiling_light'] } })
  t.equal(home.house.entities.get('light.hallway_ceiling_light')?.hidden_by, null, 'hide_members off shows the member again')

  // A hidden advanced field keeps its stored value (schema_config_entry_flow.py adds its default only when the options lack it).
  const allOn = await rest('POST', OPTIONS, { handler: entryId, show_advanced_options: true })
  await rest('POST', `${OPTIONS}/${allOn.json.flow_id as string}`, { entities: ['light.hallway_ceiling_light'], hide_members: false, all: true })
  const plain = await rest('POST', OPTIONS, { handler: entryId })
  t.same(plain.json.data_schema.map((f: any) => f.name), ['entities', 'hide_members'], 'without show_advanced_options the advanced field is not shown')
  t.match(await rest('POST', `${OPTIONS}/${plain.json.flow_id as string}`, { entities: ['light.hallway_ceiling_light'], hide_members: false, all: false }), { status: 400, json: { errors: { base: ["extra keys not allowed @ data['all']"] } } })
  await rest('POST', `${OPTIONS}/${plain.json.flow_id as string}`, { entities: ['light.hallway_ceiling_light'], hide_members: false })
  t.match(entriesOf(home.house).entries.get(entryId)?.options, { all: true }, 'the stored advanced value stays')

  const sensors = await create(rest, 'group', { name: 'Energy sum', entities: ['sensor.grid_return', 'sensor.solar_production'], type: 'sum' }, 'sensor')
  t.match(sensors.json.options, { group_type: 'sensor', type: 'sum', hide_members: false })
  t.match(home.house.states.get('sensor.energy_sum'), { state: '7430.87', attributes: { unit_of_measurement: 'kWh' } })
  t.match(await create(rest, 'group', { name: 'Bad', entities: ['sensor.grid_return'], type: 'average' }, 'sensor'), { status: 400, json: { errors: { type: /^value must be one of \['last', 'max'/ } } })

  t.same(await rest('DELETE', `/api/config/config_entries/entry/${entryId}`), { status: 200, json: { require_restart: false } })
  t.notOk(home.house.states.has('light.downstairs'))
  const upstairs = await create(rest, 'group', { name: 'Upstairs', entities: ['light.master_bedroom_ceiling_light'], hide_members: true }, 'light')
  t.equal(home.house.entities.get('light.master_bedroom_ceiling_light')?.hidden_by, 'integration')
  await rest('DELETE', `/api/config/config_entries/entry/${upstairs.json.result.entry_id as string}`)
  t.equal(home.house.entities.get('light.master_bedroom_ceiling_light')?.hidden_by, null, 'deleting the group shows its members again')
})

t.test('utility_meter: tariffs must be unique; tariffs make a select and a sensor each', async t => {
  const { home, rest } = await demo(t)
  const started = await rest('POST', FLOW, { handler: 'utility_meter' })
  t.match(started.json, { type: 'form', step_id: 'user', last_step: true })
  t.same(started.json.data_schema.map((f: any) => [f.name, f.required === true, f.default]), [['name', true, undefined], ['source', true, undefined], ['cycle', true, undefined], ['offset', true, 0], ['tariffs', true, []], ['net_consumption', true, false], ['delta_values', true, false], ['periodically_resetting', true, true], ['always_available', false, false]])
  const path = `${FLOW}/${started.json.flow_id as string}`
  const refused = await rest('POST', path, { name: 'Grid', source: 'sensor.grid_return', cycle: 'monthly', tariffs: ['peak', 'peak'] })
  t.match(refused, { status: 200, json: { type: 'form', step_id: 'user', errors: { base: 'tariffs_not_unique' } } }, 'the form comes back with the error and the input suggested')
  t.match(refused.json.data_schema.find((f: any) => f.name === 'tariffs'), { description: { suggested_value: ['peak', 'peak'] } })
  t.match(await rest('POST', path, { name: 'Grid', source: 'sensor.grid_return', cycle: 'fortnightly' }), { status: 400, json: { errors: { cycle: /^value must be one of/ } } })
  t.match(await rest('POST', path, { name: 'Grid', source: 'sensor.grid_return', cycle: 'monthly', offset: 29 }), { status: 400, json: { errors: { offset: 'Value 29.0 is too large' } } })
  const made = await rest('POST', path, { name: 'Grid', source: 'sensor.grid_return', cycle: 'monthly', tariffs: ['peak', 'offpeak'] })
  t.match(made.json, { type: 'create_entry', title: 'Grid', options: { source: 'sensor.grid_return', cycle: 'monthly', offset: 0, tariffs: ['peak', 'offpeak'], net_consumption: false, periodically_resetting: true } })
  t.match(home.house.states.get('select.grid'), { state: 'peak', attributes: { options: ['peak', 'offpeak'] } })
  t.match(home.house.states.get('sensor.grid_peak'), { state: '0', attributes: { status: 'collecting', tariff: 'peak', unit_of_measurement: 'kWh', meter_period: 'monthly' } })
  t.match(home.house.states.get('sensor.grid_offpeak'), { attributes: { status: 'paused' } })

  const entryId = made.json.result.entry_id as string
  const options = await rest('POST', OPTIONS, { handler: entryId })
  t.same(options.json.data_schema.map((f: any) => f.name), ['source', 'periodically_resetting', 'always_available'])
  t.match(await rest('POST', `${OPTIONS}/${options.json.flow_id as string}`, { source: 'sensor.solar_production', periodically_resetting: false }), { json: { type: 'create_entry' } })
  t.match(entriesOf(home.house).entries.get(entryId)?.options, { source: 'sensor.solar_production', periodically_resetting: false, tariffs: ['peak', 'offpeak'], cycle: 'monthly' })
  t.match(home.house.states.get('sensor.grid_peak'), { attributes: { source: 'sensor.solar_production' } })
  await rest('DELETE', `/api/config/config_entries/entry/${entryId}`)
  t.notOk(['select.grid', 'sensor.grid_peak', 'sensor.grid_offpeak'].some(id => home.house.states.has(id) || home.house.entities.has(id)))
})

t.test('threshold: a lower or an upper limit is needed; the options flow moves the limit', async t => {
  const { home, rest } = await demo(t)
  const started = await rest('POST', FLOW, { handler: 'threshold' })
  t.match(started.json, { type: 'form', step_id: 'user', preview: 'threshold' })
  t.match(started.json.data_schema.find((f: any) => f.name === 'hysteresis'), { required: true, default: 0, selector: { number: { mode: 'box', step: 'any' } } })
  const path = `${FLOW}/${started.json.flow_id as string}`
  t.match(await rest('POST', path, { name: 'Frost', entity_id: 'sensor.outside_temperature' }), { status: 200, json: { type: 'form', errors: { base: 'need_lower_upper' } } })
  t.match(await rest('POST', path, { name: 'Frost', entity_id: 'light.hallway_ceiling_light', lower: 2 }), { status: 400, json: { errors: { entity_id: "Entity light.hallway_ceiling_light belongs to domain light, expected ['sensor']" } } })
  const made = await rest('POST', path, { name: 'Frost', entity_id: 'sensor.outside_temperature', lower: 2 })
  t.match(made.json, { type: 'create_entry', title: 'Frost', options: { name: 'Frost', entity_id: 'sensor.outside_temperature', lower: 2, upper: null, hysteresis: 0 } })
  t.match(home.house.states.get('binary_sensor.frost'), { state: 'off', attributes: { type: 'lower', position: 'above', sensor_value: 14.2, lower: 2, upper: null } })

  const entryId = made.json.result.entry_id as string
  const options = await rest('POST', OPTIONS, { handler: entryId })
  t.same(options.json.data_schema.map((f: any) => f.name), ['hysteresis', 'lower', 'upper', 'entity_id'])
  t.match(options.json.data_schema.find((f: any) => f.name === 'lower'), { description: { suggested_value: 2 } })
  const optionsPath = `${OPTIONS}/${options.json.flow_id as string}`
  t.match(await rest('POST', optionsPath, { entity_id: 'sensor.outside_temperature', hysteresis: 0 }), { json: { type: 'form', errors: { base: 'need_lower_upper' } } }, 'the options flow checks the same rule')
  await rest('POST', optionsPath, { entity_id: 'sensor.outside_temperature', hysteresis: 0, upper: 10 })
  t.match(entriesOf(home.house).entries.get(entryId)?.options, { name: 'Frost', lower: null, upper: 10 })
  t.match(home.house.states.get('binary_sensor.frost'), { state: 'on', attributes: { type: 'upper', position: 'above' } })
})

// The config and options flows of the helpers beyond template, group, utility_meter and threshold
// (helper-flows.test.ts): random, derivative, min_max, integration, statistics, trend, filter, tod,
// switch_as_x and history_stats, each with the fields, checks and entity of its config_flow.py.
import t from 'tap'
import { entriesOf } from '../config-entries.ts'

import { FLOW, OPTIONS, demo, type Rest, type Answer } from './_flow-rest.ts'

/** Answers a flow's steps in turn (a menu step with {next_step_id}); every answer, the last one last. */
async function walk (rest: Rest, handler: string, ...steps: Array<Record<string, unknown>>): Promise<Answer[]> {
  const answers = [await rest('POST', FLOW, { handler })]
  for (const input of steps) answers.push(await rest('POST', `${FLOW}/${answers[0]?.json.flow_id as string}`, input))
  return answers
}
const last = (answers: Answer[]): Answer => answers[answers.length - 1] as Answer
const names = (answer: Answer): string[] => answer.json.data_schema.map((f: any) => f.name)

/** Opens the entry's options flow and answers its form: [the form, the answer]. */
async function options (rest: Rest, entryId: string, input: Record<string, unknown>): Promise<[Answer, Answer]> {
  const form = await rest('POST', OPTIONS, { handler: entryId })
  return [form, await rest('POST', `${OPTIONS}/${form.json.flow_id as string}`, input)]
}

t.test('random: a menu of two types, integer bounds, a sensor within them', async t => {
  const { home, rest } = await demo(t)
  const steps = await walk(rest, 'random', { next_step_id: 'sensor' }, { name: 'Dice', minimum: -1 }, { name: 'Dice', minimum: 1, maximum: 6 })
  t.match(steps[0]?.json, { type: 'menu', menu_options: ['binary_sensor', 'sensor'] })
  t.same(names(steps[1] as Answer), ['name', 'minimum', 'maximum', 'device_class', 'unit_of_measurement'])
  t.match((steps[1] as Answer).json.data_schema[1], { name: 'minimum', type: 'integer', valueMin: 0, optional: true, default: 0 })
  t.same(steps[2], { status: 400, json: { errors: { minimum: 'value must be at least 0' } } })
  t.match(last(steps).json, { type: 'create_entry', title: 'Dice', options: { entity_type: 'sensor', minimum: 1, maximum: 6 } })
  const dice = Number(home.house.states.get('sensor.dice')?.state)
  t.ok(dice >= 1 && dice <= 6, `a roll between 1 and 6 (${dice})`)
  const [form, saved] = await options(rest, last(steps).json.result.entry_id, { minimum: 10, maximum: 10 })
  t.same(names(form), ['minimum', 'maximum', 'device_class', 'unit_of_measurement'])
  t.match(saved.json, { type: 'create_entry' })
  t.equal(home.house.states.get('sensor.dice')?.state, '10')
})

t.test('derivative: time_window is required; the unit is the source unit per time unit', async t => {
  const { home, rest } = await demo(t)
  const steps = await walk(rest, 'derivative', { name: 'Heating rate', source: 'sensor.outside_temperature' }, { name: 'Heating rate', source: 'sensor.outside_temperature', time_window: { minutes: 5 }, unit_time: 'min' })
  t.same(names(steps[0] as Answer), ['name', 'source', 'round', 'time_window', 'unit_prefix', 'unit_time'])
  t.match((steps[0] as Answer).json.data_schema[1].selector.entity, { domain: ['counter', 'input_number', 'sensor'] })
  t.same(steps[1], { status: 400, json: { errors: { time_window: 'required key not provided' } } })
  t.match(last(steps).json.options, { round: 2, unit_time: 'min', time_window: { minutes: 5 } })
  t.match(home.house.states.get('sensor.heating_rate'), { state: '0.00', attributes: { unit_of_measurement: '\u00b0C/min' } })
  const [form] = await options(rest, last(steps).json.result.entry_id, { time_window: { minutes: 10 }, round: 1 })
  t.same(names(form), ['round', 'time_window', 'unit_prefix', 'unit_time'], 'the source is set once')
  t.equal(home.house.states.get('sensor.heating_rate')?.state, '0.0')
})

t.test('min_max: members of numeric domains; the statistic over them', async t => {
  const { home, rest } = await demo(t)
  const steps = await walk(rest, 'min_max', { name: 'Power', entity_ids: ['light.hallway_ceiling_light'], type: 'max' }, { name: 'Power', entity_ids: ['sensor.garden_smart_plug_power', 'sensor.garage_smart_plug_power'], type: 'max' })
  t.match(steps[1], { status: 400, json: { errors: { entity_ids: "Entity light.hallway_ceiling_light belongs to domain light, expected ['sensor', 'number', 'input_number']" } } })
  t.match(home.house.states.get('sensor.power'), { state: '54.00', attributes: { max_entity_id: 'sensor.garage_smart_plug_power', unit_of_measurement: 'W' } })
  const [form] = await options(rest, last(steps).json.result.entry_id, { entity_ids: ['sensor.garden_smart_plug_power', 'sensor.garage_smart_plug_power'], type: 'sum', round_digits: 0 })
  t.same(names(form), ['entity_ids', 'type', 'round_digits'])
  t.equal(home.house.states.get('sensor.power')?.state, '100')
})

t.test('integration: the options flow offers only sources with the same unit', async t => {
  const { home, rest } = await demo(t)
  const steps = await walk(rest, 'integration', { name: 'Garden energy', source: 'sensor.garden_smart_plug_power', unit_prefix: 'k' })
  t.same(names(steps[0] as Answer), ['name', 'unit_prefix', 'unit_time', 'source', 'method', 'round', 'max_sub_interval'])
  t.match(last(steps).json.options, { method: 'trapezoidal', unit_time: 'h', unit_prefix: 'k' })
  t.match(home.house.states.get('sensor.garden_energy'), { state: 'unknown', attributes: { unit_of_measurement: 'kWh', state_class: 'total' } })
  const entryId = last(steps).json.result.entry_id as string
  const [form, refused] = await options(rest, entryId, { source: 'sensor.outside_temperature' })
  const offered = form.json.data_schema[0].selector.entity.include_entities as string[]
  t.ok(offered.includes('sensor.garage_smart_plug_power') && !offered.includes('sensor.outside_temperature'), 'power sensors only')
  t.match(refused, { status: 400, json: { errors: { source: /^value must be one of \[/ } } })
  t.match(await rest('POST', `${OPTIONS}/${form.json.flow_id as string}`, { source: 'sensor.garage_smart_plug_power', method: 'left' }), { json: { type: 'create_entry' } })
  t.match(entriesOf(home.house).entries.get(entryId)?.options, { source: 'sensor.garage_smart_plug_power', method: 'left', unit_prefix: 'k' })
})

t.test('statistics: three steps, a sampling bound needed, the same helper twice aborts', async t => {
  const { home, rest } = await demo(t)
  const steps = await walk(rest, 'statistics', { entity_id: 'sensor.outside_temperature' }, { state_characteristic: 'count_on' }, { state_characteristic: 'mean' }, {}, { max_age: { hours: 24 } })
  t.match((steps[0] as Answer).json.data_schema[0], { name: 'name', default: 'Statistical characteristic' })
  t.match(steps[1]?.json, { type: 'form', step_id: 'state_characteristic' })
  t.match(steps[2], { status: 400, json: { errors: { state_characteristic: /^value must be one of \['average_linear'/ } } }, 'count_on is for a binary source')
  t.match(steps[3]?.json, { type: 'form', step_id: 'options', preview: 'statistics' })
  t.match(steps[4]?.json, { type: 'form', errors: { base: 'missing_max_age_or_sampling_size' } })
  t.match(last(steps).json, { type: 'create_entry', title: 'Statistical characteristic', options: { entity_id: 'sensor.outside_temperature', state_characteristic: 'mean', max_age: { hours: 24 }, precision: 2, percentile: 50, keep_last_sample: false } })
  t.match(home.house.states.get('sensor.statistical_characteristic'), { state: '14.20', attributes: { source_value_valid: true } })
  const again = await walk(rest, 'statistics', { entity_id: 'sensor.outside_temperature' }, { state_characteristic: 'mean' }, { max_age: { hours: 24 } })
  t.match(last(again).json, { type: 'abort', reason: 'already_configured' })
  t.same(await rest('GET', `${FLOW}/${(again[0] as Answer).json.flow_id as string}`), { status: 404, json: { message: 'Invalid flow specified' } }, 'an aborted flow is gone')
  const binary = await walk(rest, 'statistics', { name: 'Motion count', entity_id: 'binary_sensor.hallway_motion_sensor_motion' })
  t.same(last(binary).json.data_schema[0].selector.select.options, ['average_step', 'average_timeless', 'count', 'count_off', 'count_on', 'datetime_newest', 'datetime_oldest', 'mean'])
  const [form, refused] = await options(rest, last(steps).json.result.entry_id, { sampling_size: 20, keep_last_sample: true })
  t.same(names(form), ['sampling_size', 'max_age', 'keep_last_sample', 'percentile', 'precision'])
  t.match(refused.json, { type: 'form', errors: { base: 'missing_keep_last_sample' } })
})

t.test('trend: a settings step with the source read-only; the options flow adds the sampling fields', async t => {
  const { home, rest } = await demo(t)
  const steps = await walk(rest, 'trend', { name: 'Warming', entity_id: 'sensor.outside_temperature' }, { entity_id: 'sensor.outside_temperature', invert: true })
  t.match(steps[1]?.json, { type: 'form', step_id: 'settings', data_schema: [{ name: 'entity_id', selector: { entity: { read_only: true } }, description: { suggested_value: 'sensor.outside_temperature' } }, { name: 'attribute', selector: { attribute: { entity_id: 'sensor.outside_temperature' } } }, { name: 'invert' }] })
  t.match(last(steps).json.options, { name: 'Warming', entity_id: 'sensor.outside_temperature', invert: true }, 'the read-only field is sent back, as the frontend sends it')
  t.match(home.house.states.get('binary_sensor.warming'), { state: 'unknown', attributes: { invert: true, sample_count: 0 } })
  const [form, saved] = await options(rest, last(steps).json.result.entry_id, { entity_id: 'sensor.outside_temperature', max_samples: 1 })
  t.same(names(form), ['entity_id', 'attribute', 'invert', 'max_samples', 'min_samples', 'min_gradient', 'sample_duration'])
  t.same(saved, { status: 400, json: { errors: { max_samples: 'Value 1.0 is too small' } } })
})

t.test('filter: each filter asks its own fields; a time filter needs its window', async t => {
  const { home, rest } = await demo(t)
  const steps = await walk(rest, 'filter', { entity_id: 'sensor.outside_temperature', filter: 'time_throttle' }, {}, { window_size: { minutes: 1 }, precision: 1 })
  t.match((steps[0] as Answer).json.data_schema[2].selector.select.options, ['lowpass', 'outlier', 'range', 'throttle', 'time_simple_moving_average', 'time_throttle'])
  t.same(names(steps[1] as Answer), ['window_size', 'precision'])
  t.same(steps[2], { status: 400, json: { errors: { window_size: 'required key not provided' } } })
  t.match(last(steps).json, { type: 'create_entry', title: 'Filtered sensor', options: { filter: 'time_throttle', window_size: { minutes: 1 }, precision: 1 } })
  t.match(home.house.states.get('sensor.filtered_sensor'), { state: '14.2', attributes: { unit_of_measurement: '\u00b0C' } })
  const outlier = await walk(rest, 'filter', { name: 'Smooth', entity_id: 'sensor.outside_temperature', filter: 'outlier' })
  t.same(names(last(outlier)), ['window_size', 'radius', 'precision'])
  t.match(last(outlier).json.data_schema[1], { default: 2 })
})

/** The home's wall-clock time (Europe/Amsterdam) shifted by hours, as HH:MM:SS. */
const homeTime = (hours: number): string => new Intl.DateTimeFormat('en-GB', { timeZone: 'Europe/Amsterdam', hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23' }).format(new Date(Date.now() + hours * 3_600_000))

t.test('tod: after and before are times; the state follows the clock', async t => {
  const { home, rest } = await demo(t)
  const steps = await walk(rest, 'tod', { name: 'Night', after_time: '25:00', before_time: '06:00' }, { name: 'Now', after_time: homeTime(-1), before_time: homeTime(1) })
  t.same(steps[1], { status: 400, json: { errors: { after_time: 'Invalid time specified: 25:00' } } })
  t.match(home.house.states.get('binary_sensor.now'), { state: 'on', attributes: { after: homeTime(-1).slice(0, 5) } }, 'the window holds the present')
  const [form] = await options(rest, last(steps).json.result.entry_id, { after_time: homeTime(1), before_time: homeTime(2) })
  t.same(names(form), ['after_time', 'before_time'])
  t.equal(home.house.states.get('binary_sensor.now')?.state, 'off', 'a window later today does not')
})

t.test('switch_as_x: a switch shown as a light, hidden meanwhile; invert in the options; delete shows it again', async t => {
  const { home, rest } = await demo(t)
  const steps = await walk(rest, 'switch_as_x', { entity_id: 'light.hallway_ceiling_light', target_domain: 'light' }, { entity_id: 'switch.irrigation', target_domain: 'garage' }, { entity_id: 'switch.irrigation', target_domain: 'light' })
  t.match(steps[1], { status: 400, json: { errors: { entity_id: "Entity light.hallway_ceiling_light belongs to domain light, expected ['switch']" } } })
  t.match(steps[2], { status: 400, json: { errors: { target_domain: "value must be one of ['cover', 'fan', 'light', 'lock', 'siren', 'valve']" } } })
  t.match(last(steps).json, { type: 'create_entry', title: 'irrigation', options: { entity_id: 'switch.irrigation', invert: false, target_domain: 'light' } })
  t.equal(home.house.states.get('light.irrigation')?.state, 'off', 'the light mirrors the switch')
  t.equal(home.house.entities.get('switch.irrigation')?.hidden_by, 'integration')
  const entryId = last(steps).json.result.entry_id as string
  const [form] = await options(rest, entryId, { invert: true })
  t.same(names(form), ['invert'])
  t.equal(home.house.states.get('light.irrigation')?.state, 'on', 'inverted')
  await rest('DELETE', `/api/config/config_entries/entry/${entryId}`)
  t.notOk(home.house.states.has('light.irrigation'))
  t.equal(home.house.entities.get('switch.irrigation')?.hidden_by, null)
})

t.test('history_stats: the states to count, then exactly two of start, end and duration', async t => {
  const { home, rest } = await demo(t)
  // The read-only fields are sent back with each answer, as the frontend sends them: an optional field left out is dropped.
  const shown = { entity_id: 'switch.irrigation', state: ['on'], type: 'time' }
  const steps = await walk(rest, 'history_stats', { name: 'Heating today', entity_id: 'switch.irrigation' }, { entity_id: 'switch.irrigation', state: ['on'] }, { ...shown, start: '{{ today_at() }}' }, { ...shown, start: '{{ today_at() }}', end: '{{ now() }}', duration: { hours: 1 } }, { ...shown, start: '{{ today_at() }}', end: '{{ now() }}' })
  t.match((steps[0] as Answer).json.data_schema[2], { name: 'type', default: 'time' })
  t.match(steps[1]?.json, { type: 'form', step_id: 'state', data_schema: [{ name: 'entity_id' }, { name: 'state', required: true, selector: { state: { multiple: true, entity_id: 'switch.irrigation' } } }] })
  t.same(names(steps[2] as Answer), ['entity_id', 'state', 'type', 'start', 'end', 'duration', 'state_class'])
  t.match(steps[3]?.json, { type: 'form', errors: { base: 'only_two_keys_allowed' } })
  t.match(steps[4]?.json, { type: 'form', errors: { base: 'only_two_keys_allowed' } })
  t.match(last(steps).json, { type: 'create_entry', title: 'Heating today', options: { entity_id: 'switch.irrigation', state: ['on'], type: 'time', start: '{{ today_at() }}', end: '{{ now() }}', state_class: 'measurement' } })
  t.match(home.house.states.get('sensor.heating_today'), { state: '0.0', attributes: { unit_of_measurement: 'h' } })
  const entryId = last(steps).json.result.entry_id as string
  const [, saved] = await options(rest, entryId, { ...shown, start: '{{ today_at() }}', duration: { hours: 2 } })
  t.match(saved.json, { type: 'create_entry' })
  const stored = entriesOf(home.house).entries.get(entryId)?.options ?? {}
  t.match(stored, { start: '{{ today_at() }}', duration: { hours: 2 } })
  t.notOk('end' in stored, 'an optional field left out of the options flow is dropped from the options')
})

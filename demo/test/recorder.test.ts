// History, statistics and logbook: generated on demand from the seed, in HA's wire shapes.
import t, { type Test } from 'tap'
import { startDemoHome, type DemoHome } from '../index.ts'
import { RawClient } from './fixtures/ws-client.ts'

let home: DemoHome
t.before(async () => { home = await startDemoHome({ seed: 7 }) })
t.teardown(() => home.close())

const client = async (t: Test): Promise<RawClient> => await RawClient.open(t, home)

const iso = (ms: number): string => new Date(ms).toISOString()

t.test('history_during_period: compressed rows, start state, float seconds', async t => {
  const c = await client(t)
  const now = Date.now()
  const from = now - 2 * 86_400_000
  const light = home.entityIds().find(id => id.startsWith('light.')) as string
  const result = await c.ok({ type: 'history/history_during_period', start_time: iso(from), end_time: iso(now), entity_ids: ['sensor.outside_temperature', light, 'person.alice'] })
  const rows = result['sensor.outside_temperature'] as Array<Record<string, any>>
  t.ok(rows.length > 100, 'two days of 5-minute samples')
  t.same(Object.keys(rows[0] ?? {}).sort(), ['a', 'lu', 's'], 'lc omitted when equal to lu')
  t.equal(rows[0]?.lu, from / 1000, 'the start-time state carries the requested start')
  t.ok(rows.every((r, i) => i === 0 || r.lu > (rows[i - 1]?.lu as number)), 'ascending')
  t.ok(rows[1].lu < 1e11, 'seconds, not milliseconds')
  t.ok(result[light].length >= 1)

  const minimal = await c.ok({ type: 'history/history_during_period', start_time: iso(from), end_time: iso(now), entity_ids: ['sensor.outside_temperature', 'person.alice'], minimal_response: true, no_attributes: true })
  const m = minimal['sensor.outside_temperature'] as Array<Record<string, any>>
  t.notOk('a' in (m[0] ?? {}), 'no_attributes drops a')
  t.same(Object.keys(m[1] ?? {}).sort(), ['lu', 's'])

  home.setState('input_boolean.guest_mode', 'on')
  const live = await c.ok({ type: 'history/history_during_period', start_time: iso(now - 60_000), entity_ids: ['input_boolean.guest_mode'] })
  t.equal(live['input_boolean.guest_mode'].at(-1).s, 'on', 'live changes feed history')

  t.same(await c.ok({ type: 'history/history_during_period', start_time: iso(now + 86_400_000), entity_ids: [light] }), {}, 'future start gives {}')
  t.same((await c.command({ type: 'history/history_during_period', start_time: 'yesterday', entity_ids: [light] })).error, { code: 'invalid_start_time', message: 'Invalid start_time' })
  t.same((await c.command({ type: 'history/history_during_period', start_time: iso(from), entity_ids: ['not an id'] })).error, { code: 'invalid_entity_ids', message: 'Invalid entity_ids' })
})

t.test('history is deterministic for a seed and cheap for 7 days', async t => {
  const c = await client(t)
  const other = await startDemoHome({ seed: 7 })
  t.teardown(() => other.close())
  const c2 = await RawClient.connect(other.url, other.token)
  t.teardown(() => c2.close())
  const end = Date.now() - 86_400_000
  const q = { type: 'history/history_during_period', start_time: iso(end - 5 * 86_400_000), end_time: iso(end), entity_ids: ['sensor.outside_temperature'], no_attributes: true }
  const a = await c.ok(q)
  const b = await c2.ok(q)
  t.same(a['sensor.outside_temperature'].map((r: any) => r.s), b['sensor.outside_temperature'].map((r: any) => r.s))
})

t.test('statistics_during_period: ms timestamps, mean/min/max vs sum/state', async t => {
  const c = await client(t)
  const now = Date.now()
  const result = await c.ok({ type: 'recorder/statistics_during_period', start_time: iso(now - 3 * 86_400_000), end_time: iso(now), statistic_ids: ['sensor.outside_temperature', 'sensor.grid_consumption', 'sensor.nope'], period: 'hour' })
  t.notOk('sensor.nope' in result, 'unknown ids are absent')
  const temp = result['sensor.outside_temperature'] as Array<Record<string, number>>
  t.ok(temp.length >= 70)
  t.same(Object.keys(temp[0] ?? {}).sort(), ['end', 'max', 'mean', 'min', 'start'])
  t.equal((temp[0]?.end ?? 0) - (temp[0]?.start ?? 0), 3_600_000, 'milliseconds')
  t.ok((temp[0]?.start ?? 0) > 1e12)
  t.ok(temp.every(r => (r.min as number) <= (r.mean as number) && (r.mean as number) <= (r.max as number)))
  const energy = result['sensor.grid_consumption'] as Array<Record<string, number>>
  t.same(Object.keys(energy[0] ?? {}).sort(), ['change', 'end', 'last_reset', 'start', 'state', 'sum'])
  t.ok(energy.every((r, i) => i === 0 || (r.sum as number) >= (energy[i - 1]?.sum as number)), 'sum never decreases')
  const monthly = await c.ok({ type: 'recorder/statistics_during_period', start_time: iso(now - 200 * 86_400_000), statistic_ids: ['sensor.grid_consumption'], period: 'month', types: ['change'] })
  t.ok(monthly['sensor.grid_consumption'].length >= 5)
  t.same(Object.keys(monthly['sensor.grid_consumption'][0]).sort(), ['change', 'end', 'start'])
  const bad = await c.command({ type: 'recorder/statistics_during_period', start_time: iso(now), statistic_ids: ['sensor.outside_temperature'], period: 'fortnight' })
  t.equal(bad.error.code, 'invalid_format')
  const meta = await c.ok({ type: 'recorder/list_statistic_ids', statistic_type: 'sum' })
  t.ok(meta.some((m: any) => m.statistic_id === 'sensor.grid_consumption' && m.has_sum === true && m.unit_class === 'energy'))
})

t.test('logbook: state rows without name, automation rows, context chains', async t => {
  const c = await client(t)
  const now = Date.now()
  const rows = await c.ok({ type: 'logbook/get_events', start_time: iso(now - 3 * 86_400_000), end_time: iso(now) }) as Array<Record<string, any>>
  const wake = rows.find(r => r.domain === 'automation' && r.name === 'Wake up')
  t.ok(wake, 'time-triggered automation rows')
  t.equal(wake?.source, 'time 07:00:00')
  const lit = rows.find(r => r.context_id === wake?.context_id && r.entity_id !== 'automation.wake_up')
  t.equal(lit?.context_event_type, 'automation_triggered', 'the light row points at the automation')
  t.notOk('name' in (lit ?? {}), 'state rows carry no name')
  const welcome = rows.find(r => r.name === 'Welcome home')
  t.equal(welcome?.source, 'state of person.alice', 'person -> automation')
  t.ok(rows.some(r => r.entity_id === 'person.alice' && r.state === 'home' && r.when < welcome?.when))
  t.ok(rows.some(r => r.context_event_type === 'call_service' && typeof r.context_user_id === 'string'), 'a user-caused change')
  t.notOk(rows.some(r => r.entity_id === 'sensor.outside_temperature'), 'numeric sensors are excluded')
  t.ok(rows.every((r, i) => i === 0 || r.when >= rows[i - 1]?.when))
  t.type(rows[0]?.when, 'number')
  t.same(await c.ok({ type: 'logbook/get_events', start_time: iso(now - 86_400_000), entity_ids: ['sensor.outside_temperature'] }), [])
  const whole = { type: 'logbook/get_events', start_time: iso(now - 3 * 86_400_000), end_time: iso(now) }
  const unfiltered = await c.ok({ ...whole, entity_ids: [] }) as unknown[]
  t.ok(unfiltered.length > 0)
  t.same(unfiltered, await c.ok(whole), 'an empty entity_ids is the whole home, as in HA')

  const call = await c.ok({ type: 'call_service', domain: 'automation', service: 'trigger', target: { entity_id: 'automation.welcome_home' } })
  const after = await c.ok({ type: 'logbook/get_events', start_time: iso(now - 1000), entity_ids: ['automation.welcome_home'] }) as Array<Record<string, any>>
  t.match(after.at(-1), { name: 'Welcome home', message: 'triggered by action', domain: 'automation', context_user_id: call.context.user_id })
})

t.test('history/stream and logbook/event_stream: past first, then live rows', async t => {
  const c = await client(t)
  const now = Date.now()
  const hist = await c.subscribe({ type: 'history/stream', start_time: iso(now - 3_600_000), entity_ids: ['input_boolean.vacances'], minimal_response: true })
  const past = await c.nextEvent(hist)
  t.type(past.start_time, 'number')
  t.ok(past.start_time < 1e11, 'float seconds')
  t.ok(Array.isArray(past.states['input_boolean.vacances']))
  const book = await c.subscribe({ type: 'logbook/event_stream', start_time: iso(now - 3_600_000), entity_ids: ['input_boolean.vacances'] })
  t.ok(Array.isArray((await c.nextEvent(book)).events))
  const call = await c.ok({ type: 'call_service', domain: 'input_boolean', service: 'toggle', target: { entity_id: 'input_boolean.vacances' } })
  const liveRow = await c.nextEvent(hist)
  t.equal(liveRow.states['input_boolean.vacances'][0].s, home.getState('input_boolean.vacances')?.state)
  const liveBook = await c.nextEvent(book)
  t.match(liveBook.events[0], { entity_id: 'input_boolean.vacances', context_id: call.context.id, context_event_type: 'call_service', context_domain: 'input_boolean', context_service: 'toggle' })
  t.same(await c.ok({ type: 'unsubscribe_events', subscription: hist }), null)
})

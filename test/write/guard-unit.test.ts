import t from 'tap'
import { PRIMARY_IDENTITY, type Identity } from '../../src/auth/identity.ts'
import { isUserError } from '../../src/errors.ts'
import { DEFAULT_OPTIONS, type Options } from '../../src/options.ts'
import { ConfirmStore, stableJson } from '../../src/policy/confirm.ts'
import { WriteGuard } from '../../src/policy/guard.ts'
import type { AuditEntry, ServiceCallWrite, WriteRequest } from '../../src/policy/types.ts'
import { restoreCalls, UndoStore } from '../../src/policy/undo.ts'
import { fakeClock } from '../helper.ts'

const HOUSE = [{ entity_id: 'light.kitchen', area: 'kitchen' }, { entity_id: 'light.hall', area: 'hall' }, { entity_id: 'lock.door', area: 'hall' }]

function setup (overrides: Partial<Options> = {}, clock = { now: 1_000_000 }) {
  const sent: Array<Record<string, unknown>> = []
  const audit: Array<Omit<AuditEntry, 'time'>> = []
  const options = { ...DEFAULT_OPTIONS, ...overrides }
  const undo = new UndoStore()
  const guard = new WriteGuard({
    command: async message => { sent.push(message); return { context: {} } },
    options: () => options,
    audit: { record: entry => { audit.push(entry) }, recent: () => [] },
    confirms: new ConfirmStore({ now: () => clock.now }),
    undo,
    state: id => ({ state: 'on', attributes: { brightness: 100, color_mode: 'hs', hs_color: [10, 20], friendly_name: id } }),
    house: {
      entityIds: () => HOUSE.map(e => e.entity_id),
      registry: async () => ({
        entities: new Map(HOUSE.map(e => [e.entity_id, { entity_id: e.entity_id, area_id: e.area }])),
        areas: new Map(['kitchen', 'hall'].map(id => [id, { area_id: id, name: id }])),
        floors: new Map(),
        labels: new Map(),
        devices: new Map()
      })
    },
    now: () => clock.now
  })
  return { guard, sent, audit, undo, clock }
}

async function refusal (promise: Promise<unknown>): Promise<string> {
  try {
    await promise
  } catch (err) {
    if (isUserError(err)) return err.message
    throw err
  }
  throw new Error('expected a refusal')
}

const call = (extra: Partial<ServiceCallWrite> = {}): ServiceCallWrite => ({ kind: 'service', tool: 'test', domain: 'light', service: 'turn_on', target: { entity_id: 'light.kitchen' }, ...extra })

t.test('rule order: service denylist first, then entity lists, then indirect targets, then dry run', async t => {
  const { guard, sent, audit } = setup({ service_denylist: ['light.turn_on'], entity_denylist: ['light.kitchen'] })
  t.match(await refusal(guard.run(PRIMARY_IDENTITY, call({ target: { entity_id: 'light.kitchen', area_id: 'x' }, dryRun: true }))), /service_denylist/)
  t.match(await refusal(guard.run(PRIMARY_IDENTITY, call({ service: 'toggle', target: { entity_id: 'light.kitchen', area_id: 'x' }, dryRun: true }))), /entity_denylist/)
  t.match(await refusal(guard.run(PRIMARY_IDENTITY, call({ service: 'toggle', target: { entity_id: 'light.hall', area_id: 'x' }, dryRun: true }))), /area_id/)
  t.same(audit.map(a => a.reason), ['service_denylist', 'entity_denylist', 'indirect_target'])
  t.equal(sent.length, 0)
})

t.test('entity lists: denylist wins, non-empty allowlist denies by default, identity lists intersect', async t => {
  const { guard, sent } = setup({ entity_allowlist: ['light.*'], entity_denylist: ['light.secret*'] })
  t.match(await refusal(guard.run(PRIMARY_IDENTITY, call({ target: { entity_id: 'light.secret_room' } }))), /entity_denylist/)
  t.match(await refusal(guard.run(PRIMARY_IDENTITY, call({ target: { entity_id: 'switch.fan' } }))), /entity_allowlist/)
  t.match(await refusal(guard.run(PRIMARY_IDENTITY, call({ data: { entities: { 'switch.fan': 'on' } } }))), /entity_allowlist/, 'scene entities in data')
  const narrow: Identity = { id: 'token:1', name: 'tablet', levels: PRIMARY_IDENTITY.levels, entityAllowlist: ['light.hall'] }
  t.match(await refusal(guard.run(narrow, call())), /token's entity_allowlist/)
  t.equal(sent.length, 0)
  const done = await guard.run(narrow, call({ target: { entity_id: 'light.hall' } }))
  t.equal(done.status, 'done')
  t.equal(sent.length, 1)
})

t.test('area targeting is refused while only a token list is set', async t => {
  const { guard, sent } = setup()
  const listed: Identity = { id: 'token:2', name: 'x', levels: PRIMARY_IDENTITY.levels, entityDenylist: ['lock.*'] }
  t.match(await refusal(guard.run(listed, call({ target: { device_id: 'abc' } }))), /device_id/)
  const open = await guard.run(PRIMARY_IDENTITY, call({ target: { area_id: 'kitchen' } }))
  t.equal(open.status, 'done', 'no lists: area targeting allowed')
  t.equal(sent.length, 1)
  const hall = await guard.run(PRIMARY_IDENTITY, call({ domain: 'homeassistant', service: 'turn_off', target: { area_id: 'hall' } }))
  t.equal(hall.status, 'confirmation_required', 'an area holding a lock needs a confirmation for a generic service')
  t.equal(sent.length, 1)
})

t.test('without a house index, an indirect target asks for a confirmation (its reach is unknown)', async t => {
  const guard = new WriteGuard({ command: async () => ({}), options: () => DEFAULT_OPTIONS, audit: { record: () => {}, recent: () => [] } })
  const asked = await guard.run(PRIMARY_IDENTITY, call({ domain: 'homeassistant', service: 'turn_off', target: { area_id: 'hall' } }))
  t.equal(asked.status, 'confirmation_required')
  t.match((asked as { preview: string }).preview, /unknown/)
})

t.test('a dry run on a confirm domain issues no token and sends nothing', async t => {
  const { guard, sent, audit } = setup()
  const dry = await guard.run(PRIMARY_IDENTITY, call({ domain: 'lock', service: 'unlock', target: { entity_id: 'lock.door' }, dryRun: true }))
  t.equal(dry.status, 'dry_run')
  t.same(audit.map(a => a.outcome), ['dry_run'])
  t.equal(sent.length, 0)
})

t.test('a confirm domain is matched on the targeted entities too', async t => {
  const { guard, sent } = setup()
  const asked = await guard.run(PRIMARY_IDENTITY, call({ domain: 'homeassistant', service: 'turn_off', target: { entity_id: 'lock.door' } }))
  t.equal(asked.status, 'confirmation_required')
  t.equal(sent.length, 0)
})

t.test('config requests always need a confirmation and bind the base hash', async t => {
  const { guard, sent } = setup({ confirm_domains: [] })
  let executed = 0
  const request = (baseHash: string): WriteRequest => ({ kind: 'config', tool: 'ha_update_automation', domain: 'automation', action: 'update', data: { id: 'a1' }, confirm: { preview: '--- diff', baseHash }, execute: async () => { executed++; return 'ok' } })
  const asked = await guard.run(PRIMARY_IDENTITY, request('hash-1'))
  if (asked.status !== 'confirmation_required') throw new Error('expected a confirmation')
  t.equal(asked.preview, '--- diff', 'the preview is the config diff')
  t.match(await refusal(guard.run(PRIMARY_IDENTITY, { ...request('hash-2'), confirmToken: asked.confirm_token })), /changed in Home Assistant after the preview/, 'changed base refused as a conflict')
  const again = await guard.run(PRIMARY_IDENTITY, request('hash-1'))
  if (again.status !== 'confirmation_required') throw new Error('expected a confirmation')
  const done = await guard.run(PRIMARY_IDENTITY, { ...request('hash-1'), confirmToken: again.confirm_token })
  t.equal(done.status, 'done')
  t.equal(executed, 1)
  t.equal(sent.length, 0, 'execute replaces call_service')
})

t.test('the elicitation hook: accepted executes, declined is an audited refusal, unavailable falls back to a token', async t => {
  const { guard, sent, audit } = setup()
  const unlock = call({ domain: 'lock', service: 'unlock', target: { entity_id: 'lock.door' } })
  const yes = await guard.run(PRIMARY_IDENTITY, unlock, { confirmer: async preview => preview.entities.includes('lock.door') })
  t.equal(yes.status, 'done')
  t.match(await refusal(guard.run(PRIMARY_IDENTITY, unlock, { confirmer: async () => false })), /declined/)
  const broken = await guard.run(PRIMARY_IDENTITY, unlock, { confirmer: async () => { throw new Error('client gone') } })
  t.equal(broken.status, 'confirmation_required', 'a confirmer that fails gives a confirm token instead')
  const unavailable = await guard.run(PRIMARY_IDENTITY, unlock, { confirmer: async () => 'unavailable' })
  t.equal(unavailable.status, 'confirmation_required')
  t.equal(sent.length, 1, 'only the accepted call reached the house')
  t.same(audit.map(a => a.outcome), ['confirmation_given', 'refused', 'confirmation_asked', 'confirmation_asked'])
  t.equal(audit[1]?.reason, 'declined')
})

t.test('a failed call is audited as failed and leaves no undo record', async t => {
  const audit: Array<Omit<AuditEntry, 'time'>> = []
  const undo = new UndoStore()
  const guard = new WriteGuard({
    command: async () => { throw new Error('Home Assistant refused light.turn_on: boom') },
    options: () => DEFAULT_OPTIONS,
    audit: { record: entry => { audit.push(entry) }, recent: () => [] },
    undo,
    state: () => ({ state: 'off', attributes: {} })
  })
  await t.rejects(guard.run(PRIMARY_IDENTITY, call()), /boom/)
  t.same(audit.map(a => a.outcome), ['failed'])
  t.equal(undo.last('primary'), undefined)
})

t.test('confirm store: expiry, identity, bounded memory per identity', async t => {
  const clock = { now: 0 }
  const store = new ConfirmStore({ now: () => clock.now, maxPerIdentity: 3 })
  const pending = (identityId: string, call: string) => ({ identityId, call, shown: {}, preview: call })
  const first = store.create(pending('a', 'fp'))
  const others = store.create(pending('b', 'fp'))
  for (let i = 0; i < 5; i++) store.create(pending('a', `fp${i}`))
  t.equal(store.size('a'), 3, 'oldest dropped beyond the cap')
  t.same(store.consume('a', first, { call: 'fp', shown: {} }), { verdict: 'unknown' })
  t.match(store.consume('b', others, { call: 'fp', shown: {} }), { verdict: 'ok' }, 'another identity\'s pool is untouched')
  const token = store.create(pending('a', 'fp'))
  t.same(store.consume('b', token, { call: 'fp', shown: {} }), { verdict: 'other_identity' })
  t.same(store.consume('a', token, { call: 'fp', shown: {} }), { verdict: 'unknown' }, 'burnt by the failed attempt')
  const late = store.create(pending('a', 'fp'))
  clock.now += store.ttlMs
  t.same(store.consume('a', late, { call: 'fp', shown: {} }), { verdict: 'expired' })
  t.equal(stableJson({ b: 1, a: [{ d: 2, c: 3 }] }), stableJson({ a: [{ c: 3, d: 2 }], b: 1 }), 'fingerprints ignore key order')
})

t.test('undo is recorded per identity with the states before the call', async t => {
  const { guard, undo } = setup()
  await guard.run(PRIMARY_IDENTITY, call())
  const record = undo.last('primary')
  t.match(record, { tool: 'test', call: 'light.turn_on', at: 1_000_000, needs: 'allow_write', entities: ['light.kitchen'], services: ['light.turn_on'] }, 'stamped with the guard\'s clock')
  t.same(restoreCalls({ entity_id: 'light.kitchen', state: 'on', attributes: { brightness: 100, color_mode: 'hs', hs_color: [10, 20] } }), [{ domain: 'light', service: 'turn_on', target: { entity_id: 'light.kitchen' }, data: { brightness: 100, hs_color: [10, 20] } }])
  t.equal(undo.last('token:other'), undefined)
  t.same(restoreCalls({ entity_id: 'cover.blind', state: 'open', attributes: { current_position: 40 } })[0]?.data, { position: 40 })
  t.same(restoreCalls({ entity_id: 'climate.hall', state: 'heat', attributes: { temperature: 20 } }).map(c => c.service), ['set_hvac_mode', 'set_temperature'])
  t.same(restoreCalls({ entity_id: 'input_number.x', state: '4', attributes: {} })[0]?.data, { value: 4 })
  t.same(restoreCalls({ entity_id: 'sensor.x', state: '4', attributes: {} }), [])
})

t.test('a call that changes nothing answers without the settle wait', async t => {
  const clock = fakeClock()
  const states: Record<string, { state: string, attributes: Record<string, unknown> }> = { 'light.kitchen': { state: 'on', attributes: { brightness: 100 } }, 'light.hall': { state: 'off', attributes: {} } }
  const guard = new WriteGuard({
    command: async () => ({ context: { id: 'ctx' } }),
    options: () => DEFAULT_OPTIONS,
    audit: { record: () => {}, recent: () => [] },
    state: id => states[id],
    changes: () => () => {},
    schedule: clock.schedule,
    house: { entityIds: () => Object.keys(states), registry: async () => { throw new Error('not needed') } },
    now: clock.now
  })
  const settledBy = async (run: Promise<unknown>): Promise<unknown> => await Promise.race([run, new Promise(resolve => setImmediate(() => { resolve('still waiting') }))])
  const same = await settledBy(guard.run(PRIMARY_IDENTITY, call()))
  t.match(same, { status: 'done', unchanged: ['light.kitchen'] }, 'turning on a light that is on answers at once')
  t.same(clock.pending(), [], 'no settle timer was set')
  const changing = guard.run(PRIMARY_IDENTITY, call({ target: { entity_id: 'light.hall' } }))
  t.equal(await settledBy(changing), 'still waiting', 'a light that is off is waited for')
  t.same(clock.pending(), [1500])
  clock.advance(1500)
  t.match(await changing, { status: 'done' })
})

import t from 'tap'
import { entitiesMessageProblem } from '../../../src/ha/schemas.ts'
import { StateStore, type StateChange } from '../../../src/ha/state-store.ts'

t.test('subscribe_entities compressed format, applied as Home Assistant means it', async t => {
  const store = new StateStore()
  const changes: StateChange[] = []
  store.onChange(change => changes.push(change))
  store.apply({ a: { 'light.a': { s: 'on', a: { brightness: 180, friendly_name: 'A' }, c: '01ABC', lc: 1_700_000_000.5 } } })
  t.equal(store.ready, true, 'the first snapshot makes the map ready')
  const a = store.get('light.a')
  t.equal(a?.last_updated, a?.last_changed, 'lu omitted means equal to lc')
  t.same(a?.context, { id: '01ABC', parent_id: null, user_id: null }, 'a bare string context is an id')

  store.apply({ c: { 'light.a': { '+': { s: 'off', lc: 1_700_000_100, a: { brightness: null } }, '-': { a: ['friendly_name'] } } } })
  const changed = store.get('light.a')
  t.equal(changed?.state, 'off')
  t.equal(changed?.last_updated, changed?.last_changed, 'lc sets both')
  t.same(changed?.attributes, { brightness: null }, 'attributes merge and removals apply')

  store.apply({ c: { 'light.a': { '+': { lu: 1_700_000_200, c: { user_id: 'u1' } } } } })
  const touched = store.get('light.a')
  t.not(touched?.last_updated, touched?.last_changed, 'lu alone moves last_updated only')
  t.same(touched?.context, { id: '01ABC', parent_id: null, user_id: 'u1' }, 'context keys merge')
  store.apply({ c: { 'light.a': { '+': { lu: 1_700_000_300, c: '01DEF' } } } })
  t.same(store.get('light.a')?.context, { id: '01DEF', parent_id: null, user_id: 'u1' }, 'a bare id in a change: only the id changed, the user stays')

  store.apply({ r: ['light.a'] })
  t.equal(store.get('light.a'), undefined)
  t.same(changes.map(c => [c.entityId, c.newState?.state]), [['light.a', 'on'], ['light.a', 'off'], ['light.a', 'off'], ['light.a', 'off'], ['light.a', undefined]])
})

t.test('after a reconnect the next snapshot replaces the map: entities gone meanwhile disappear', async t => {
  const store = new StateStore()
  store.apply({ a: { 'switch.x': { s: 'on', lc: 1 }, 'switch.y': { s: 'off', lc: 1 } } })
  store.expectSnapshot()
  t.equal(store.ready, false)
  store.apply({ a: { 'switch.x': { s: 'off', lc: 2 } } })
  t.same([...store.ids()], ['switch.x'])
  t.equal(store.get('switch.x')?.state, 'off')
})

t.test('a malformed frame is recognised, with where, before it touches the map', async t => {
  t.equal(entitiesMessageProblem({ a: { 'light.a': { a: {} } } }), 'a.light.a.s: missing or not a value')
  t.equal(entitiesMessageProblem({ r: 'light.a' }), 'r: not a list of entity ids')
  t.equal(entitiesMessageProblem({ c: { 'light.a': { '+': { lc: 'soon' } } } }), 'c.light.a.+.lc: not a number')
  t.equal(entitiesMessageProblem([]), 'the message is not an object')
  t.equal(entitiesMessageProblem({ a: { 'sensor.t': { s: '21.5', a: { unit: '°C' }, c: { id: 'x', parent_id: null, user_id: null }, lc: 1, lu: 2, extra: true } } }), undefined, 'unknown keys pass')
  t.equal(entitiesMessageProblem({ c: { 'light.a': { '+': { a: { brightness: 3 } }, '-': { a: ['rgb_color'] } } } }), undefined, 'a diff without a state is fine')
})

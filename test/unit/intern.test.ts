import t from 'tap'
import { InternTable } from '../../src/intern.ts'
import { StateStore } from '../../src/ha/state-store.ts'

// Strings made at run time, as JSON.parse makes them: equal texts, separate copies.
const copy = (text: string): string => JSON.parse(JSON.stringify(text)) as string

t.test('equal short texts come back as one copy, values unchanged', async t => {
  const texts = new InternTable()
  const a = texts.intern(copy('measurement'))
  const b = texts.intern(copy('measurement'))
  t.equal(a, 'measurement')
  t.equal(b, a)
  const long = 'x'.repeat(41)
  t.equal(texts.intern(long), long, 'a long text passes through')
  t.equal(texts.size, 1, 'only the short one kept')
})

t.test('fields: string values and arrays of strings, in place; own values (ids, names) left out of the table', async t => {
  const texts = new InternTable()
  const record = { entity_id: copy('sensor.one_of_a_kind_entity'), name: copy('One Of A Kind'), unit: copy('°C'), modes: [copy('hs'), 2, copy('xy')], n: 4, nested: { a: 'b' } }
  const same = texts.internFields(record)
  t.equal(same, record, 'the record itself')
  t.same(record, { entity_id: 'sensor.one_of_a_kind_entity', name: 'One Of A Kind', unit: '°C', modes: ['hs', 2, 'xy'], n: 4, nested: { a: 'b' } }, 'values unchanged')
  t.equal(texts.size, 3, 'only the repeated kinds of value took a place (unit and two modes)')
})

t.test('bounded: once full, new texts pass through and the table stops growing', async t => {
  const texts = new InternTable()
  for (let i = 0; i < 20_000; i++) texts.intern(`reading-${i}`)
  t.equal(texts.size, 8192, 'at most 8192 kept')
  const fresh = copy('never-seen-before')
  t.equal(texts.intern(fresh), 'never-seen-before')
  t.equal(texts.size, 8192, 'nothing added once full')
})

t.test('the state store keeps states and attributes as sent, their repeated texts in the table it was given', async t => {
  const texts = new InternTable()
  const store = new StateStore(texts)
  store.apply({ a: { 'sensor.a': { s: '21.5', a: { unit_of_measurement: '°C', friendly_name: 'A', options: ['x', 'y'] }, lc: 1 } } })
  store.apply({ c: { 'sensor.a': { '+': { s: 'on', a: { state_class: 'measurement' } } } } })
  const state = store.get('sensor.a')
  t.equal(state?.state, 'on')
  t.same(state?.attributes, { unit_of_measurement: '°C', friendly_name: 'A', options: ['x', 'y'], state_class: 'measurement' })
  t.equal(texts.intern(copy('measurement')), 'measurement')
  t.equal(texts.size, 6, 'both states, the unit, the two options and the state class; not the friendly name')
})

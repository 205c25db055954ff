// The shared entity toolkit: what an entity id is, the one scrubber, the one config reader, the one confirm store.
// Mostly src/home/configs.ts; also src/home/entities.ts, src/home/visibility.ts and src/policy/confirm.ts.
import t from 'tap'
import type { EntityCatalog } from '../../../src/home/catalog.ts'
import { ConfigReader, configKey } from '../../../src/home/configs.ts'
import { domainOf, ENTITY_ID_IN_TEXT, isEntityId } from '../../../src/home/entities.ts'
import { HIDDEN, Visibility } from '../../../src/home/visibility.ts'
import type { HomeAssistant } from '../../../src/ha/index.ts'
import type { RegistrySnapshot } from '../../../src/ha/registries.ts'
import { ConfirmStore } from '../../../src/policy/confirm.ts'

t.test('entity ids: the pattern, the domain, ids inside text', async t => {
  t.ok(isEntityId('light.kitchen'))
  for (const bad of ['kitchen', 'Light.Kitchen', 'light.', '.kitchen', 'light.kitchen.x', 'light.kit chen', 42]) t.notOk(isEntityId(bad), `${String(bad)} is not an entity id`)
  t.equal(domainOf('binary_sensor.door'), 'binary_sensor')
  t.equal(domainOf('nodot'), 'nodot')
  t.same('Turned on light.hall, then (sensor.x).'.match(ENTITY_ID_IN_TEXT), ['light.hall', 'sensor.x'])
  t.same('"\\u00e9t.x" and \\nlight.y'.match(ENTITY_ID_IN_TEXT), null, 'never the tail of a JSON escape')
})

function fakeCatalog (rows: Array<{ entity_id: string, name: string, aliases?: string[] }>): { catalog: EntityCatalog, reads: () => number, bump: (text: boolean) => void } {
  let reads = 0
  const catalog = {
    version: 0,
    textVersion: 0,
    all: () => { reads++; return rows.map(row => ({ aliases: [], ...row })) }
  }
  return {
    catalog: catalog as unknown as EntityCatalog,
    reads: () => reads,
    bump: text => { catalog.version++; if (text) catalog.textVersion++ }
  }
}

t.test('the one scrubber: ids, names and aliases of hidden entities, one placeholder', async t => {
  const visibility = new Visibility({ filter_reads: true, entity_denylist: ['lock.*'] })
  const { catalog, reads, bump } = fakeCatalog([
    { entity_id: 'lock.front_door', name: 'Front Door Lock', aliases: ['Main entrance'] },
    { entity_id: 'light.hall', name: 'Hall Light' }
  ])
  t.equal(visibility.scrub('lock.front_door is "Front Door Lock" (Main entrance); light.hall stays', catalog),
    `${HIDDEN} is "${HIDDEN}" (${HIDDEN}); light.hall stays`)
  t.equal(visibility.scrub('lock.back_door was removed', catalog), `${HIDDEN} was removed`, 'a hidden id the catalogue no longer lists')
  t.equal(visibility.scrub('Entity lock.front_door not found.', catalog, ['lock.front_door']), 'Entity lock.front_door not found.', 'ids the caller sent are kept')
  const json = JSON.stringify({ note: 'Front Door Lock\nis lock.front_door' })
  t.same(JSON.parse(visibility.scrub(json, catalog)), { note: `${HIDDEN}\nis ${HIDDEN}` }, 'JSON stays JSON')

  const before = reads()
  bump(false)
  visibility.scrub('lock.front_door', catalog)
  t.equal(reads(), before, 'a state change does not rebuild the term list')
  bump(true)
  visibility.scrub('lock.front_door', catalog)
  t.equal(reads(), before + 1, 'a change of searchable text does')

  const off = new Visibility({ filter_reads: false, entity_denylist: ['lock.*'] })
  t.equal(off.scrub('lock.front_door', catalog), 'lock.front_door', 'a no-op without filter_reads')
})

t.test('the one config reader: keys, reads, and a source cache aged by the injected clock', async t => {
  const registries = { entities: new Map([['script.movie', { entity_id: 'script.movie', unique_id: 'movie_time' }]]) } as unknown as RegistrySnapshot
  t.equal(configKey('script', 'script.movie', undefined, registries), 'movie_time', 'a script\'s key is its registry unique_id')
  t.equal(configKey('script', 'script.other', undefined, registries), 'other', 'else its object id')
  t.equal(configKey('automation', 'automation.a', { attributes: { id: '17' } } as never, registries), '17')
  t.equal(configKey('automation', 'automation.b', { attributes: {} } as never, registries), undefined, 'a YAML automation without id')

  let now = 1_000_000
  const asked: string[] = []
  const answers: Record<string, number> = { '/api/config/automation/config/ui': 200, '/api/config/automation/config/yaml': 404, '/api/config/automation/config/busy': 503 }
  const ha = {
    rest: {
      request: async (_method: string, path: string) => {
        asked.push(path)
        const status = answers[path] ?? 404
        return { status, body: Buffer.from(status === 200 ? '{"alias":"A"}' : '{"message":"nope"}') }
      }
    }
  } as unknown as HomeAssistant
  const reader = new ConfigReader({ ha, now: () => now })
  t.same(await reader.stored('automation', 'ui'), { source: 'ui', config: { alias: 'A' } })
  t.same(await reader.stored('automation', 'yaml'), { source: 'yaml', config: null })
  t.equal(await reader.read('automation', 'yaml'), undefined)
  await t.rejects(reader.read('automation', 'busy'), { code: 'HAMCP_UNAVAILABLE' })
  t.equal(await reader.source('automation', 'busy'), 'yaml', 'a busy Home Assistant reads as yaml for listings')
  asked.length = 0
  t.equal(await reader.source('automation', 'ui'), 'ui')
  t.equal(await reader.source('automation', 'yaml'), 'yaml')
  t.same(asked, [], 'sources seen within the minute are not asked again')
  await reader.source('automation', 'busy')
  t.same(asked, ['/api/config/automation/config/busy'], 'a failed answer is never remembered')
  now += 60_001
  asked.length = 0
  await reader.source('automation', 'ui')
  t.same(asked, ['/api/config/automation/config/ui'], 'after a minute of the app\'s clock, asked again')
  t.equal(await reader.source('automation', undefined), 'yaml')
})

t.test('the one confirm store: what the preview showed changed is its own verdict, saying what changed', async t => {
  let now = 0
  const store = new ConfirmStore({ now: () => now, ttlMs: 1000 })
  const shown = { 'automation.wake_up (config hash)': 'aaa' }
  const token = store.create({ identityId: 'primary', call: 'fp-1', shown, preview: 'p' })
  t.match(store.consume('primary', token, { call: 'fp-1', shown: { 'automation.wake_up (config hash)': 'bbb' } }), { verdict: 'conflict', changes: ['automation.wake_up (config hash): was aaa, now bbb'], pending: { preview: 'p' } })
  const other = store.create({ identityId: 'primary', call: 'fp-1', shown, preview: 'p' })
  t.same(store.consume('primary', other, { call: 'fp-2', shown }), { verdict: 'mismatch' }, 'another call')
  const same = store.create({ identityId: 'primary', call: 'fp-1', shown, preview: 'p' })
  t.match(store.consume('primary', same, { call: 'fp-1', shown: { ...shown } }), { verdict: 'ok' })
  const late = store.create({ identityId: 'primary', call: 'fp-1', shown, preview: 'p' })
  now += 1000
  t.same(store.consume('primary', late, { call: 'fp-1', shown }), { verdict: 'expired' })
  t.same(store.consume('primary', late, { call: 'fp-1', shown }), { verdict: 'unknown' }, 'single use')
})

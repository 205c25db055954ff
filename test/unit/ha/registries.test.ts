import t from 'tap'
import { Registries } from '../../../src/ha/registries.ts'

interface Fake { calls: string[], command: (message: { type: string, [key: string]: unknown }) => Promise<unknown> }

function fakeHomeAssistant (options: { getEntries?: boolean, areaName?: () => string } = {}): Fake {
  const calls: string[] = []
  const lists: Record<string, () => unknown> = {
    'config/area_registry/list': () => [{ area_id: 'kitchen', name: options.areaName?.() ?? 'Kitchen', floor_id: 'ground' }],
    'config/floor_registry/list': () => [{ floor_id: 'ground', name: 'Ground', level: 0 }],
    'config/label_registry/list': () => [],
    'config/device_registry/list': () => [
      { id: 'hub', name: 'Hub', area_id: 'kitchen' },
      { id: 'child', name: 'Child', area_id: null, parent_device_id: 'hub' },
      { id: 'zigbee', name: 'Zigbee bulb', area_id: null, via_device_id: 'hub', parent_device_id: null }
    ],
    'config/entity_registry/list': () => [
      { entity_id: 'light.own', area_id: 'kitchen' },
      { entity_id: 'sensor.via_child', device_id: 'child' },
      { entity_id: 'switch.nowhere' },
      { entity_id: 'light.behind_hub', device_id: 'zigbee' },
      { not_an_entity: true }
    ]
  }
  return {
    calls,
    async command (message) {
      calls.push(message.type)
      if (message.type === 'config/entity_registry/get_entries') {
        if (options.getEntries === false) throw Object.assign(new Error('Unknown command.'), { haCode: 'unknown_command' })
        return Object.fromEntries((message.entity_ids as string[]).map(id => [id, { aliases: id === 'switch.nowhere' ? ['Sprinklers'] : [] }]))
      }
      const list = lists[message.type]
      if (!list) throw new Error(`unexpected ${message.type}`)
      return list()
    }
  }
}

const log = { warnings: [] as string[], warning (_obj: object, msg: string) { this.warnings.push(msg) } }

t.test('areas come from the entity, else its device, else the parent device; aliases are added', async t => {
  const fake = fakeHomeAssistant()
  const registries = new Registries(fake.command, log)
  const snapshot = await registries.snapshot()
  t.equal(snapshot.entityArea('light.own'), 'kitchen')
  t.equal(snapshot.entityArea('sensor.via_child'), 'kitchen', 'a child device inherits its parent area')
  t.equal(snapshot.entityArea('switch.nowhere'), null)
  t.equal(snapshot.entityFloor('sensor.via_child'), 'ground')
  t.equal(snapshot.entityArea('light.behind_hub'), null, 'nothing is inherited through a hub\'s via_device_id')
  t.equal(snapshot.deviceArea('zigbee'), null)
  t.same(snapshot.entities.get('switch.nowhere')?.aliases, ['Sprinklers'])
  t.equal(snapshot.entities.size, 4, 'a malformed entry is dropped, not fatal')
})

t.test('fetched once, shared in flight, refreshed after an invalidation', async t => {
  const fake = fakeHomeAssistant()
  const registries = new Registries(fake.command, log)
  const [a, b] = await Promise.all([registries.snapshot(), registries.snapshot()])
  t.equal(a, b, 'concurrent readers share one fetch')
  t.equal(fake.calls.filter(c => c === 'config/area_registry/list').length, 1)
  await registries.snapshot()
  t.equal(fake.calls.filter(c => c === 'config/area_registry/list').length, 1, 'served from cache')
  registries.invalidate('area')
  await registries.snapshot()
  t.equal(fake.calls.filter(c => c === 'config/area_registry/list').length, 2, 'an area_registry_updated refetches areas')
  t.equal(fake.calls.filter(c => c === 'config/entity_registry/list').length, 1, 'and only areas')
})

t.test('the TTL is a safety net: a stale snapshot is served while a fresh one is fetched', async t => {
  let now = 0
  let name = 'Kitchen'
  const fake = fakeHomeAssistant({ areaName: () => name })
  const registries = new Registries(fake.command, log, { ttlMs: 60_000, now: () => now })
  await registries.snapshot()
  name = 'Cuisine'
  now = 61_000
  const stale = await registries.snapshot()
  t.equal(stale.areas.get('kitchen')?.name, 'Kitchen', 'no waiting on the hot path')
  await new Promise(resolve => setImmediate(resolve))
  const fresh = await registries.snapshot()
  t.equal(fresh.areas.get('kitchen')?.name, 'Cuisine', 'the refresh landed')
})

t.test('an older Home Assistant without get_entries: no aliases, one warning, no failure', async t => {
  const fake = fakeHomeAssistant({ getEntries: false })
  log.warnings.length = 0
  const registries = new Registries(fake.command, log)
  const snapshot = await registries.snapshot()
  t.same(snapshot.entities.get('switch.nowhere')?.aliases, [])
  registries.invalidate('entity')
  await registries.snapshot()
  t.equal(fake.calls.filter(c => c === 'config/entity_registry/get_entries').length, 1, 'not asked again')
  t.equal(log.warnings.filter(w => w.includes('get_entries')).length, 1)
})

import t from 'tap'
import { Registries } from '../../../src/ha/registries.ts'

/**
 * An entity registry change reads only the entries it names again (config/entity_registry/get), as
 * Home Assistant's entity_registry_updated event says which: the whole list is megabytes on a big home.
 */
function fakeHome (): { calls: string[], entries: Map<string, Record<string, unknown>>, command: (message: { type: string, [key: string]: unknown }) => Promise<unknown> } {
  const calls: string[] = []
  const entries = new Map<string, Record<string, unknown>>([
    ['light.kitchen', { entity_id: 'light.kitchen', name: 'Kitchen', area_id: 'kitchen' }],
    ['switch.pump', { entity_id: 'switch.pump', name: 'Pump' }]
  ])
  return {
    calls,
    entries,
    async command (message) {
      calls.push(message.type)
      switch (message.type) {
        case 'config/area_registry/list': return [{ area_id: 'kitchen', name: 'Kitchen' }]
        case 'config/floor_registry/list':
        case 'config/label_registry/list':
        case 'config/device_registry/list': return []
        case 'config/entity_registry/list': return [...entries.values()]
        case 'config/entity_registry/get_entries': return Object.fromEntries((message.entity_ids as string[]).map(id => [id, { ...entries.get(id), aliases: [] }]))
        case 'config/entity_registry/get': {
          const entry = entries.get(message.entity_id as string)
          if (!entry) throw Object.assign(new Error('Entity not found'), { haCode: 'not_found' })
          return { ...entry, aliases: ['Alias'] }
        }
        default: throw new Error(`unexpected ${message.type}`)
      }
    }
  }
}

const log = { warning () {} }

t.test('a changed entity is read again alone, not the whole registry', async t => {
  const home = fakeHome()
  const registries = new Registries(home.command, log)
  await registries.snapshot()
  home.calls.length = 0
  home.entries.set('light.kitchen', { entity_id: 'light.kitchen', name: 'Cooking', area_id: 'kitchen' })
  registries.entityChanged({ action: 'update', entity_id: 'light.kitchen', changes: { name: 'Kitchen' } })
  const snapshot = await registries.snapshot()
  t.equal(snapshot.entities.get('light.kitchen')?.name, 'Cooking', 'the new name is seen')
  t.same(snapshot.entities.get('light.kitchen')?.aliases, ['Alias'], 'with its aliases')
  t.equal(snapshot.entities.get('switch.pump')?.name, 'Pump', 'the others are kept')
  t.same(home.calls, ['config/entity_registry/get'], 'one entry read, no list')
})

t.test('a renamed, a removed and a created entity', async t => {
  const home = fakeHome()
  const registries = new Registries(home.command, log)
  await registries.snapshot()
  home.calls.length = 0
  home.entries.delete('light.kitchen')
  home.entries.set('light.cooking', { entity_id: 'light.cooking', name: 'Kitchen' })
  registries.entityChanged({ action: 'update', entity_id: 'light.cooking', old_entity_id: 'light.kitchen', changes: { entity_id: 'light.kitchen' } })
  home.entries.delete('switch.pump')
  registries.entityChanged({ action: 'remove', entity_id: 'switch.pump' })
  home.entries.set('sensor.new', { entity_id: 'sensor.new', name: 'New' })
  registries.entityChanged({ action: 'create', entity_id: 'sensor.new' })
  const snapshot = await registries.snapshot()
  t.same([...snapshot.entities.keys()].sort(), ['light.cooking', 'sensor.new'])
  t.notOk(home.calls.includes('config/entity_registry/list'), 'no whole list read')
})

t.test('an event without an entity id reads the whole registry again', async t => {
  const home = fakeHome()
  const registries = new Registries(home.command, log)
  await registries.snapshot()
  home.calls.length = 0
  home.entries.set('switch.pump', { entity_id: 'switch.pump', name: 'Well pump' })
  registries.entityChanged({ action: 'update' })
  const snapshot = await registries.snapshot()
  t.equal(snapshot.entities.get('switch.pump')?.name, 'Well pump')
  t.ok(home.calls.includes('config/entity_registry/list'), 'the list is read again')
})

t.test('an entry that cannot be read again falls back to the whole list', async t => {
  const home = fakeHome()
  const registries = new Registries(async message => {
    if (message.type === 'config/entity_registry/get') throw Object.assign(new Error('boom'), { haCode: 'unknown_error' })
    return await home.command(message)
  }, log)
  await registries.snapshot()
  home.entries.set('switch.pump', { entity_id: 'switch.pump', name: 'Well pump' })
  registries.entityChanged({ action: 'update', entity_id: 'switch.pump' })
  const snapshot = await registries.snapshot()
  t.equal(snapshot.entities.get('switch.pump')?.name, 'Well pump')
})

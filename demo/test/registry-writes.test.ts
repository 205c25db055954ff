// Registry write commands as Home Assistant's websocket handlers answer them (components/config/*_registry.py,
// components/zone, components/homeassistant/exposed_entities.py).
import t, { type Test } from 'tap'
import { startDemoHome, type DemoHome } from '../index.ts'
import { RawClient } from './fixtures/ws-client.ts'

let home: DemoHome
t.before(async () => { home = await startDemoHome({ token: 'tok' }) })
t.teardown(() => home.close())

const client = async (t: Test): Promise<RawClient> => await RawClient.open(t, home)

t.test('floors and areas: ids from names, HA\'s errors, and a floor delete clears its areas', async t => {
  const c = await client(t)
  const floors = await c.subscribe({ type: 'subscribe_events', event_type: 'floor_registry_updated' })
  const areas = await c.subscribe({ type: 'subscribe_events', event_type: 'area_registry_updated' })
  const floor = await c.ok({ type: 'config/floor_registry/create', name: 'Attic', level: 3 })
  t.match(floor, { floor_id: 'attic', name: 'Attic', level: 3, aliases: [], icon: null })
  t.same((await c.nextEvent(floors)).data, { action: 'create', floor_id: 'attic' })
  const area = await c.ok({ type: 'config/area_registry/create', name: 'Loft', floor_id: 'attic' })
  t.equal(area.area_id, 'loft')
  t.same((await c.nextEvent(areas)).data, { action: 'create', area_id: 'loft' })
  t.same((await c.command({ type: 'config/area_registry/create', name: 'LOFT' })).error, { code: 'invalid_info', message: 'The name LOFT (loft) is already in use' })
  t.same((await c.command({ type: 'config/area_registry/update', area_id: 'nope', name: 'x' })).error, { code: 'invalid_info', message: "Area ID doesn't exist" })
  t.equal((await c.command({ type: 'config/floor_registry/create', name: 'Bad', level: 'high' })).error.code, 'invalid_format')
  t.match((await c.command({ type: 'config/area_registry/create', name: 'X', colour: 'red' })).error, { code: 'invalid_format', message: /extra keys not allowed/ })
  t.equal(await c.ok({ type: 'config/floor_registry/delete', floor_id: 'attic' }), null)
  t.same((await c.nextEvent(areas)).data, { action: 'update', area_id: 'loft' }, 'the area that was on it is updated')
  t.same((await c.nextEvent(floors)).data, { action: 'remove', floor_id: 'attic' })
  t.equal(home.house.areas.get('loft')?.floor_id, null)
  t.equal(await c.ok({ type: 'config/area_registry/delete', area_id: 'loft' }), 'success', 'areas answer "success"')
})

t.test('an area delete takes the area off its devices and entities', async t => {
  const c = await client(t)
  const entry = [...home.house.entities.values()].find(e => e.area_id !== null)!
  const area = entry.area_id as string
  const devices = [...home.house.devices.values()].filter(d => d.area_id === area).map(d => d.id)
  t.ok(devices.length > 0, `some device is in ${area}, so the device half below checks something`)
  const sub = await c.subscribe({ type: 'subscribe_events', event_type: 'entity_registry_updated' })
  await c.ok({ type: 'config/area_registry/delete', area_id: area })
  t.same((await c.nextEvent(sub)).data.changes, { area_id: area }, 'the entity update names the old area')
  t.equal(home.house.entities.get(entry.entity_id)?.area_id, null)
  for (const id of devices) t.equal(home.house.devices.get(id)?.area_id, null)
})

t.test('labels: colours checked, a delete removes the label everywhere', async t => {
  const c = await client(t)
  t.match((await c.command({ type: 'config/label_registry/create', name: 'Bad', color: 'sparkly' })).error, { code: 'invalid_format' })
  const label = await c.ok({ type: 'config/label_registry/create', name: 'Windows', color: '#00ff00', icon: 'mdi:window-closed' })
  t.equal(label.label_id, 'windows')
  const id = [...home.house.entities.keys()][0]!
  await c.ok({ type: 'config/entity_registry/update', entity_id: id, labels: ['windows'] })
  await c.ok({ type: 'config/label_registry/delete', label_id: 'windows' })
  t.notOk(home.house.entities.get(id)?.labels.includes('windows'))
})

t.test('categories are per scope with ULID ids', async t => {
  const c = await client(t)
  const created = await c.ok({ type: 'config/category_registry/create', scope: 'script', name: 'Heating' })
  t.match(created.category_id, /^[0-9A-Z]{26}$/)
  t.same((await c.ok({ type: 'config/category_registry/list', scope: 'automation' })).map((x: any) => x.name), ['Lighting'], 'other scopes are apart')
  t.same((await c.command({ type: 'config/category_registry/delete', scope: 'automation', category_id: created.category_id })).error, { code: 'invalid_info', message: "Category ID doesn't exist" })
  await c.ok({ type: 'config/category_registry/delete', scope: 'script', category_id: created.category_id })
})

t.test('zones are a collection: create, update, delete, with their entity', async t => {
  const c = await client(t)
  const zone = await c.ok({ type: 'zone/create', name: 'School', latitude: 52.1, longitude: 4.3 })
  t.same(zone, { radius: 100, passive: false, name: 'School', latitude: 52.1, longitude: 4.3, id: 'school' }, 'defaults as HA fills them')
  t.match(home.getState('zone.school'), { state: '0', attributes: { radius: 100, editable: true, friendly_name: 'School' } })
  t.ok(home.house.entities.has('zone.school'), 'registered like any storage zone')
  await c.ok({ type: 'zone/update', zone_id: 'school', radius: 300 })
  t.equal(home.getState('zone.school')?.attributes.radius, 300)
  t.same((await c.command({ type: 'zone/update', zone_id: 'nope', radius: 1 })).error, { code: 'not_found', message: 'Unable to find zone_id nope' })
  t.match((await c.command({ type: 'zone/create', name: 'Far', latitude: 95, longitude: 0 })).error, { code: 'invalid_format', message: /invalid latitude/ })
  t.ok((await c.ok({ type: 'zone/list' })).some((z: any) => z.id === 'school'))
  t.equal(await c.ok({ type: 'zone/delete', zone_id: 'school' }), null)
  t.notOk(home.getState('zone.school'))
})

t.test('entity updates: user-only flags, rename rules, disabling parks the state', async t => {
  const c = await client(t)
  const id = [...home.house.entities.values()].find(e => e.entity_id.startsWith('light.') && e.disabled_by === null)!.entity_id
  t.match((await c.command({ type: 'config/entity_registry/update', entity_id: id, hidden_by: 'integration' })).error, { code: 'invalid_format' })
  const other = [...home.house.entities.keys()].find(e => e.startsWith('light.') && e !== id)!
  t.same((await c.command({ type: 'config/entity_registry/update', entity_id: id, new_entity_id: other })).error, { code: 'invalid_info', message: 'Entity with this ID is already registered' })
  t.same((await c.command({ type: 'config/entity_registry/update', entity_id: id, new_entity_id: 'switch.x' })).error, { code: 'invalid_info', message: 'New entity ID should be same domain' })
  t.same((await c.command({ type: 'config/entity_registry/update', entity_id: id, new_entity_id: 'light.Bad Id' })).error, { code: 'invalid_info', message: 'Invalid entity ID' })
  const disabled = await c.ok({ type: 'config/entity_registry/update', entity_id: id, disabled_by: 'user' })
  t.notOk('reload_delay' in disabled, 'disabling needs no reload')
  t.notOk(home.getState(id), 'a disabled entity has no state')
  const enabled = await c.ok({ type: 'config/entity_registry/update', entity_id: id, disabled_by: null })
  t.equal(enabled.reload_delay, 30, 'enabling reloads the config entry')
  t.ok(home.getState(id), 'its state is back')
  const aliased = await c.ok({ type: 'config/entity_registry/update', entity_id: id, aliases: [' Lamp ', '', 'Lamp'] })
  t.same(aliased.entity_entry.aliases, ['Lamp'], 'aliases are stripped and deduplicated')
})

t.test('devices: disabling one disables its entities; an enabled entity of a disabled device is refused', async t => {
  const c = await client(t)
  const device = [...home.house.devices.values()].find(d => [...home.house.entities.values()].some(e => e.device_id === d.id && e.disabled_by === null))!
  const entity = [...home.house.entities.values()].find(e => e.device_id === device.id && e.disabled_by === null)!
  await c.ok({ type: 'config/device_registry/update', device_id: device.id, disabled_by: 'user' })
  t.equal(home.house.entities.get(entity.entity_id)?.disabled_by, 'device')
  t.same((await c.command({ type: 'config/entity_registry/update', entity_id: entity.entity_id, disabled_by: null })).error, { code: 'invalid_info', message: 'Device is disabled' })
  await c.ok({ type: 'config/device_registry/update', device_id: device.id, disabled_by: null })
  t.equal(home.house.entities.get(entity.entity_id)?.disabled_by, null, 'enabling the device brings them back')
})

t.test('exposure to Assist lives in the entity options and is listed', async t => {
  const c = await client(t)
  const id = [...home.house.entities.keys()].find(e => e.startsWith('light.'))!
  t.equal(await c.ok({ type: 'homeassistant/expose_entity', assistants: ['conversation'], entity_ids: [id], should_expose: false }), null)
  t.same(home.house.entities.get(id)?.options.conversation, { should_expose: false })
  t.same((await c.ok({ type: 'homeassistant/expose_entity/list' })).exposed_entities[id], { conversation: false })
  t.match((await c.command({ type: 'homeassistant/expose_entity', assistants: ['siri'], entity_ids: [id], should_expose: true })).error, { code: 'invalid_format' })
  t.same((await c.command({ type: 'homeassistant/expose_entity', assistants: ['conversation'], entity_ids: ['group.all_locks'], should_expose: true })).error, { code: 'not_allowed', message: "can't expose 'group.all_locks'" })
})

import t from 'tap'
import { callTool, connectClient, eventually, fakeClock, startHome, startServer } from '../helper.ts'
import type { DemoHome } from '../../demo/index.ts'
import { splitDevice } from '../../demo/device-split.ts'
import { SETTLE_MS } from '../../src/policy/reached.ts'
import { writeCatalog } from './catalog.ts'

const LIGHT = 'light.living_room_ceiling_light'
const LOCK = 'lock.front_door_lock'

const registryTypes = (home: DemoHome): string[] => home.registryWrites.map(w => String(w.type))

t.test('no silent success: every target is resolved before the call', async t => {
  const home = await startHome(t)
  const server = await startServer(t, { home, options: { allow_write: true }, app: { catalog: await writeCatalog() } })
  const client = await connectClient(t, server)
  const turnOff = (target: Record<string, unknown>, extra: Record<string, unknown> = {}): Promise<Awaited<ReturnType<typeof callTool>>> =>
    callTool(client, 'ha_call_service', { domain: 'light', service: 'turn_off', target, ...extra })

  t.test('an entity that does not exist is refused, with a suggestion when one is close', async t => {
    home.clearServiceCalls()
    const nope = await turnOff({ entity_id: 'light.nope' })
    t.ok(nope.isError, nope.text)
    t.equal(nope.code, 'HAMCP_ENTITY_NOT_FOUND')
    const close = await turnOff({ entity_id: 'light.living_room_ceiling' })
    t.equal(close.code, 'HAMCP_ENTITY_NOT_FOUND')
    t.match(close.text, LIGHT, 'the hint names the entity meant')
    const dry = await turnOff({ entity_id: 'light.nope' }, { dry_run: true })
    t.equal(dry.code, 'HAMCP_ENTITY_NOT_FOUND', 'a dry run says so too')
    t.equal(home.serviceCalls.length, 0, 'nothing reached the house')
  })

  t.test('an unknown area, and an area name where the id belongs, are refused', async t => {
    home.clearServiceCalls()
    const atlantis = await turnOff({ area_id: 'atlantis' })
    t.equal(atlantis.code, 'HAMCP_NOT_FOUND', atlantis.text)
    const byName = await turnOff({ area_id: 'Living Room' })
    t.equal(byName.code, 'HAMCP_NOT_FOUND')
    t.match(byName.text, /living_room/, 'the hint gives the id of the area so named')
    for (const field of ['device_id', 'floor_id', 'label_id']) {
      const unknown = await turnOff({ [field]: 'nowhere' })
      t.equal(unknown.code, 'HAMCP_NOT_FOUND', `unknown ${field}`)
    }
    t.equal(home.serviceCalls.length, 0, 'nothing reached the house')
  })

  t.test('a target that reaches no entity of the service\'s domain is refused', async t => {
    home.clearServiceCalls()
    const noLock = await callTool(client, 'ha_call_service', { domain: 'lock', service: 'lock', target: { area_id: 'garden' } })
    t.equal(noLock.code, 'HAMCP_ENTITY_NOT_FOUND', noLock.text)
    const wrongDomain = await callTool(client, 'ha_call_service', { domain: 'light', service: 'turn_on', target: { entity_id: 'switch.irrigation' } })
    t.equal(wrongDomain.code, 'HAMCP_WRONG_DOMAIN', wrongDomain.text)
    t.equal(home.serviceCalls.length, 0, 'nothing reached the house')
  })

  t.test('the answer and the audit list the entities an area target reached', async t => {
    home.clearServiceCalls()
    const done = await turnOff({ area_id: 'living_room' })
    t.notOk(done.isError, done.text)
    t.same(done.json.entities, [LIGHT], 'the answer names the light it turned off')
    t.equal(home.serviceCalls.length, 1)
    t.same(home.serviceCalls[0]?.target, { area_id: ['living_room'] }, 'the house got the area target')
    const line = server.app.services.policy.audit.recent(1)[0]
    t.same(line?.entities, [LIGHT], 'the audit line lists the light, not []')
  })
})

t.test('write answers say what happened', async t => {
  const clock = fakeClock()
  const home = await startHome(t)
  const server = await startServer(t, { home, options: { allow_write: true }, app: { catalog: await writeCatalog(), policy: { schedule: clock.schedule } } })
  const client = await connectClient(t, server)

  const on = await callTool(client, 'ha_call_service', { domain: 'light', service: 'turn_on', target: { entity_id: LIGHT }, data: { brightness_pct: 77 } })
  t.notOk(on.isError, on.text)
  t.equal(on.json.states?.[LIGHT], 'on, brightness 77 %', 'the state the light reached, in words')
  t.notOk(on.json.note, 'no "nothing changed" note')
  t.equal(home.getState(LIGHT)?.attributes.brightness, 196, 'the house has it')

  // The same call again changes nothing: Home Assistant writes no new state, the bounded wait runs out.
  const again = callTool(client, 'ha_call_service', { domain: 'light', service: 'turn_on', target: { entity_id: LIGHT }, data: { brightness_pct: 77 } })
  await eventually(() => clock.pending().length > 0, 5000, 'the settle timer')
  t.same(clock.pending(), [SETTLE_MS], 'one bounded wait')
  clock.advance(SETTLE_MS)
  const same = await again
  t.notOk(same.isError, same.text)
  t.match(same.json.note, /Nothing changed/)
  t.same(same.json.unchanged, [LIGHT])
  t.equal(same.json.states?.[LIGHT], 'on, brightness 77 %')
  t.equal(home.serviceCalls.filter(c => c.service === 'turn_on').length, 2, 'both calls reached the house')
})

t.test('Home Assistant\'s validation errors and unknown services are the caller\'s to fix', async t => {
  const home = await startHome(t)
  const server = await startServer(t, { home, options: { allow_write: true }, app: { catalog: await writeCatalog() } })
  const client = await connectClient(t, server)
  home.clearServiceCalls()
  const lots = await callTool(client, 'ha_call_service', { domain: 'light', service: 'turn_on', target: { entity_id: LIGHT }, data: { brightness_pct: 'lots' } })
  t.equal(lots.code, 'HAMCP_INVALID_ARGUMENT', lots.text)
  t.match(lots.text, /brightness_pct/, 'says which field')
  const explode = await callTool(client, 'ha_call_service', { domain: 'light', service: 'explode', target: { entity_id: LIGHT } })
  t.equal(explode.code, 'HAMCP_NOT_FOUND', explode.text)
  t.equal(home.serviceCalls.length, 1, 'the invalid data reached Home Assistant, which refused it; the unknown service never recorded a call')
  t.equal(home.getState(LIGHT)?.attributes.brightness, 60, 'the light did not change')
  t.same(server.app.services.policy.audit.recent(2).map(e => e.outcome), ['failed', 'failed'])
})

t.test('entity lists read effective membership: an entity sits in its device\'s area', async t => {
  const home = await startHome(t)
  // The lock has no area of its own: its device is in the hallway, on the ground floor; the device carries a label.
  const lockEntry = home.house.entities.get(LOCK)
  const device = home.house.devices.get(lockEntry?.device_id ?? '')
  t.equal(lockEntry?.area_id, null)
  t.equal(device?.area_id, 'hallway')
  // Only this device carries the label, so only membership through the device can reach a lock.
  for (const item of [...home.house.devices.values(), ...home.house.entities.values(), ...home.house.areas.values()]) item.labels = item.labels.filter(l => l !== 'critical')
  device?.labels.push('critical')
  const server = await startServer(t, { home, options: { allow_write: true, allow_config_write: true, entity_denylist: ['lock.*'] } })
  const client = await connectClient(t, server)
  home.registryWrites.length = 0
  for (const [kind, id] of [['area', 'hallway'], ['floor', 'ground_floor'], ['label', 'critical']]) {
    const deleted = await callTool(client, 'ha_manage_registry', { kind, action: 'delete', id })
    t.equal(deleted.code, 'HAMCP_DENIED_ENTITY', `deleting ${kind} ${id}: ${deleted.text}`)
    t.match(deleted.text, LOCK)
  }
  t.same(registryTypes(home), [], 'no delete reached the house')
  t.ok(home.house.areas.has('hallway'), 'the hallway is still there')

  const elsewhere = await callTool(client, 'ha_manage_registry', { kind: 'area', action: 'delete', id: 'garden', dry_run: true })
  t.notOk(elsewhere.isError, `an area without a denied entity can still be deleted: ${elsewhere.text}`)
})

t.test('child devices and hubs: an area reaches the outlets of a power strip, never what sits behind a hub', async t => {
  const home = await startHome(t)
  const house = home.house
  const outlets = ['switch.irrigation', 'switch.shelly_pro_2pm_channel_1']
  const strip = house.devices.get(house.devices.get(house.entities.get('switch.irrigation')?.device_id ?? '')?.parent_device_id ?? '')
  t.ok(strip, 'the demo home has a power strip whose outlets are child devices')
  // An area with no switch of its own: only the strip's child outlets, which have no area, can put one there.
  const area = [...house.areas.keys()].find(id => ![...house.entities.keys()].some(e => e.startsWith('switch.') && house.areaOf(e) === id)) as string
  if (strip) strip.area_id = area
  for (const id of outlets) t.equal(house.entities.get(id)?.area_id, null, `${id} has no area of its own`)
  // A Zigbee lamp behind the coordinator (via_device_id), its area cleared: in no area at all.
  const bulbLight = 'light.living_room_lamp'
  const bulb = house.devices.get(house.entities.get(bulbLight)?.device_id ?? '')
  const hub = house.devices.get(bulb?.via_device_id ?? '')
  t.ok(hub?.area_id, 'the lamp is behind a hub that has an area')
  for (const item of [bulb, house.entities.get(bulbLight)]) if (item) item.area_id = null
  const server = await startServer(t, { home, options: { allow_write: true } })
  const client = await connectClient(t, server)

  home.clearServiceCalls()
  const on = await callTool(client, 'ha_call_service', { domain: 'switch', service: 'turn_on', target: { area_id: area } })
  t.notOk(on.isError, `Home Assistant carries out this call, so must we: ${on.text}`)
  t.same(on.json?.entities, outlets.slice().sort(), 'the answer names both outlets')
  for (const id of outlets) t.equal(home.getState(id)?.state, 'on', `${id} was switched on in the house`)

  const got = await callTool(client, 'ha_get_entity', { entity_id: bulbLight })
  t.equal(got.json.area, null, 'a bulb behind a hub is not in the hub\'s area')
  const inHubArea = await callTool(client, 'ha_list_devices', { area: hub?.area_id, limit: 200 })
  t.notOk(inHubArea.json.items.some((d: { id: string }) => d.id === bulb?.id), 'nor listed among the hub area\'s devices')
  const offThere = await callTool(client, 'ha_call_service', { domain: 'light', service: 'turn_off', target: { area_id: hub?.area_id }, dry_run: true })
  t.notOk((offThere.json?.entities ?? []).includes(bulbLight), 'and an area call there does not reach it, in Home Assistant or here')

  const guarded = await startServer(t, { home, options: { allow_write: true, allow_config_write: true, entity_denylist: ['switch.irrigation'] } })
  const guardedClient = await connectClient(t, guarded)
  const deleted = await callTool(guardedClient, 'ha_manage_registry', { kind: 'area', action: 'delete', id: area })
  t.equal(deleted.code, 'HAMCP_DENIED_ENTITY', `deleting the strip's area would empty a denied outlet's: ${deleted.text}`)
  t.ok(house.areas.has(area), 'the area is still there')
})

t.test('a device id from before the 2026.8 split: refused with the way to the devices that replaced it', async t => {
  const home = await startHome(t)
  const oldId = home.house.entities.get(LIGHT)?.device_id as string
  const splits = splitDevice(home.house, oldId, 'matter_entry')
  const server = await startServer(t, { home, options: { allow_write: true, allow_config_write: true } })
  const client = await connectClient(t, server)
  home.clearServiceCalls()
  const byOldId = await callTool(client, 'ha_call_service', { domain: 'light', service: 'turn_off', target: { device_id: oldId } })
  t.equal(byOldId.code, 'HAMCP_NOT_FOUND', 'the add-on cannot check an id Home Assistant lists nowhere, so it refuses it')
  t.match(byOldId.text, /2026\.8/, 'and says why, and where the new ids are')
  t.equal(home.serviceCalls.length, 0, 'nothing reached the house')
  const update = await callTool(client, 'ha_update_device', { device_id: oldId, labels: ['+lighting'] })
  t.equal(update.code, 'HAMCP_NOT_FOUND')
  t.match(update.text, /2026\.8/)
  const listed = await callTool(client, 'ha_list_devices', { limit: 200 })
  const found = listed.json.items.filter((d: { id: string }) => splits.includes(d.id))
  t.equal(found.length, 2, 'both devices that replaced it are listed')
  const byNewId = await callTool(client, 'ha_call_service', { domain: 'light', service: 'turn_off', target: { device_id: splits } })
  t.notOk(byNewId.isError, byNewId.text)
  t.same(byNewId.json.entities, [LIGHT])
})

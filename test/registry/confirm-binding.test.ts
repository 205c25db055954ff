import t from 'tap'
import { callTool, connectClient, eventually, setSeen, startHome, startServer } from '../helper.ts'
import { ownerCommand } from './_owner.ts'

// A confirmation approves what its preview showed. When the owner changes that in Home Assistant
// between the preview and the yes, the answer is HAMCP_CONFLICT with a fresh preview, and nothing is written.
t.test('a confirm token is bound to what its preview showed', async t => {
  const home = await startHome(t, { entities: 200 })
  const server = await startServer(t, { home, options: { allow_write: true, allow_config_write: true } })
  const client = await connectClient(t, server)
  const house = home.house
  const seen = async (check: (snapshot: Awaited<ReturnType<typeof server.app.services.ha.registries.snapshot>>) => boolean): Promise<void> => {
    await eventually(async () => check(await server.app.services.ha.registries.snapshot()), 5000, 'the add-on to see the owner\'s edit')
  }

  t.test('delete area "used by nothing", then the owner moves a device into it', async t => {
    const created = await callTool(client, 'ha_manage_registry', { kind: 'area', action: 'create', name: 'Spare Room' })
    t.equal(created.json.id, 'spare_room', created.text)
    const asked = await callTool(client, 'ha_manage_registry', { kind: 'area', action: 'delete', id: 'spare_room' })
    t.equal(asked.json.confirmation_required, true, asked.text)
    t.match(asked.json.preview, /used by nothing/)
    const device = [...house.devices.values()].find(d => d.area_id !== 'spare_room')!
    await ownerCommand(home, { type: 'config/device_registry/update', device_id: device.id, area_id: 'spare_room' })
    await seen(s => s.devices.get(device.id)?.area_id === 'spare_room')
    const writes = home.registryWrites.length
    const done = await callTool(client, 'ha_manage_registry', { kind: 'area', action: 'delete', id: 'spare_room', confirm_token: asked.json.confirm_token })
    t.equal(done.code, 'HAMCP_CONFLICT', done.text)
    t.ok(house.areas.has('spare_room'), 'the area was not deleted')
    t.equal(house.devices.get(device.id)?.area_id, 'spare_room', 'the device kept its area')
    t.equal(home.registryWrites.length, writes, 'nothing reached the house')
    t.match(done.text, /used by devices: now/, 'says what changed')
    t.match(done.text, /still used by 1 devices/, 'shows the new preview')
    t.equal(server.app.services.policy.audit.recent(1)[0]?.reason, 'confirm_token_conflict')
    const stale = await callTool(client, 'ha_manage_registry', { kind: 'area', action: 'delete', id: 'spare_room', confirm_token: asked.json.confirm_token })
    t.equal(stale.code, 'HAMCP_CONFIRM_TOKEN_INVALID', 'the old token is burnt')
  })

  t.test('delete area, then the owner moves entities into it: HAMCP_CONFLICT, not TOKEN_INVALID', async t => {
    await callTool(client, 'ha_manage_registry', { kind: 'area', action: 'create', name: 'Box Room' })
    const asked = await callTool(client, 'ha_manage_registry', { kind: 'area', action: 'delete', id: 'box_room' })
    t.match(asked.json.preview, /used by nothing/)
    const entity = [...house.entities.values()].find(e => !e.entity_id.startsWith('lock.'))!
    await ownerCommand(home, { type: 'config/entity_registry/update', entity_id: entity.entity_id, area_id: 'box_room' })
    await seen(s => s.entities.get(entity.entity_id)?.area_id === 'box_room')
    const done = await callTool(client, 'ha_manage_registry', { kind: 'area', action: 'delete', id: 'box_room', confirm_token: asked.json.confirm_token })
    t.equal(done.code, 'HAMCP_CONFLICT', done.text)
    t.ok(house.areas.has('box_room'), 'the area was not deleted')
    t.equal(house.entities.get(entity.entity_id)?.area_id, 'box_room', 'the entity kept its area')
    // The conflict's fresh confirmation approves the new preview.
    const token = (done as any).json?.confirm_token ?? /confirm_token ([0-9a-f]{32})/.exec(done.text)?.[1]
    t.ok(token, 'the conflict carries a fresh confirm_token')
    const again = await callTool(client, 'ha_manage_registry', { kind: 'area', action: 'delete', id: 'box_room', confirm_token: token })
    t.notOk(again.isError, again.text)
    t.notOk(house.areas.has('box_room'), 'confirmed against the new preview, the delete goes through')
  })

  t.test('an entity edit: the owner changes a field being changed', async t => {
    const ids = [...house.entities.values()].filter(e => /^(light|switch)\./.test(e.entity_id)).slice(0, 2).map(e => e.entity_id)
    const asked = await callTool(client, 'ha_update_entities', { entity_ids: ids, name: 'Same Name' })
    t.equal(asked.json.confirmation_required, true, asked.text)
    await ownerCommand(home, { type: 'config/entity_registry/update', entity_id: ids[0], name: 'Owner Name' })
    const done = await callTool(client, 'ha_update_entities', { entity_ids: ids, name: 'Same Name', confirm_token: asked.json.confirm_token })
    t.equal(done.code, 'HAMCP_CONFLICT', done.text)
    t.equal(house.entities.get(ids[0]!)?.name, 'Owner Name', 'the owner\'s name stays')
    t.not(house.entities.get(ids[1]!)?.name, 'Same Name', 'the other entity was not written either')
    t.match(done.text, new RegExp(`${ids[0]!.replace('.', '\\.')} name: was .*, now "Owner Name"`))
  })

  t.test('a service call: the target\'s state changed since the preview', async t => {
    const lock = home.entityIds().find(id => id.startsWith('lock.') && home.getState(id)?.state === 'locked')!
    const asked = await callTool(client, 'ha_call_service', { domain: 'lock', service: 'unlock', target: { entity_id: lock } })
    t.equal(asked.json.confirmation_required, true, asked.text)
    await setSeen(t, server, lock, 'jammed')
    home.clearServiceCalls()
    const done = await callTool(client, 'ha_call_service', { domain: 'lock', service: 'unlock', target: { entity_id: lock }, confirm_token: asked.json.confirm_token })
    t.equal(done.code, 'HAMCP_CONFLICT', done.text)
    t.match(done.text, /state: was locked, now jammed/)
    t.same(home.serviceCalls, [], 'nothing reached the house')
  })
})

t.test('a conflict\'s fresh preview stays under the 15 KB answer cap, and its token still works', async t => {
  const home = await startHome(t)
  const server = await startServer(t, { home, options: { allow_write: true } })
  const client = await connectClient(t, server)
  const lock = 'lock.front_door_lock'
  await setSeen(t, server, lock, 'locked')
  const args = { domain: 'lock', service: 'unlock', target: { entity_id: lock }, data: { code: '"'.repeat(30_000) } }
  const asked = await callTool(client, 'ha_call_service', args)
  t.equal(asked.json.confirmation_required, true, asked.text.slice(0, 200))
  await setSeen(t, server, lock, 'jammed')
  const conflict = await client.callTool({ name: 'ha_call_service', arguments: { ...args, confirm_token: asked.json.confirm_token } })
  const bytes = Buffer.byteLength(JSON.stringify(conflict))
  const error = (conflict.structuredContent as { error?: { code?: string, details?: { confirm_token?: string } } }).error
  t.equal(error?.code, 'HAMCP_CONFLICT')
  t.ok(bytes <= 15_000, `the conflict answer is ${bytes} bytes`)
  home.clearServiceCalls()
  const done = await callTool(client, 'ha_call_service', { ...args, confirm_token: error?.details?.confirm_token })
  t.notOk(done.isError, done.text.slice(0, 200))
  t.equal(home.serviceCalls.filter(call => call.service === 'unlock').length, 1, 'the fresh token unlocks, once')
})

import t from 'tap'
import { caughtUp, connectClient, dropConnections, startHome, startServer } from '../helper.ts'
import { call, ownerCommand } from './_owner.ts'

// Undo never overwrites newer work: what changed since the add-on's write is a conflict, said as
// such, and only a confirmation of that conflict forces the older values back.
t.test('ha_undo compares what is there now with what the add-on wrote', async t => {
  const home = await startHome(t, { entities: 200 })
  const server = await startServer(t, { home, options: { allow_write: true, allow_config_write: true } })
  const client = await connectClient(t, server)
  const house = home.house

  t.test('an entity renamed again by the owner: conflict, the owner\'s name kept; the confirmation forces', async t => {
    const id = [...house.entities.values()].find(e => e.entity_id.startsWith('switch.'))!.entity_id
    const original = house.entities.get(id)!.name
    const renamed = await call(client, 'ha_update_entities', { entity_ids: [id], name: 'Add-on Name' })
    t.notOk(renamed.isError, renamed.text)
    t.equal(house.entities.get(id)?.name, 'Add-on Name')
    await ownerCommand(home, { type: 'config/entity_registry/update', entity_id: id, name: 'Owner Name' })
    const writes = home.registryWrites.length
    const undone = await call(client, 'ha_undo')
    t.equal(undone.code, 'HAMCP_CONFLICT', undone.text)
    t.match(undone.text, new RegExp(`${id.replace('.', '\\.')} name: was "Add-on Name", now "Owner Name"`), 'says what changed')
    t.equal(house.entities.get(id)?.name, 'Owner Name', 'the owner\'s name is kept')
    t.equal(home.registryWrites.length, writes, 'nothing reached the house')
    t.ok(undone.details?.confirm_token, 'offers a confirmation to force')
    const forced = await call(client, 'ha_undo', { confirm_token: undone.details.confirm_token })
    t.notOk(forced.isError, forced.text)
    t.equal(house.entities.get(id)?.name, original, 'confirmed, undo puts the older name back')
    t.same(forced.json.overwrites, undone.details.changes, 'and says what it overwrote')
  })

  t.test('an area the add-on created, then the owner put an entity in it: conflict, the area stays', async t => {
    const created = await call(client, 'ha_manage_registry', { kind: 'area', action: 'create', name: 'Hobby Room' })
    t.equal(created.json?.id, 'hobby_room', created.text)
    const entity = [...house.entities.values()].find(e => e.entity_id.startsWith('light.'))!.entity_id
    await ownerCommand(home, { type: 'config/entity_registry/update', entity_id: entity, area_id: 'hobby_room' })
    const undone = await call(client, 'ha_undo')
    t.equal(undone.code, 'HAMCP_CONFLICT', undone.text)
    t.match(undone.text, /area hobby_room used by: was nothing, now light\./)
    t.ok(house.areas.has('hobby_room'), 'the area was not deleted')
    t.equal(house.entities.get(entity)?.area_id, 'hobby_room', 'the entity stays in it')
  })

  t.test('a light the add-on turned on, then the owner dimmed: conflict, the owner\'s brightness kept', async t => {
    const light = home.entityIds().find(id => id.startsWith('light.') && home.getState(id)?.state === 'off')!
    const on = await call(client, 'ha_call_service', { domain: 'light', service: 'turn_on', target: { entity_id: light }, data: { brightness: 100 } })
    t.notOk(on.isError, on.text)
    await ownerCommand(home, { type: 'call_service', domain: 'light', service: 'turn_on', target: { entity_id: light }, service_data: { brightness: 30 } })
    await caughtUp(server)
    t.equal(server.app.services.ha.states.get(light)?.attributes.brightness, 30, 'the add-on sees the owner\'s change')
    home.clearServiceCalls()
    const undone = await call(client, 'ha_undo')
    t.equal(undone.code, 'HAMCP_CONFLICT', undone.text)
    t.match(undone.text, new RegExp(`${light.replace('.', '\\.')}: was as the write left it, now changed since`))
    t.same(home.serviceCalls, [], 'nothing reached the house')
    t.equal(home.getState(light)?.state, 'on', 'the light stays as the owner left it')
    t.equal(home.getState(light)?.attributes.brightness, 30)
  })

  t.test('nothing changed since: undo restores as before', async t => {
    const light = home.entityIds().find(id => id.startsWith('light.') && home.getState(id)?.state === 'off')!
    await call(client, 'ha_call_service', { domain: 'light', service: 'turn_on', target: { entity_id: light } })
    await caughtUp(server)
    t.equal(server.app.services.ha.states.get(light)?.state, 'on', 'the add-on sees the change')
    const undone = await call(client, 'ha_undo')
    t.notOk(undone.isError, undone.text)
    t.equal(home.getState(light)?.state, 'off')
  })

  t.test('a scene the add-on edited, then the owner edited: conflict, the owner\'s edit kept; the confirmation forces', async t => {
    const stored = async (): Promise<any> => JSON.parse((await server.app.services.ha.rest.request('GET', '/api/config/scene/config/1700000000101')).body.toString('utf8'))
    const before = await stored()
    const args = { kind: 'scene', id: 'scene.movie', action: 'update', config: { icon: 'mdi:filmstrip' } }
    const asked = await call(client, 'ha_manage_config', args)
    t.notOk((await call(client, 'ha_manage_config', { ...args, confirm_token: asked.json.confirm_token })).isError)
    await server.app.services.ha.rest.request('POST', '/api/config/scene/config/1700000000101', { ...(await stored()), name: 'Owner Cinema' })
    const writes = home.configWrites.length
    const undone = await call(client, 'ha_undo')
    t.equal(undone.code, 'HAMCP_CONFLICT', undone.text)
    t.match(undone.text, /scene .* edited since/)
    t.equal(home.configWrites.length, writes, 'nothing reached the house')
    t.equal((await stored()).name, 'Owner Cinema', 'the owner\'s edit is kept')
    const forced = await call(client, 'ha_undo', { confirm_token: undone.details.confirm_token })
    t.notOk(forced.isError, forced.text)
    t.same(await stored(), before, 'confirmed, the config from before the add-on\'s edit is back')
  })

  t.test('after a reconnect, a light nobody touched since is restored, one the owner changed is not', async t => {
    const [mine, theirs] = home.entityIds().filter(id => id.startsWith('light.') && home.getState(id)?.state === 'off').slice(0, 2) as [string, string]
    const on = await call(client, 'ha_call_service', { domain: 'light', service: 'turn_on', target: { entity_id: [mine, theirs] } })
    t.notOk(on.isError, on.text)
    await caughtUp(server)
    t.ok(server.app.services.ha.states.get(mine)?.state === 'on' && server.app.services.ha.states.get(theirs)?.state === 'on', 'the add-on sees the change')
    await dropConnections(home, server.app.services.ha)
    const clean = await call(client, 'ha_undo', { dry_run: true })
    t.notOk(clean.isError, clean.text)
    t.notOk(clean.json.overwrites, 'states reloaded after the reconnect still read as this write left them')
    await ownerCommand(home, { type: 'call_service', domain: 'light', service: 'turn_off', target: { entity_id: theirs } })
    await ownerCommand(home, { type: 'call_service', domain: 'light', service: 'turn_on', target: { entity_id: theirs }, service_data: { brightness: 7 } })
    await caughtUp(server)
    t.equal(server.app.services.ha.states.get(theirs)?.attributes.brightness, 7, 'the add-on sees the change')
    home.clearServiceCalls()
    const undone = await call(client, 'ha_undo')
    t.equal(undone.code, 'HAMCP_CONFLICT', undone.text)
    t.match(undone.text, new RegExp(theirs.replace('.', '\\.')))
    t.same(home.serviceCalls, [], 'nothing reached the house')
  })

  t.test('after a reconnect, the owner\'s change is still seen as one', async t => {
    const id = [...house.entities.values()].find(e => e.entity_id.startsWith('sensor.'))!.entity_id
    const edited = await call(client, 'ha_update_entities', { entity_ids: [id], icon: 'mdi:addon' })
    t.notOk(edited.isError, edited.text)
    await dropConnections(home, server.app.services.ha)
    await ownerCommand(home, { type: 'config/entity_registry/update', entity_id: id, icon: 'mdi:owner' })
    const undone = await call(client, 'ha_undo')
    t.equal(undone.code, 'HAMCP_CONFLICT', undone.text)
    t.equal((house.entities.get(id) as { icon?: string | null } | undefined)?.icon, 'mdi:owner', 'the owner\'s icon is kept')
  })
})

// Attacks on ha_undo's forcing confirmation: the token that forces an undo over newer work must act
// only on the record and the changes it showed, for the identity it was given to.
t.test('a forcing undo confirmation acts only on what it showed', async t => {
  const home = await startHome(t)
  const server = await startServer(t, { home, options: { allow_write: true, allow_config_write: true } })
  const client = await connectClient(t, server)
  const offLights = (): string[] => home.entityIds().filter(id => id.startsWith('light.') && home.getState(id)?.state === 'off')

  /** The add-on turns a light on at 100, the owner dims it: ha_undo answers a conflict with a forcing token. */
  async function conflicted (light: string): Promise<string> {
    const on = await call(client, 'ha_call_service', { domain: 'light', service: 'turn_on', target: { entity_id: light }, data: { brightness: 100 } })
    t.notOk(on.isError, on.text)
    await ownerCommand(home, { type: 'call_service', domain: 'light', service: 'turn_on', target: { entity_id: light }, service_data: { brightness: 30 } })
    await caughtUp(server)
    t.equal(server.app.services.ha.states.get(light)?.attributes.brightness, 30, 'the add-on sees the owner\'s change')
    const undone = await call(client, 'ha_undo')
    t.equal(undone.code, 'HAMCP_CONFLICT', undone.text)
    return undone.details.confirm_token as string
  }

  t.test('the owner changes it again after the conflict was shown: the force token does not overwrite that', async t => {
    const light = offLights()[0]!
    const token = await conflicted(light)
    await ownerCommand(home, { type: 'call_service', domain: 'light', service: 'turn_on', target: { entity_id: light }, service_data: { brightness: 10 } })
    await caughtUp(server)
    t.equal(server.app.services.ha.states.get(light)?.attributes.brightness, 10, 'the add-on sees the second change')
    home.clearServiceCalls()
    const forced = await call(client, 'ha_undo', { confirm_token: token })
    t.equal(forced.isError, true, forced.text)
    t.same(home.serviceCalls, [], 'nothing reached the house')
    t.equal(home.getState(light)?.attributes.brightness, 10, 'the owner\'s newest brightness is kept')
  })

  // Found by attack: the guard ignored a confirm_token on a write that needs no confirmation, so the
  // force token shown for the first light's undo undid a newer, unconflicted write instead. A token
  // presented to any write is now redeemed, and one bound to another call is refused.
  t.test('a newer write by the add-on since: the old force token does not undo it', async t => {
    const [first, second] = offLights()
    const token = await conflicted(first!)
    const other = await call(client, 'ha_call_service', { domain: 'light', service: 'turn_on', target: { entity_id: second }, data: { brightness: 50 } })
    t.notOk(other.isError, other.text)
    home.clearServiceCalls()
    const forced = await call(client, 'ha_undo', { confirm_token: token })
    t.equal(forced.isError, true, forced.text)
    t.equal(forced.code, 'HAMCP_CONFIRM_TOKEN_INVALID')
    t.same(home.serviceCalls, [], 'nothing reached the house')
    t.equal(home.getState(second!)?.state, 'on', 'the newer write stands')
  })

  t.test('another identity: neither its undo nor the force token acts on this identity\'s write', async t => {
    const light = offLights()[0]!
    const token = await conflicted(light)
    const { token: tablet } = await server.app.services.tokens.create({ name: 'tablet', scopes: ['read', 'write'] })
    const other = await connectClient(t, server, tablet)
    home.clearServiceCalls()
    const foreign = await call(other, 'ha_undo', { confirm_token: token })
    t.equal(foreign.isError, true, foreign.text)
    const plain = await call(other, 'ha_undo')
    t.equal(plain.code, 'HAMCP_NOT_FOUND', 'the tablet has nothing of its own to undo')
    t.same(home.serviceCalls, [], 'nothing reached the house')
    t.equal(home.getState(light)?.attributes.brightness, 30)
    // The foreign attempt never reached the store: the owner's own confirmation still works, for its record.
    const forced = await call(client, 'ha_undo', { confirm_token: token })
    t.notOk(forced.isError, forced.text)
    t.equal(home.getState(light)?.state, 'off', 'the owner\'s client forced its own undo')
  })
})

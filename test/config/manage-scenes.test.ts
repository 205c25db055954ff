// Scenes as config through ha_manage_config: previews, confirmations, the base-hash guard, undo, gates.
import t from 'tap'
import { callTool, connectClient, startHome, startServer } from '../helper.ts'

const MANAGE = 'ha_manage_config'

t.test('ha_manage_config kind scene', async t => {
  const home = await startHome(t)
  const server = await startServer(t, { home, options: { allow_config_write: true } })
  const client = await connectClient(t, server)
  const stored = async (id: string): Promise<{ status: number, config: any }> => {
    const answer = await server.app.services.ha.rest.request('GET', `/api/config/scene/config/${id}`)
    return { status: answer.status, config: answer.status === 200 ? JSON.parse(answer.body.toString('utf8')) : undefined }
  }
  const confirmed = async (args: Record<string, unknown>): Promise<any> => {
    const asked = await callTool(client, MANAGE, args)
    t.notOk(asked.isError, asked.text)
    t.equal(asked.json.confirmation_required, true, 'a scene edit always needs a confirmation')
    const done = await callTool(client, MANAGE, { ...args, confirm_token: asked.json.confirm_token })
    t.notOk(done.isError, done.text)
    return { asked: asked.json, done: done.json }
  }
  const undo = async (): Promise<any> => {
    const asked = await callTool(client, 'ha_undo', {})
    t.notOk(asked.isError, asked.text)
    t.equal(asked.json.confirmation_required, true, 'undoing a config change is confirmed like one')
    const done = await callTool(client, 'ha_undo', { confirm_token: asked.json.confirm_token })
    t.notOk(done.isError, done.text)
    return { asked: asked.json, done: done.json }
  }
  const light = home.entityIds().find(id => id.startsWith('light.')) as string

  t.test('create: the dry run changes nothing, the confirmed call makes the scene entity, undo deletes it', async t => {
    const config = { name: 'Reading corner', icon: 'mdi:book', entities: { [light]: { state: 'on', brightness: 120 } } }
    const dry = await callTool(client, MANAGE, { kind: 'scene', action: 'create', config, dry_run: true })
    t.notOk(dry.isError, dry.text)
    t.equal(dry.json.dry_run, true)
    t.match(dry.json.preview, /^name: Reading corner\n/m)
    t.same(home.configWrites, [], 'nothing reached the house')
    t.notOk(home.getState('scene.reading_corner'))

    const { asked, done } = await confirmed({ kind: 'scene', action: 'create', config })
    t.match(asked.preview, /brightness: 120/)
    t.equal(done.entity_id, 'scene.reading_corner')
    t.equal(done.undo_available, true)
    t.match((await stored(done.id)).config, { id: done.id, name: 'Reading corner', icon: 'mdi:book', entities: { [light]: { state: 'on', brightness: 120 } } })
    const entity = await callTool(client, 'ha_get_entity', { entity_id: 'scene.reading_corner' })
    t.notOk(entity.isError, 'visible in the read tools at once')
    t.match(server.app.services.policy.audit.recent(1)[0], { tool: MANAGE, outcome: 'confirmation_given', domain: 'scene', service: 'create' })

    const reverted = await undo()
    t.match(reverted.asked.preview, /will be deleted again/)
    t.equal((await stored(done.id)).status, 404, 'the config is gone')
    t.equal(home.getState('scene.reading_corner'), undefined, 'scene entity removed from the house by the time the undo answers')
    t.match(server.app.services.policy.audit.recent(1)[0], { tool: 'ha_undo', outcome: 'confirmation_given', operation: 'undo scene.create', service: undefined })
  })

  t.test('update merges keys and shows a diff; undo restores the exact previous config', async t => {
    const before = await stored('1700000000101')
    const { asked } = await confirmed({ kind: 'scene', id: 'scene.movie', action: 'update', config: { icon: 'mdi:movie', entities: { [light]: { state: 'on', brightness: 10 } } } })
    t.match(asked.preview, /^--- scene\.movie \(current\)\n\+\+\+ scene\.movie \(proposed\)\n/)
    t.match(asked.preview, /\n\+icon: mdi:movie/)
    const after = await stored('1700000000101')
    t.equal(after.config.icon, 'mdi:movie')
    t.same(after.config.entities, { [light]: { state: 'on', brightness: 10 } })
    t.same(home.getState('scene.movie')?.attributes.entity_id, [light], 'the scene entity follows its config')
    await undo()
    t.same((await stored('1700000000101')).config, before.config, 'exactly the previous config')
  })

  t.test('delete needs a confirmation; undo recreates it under the same id', async t => {
    const before = await stored('1700000000100')
    const dry = await callTool(client, MANAGE, { kind: 'scene', id: 'scene.good_night', action: 'delete', dry_run: true })
    t.equal(dry.json.dry_run, true)
    t.ok(home.getState('scene.good_night'), 'dry run deleted nothing')
    const { asked, done } = await confirmed({ kind: 'scene', id: 'scene.good_night', action: 'delete' })
    t.match(asked.preview, /^# scene\.good_night will be deleted:\nid: "?1700000000100"?\nname: Good night\n/)
    t.match(done.deleted_yaml, /name: Good night/)
    t.equal((await stored('1700000000100')).status, 404)
    t.notOk(home.getState('scene.good_night'), 'entity removed from the state machine')
    const reverted = await undo()
    t.match(reverted.asked.preview, /recreated with the same id/)
    t.same((await stored('1700000000100')).config, before.config)
    t.equal(reverted.done.entity_id, 'scene.good_night', 'the entity comes back')
  })

  t.test('a scene edited meanwhile voids the confirmation', async t => {
    const args = { kind: 'scene', id: 'scene.movie', action: 'update', config: { name: 'Cinema' } }
    const asked = await callTool(client, MANAGE, args)
    const current = (await stored('1700000000101')).config
    await server.app.services.ha.rest.request('POST', '/api/config/scene/config/1700000000101', { ...current, icon: 'mdi:popcorn' })
    const done = await callTool(client, MANAGE, { ...args, confirm_token: asked.json.confirm_token })
    t.ok(done.isError)
    t.match(done.text, /changed in Home Assistant after the preview/)
    t.equal((await stored('1700000000101')).config.name, 'Movie', 'not renamed')
  })

  t.test('refusals before anything is written', async t => {
    home.configWrites.length = 0
    const noName = await callTool(client, MANAGE, { kind: 'scene', action: 'create', config: { entities: { [light]: 'on' } } })
    t.ok(noName.isError)
    t.match(noName.text, /config\.name: a scene needs a name/)
    const listed = await callTool(client, MANAGE, { kind: 'scene', action: 'create', config: { name: 'Lamps', entities: [light] } })
    t.match(listed.text, /HAMCP_INVALID_ARGUMENT/)
    t.match(listed.text, /config\.entities: an object of entity id to state/)
    const dynamic = await callTool(client, 'ha_get_entity', { entity_id: 'scene.movie' })
    t.notOk(dynamic.isError)
    const unknown = await callTool(client, MANAGE, { kind: 'scene', id: 'scene.nowhere', action: 'delete' })
    t.match(unknown.text, /scene\.nowhere not found/)
    const wrongAction = await callTool(client, MANAGE, { kind: 'scene', id: 'scene.movie', action: 'move' })
    t.match(wrongAction.text, /create, update or delete/)
    t.same(home.configWrites, [])
  })
})

t.test('scene gates: entity_denylist, service_denylist, allow_config_write', async t => {
  const home = await startHome(t)
  const light = home.entityIds().find(id => id.startsWith('light.')) as string
  const config = { name: 'Denied', entities: { [light]: 'on' } }

  const denied = await startServer(t, { home, options: { allow_config_write: true, entity_denylist: ['light.*'] } })
  const deniedClient = await connectClient(t, denied)
  const byEntity = await callTool(deniedClient, MANAGE, { kind: 'scene', action: 'create', config })
  t.ok(byEntity.isError)
  t.match(byEntity.text, new RegExp(`${light.replace('.', '\\.')} is refused by entity_denylist`))
  t.match(denied.app.services.policy.audit.recent(1)[0], { outcome: 'refused', reason: 'entity_denylist' })

  const noScenes = await startServer(t, { home, options: { allow_config_write: true, service_denylist: ['scene.*'] } })
  const noScenesClient = await connectClient(t, noScenes)
  const byService = await callTool(noScenesClient, MANAGE, { kind: 'scene', id: 'scene.movie', action: 'delete' })
  t.ok(byService.isError)
  t.match(byService.text, /scene\.delete is refused by the service_denylist/)

  const readOnly = await startServer(t, { home, options: {} })
  const readOnlyClient = await connectClient(t, readOnly)
  const names = (await readOnlyClient.listTools()).tools.map(tool => tool.name)
  t.notOk(names.includes(MANAGE), 'not listed without allow_config_write')
  t.notOk(names.includes('ha_undo'))
  await t.rejects(callTool(readOnlyClient, MANAGE, { kind: 'scene', action: 'create', config }), /ha_manage_config/, 'an unlisted tool cannot be called')
  t.same(home.configWrites, [], 'nothing reached the house')
  t.same(home.serviceCalls, [])
})

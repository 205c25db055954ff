import t from 'tap'
import { callTool, connectClient, startHome, startServer } from '../helper.ts'
import { writeCatalog } from './catalog.ts'

t.test('helpers: created and deleted through the guarded path', async t => {
  const home = await startHome(t)
  const server = await startServer(t, { home, options: { allow_write: true }, app: { catalog: await writeCatalog() } })
  const client = await connectClient(t, server)

  const dry = await callTool(client, 'ha_create_helper', { helper_type: 'input_boolean', name: 'Write test flag', dry_run: true })
  t.equal(dry.json.dry_run, true)
  t.equal(home.getState('input_boolean.write_test_flag'), undefined, 'a dry run creates nothing')

  const created = await callTool(client, 'ha_create_helper', { helper_type: 'input_boolean', name: 'Write test flag', options: { type: 'sneaky', icon: 'mdi:account' } })
  t.notOk(created.isError, created.text)
  t.equal(created.json.helper.id, 'write_test_flag')
  t.ok(home.getState('input_boolean.write_test_flag'), 'the helper exists in the house')

  const bad = await callTool(client, 'ha_create_helper', { helper_type: 'input_number', name: 'Broken', options: { min: 5, max: 1 } })
  t.ok(bad.isError, 'Home Assistant\'s validation error comes back as a tool error')

  t.ok(server.app.services.home.entity('input_boolean.write_test_flag') !== undefined, 'helper in the catalogue')
  const deleted = await callTool(client, 'ha_delete_helper', { entity_id: 'input_boolean.write_test_flag' })
  t.notOk(deleted.isError, deleted.text)
  t.equal(home.getState('input_boolean.write_test_flag'), undefined, 'the helper is gone')

  const notHelper = await callTool(client, 'ha_delete_helper', { entity_id: 'light.kuche_ceiling_light' })
  t.ok(notHelper.isError)
  t.equal(notHelper.code, 'HAMCP_WRONG_DOMAIN')
  t.equal(server.app.services.policy.audit.recent(10).filter(e => e.tool === 'ha_create_helper').length, 3, 'every helper attempt is audited')
})

t.test('deleting a helper obeys the entity lists', async t => {
  const home = await startHome(t)
  const server = await startServer(t, { home, options: { allow_write: true, entity_denylist: ['input_number.*'] }, app: { catalog: await writeCatalog() } })
  const client = await connectClient(t, server)
  const refused = await callTool(client, 'ha_delete_helper', { entity_id: 'input_number.target_temperature' })
  t.ok(refused.isError)
  t.ok(home.getState('input_number.target_temperature'), 'still there')
})

t.test('ha_update_helper: a dry run shows the change and writes nothing, the call changes the stored helper, undo restores it', async t => {
  const home = await startHome(t)
  const server = await startServer(t, { home, options: { allow_write: true }, app: { catalog: await writeCatalog() } })
  const client = await connectClient(t, server)
  const stored = async (type: string, id: string): Promise<any> => ((await server.app.services.ha.command({ type: `${type}/list` })) as any[]).find(item => item.id === id)

  const created = await callTool(client, 'ha_create_helper', { helper_type: 'input_number', name: 'Boiler target', options: { min: 30, max: 60, step: 1 } })
  t.notOk(created.isError, created.text)
  t.ok(server.app.services.home.entity('input_number.boiler_target') !== undefined, 'helper in the catalogue')
  const before = await stored('input_number', 'boiler_target')

  const dry = await callTool(client, 'ha_update_helper', { entity_id: 'input_number.boiler_target', options: { max: 70 }, dry_run: true })
  t.notOk(dry.isError, dry.text)
  t.match(dry.json.preview, /\n-max: 60\n\+max: 70\n/)
  t.same(await stored('input_number', 'boiler_target'), before, 'the dry run wrote nothing')

  const done = await callTool(client, 'ha_update_helper', { entity_id: 'input_number.boiler_target', options: { max: 70 } })
  t.notOk(done.isError, done.text)
  t.equal((await stored('input_number', 'boiler_target')).max, 70)
  t.equal(home.getState('input_number.boiler_target')?.attributes.max, 70, 'the entity follows')
  t.equal(done.json.undo_available, true)
  t.match(server.app.services.policy.audit.recent(1)[0], { tool: 'ha_update_helper', domain: 'input_number', service: 'update' })

  const refused = await callTool(client, 'ha_update_helper', { entity_id: 'input_number.boiler_target', options: { min: 90 } })
  t.equal(refused.code, 'HAMCP_INVALID_ARGUMENT', 'Home Assistant\'s own validation comes back as an argument error')
  t.match(refused.text, /not greater than minimum/)
  t.equal((await stored('input_number', 'boiler_target')).min, 30, 'nothing changed')

  const asked = await callTool(client, 'ha_undo', {})
  t.notOk(asked.isError, asked.text)
  const undone = asked.json.confirm_token ? await callTool(client, 'ha_undo', { confirm_token: asked.json.confirm_token }) : asked
  t.notOk(undone.isError, undone.text)
  t.same(await stored('input_number', 'boiler_target'), before, 'exactly the previous fields')
})

t.test('schedule and input_button helpers are created, changed and deleted', async t => {
  const home = await startHome(t)
  const server = await startServer(t, { home, options: { allow_write: true }, app: { catalog: await writeCatalog() } })
  const client = await connectClient(t, server)
  const created = await callTool(client, 'ha_create_helper', { helper_type: 'schedule', name: 'Heating hours', options: { monday: [{ from: '06:00:00', to: '08:00:00' }] } })
  t.notOk(created.isError, created.text)
  t.ok(home.getState('schedule.heating_hours'))
  const overlapping = await callTool(client, 'ha_create_helper', { helper_type: 'schedule', name: 'Bad hours', options: { monday: [{ from: '06:00', to: '08:00' }, { from: '07:00', to: '09:00' }] } })
  t.equal(overlapping.code, 'HAMCP_INVALID_ARGUMENT')
  t.match(overlapping.text, /Overlapping times/)
  t.notOk(home.getState('schedule.bad_hours'), 'nothing created')
  t.ok(server.app.services.home.entity('schedule.heating_hours') !== undefined, 'schedule in the catalogue')
  const changed = await callTool(client, 'ha_update_helper', { entity_id: 'schedule.heating_hours', options: { tuesday: [{ from: '18:00:00', to: '22:00:00' }] } })
  t.notOk(changed.isError, changed.text)
  const stored = ((await server.app.services.ha.command({ type: 'schedule/list' })) as any[]).find(item => item.id === 'heating_hours')
  t.same(stored.monday, [{ from: '06:00:00', to: '08:00:00' }])
  t.same(stored.tuesday, [{ from: '18:00:00', to: '22:00:00' }])

  const button = await callTool(client, 'ha_create_helper', { helper_type: 'input_button', name: 'Doorbell test' })
  t.notOk(button.isError, button.text)
  t.ok(server.app.services.home.entity('input_button.doorbell_test') !== undefined, 'button in the catalogue')
  const deleted = await callTool(client, 'ha_delete_helper', { entity_id: 'input_button.doorbell_test' })
  t.notOk(deleted.isError, deleted.text)
  t.notOk(home.getState('input_button.doorbell_test'))
})

t.test('undo of a helper create deletes it; undo of a delete creates it again with its fields', async t => {
  const home = await startHome(t)
  const server = await startServer(t, { home, options: { allow_write: true }, app: { catalog: await writeCatalog() } })
  const client = await connectClient(t, server)
  const undo = async (): Promise<any> => {
    const asked = await callTool(client, 'ha_undo', {})
    t.notOk(asked.isError, asked.text)
    const done = asked.json.confirm_token ? await callTool(client, 'ha_undo', { confirm_token: asked.json.confirm_token }) : asked
    t.notOk(done.isError, done.text)
    return done.json
  }
  const created = await callTool(client, 'ha_create_helper', { helper_type: 'counter', name: 'Cups of coffee', options: { step: 2 } })
  t.notOk(created.isError, created.text)
  t.equal(created.json.undo_available, true)
  t.ok(home.getState('counter.cups_of_coffee'))
  await undo()
  t.notOk(home.getState('counter.cups_of_coffee'), 'undo deleted the created helper')

  const again = await callTool(client, 'ha_create_helper', { helper_type: 'counter', name: 'Glasses of water', options: { step: 3, maximum: 12 } })
  t.notOk(again.isError, again.text)
  t.ok(server.app.services.home.entity('counter.glasses_of_water') !== undefined, 'counter in the catalogue')
  const deleted = await callTool(client, 'ha_delete_helper', { entity_id: 'counter.glasses_of_water' })
  t.notOk(deleted.isError, deleted.text)
  t.equal(deleted.json.undo_available, true)
  t.notOk(home.getState('counter.glasses_of_water'))
  await undo()
  const back = ((await server.app.services.ha.command({ type: 'counter/list' })) as any[]).find(item => item.name === 'Glasses of water')
  t.match(back, { step: 3, maximum: 12 }, 'created again with its fields')
  t.ok(home.getState('counter.glasses_of_water'), 'the entity is back')
})

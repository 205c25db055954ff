import t from 'tap'
import { callTool, connectClient, eventually, startHome, startServer } from '../helper.ts'
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

  await eventually(() => server.app.services.home.entity('input_boolean.write_test_flag') !== undefined, 5000, 'helper in the catalogue')
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

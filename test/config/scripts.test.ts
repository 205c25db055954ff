// Scripts and blueprints go through the same validated, confirmed, hash-guarded flow as automations.
import t from 'tap'
import { callTool, connectClient, startHome, startServer } from '../helper.ts'

t.test('scripts: create, update, delete', async t => {
  const home = await startHome(t)
  const server = await startServer(t, { home, options: { allow_config_write: true } })
  const client = await connectClient(t, server)
  const light = home.entityIds().find(id => id.startsWith('light.')) as string
  const create = { alias: 'Réveil doux', sequence: [{ action: 'light.turn_on', target: { entity_id: light }, data: { brightness_pct: 10 } }] }

  const invalid = await callTool(client, 'ha_create_script', { alias: 'Broken', sequence: [{ action: 'not a service' }] })
  t.ok(invalid.isError)
  t.equal(invalid.code, 'HAMCP_CONFIG_REJECTED')
  t.match(invalid.text, /Home Assistant rejected the script: actions: Service not a service does not match format/)

  const asked = await callTool(client, 'ha_create_script', create)
  t.notOk(asked.isError, asked.text)
  t.match(asked.json.preview, /^alias: Réveil doux\n/)
  t.equal(home.getState('script.reveil_doux'), undefined)
  const done = await callTool(client, 'ha_create_script', { ...create, confirm_token: asked.json.confirm_token })
  t.notOk(done.isError, done.text)
  t.equal(done.json.entity_id, 'script.reveil_doux', 'id is the slug of the alias, accents folded')
  t.ok(home.getState('script.reveil_doux'))

  const taken = await callTool(client, 'ha_create_script', create)
  t.ok(taken.isError)
  t.equal(taken.code, 'HAMCP_ALREADY_EXISTS')

  const change = { entity_id: 'script.reveil_doux', mode: 'restart', description: null }
  const diff = await callTool(client, 'ha_update_script', change)
  t.notOk(diff.isError, diff.text)
  t.match(diff.json.preview, /\n-description: ""\n/, 'null removes a key')
  t.match(diff.json.preview, /\n-mode: single\n\+mode: restart\n/)
  const updated = await callTool(client, 'ha_update_script', { ...change, confirm_token: diff.json.confirm_token })
  t.notOk(updated.isError, updated.text)
  t.match(updated.json.previous_yaml, /mode: single/)

  const yamlOnly = await callTool(client, 'ha_delete_script', { entity_id: 'script.flash_hallway' })
  t.ok(yamlOnly.isError)
  t.equal(yamlOnly.code, 'HAMCP_NOT_SUPPORTED')

  const del = await callTool(client, 'ha_delete_script', { entity_id: 'script.reveil_doux' })
  t.notOk(del.isError, del.text)
  const gone = await callTool(client, 'ha_delete_script', { entity_id: 'script.reveil_doux', confirm_token: del.json.confirm_token })
  t.notOk(gone.isError, gone.text)
  t.match(gone.json.deleted_yaml, /alias: Réveil doux\n[\s\S]*mode: restart/)
  t.equal(home.getState('script.reveil_doux'), undefined, 'script removed from the house by the time the tool answers')
})

t.test('create from blueprint checks the blueprint and its inputs', async t => {
  const home = await startHome(t)
  const server = await startServer(t, { home, options: { allow_config_write: true } })
  const client = await connectClient(t, server)
  const motion = home.entityIds().find(id => id.startsWith('binary_sensor.') && id.includes('motion')) as string
  const light = home.entityIds().find(id => id.startsWith('light.')) as string
  const path = 'homeassistant/motion_light.yaml'

  const unknown = await callTool(client, 'ha_create_from_blueprint', { blueprint_path: 'nope.yaml', alias: 'X' })
  t.ok(unknown.isError)
  t.equal(unknown.code, 'HAMCP_NOT_FOUND')
  t.match(unknown.text, /No automation blueprint at nope\.yaml[\s\S]*homeassistant\/motion_light\.yaml/)

  const missing = await callTool(client, 'ha_create_from_blueprint', { blueprint_path: path, alias: 'Hall motion', inputs: { motion_entity: motion, colour: 'red' } })
  t.ok(missing.isError)
  t.equal(missing.code, 'HAMCP_INVALID_ARGUMENT')
  t.match(missing.text, /missing required inputs: light_target; unknown inputs: colour/)

  const inputs = { motion_entity: motion, light_target: { entity_id: light } }
  const asked = await callTool(client, 'ha_create_from_blueprint', { blueprint_path: path, alias: 'Hall motion', inputs })
  t.notOk(asked.isError, asked.text)
  t.match(asked.json.preview, /use_blueprint:\n {2}path: homeassistant\/motion_light\.yaml\n {2}input:\n/)
  const done = await callTool(client, 'ha_create_from_blueprint', { blueprint_path: path, alias: 'Hall motion', inputs, confirm_token: asked.json.confirm_token })
  t.notOk(done.isError, done.text)
  t.equal(done.json.entity_id, 'automation.hall_motion')

  const change = await callTool(client, 'ha_update_automation', { entity_id: 'automation.hall_motion', inputs: { no_motion_wait: 30 } })
  t.notOk(change.isError, change.text)
  t.match(change.json.preview, /\n\+ {4}no_motion_wait: 30\n/)

  const notBlueprint = await callTool(client, 'ha_update_automation', { entity_id: 'automation.wake_up', inputs: { x: 1 } })
  t.ok(notBlueprint.isError)
  t.equal(notBlueprint.code, 'HAMCP_NOT_SUPPORTED')
})

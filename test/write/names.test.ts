// Names are validated like ids: the character rules and a length bound for every free-text name the
// add-on writes, and their own grammar for add-on slugs and backup names.
import t from 'tap'
import { callTool, connectClient, startHome, startServer } from '../helper.ts'
import { addonSlugProblem, backupNameProblem, nameProblem } from '../../src/policy/input-checks.ts'

const BAD_NAMES = ['Salon\u0000', 'Salon \u202eevil', 'Salon\u001b[31m', `Salon ${'\ud800'}`, 'x'.repeat(256), 'Zero\u200bwidth']

t.test('one rule per kind of name', async t => {
  for (const bad of BAD_NAMES) t.ok(nameProblem(bad), `refused: ${JSON.stringify(bad.slice(0, 20))}`)
  for (const good of ['Living Room', 'Chambre d\'Élodie', '和室', '🎮 Game Room', 'Küche (2)']) t.equal(nameProblem(good), undefined, good)
  for (const bad of ['../../x', 'core/mosquitto', 'Core_Mosquitto', '', '-x', 'a'.repeat(65)]) t.ok(addonSlugProblem(bad), `slug refused: ${bad}`)
  for (const good of ['core_mosquitto', 'a0d7b954_vscode', 'local_my-addon']) t.equal(addonSlugProblem(good), undefined, good)
  for (const bad of ['../../../etc/passwd', 'a/b', 'a\\b', '.hidden', 'x..y', 'NUL\u0000']) t.ok(backupNameProblem(bad), `backup name refused: ${JSON.stringify(bad)}`)
  t.equal(backupNameProblem('Before the heating change, 2026-12-01 20:00'), undefined)
})

t.test('through the tools: nothing with a bad name reaches the house', async t => {
  const home = await startHome(t)
  const supervisor = { SUPERVISOR_TOKEN: home.supervisorToken, SUPERVISOR_URL: home.supervisorUrl }
  const server = await startServer(t, { home, env: supervisor, options: { allow_write: true, allow_config_write: true } })
  const client = await connectClient(t, server)
  home.registryWrites.length = 0
  home.clearServiceCalls()

  const area = await callTool(client, 'ha_manage_registry', { kind: 'area', action: 'create', name: 'Salon\u0000\u202eevil' })
  t.equal(area.code, 'HAMCP_INVALID_ARGUMENT', area.text)
  const label = await callTool(client, 'ha_manage_registry', { kind: 'label', action: 'create', name: 'x'.repeat(300) })
  t.equal(label.code, 'HAMCP_INVALID_ARGUMENT', 'a name past the bound')
  const alias = await callTool(client, 'ha_manage_registry', { kind: 'area', action: 'update', id: 'living_room', aliases: ['Lounge\u202e'] })
  t.equal(alias.code, 'HAMCP_INVALID_ARGUMENT', 'aliases too')
  const entity = await callTool(client, 'ha_update_entities', { entity_ids: ['light.living_room_ceiling_light'], name: 'Lamp\u0007' })
  t.equal(entity.code, 'HAMCP_INVALID_ARGUMENT', 'entity names')
  t.same(home.registryWrites, [], 'no registry write reached the house')

  const helper = await callTool(client, 'ha_create_helper', { type: 'input_boolean', name: 'Guest\u0000' })
  t.equal(helper.code, 'HAMCP_INVALID_ARGUMENT', 'helper names')
  const scene = await callTool(client, 'ha_snapshot_scene', { name: 'Movie\u202e', entities: ['light.living_room_ceiling_light'] })
  t.equal(scene.code, 'HAMCP_INVALID_ARGUMENT', 'scene names')
  const notice = await callTool(client, 'ha_send_notification', { message: 'The door is open', title: 'Door\u202e' })
  t.equal(notice.code, 'HAMCP_INVALID_ARGUMENT', 'notification titles')
  t.same(home.serviceCalls, [], 'no service call reached the house')

  const backup = await callTool(client, 'ha_manage_config', { kind: 'backup', action: 'create', config: { name: '../../../etc/passwd' } })
  t.equal(backup.code, 'HAMCP_INVALID_ARGUMENT', backup.text)
  const slug = await callTool(client, 'ha_manage_config', { kind: 'backup', action: 'create', config: { name: 'Fine', addons: ['../../x'] } })
  t.equal(slug.code, 'HAMCP_INVALID_ARGUMENT', slug.text)
  t.same(home.configWrites, [], 'nothing reached the Supervisor')

  const automation = await callTool(client, 'ha_create_automation', { alias: 'Night\u202e', triggers: [{ trigger: 'time', at: '22:00:00' }], actions: [{ action: 'light.turn_off', target: { entity_id: 'light.living_room_ceiling_light' } }] })
  t.equal(automation.code, 'HAMCP_INVALID_ARGUMENT', 'automation aliases')
  const event = await callTool(client, 'ha_manage_config', { kind: 'calendar', id: 'calendar.family', action: 'create', config: { summary: 'Dentist\u0000', dtstart: '2026-12-03T09:00:00+01:00', dtend: '2026-12-03T10:00:00+01:00' } })
  t.equal(event.code, 'HAMCP_INVALID_ARGUMENT', 'calendar event summaries')
  const card = await callTool(client, 'ha_add_dashboard_card', { view: 'security', card: { type: 'entities', title: 'Doors\u202e', entities: ['lock.front_door'] } })
  t.equal(card.code, 'HAMCP_INVALID_ARGUMENT', 'dashboard card titles')
  const view = await callTool(client, 'ha_manage_config', { kind: 'dashboard', action: 'create', config: { title: 'Ok', cards: [{ type: 'tile', entity: 'light.living_room_ceiling_light', name: 'Lamp\u0000' }] } })
  t.equal(view.code, 'HAMCP_INVALID_ARGUMENT', 'names inside a dashboard view')
  t.same(home.configWrites, [], 'no config write reached the house')

  const fine = await callTool(client, 'ha_manage_registry', { kind: 'area', action: 'create', name: 'Chambre d\'Élodie 2' })
  t.notOk(fine.isError, `an ordinary name still works: ${fine.text}`)
})

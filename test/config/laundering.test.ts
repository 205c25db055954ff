// A config written through the add-on cannot launder what a direct call may not do: the service denylist
// and the entity rules apply to every action inside it, however deeply nested.
import t from 'tap'
import { callTool, connectClient, startHome, startServer } from '../helper.ts'

const LOCK = 'lock.front_door_lock'
const LIGHT = 'light.living_room_ceiling_light'

const nest = (action: Record<string, unknown>): unknown[] => [{
  if: [{ condition: 'state', entity_id: LIGHT, state: 'on' }],
  then: [{ delay: 1 }],
  else: [{ parallel: [{ repeat: { count: 2, sequence: [{ choose: [{ conditions: [], sequence: [action] }], default: [] }] } }] }]
}]

t.test('the service denylist applies to the actions of a written script or automation', async t => {
  const home = await startHome(t)
  const server = await startServer(t, { home, options: { allow_config_write: true } })
  const client = await connectClient(t, server)

  for (const [label, tool, args] of [
    ['action: recorder.purge', 'ha_create_script', { alias: 'Purge A', sequence: [{ action: 'recorder.purge', data: { keep_days: 0 } }] }],
    ['legacy service: key', 'ha_create_script', { alias: 'Purge B', sequence: [{ service: 'Recorder.Purge' }] }],
    ['nested in if/else/parallel/repeat/choose', 'ha_create_script', { alias: 'Purge C', sequence: nest({ action: 'hassio.host_shutdown' }) }],
    ['in an automation', 'ha_create_automation', { alias: 'Purge D', triggers: [{ trigger: 'time', at: '03:00:00' }], actions: nest({ action: 'shell_command.wipe' }) }]
  ] as const) {
    const answer = await callTool(client, tool, args)
    t.ok(answer.isError, `${label}: refused`)
    t.notOk(answer.json?.confirmation_required, `${label}: no confirmation offered`)
    t.match(answer.text, /The config calls [a-z_.]+, which is refused by the service_denylist/, `${label}: names the service`)
    t.equal(answer.code, 'HAMCP_DENIED_SERVICE')
  }
  const templated = await callTool(client, 'ha_create_script', { alias: 'Purge E', sequence: [{ action: "{{ 'recorder' ~ '.purge' }}" }] })
  t.ok(templated.isError, 'a templated action name is refused')
  t.match(templated.text, /template/)
  t.equal(templated.code, 'HAMCP_DENIED_SERVICE')

  t.equal(home.entityIds().filter(id => /^script\.purge/.test(id)).length, 0, 'no script was written to the house')
  t.equal(home.serviceCalls.length, 0, 'and nothing was called')

  const create = { alias: 'Fine', sequence: nest({ action: 'light.turn_on', target: { entity_id: LIGHT } }) }
  const fine = await callTool(client, 'ha_create_script', create)
  t.equal(fine.json?.confirmation_required, true, `an allowed script still goes to the confirmation (${fine.text.slice(0, 120)})`)
  const made = await callTool(client, 'ha_create_script', { ...create, confirm_token: fine.json.confirm_token })
  t.notOk(made.isError, made.text)

  const update = await callTool(client, 'ha_update_script', { entity_id: 'script.fine', sequence: [{ action: 'light.turn_on', target: { entity_id: LIGHT } }, { action: 'recorder.purge' }] })
  t.ok(update.isError, 'an update adding a denied action is refused')
  t.match(update.text, /recorder\.purge/)
})

t.test('entity rules apply to the targets inside a written script, entity_id: all included', async t => {
  const home = await startHome(t)
  const server = await startServer(t, { home, options: { allow_config_write: true, entity_denylist: ['lock.*'] } })
  const client = await connectClient(t, server)
  const before = home.entityIds().filter(id => id.startsWith('lock.')).map(id => home.getState(id)?.state)

  for (const [label, action, rule] of [
    ['target entity_id: all', { action: 'lock.unlock', target: { entity_id: 'all' } }, /entity_id: all/],
    ['legacy entity_id: ALL on the action', { service: 'lock.unlock', entity_id: 'ALL' }, /entity_id: all/],
    ['data entity_id', { action: 'lock.unlock', data: { entity_id: LOCK } }, /lock\.front_door_lock is refused by entity_denylist/],
    ['comma string', { action: 'homeassistant.turn_off', target: { entity_id: `${LIGHT}, ${LOCK}` } }, /lock\.front_door_lock is refused by entity_denylist/],
    ['templated target', { action: 'lock.unlock', target: { entity_id: "{{ states.lock | map(attribute='entity_id') | list }}" } }, /a template/],
    ['area target', { action: 'lock.unlock', target: { area_id: 'hall' } }, /area_id/],
    ['a group holding the lock', { action: 'lock.unlock', target: { entity_id: 'group.doors' } }, /lock\.front_door_lock, reached through group\.doors, is refused by entity_denylist/],
    ['a scene setting the lock', { scene: 'scene.welcome_guests' }, /lock\.front_door_lock, reached through scene\.welcome_guests/]
  ] as const) {
    const answer = await callTool(client, 'ha_create_script', { alias: `Open ${label}`, sequence: nest(action) })
    t.ok(answer.isError, `${label}: refused`)
    t.match(answer.text, rule, `${label}: names the rule (${answer.text.slice(0, 160)})`)
    t.match(answer.code, /^HAMCP_DENIED_(ENTITY|TARGET)$/)
  }
  t.equal(home.entityIds().filter(id => id.startsWith('script.open')).length, 0, 'no script was written')
  t.same(home.entityIds().filter(id => id.startsWith('lock.')).map(id => home.getState(id)?.state), before, 'every lock kept its state')
  t.equal(home.serviceCalls.length, 0)
})

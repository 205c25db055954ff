import t from 'tap'
import { callTool, connectClient, fakeClock, pastWait, startHome, startServer } from '../helper.ts'
import { writeCatalog } from './catalog.ts'

const COLOR_LIGHT = 'light.kuche_ceiling_light'

t.test('service-level write tools against the demo home', async t => {
  let now = Date.now()
  const home = await startHome(t)
  const clock = fakeClock()
  const server = await startServer(t, { home, options: { allow_write: true }, app: { catalog: await writeCatalog(), clock, policy: { now: () => now } } })
  const client = await connectClient(t, server)

  t.test('notifications: 6 per minute per target, dry runs not counted', async t => {
    home.clearServiceCalls()
    const targets = await callTool(client, 'ha_send_notification', {})
    t.ok(targets.json.entities.includes('notify.kitchen_display'), 'targets listed')
    t.same(targets.json.services, ['notify.mobile_app_alice_phone', 'notify.mobile_app_bob_phone'], 'legacy notify services listed')
    const dry = await callTool(client, 'ha_send_notification', { target: 'notify.kitchen_display', message: 'hi', dry_run: true })
    t.equal(dry.json.dry_run, true)
    for (let i = 0; i < 6; i++) {
      const sent = await callTool(client, 'ha_send_notification', { target: 'notify.kitchen_display', message: `hello ${i}` })
      t.notOk(sent.isError, sent.text)
    }
    const seventh = await callTool(client, 'ha_send_notification', { target: 'notify.kitchen_display', message: 'one too many' })
    t.ok(seventh.isError)
    t.equal(seventh.code, 'HAMCP_RATE_LIMITED')
    t.equal(home.serviceCalls.filter(c => c.service === 'send_message').length, 6, 'exactly six reached the house')
    const other = await callTool(client, 'ha_send_notification', { target: targets.json.services[0], message: 'other target' })
    t.notOk(other.isError, 'another target has its own budget')
    now += 60_001
    const later = await callTool(client, 'ha_send_notification', { target: 'notify.kitchen_display', message: 'a minute later' })
    t.notOk(later.isError, 'the window slides')
  })

  t.test('announcements: 3 per minute per target', async t => {
    home.clearServiceCalls()
    const targets = await callTool(client, 'ha_announce', {})
    const satellite = targets.json.satellites[0] as string
    t.ok(satellite, 'a satellite is listed')
    for (let i = 0; i < 3; i++) t.notOk((await callTool(client, 'ha_announce', { target: satellite, message: `dinner ${i}` })).isError)
    const fourth = await callTool(client, 'ha_announce', { target: satellite, message: 'dinner again' })
    t.equal(fourth.code, 'HAMCP_RATE_LIMITED')
    t.equal(home.serviceCalls.filter(c => c.service === 'announce').length, 3)
    const player = targets.json.media_players[0] as string
    const spoken = await callTool(client, 'ha_announce', { target: player, message: 'via tts' })
    t.notOk(spoken.isError, spoken.text)
    const speak = home.serviceCalls.find(c => c.service === 'speak')
    t.equal(speak?.service_data.media_player_entity_id, player, 'media players go through tts.speak')
  })

  t.test('ha_undo restores a light\'s brightness and colour', async t => {
    const before = home.getState(COLOR_LIGHT)!
    t.equal(before.state, 'on')
    const kelvin = before.attributes.color_temp_kelvin
    const brightness = before.attributes.brightness
    const changed = await callTool(client, 'ha_call_service', { domain: 'light', service: 'turn_on', target: { entity_id: COLOR_LIGHT }, data: { hs_color: [240, 100], brightness: 20 } })
    t.equal(changed.json.undo_available, true)
    t.equal(home.getState(COLOR_LIGHT)!.attributes.color_mode, 'hs')
    const dry = await callTool(client, 'ha_undo', { dry_run: true })
    t.equal(dry.json.dry_run, true)
    t.equal(home.getState(COLOR_LIGHT)!.attributes.brightness, 20, 'a dry undo changes nothing')
    const undone = await callTool(client, 'ha_undo', {})
    t.notOk(undone.isError, undone.text)
    const after = home.getState(COLOR_LIGHT)!
    t.equal(after.state, 'on')
    t.equal(after.attributes.brightness, brightness, 'brightness restored')
    t.equal(after.attributes.color_mode, before.attributes.color_mode, 'colour mode restored')
    t.equal(after.attributes.color_temp_kelvin, kelvin, 'colour temperature restored')
    const again = await callTool(client, 'ha_undo', {})
    t.ok(again.isError, 'an undo is used once')
  })

  t.test('scripts, automations, todo and scenes go through the guard', async t => {
    home.clearServiceCalls()
    t.notOk((await callTool(client, 'ha_run_script', { entity_id: 'script.good_night', variables: { who: 'me' } })).isError)
    // Nothing changes in the house, so the answer comes once the write's 1.5 s wait for state changes (src/policy/reached.ts) passes on the server's clock.
    const trigger = await pastWait(clock, 1500, callTool(client, 'ha_trigger_automation', { entity_id: 'automation.wake_up' }))
    t.notOk(trigger.isError, trigger.text)
    t.equal(home.serviceCalls.find(c => c.service === 'trigger')?.service_data.skip_condition, true, 'skip_condition defaults to true')
    t.notOk((await callTool(client, 'ha_set_automation', { entity_id: 'automation.wake_up', enabled: false })).isError)
    t.equal(home.getState('automation.wake_up')?.state, 'off')
    const wrong = await callTool(client, 'ha_run_script', { entity_id: 'light.kuche_ceiling_light' })
    t.ok(wrong.isError, 'ha_run_script only takes scripts')
    const todo = await callTool(client, 'ha_manage_todo', { entity_id: 'todo.shopping_list', action: 'add', item: 'milk' })
    t.notOk(todo.isError, todo.text)
    const rename = await callTool(client, 'ha_manage_todo', { entity_id: 'todo.shopping_list', action: 'rename', item: 'milk' })
    t.ok(rename.isError, 'rename needs new_name')
    const scene = await callTool(client, 'ha_snapshot_scene', { name: 'Test snapshot', entities: [COLOR_LIGHT] })
    t.notOk(scene.isError, scene.text)
    t.equal(scene.json.scene, 'scene.test_snapshot')
    t.same(home.serviceCalls.find(c => c.service === 'create')?.service_data.snapshot_entities, [COLOR_LIGHT])
  })
})

t.test('notification and announce target lists respect filter_reads', async t => {
  const home = await startHome(t)
  const server = await startServer(t, { home, options: { allow_write: true, filter_reads: true, entity_denylist: ['notify.kitchen_display', 'assist_satellite.garden_*'] }, app: { catalog: await writeCatalog() } })
  const client = await connectClient(t, server)
  const notify = await callTool(client, 'ha_send_notification', {})
  t.notOk(notify.text.includes('kitchen_display'), 'hidden notify entity not listed')
  const announce = await callTool(client, 'ha_announce', {})
  t.notOk(announce.text.includes('garden_voice_assistant_assist_satellite'), 'hidden satellite not listed')
  const refused = await callTool(client, 'ha_announce', { target: 'assist_satellite.garden_voice_assistant_assist_satellite', message: 'x' })
  t.ok(refused.isError)
  t.equal(home.serviceCalls.length, 0)
})

import t from 'tap'
import { callTool, connectClient, startHome, startServer } from '../helper.ts'
import type { DemoHome } from '../../demo/index.ts'
import { writeCatalog } from './catalog.ts'

const LIGHT = 'light.living_room_ceiling_light'
const LOCK = 'lock.front_door_lock'

const callsTo = (home: DemoHome, service: string): number =>
  home.serviceCalls.filter(call => `${call.domain}.${call.service}` === service).length

t.test('without allow_write no write tool is listed and calling one is an unknown tool', async t => {
  const home = await startHome(t)
  const server = await startServer(t, { home, app: { catalog: await writeCatalog() } })
  const client = await connectClient(t, server)
  const { tools } = await client.listTools()
  const names = tools.map(tool => tool.name)
  for (const name of ['ha_call_service', 'ha_undo', 'ha_send_notification', 'ha_announce', 'ha_run_script']) t.notOk(names.includes(name), `${name} hidden`)
  await t.rejects(client.callTool({ name: 'ha_call_service', arguments: { domain: 'light', service: 'turn_on', target: { entity_id: LIGHT } } }), /Unknown tool/)
  t.equal(home.serviceCalls.length, 0, 'nothing reached the house')
})

t.test('the guard rules, proven through what the house received', async t => {
  const home = await startHome(t)
  const server = await startServer(t, { home, options: { allow_write: true }, app: { catalog: await writeCatalog() } })
  const client = await connectClient(t, server)
  const { tools } = await client.listTools()
  t.ok(tools.some(tool => tool.name === 'ha_call_service'), 'write tools listed with allow_write')

  t.test('a plain call reaches the house exactly once', async t => {
    home.clearServiceCalls()
    const done = await callTool(client, 'ha_call_service', { domain: 'light', service: 'turn_off', target: { entity_id: LIGHT } })
    t.notOk(done.isError, done.text)
    t.equal(done.json.success, true)
    t.equal(callsTo(home, 'light.turn_off'), 1)
  })

  t.test('homeassistant.stop is the system category\'s (allow_config_write), and in the default service denylist', async t => {
    home.clearServiceCalls()
    const refused = await callTool(client, 'ha_call_service', { domain: 'homeassistant', service: 'stop' })
    t.ok(refused.isError)
    t.equal(refused.code, 'HAMCP_DENIED_LEVEL', refused.text)
    const denied = await callTool(client, 'ha_call_service', { domain: 'shell_command', service: 'backup' })
    t.equal(denied.code, 'HAMCP_DENIED_SERVICE', denied.text)
    const dry = await callTool(client, 'ha_call_service', { domain: 'homeassistant', service: 'stop', dry_run: true })
    t.ok(dry.isError, 'a dry run is refused too')
    // homeassistant.restart is ha_restart's (system at manage, allow_config_write): refused by level first.
    t.equal((await callTool(client, 'ha_call_service', { domain: 'homeassistant', service: 'restart' })).code, 'HAMCP_DENIED_LEVEL')
    t.equal(home.serviceCalls.length, 0)
  })

  t.test('a dry run shows the call and executes nothing', async t => {
    home.clearServiceCalls()
    const dry = await callTool(client, 'ha_call_service', { domain: 'light', service: 'turn_on', target: { entity_id: LIGHT }, data: { brightness: 10 }, dry_run: true })
    t.notOk(dry.isError, dry.text)
    t.same(dry.json.would_call, { domain: 'light', service: 'turn_on', target: { entity_id: [LIGHT] }, data: { brightness: 10 } })
    t.equal(home.serviceCalls.length, 0)
  })

  t.test('lock.unlock needs a token; the token works once, then is refused', async t => {
    home.clearServiceCalls()
    const args = { domain: 'lock', service: 'unlock', target: { entity_id: LOCK } }
    const asked = await callTool(client, 'ha_call_service', args)
    t.notOk(asked.isError, asked.text)
    t.equal(asked.json.confirmation_required, true)
    t.match(asked.json.confirm_token, /^[0-9a-f]{32}$/)
    t.equal(home.serviceCalls.length, 0, 'asking reaches nothing')

    const confirmed = await callTool(client, 'ha_call_service', { ...args, confirm_token: asked.json.confirm_token })
    t.notOk(confirmed.isError, confirmed.text)
    t.equal(callsTo(home, 'lock.unlock'), 1, 'confirmed once, called once')

    const reused = await callTool(client, 'ha_call_service', { ...args, confirm_token: asked.json.confirm_token })
    t.ok(reused.isError)
    t.equal(reused.code, 'HAMCP_CONFIRM_TOKEN_INVALID')
    t.equal(callsTo(home, 'lock.unlock'), 1, 'the reused token reached nothing')
  })

  t.test('a token is refused when any field of the call changed', async t => {
    const args = { domain: 'lock', service: 'unlock', target: { entity_id: LOCK }, data: { code: '1234' } }
    const variants: Array<Record<string, unknown>> = [
      { ...args, service: 'lock' },
      { ...args, target: { entity_id: 'lock.office_front_door_lock' } },
      { ...args, data: { code: '9999' } },
      { ...args, domain: 'alarm_control_panel', service: 'alarm_disarm', target: { entity_id: LOCK } }
    ]
    for (const changed of variants) {
      home.clearServiceCalls()
      const asked = await callTool(client, 'ha_call_service', args)
      const refused = await callTool(client, 'ha_call_service', { ...changed, confirm_token: asked.json.confirm_token })
      t.ok(refused.isError, `refused: ${JSON.stringify(changed)}`)
      // alarm_disarm on a lock reaches no alarm panel: refused before the token is even read.
      t.equal(refused.code, changed.domain === 'alarm_control_panel' ? 'HAMCP_WRONG_DOMAIN' : 'HAMCP_CONFIRM_TOKEN_INVALID')
      t.equal(home.serviceCalls.length, 0, 'nothing reached the house')
    }
  })

  t.test('a token is refused when another identity presents it', async t => {
    home.clearServiceCalls()
    const created = await server.app.services.tokens.create({ name: 'second', scopes: ['read', 'write'] })
    const second = await connectClient(t, server, created.token)
    const args = { domain: 'lock', service: 'unlock', target: { entity_id: LOCK } }
    const asked = await callTool(client, 'ha_call_service', args)
    const stolen = await callTool(second, 'ha_call_service', { ...args, confirm_token: asked.json.confirm_token })
    t.ok(stolen.isError)
    t.equal(stolen.code, 'HAMCP_CONFIRM_TOKEN_INVALID')
    t.match(stolen.text, /another client token/)
    t.equal(home.serviceCalls.length, 0)
  })
})

t.test('entity lists: denylist beats allowlist, area targeting refused while lists exist', async t => {
  const home = await startHome(t)
  const server = await startServer(t, { home, options: { allow_write: true, entity_allowlist: ['light.*'], entity_denylist: ['light.living_room_*'] }, app: { catalog: await writeCatalog() } })
  const client = await connectClient(t, server)

  const denied = await callTool(client, 'ha_call_service', { domain: 'light', service: 'turn_off', target: { entity_id: LIGHT } })
  t.ok(denied.isError)
  t.equal(denied.code, 'HAMCP_DENIED_ENTITY')
  const viaData = await callTool(client, 'ha_call_service', { domain: 'light', service: 'turn_off', data: { entity_id: LIGHT } })
  t.ok(viaData.isError, 'an entity named in data is checked too')
  const notAllowed = await callTool(client, 'ha_call_service', { domain: 'switch', service: 'turn_off', target: { entity_id: 'switch.anything' } })
  t.equal(notAllowed.code, 'HAMCP_DENIED_ENTITY')
  const byArea = await callTool(client, 'ha_call_service', { domain: 'light', service: 'turn_off', target: { area_id: 'kitchen' } })
  t.ok(byArea.isError)
  t.equal(byArea.code, 'HAMCP_DENIED_TARGET')
  const scene = await callTool(client, 'ha_call_service', { domain: 'scene', service: 'create', data: { scene_id: 'x', snapshot_entities: [LIGHT] } })
  t.equal(scene.code, 'HAMCP_DENIED_ENTITY', 'scene snapshot_entities are checked')
  t.equal(home.serviceCalls.length, 0, 'no refused call reached the house')

  const allowed = await callTool(client, 'ha_call_service', { domain: 'light', service: 'turn_off', target: { entity_id: 'light.hallway_ceiling_light' } })
  t.notOk(allowed.isError, allowed.text)
  t.equal(home.serviceCalls.length, 1, 'an allowed entity reaches the house once')
})

t.test('an expired token is refused and reaches nothing', async t => {
  let now = Date.now()
  const home = await startHome(t)
  const server = await startServer(t, { home, options: { allow_write: true }, app: { catalog: await writeCatalog(), policy: { now: () => now } } })
  const client = await connectClient(t, server)
  const args = { domain: 'lock', service: 'unlock', target: { entity_id: LOCK } }
  const asked = await callTool(client, 'ha_call_service', args)
  t.equal(asked.json.expires_in_seconds, 300)
  now += 5 * 60_000 + 1
  const late = await callTool(client, 'ha_call_service', { ...args, confirm_token: asked.json.confirm_token })
  t.ok(late.isError)
  t.equal(late.code, 'HAMCP_CONFIRM_TOKEN_INVALID')
  t.match(late.text, /expired/)
  t.equal(home.serviceCalls.length, 0)
})

t.test('options fail closed: a blank denylist item keeps lock.* denied with allow_write on', async t => {
  const home = await startHome(t)
  const server = await startServer(t, { home, options: { allow_write: true, entity_denylist: ['lock.*', ' '] }, app: { catalog: await writeCatalog() } })
  const client = await connectClient(t, server)
  const unlock = await callTool(client, 'ha_call_service', { domain: 'lock', service: 'unlock', target: { entity_id: LOCK } })
  t.ok(unlock.isError, unlock.text)
  t.equal(unlock.code, 'HAMCP_DENIED_ENTITY', 'the lock stays denied')
  const light = await callTool(client, 'ha_call_service', { domain: 'light', service: 'turn_off', target: { entity_id: LIGHT } })
  t.notOk(light.isError, 'writes stay on for everything else')
  t.same(home.serviceCalls.map(call => call.domain), ['light'], 'only the light reached the house')
})

t.test('options fail closed: a denylist that is not a list turns every write tool off', async t => {
  const home = await startHome(t)
  const server = await startServer(t, { home, options: { allow_write: true, entity_denylist: 'lock.*' as never }, app: { catalog: await writeCatalog() } })
  const client = await connectClient(t, server)
  const { tools } = await client.listTools()
  t.notOk(tools.some(tool => tool.name === 'ha_call_service'), 'no write tool listed')
  await t.rejects(client.callTool({ name: 'ha_call_service', arguments: { domain: 'lock', service: 'unlock', target: { entity_id: LOCK } } }), /Unknown tool/)
  t.equal(home.serviceCalls.length, 0, 'nothing reached the house')
})

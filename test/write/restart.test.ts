// ha_restart through the SDK client against the demo home (issue 32 items 4 and 8).
import t from 'tap'
import { callTool, connectClient, reconnection, startHome, startServer } from '../helper.ts'
import { entriesOf } from '../../demo/config-entries.ts'
import type { DemoHome } from '../../demo/index.ts'

const restartCalls = (home: DemoHome): number => home.serviceCalls.filter(c => c.domain === 'homeassistant' && c.service === 'restart').length
const YAML_ERROR = "Invalid config for 'automation' at automations.yaml, line 12: required key 'triggers' not provided"

t.test('restart: the default service_denylist refuses it, naming the entry; nothing reaches the house', async t => {
  const home = await startHome(t)
  const server = await startServer(t, { home, options: { allow_config_write: true } })
  const client = await connectClient(t, server)
  const refused = await callTool(client, 'ha_restart', { action: 'restart' })
  t.equal(refused.code, 'HAMCP_DENIED_SERVICE', refused.text)
  t.match(refused.text, /homeassistant\.restart is refused by the service_denylist option \(entry "homeassistant\.restart"\)/)
  t.match(refused.text, /must remove "homeassistant\.restart" from service_denylist/)
  t.equal(restartCalls(home), 0)
  t.match(server.app.services.policy.audit.recent(1)[0], { tool: 'ha_restart', outcome: 'refused', domain: 'homeassistant', service: 'restart', reason: 'service_denylist' })
})

t.test('restart: checks the config, asks, refuses a wrong token, then restarts; the connection comes back', async t => {
  const home = await startHome(t)
  const server = await startServer(t, { home, options: { allow_config_write: true, service_denylist: [] } })
  const client = await connectClient(t, server)

  const dry = await callTool(client, 'ha_restart', { action: 'restart', dry_run: true })
  t.match(dry.json, { dry_run: true, would_call: { domain: 'homeassistant', service: 'restart' }, notes: [/confirmation/] }, dry.text)

  const asked = await callTool(client, 'ha_restart', { action: 'restart' })
  t.equal(asked.json.confirmation_required, true, asked.text)
  t.match(asked.json.preview, /Restart Home Assistant.*configuration check passed/s)
  const wrong = await callTool(client, 'ha_restart', { action: 'restart', confirm_token: 'not-the-token' })
  t.equal(wrong.code, 'HAMCP_CONFIRM_TOKEN_INVALID')
  const other = await callTool(client, 'ha_restart', { action: 'reload_all', confirm_token: asked.json.confirm_token })
  t.not(other.json?.restarting, true, 'a restart token does not restart through another action')
  t.equal(restartCalls(home), 0, 'asking, a dry run and a wrong token restart nothing')

  const fresh = await callTool(client, 'ha_restart', { action: 'restart' })
  const back = reconnection(server.app.services.ha)
  const done = await callTool(client, 'ha_restart', { action: 'restart', confirm_token: fresh.json.confirm_token })
  t.notOk(done.isError, done.text)
  t.match(done.json, { success: true, restarting: true, note: /back within a minute/ })
  t.equal(restartCalls(home), 1, 'the house got homeassistant.restart')
  t.match(server.app.services.policy.audit.recent(1)[0], { tool: 'ha_restart', outcome: 'confirmation_given', service: 'restart' })
  await back
  const sun = await callTool(client, 'ha_get_entity', { entity_id: 'sun.sun' })
  t.notOk(sun.isError, `Home Assistant reachable again after the restart: ${sun.text}`)
})

t.test('an invalid configuration refuses restart and reloads with its errors; nothing reaches the house', async t => {
  const home = await startHome(t)
  const server = await startServer(t, { home, options: { allow_config_write: true, service_denylist: [] } })
  const client = await connectClient(t, server)
  home.setConfigCheck(YAML_ERROR, 'Platform error: light.old_bulb')
  home.clearServiceCalls()
  for (const args of [{ action: 'restart' }, { action: 'reload_all' }, { action: 'reload', domain: 'automation' }, { action: 'restart', dry_run: true }]) {
    const refused = await callTool(client, 'ha_restart', args)
    t.equal(refused.code, 'HAMCP_CONFIG_INVALID', JSON.stringify(args))
    t.match(refused.text, /required key 'triggers' not provided/, 'the errors are in the answer')
  }
  t.same(home.serviceCalls, [], 'no restart or reload was sent')
  home.setConfigCheck(null, 'Platform error: light.old_bulb')
  const reloaded = await callTool(client, 'ha_restart', { action: 'reload_all' })
  t.match(reloaded.json, { success: true, reloaded: 'all', config_warnings: /old_bulb/ }, 'warnings do not stop it, and are passed on')
})

t.test('reload_all, one domain, one config entry; arguments that cannot work are refused', async t => {
  const home = await startHome(t, { entities: 300 })
  const server = await startServer(t, { home, options: { allow_config_write: true } })
  const client = await connectClient(t, server)
  home.clearServiceCalls()
  const all = await callTool(client, 'ha_restart', { action: 'reload_all' })
  t.match(all.json, { success: true, reloaded: 'all' }, all.text)
  t.match(home.serviceCalls, [{ domain: 'homeassistant', service: 'reload_all' }])

  const automations = await callTool(client, 'ha_restart', { action: 'reload', domain: 'Automation' })
  t.match(automations.json, { success: true, reloaded: 'automation' }, automations.text)
  t.match(home.serviceCalls.at(-1), { domain: 'automation', service: 'reload' })

  const calls = home.serviceCalls.length
  const light = await callTool(client, 'ha_restart', { action: 'reload', domain: 'light' })
  t.equal(light.code, 'HAMCP_INVALID_ARGUMENT')
  t.match(light.text, /light has no reload service.*Reloadable: .*automation.*scene.*script/s)
  for (const args of [{ action: 'reload' }, { action: 'reload', domain: 'automation', entry_id: 'abc' }, { action: 'restart', domain: 'automation' }, { action: 'reload_all', entry_id: 'abc' }]) {
    t.equal((await callTool(client, 'ha_restart', args)).code, 'HAMCP_INVALID_ARGUMENT', JSON.stringify(args))
  }
  t.equal(home.serviceCalls.length, calls, 'refused arguments reached nothing')

  const hue = [...entriesOf(home.house).entries.values()].find(e => e.domain === 'hue')!
  home.configWrites.length = 0
  const entry = await callTool(client, 'ha_restart', { action: 'reload', entry_id: hue.entry_id })
  t.match(entry.json, { success: true, entry_id: hue.entry_id, state: 'loaded' }, entry.text)
  t.same(home.configWrites, [`config_entries reload ${hue.entry_id}`])

  const denied = await startServer(t, { home, options: { allow_config_write: true, service_denylist: ['*.reload', 'homeassistant.reload_*'] } })
  const deniedClient = await connectClient(t, denied)
  home.clearServiceCalls()
  for (const args of [{ action: 'reload_all' }, { action: 'reload', domain: 'script' }, { action: 'reload', entry_id: hue.entry_id }]) {
    const refused = await callTool(deniedClient, 'ha_restart', args)
    t.equal(refused.code, 'HAMCP_DENIED_SERVICE', JSON.stringify(args))
  }
  t.same(home.serviceCalls, [], 'denied reloads reached nothing')
})

t.test('levels: ha_restart needs system at manage; an entry reload integrations at manage too; the services through ha_call_service likewise', async t => {
  const home = await startHome(t, { entities: 300 })
  const server = await startServer(t, { home, options: { allow_write: true, allow_config_write: true, service_denylist: [], tool_list: 'full' } })
  const tokens = server.app.services.tokens
  home.clearServiceCalls()
  for (const level of ['none', 'read', 'write'] as const) {
    const { token } = await tokens.create({ name: `system ${level}`, levels: { '*': 'manage', system: level } })
    const client = await connectClient(t, server, token)
    t.notOk((await client.listTools()).tools.some(tool => tool.name === 'ha_restart'), `not listed at ${level}`)
    await t.rejects(callTool(client, 'ha_restart', { action: 'reload_all' }), { code: -32602 }, `not callable at ${level}`)
    for (const [domain, service] of [['homeassistant', 'restart'], ['homeassistant', 'stop'], ['homeassistant', 'reload_all'], ['homeassistant', 'check_config'], ['automation', 'reload']]) {
      const refused = await callTool(client, 'ha_call_service', { domain, service })
      t.equal(refused.code, 'HAMCP_DENIED_LEVEL', `${domain}.${service} at system ${level}`)
      t.match(refused.text, new RegExp(`needs the system category at manage; this token has it at ${level}`))
    }
  }
  t.same(home.serviceCalls, [], 'no refused call reached the house')

  const { token } = await tokens.create({ name: 'system manage', levels: { '*': 'none', system: 'manage' } })
  const manager = await connectClient(t, server, token)
  t.match((await callTool(manager, 'ha_restart', { action: 'reload', domain: 'script' })).json, { success: true, reloaded: 'script' })
  const hue = [...entriesOf(home.house).entries.values()].find(e => e.domain === 'hue')!
  const entry = await callTool(manager, 'ha_restart', { action: 'reload', entry_id: hue.entry_id })
  t.equal(entry.code, 'HAMCP_DENIED_LEVEL', 'an entry reload is the integrations category\'s')
  t.match(entry.text, /homeassistant\.reload_config_entry needs the integrations category at manage; this token has it at none/)
  t.notOk(home.serviceCalls.some(c => c.service === 'reload_config_entry'))

  const primary = await connectClient(t, server)
  t.match((await callTool(primary, 'ha_call_service', { domain: 'homeassistant', service: 'check_config' })).json, { success: true }, 'the primary token has every category at manage')
  // homeassistant.stop asks first, as homeassistant.restart does: until someone starts it again nothing runs.
  const stop = await callTool(primary, 'ha_call_service', { domain: 'homeassistant', service: 'stop' })
  t.ok(stop.json?.confirm_token !== undefined, `stop asks first: ${stop.text}`)
  t.match(stop.text, /Stop Home Assistant/)
  t.notOk(home.serviceCalls.some(c => c.service === 'stop'), 'nothing stopped before the yes')
  t.notOk((await callTool(primary, 'ha_call_service', { domain: 'homeassistant', service: 'stop', confirm_token: stop.json.confirm_token })).isError)
  t.ok(home.serviceCalls.some(c => c.domain === 'homeassistant' && c.service === 'stop'), 'stopped after the yes')
  const noConfig = await startServer(t, { home, options: { allow_write: true, service_denylist: [] } })
  const refused = await callTool(await connectClient(t, noConfig), 'ha_call_service', { domain: 'script', service: 'reload' })
  t.equal(refused.code, 'HAMCP_DENIED_LEVEL', 'without allow_config_write a reload is refused even to the primary token')
  t.match(refused.text, /allow_config_write/)
})

t.test('red team: a restart\'s token stops nothing, and the denylist holds whatever the spelling', async t => {
  const home = await startHome(t)
  const stops = (): number => home.serviceCalls.filter(c => c.domain === 'homeassistant' && c.service === 'stop').length
  const server = await startServer(t, { home, options: { allow_write: true, allow_config_write: true, service_denylist: [], tool_list: 'full' } })
  const client = await connectClient(t, server)
  const asked = await callTool(client, 'ha_call_service', { domain: 'homeassistant', service: 'restart' })
  t.ok(asked.json?.confirm_token !== undefined, asked.text)
  const swapped = await callTool(client, 'ha_call_service', { domain: 'homeassistant', service: 'stop', confirm_token: asked.json.confirm_token })
  t.not(swapped.json?.success, true, swapped.text)
  const viaTool = await callTool(client, 'ha_restart', { action: 'reload_all', confirm_token: asked.json.confirm_token })
  t.not(viaTool.json?.restarting, true, viaTool.text)
  t.equal(stops(), 0, 'nothing stopped')
  t.equal(restartCalls(home), 0, 'nothing restarted')

  const denying = await startServer(t, { home, options: { allow_write: true, allow_config_write: true, service_denylist: ['homeassistant.*'], tool_list: 'full' } })
  const denied = await connectClient(t, denying)
  for (const [domain, service] of [['HomeAssistant', 'Restart'], ['homeassistant', ' stop'], ['homeassistant ', 'restart']]) {
    const r = await callTool(denied, 'ha_call_service', { domain, service }).catch((err: unknown) => ({ isError: true, code: (err as { data?: { code?: string } }).data?.code, text: String(err), json: undefined }))
    t.ok(r.isError && r.code !== undefined, `${domain}.${service}: ${r.text}`)
    t.not((r.json as { confirm_token?: string } | undefined)?.confirm_token !== undefined, true, `${domain}.${service} asks no yes`)
  }
  const tool = await callTool(denied, 'ha_restart', { action: 'restart' })
  t.equal(tool.code, 'HAMCP_DENIED_SERVICE', tool.text)
  t.equal(stops() + restartCalls(home), 0)
})

import t, { type Test } from 'tap'
import type { Client } from '@modelcontextprotocol/sdk/client/index.js'
import type { DemoHome } from '../../demo/index.ts'
import type { Options } from '../../src/options.ts'
import { DEFAULT_SERVICE_DENYLIST } from '../../src/options.ts'
import { loadToolCatalog } from '../../src/mcp/runtime/registry.ts'
import { TOOLS_DIR } from '../../app/tools-dir.ts'
import { callTool, caughtUp, connectClient, fakeClock, type FakeClock, pastWait, startHome, startServer, type TestServer } from '../helper.ts'
import { startIngress } from '../ingress/_ingress.ts'

/** ha_manage_addon (issue 32 items 6 and 8): add-on control through Home Assistant's own services. */

const UI = { 'x-ha-mcp-ui': '1', 'content-type': 'application/json' }
const ON: Partial<Options> = { allow_write: true, allow_config_write: true, allow_addon_control: true, tool_list: 'full' }
const WITHOUT_HASSIO = DEFAULT_SERVICE_DENYLIST.filter(entry => entry !== 'hassio.*')

async function serve (t: Test, home: DemoHome, options: Partial<Options>, addonMode = true, clock?: FakeClock): Promise<{ server: TestServer, client: Client }> {
  const server = await startServer(t, { home, options, ...(addonMode ? { env: { SUPERVISOR_TOKEN: home.supervisorToken, SUPERVISOR_URL: home.supervisorUrl } } : {}), ...(clock ? { app: { clock } } : {}) })
  return { server, client: await connectClient(t, server) }
}

async function addonState (client: Client, slug: string): Promise<string> {
  return (await callTool(client, 'ha_get_addons', { slug })).json.state as string
}

const hassioCalls = (home: DemoHome): unknown[] => home.serviceCalls.filter(c => c.domain === 'hassio' || c.domain === 'update')

t.test('off by default: not listed, and hassio.addon_* through ha_call_service needs the option and the system category at manage', async t => {
  const home = await startHome(t)
  for (const options of [{ allow_write: true }, { allow_write: true, allow_config_write: true }, { allow_write: true, allow_config_write: true, service_denylist: WITHOUT_HASSIO }]) {
    const { client } = await serve(t, home, options)
    const { tools } = await client.listTools()
    t.notOk(tools.some(tool => tool.name === 'ha_manage_addon'), `not listed with ${JSON.stringify(options)}`)
    const direct = await callTool(client, 'ha_call_service', { domain: 'hassio', service: 'addon_start', data: { addon: 'core_samba' } })
    t.equal(direct.code, 'HAMCP_DENIED_LEVEL', direct.text)
    t.match(direct.text, /allow_addon_control/)
    const legacyFree = await callTool(client, 'ha_call_service', { domain: 'hassio', service: 'app_stop', data: { app: 'core_mosquitto' } })
    t.equal(legacyFree.code, 'HAMCP_DENIED_LEVEL', 'app_* too')
  }
  t.same(hassioCalls(home), [], 'nothing reached the house')
})

t.test('option on, default denylist: refused, naming the entry to remove', async t => {
  const home = await startHome(t)
  const { client } = await serve(t, home, ON)
  t.ok((await client.listTools()).tools.some(tool => tool.name === 'ha_manage_addon'))
  for (const action of ['start', 'stop', 'restart']) {
    const refused = await callTool(client, 'ha_manage_addon', { action, slug: 'core_samba' })
    t.equal(refused.code, 'HAMCP_DENIED_SERVICE', refused.text)
    t.match(refused.text, new RegExp(`hassio\\.addon_${action} is refused by the service_denylist option \\(entry "hassio\\.\\*"\\)`))
    t.match(refused.text, /remove "hassio\.\*" from service_denylist/)
  }
  const direct = await callTool(client, 'ha_call_service', { domain: 'hassio', service: 'addon_start', data: { addon: 'core_samba' } })
  t.equal(direct.code, 'HAMCP_DENIED_SERVICE', 'the same rule through ha_call_service')
  t.same(hassioCalls(home), [], 'nothing reached the house')
  t.equal(await addonState(client, 'core_samba'), 'stopped')
})

t.test('option on, hassio.* removed: each action reaches the house; stop and update are confirmed', async t => {
  const home = await startHome(t)
  const clock = fakeClock()
  const { server, client } = await serve(t, home, { ...ON, service_denylist: WITHOUT_HASSIO }, true, clock)

  const started = await callTool(client, 'ha_manage_addon', { action: 'start', slug: 'core_samba' })
  t.notOk(started.isError, started.text)
  t.match(started.json, { success: true, addon: 'core_samba', state: 'started' })
  t.match(home.serviceCalls.at(-1), { domain: 'hassio', service: 'addon_start', service_data: { addon: 'core_samba' } })

  const restarted = await callTool(client, 'ha_manage_addon', { action: 'restart', slug: 'core_mosquitto' })
  t.match(restarted.json, { success: true, state: 'started' })
  t.match(home.serviceCalls.at(-1), { domain: 'hassio', service: 'addon_restart', service_data: { addon: 'core_mosquitto' } })

  const before = hassioCalls(home).length
  const dry = await callTool(client, 'ha_manage_addon', { action: 'stop', slug: 'core_mosquitto', dry_run: true })
  t.match(dry.json, { dry_run: true, would_call: { domain: 'hassio', service: 'addon_stop' }, notes: ['The real call will need a confirmation.'] })
  const asked = await callTool(client, 'ha_manage_addon', { action: 'stop', slug: 'core_mosquitto' })
  t.equal(asked.json.confirmation_required, true, asked.text)
  t.match(asked.json.preview, /Stop the add-on Mosquitto broker \(core_mosquitto\)/)
  t.equal(hassioCalls(home).length, before, 'nothing sent before the yes')
  t.equal(await addonState(client, 'core_mosquitto'), 'started')
  const stopped = await callTool(client, 'ha_manage_addon', { action: 'stop', slug: 'core_mosquitto', confirm_token: asked.json.confirm_token })
  t.match(stopped.json, { success: true, state: 'stopped' }, stopped.text)
  t.equal(await addonState(client, 'core_mosquitto'), 'stopped')

  const update = await callTool(client, 'ha_manage_addon', { action: 'update', slug: 'a0d7b954_vscode' })
  t.equal(update.json.confirmation_required, true, update.text)
  t.match(update.json.preview, /Install the add-on Studio Code Server \(a0d7b954_vscode\) 5\.19\.3 -> 5\.20\.0, no backup; it restarts on the new version\. This update can make a backup first/, 'worded as ha_manage_update\'s, with its backup offer')
  t.notOk(home.serviceCalls.some(c => c.domain === 'update'), 'no install before the yes')
  const withBackup = await callTool(client, 'ha_manage_addon', { action: 'update', slug: 'a0d7b954_vscode', backup: true })
  // ha_manage_update's install path: the answer comes while the install runs (the demo's reports progress until finished).
  // It answers once its 2 s wait for the house (tools/system/_updates.ts) passes on the server's clock.
  const installing = await pastWait(clock, 2000, callTool(client, 'ha_manage_addon', { action: 'update', slug: 'a0d7b954_vscode', backup: true, confirm_token: withBackup.json.confirm_token }))
  t.match(installing.json, { success: true, install: 'in_progress', entity_id: 'update.studio_code_server_update' }, installing.text)
  await caughtUp(server)
  t.match(home.serviceCalls.at(-1), { domain: 'update', service: 'install', target: { entity_id: 'update.studio_code_server_update' }, service_data: { backup: true } })
  const progress = await callTool(client, 'ha_manage_addon', { action: 'update', slug: 'a0d7b954_vscode' })
  t.match(progress.json, { in_progress: true, update: { in_progress: true } }, 'the next call reports progress and installs nothing again')
  t.equal(home.serviceCalls.filter(c => c.domain === 'update').length, 1)
  t.ok(home.finishUpdate('update.studio_code_server_update'))
  await caughtUp(server)
  t.ok((await callTool(client, 'ha_get_addons', { slug: 'a0d7b954_vscode' })).json.version === '5.20.0', 'the add-on updated')
  const refused = await callTool(client, 'ha_manage_addon', { action: 'start', slug: 'core_samba', backup: true })
  t.equal(refused.code, 'HAMCP_INVALID_ARGUMENT', 'backup goes with update only')
  const again = await callTool(client, 'ha_manage_addon', { action: 'update', slug: 'a0d7b954_vscode' })
  t.match(again.json, { up_to_date: true, version: '5.20.0' })
})

t.test('refusals that reach nothing: its own stop, options, unknown add-ons, a named token below manage', async t => {
  const home = await startHome(t)
  const { client } = await serve(t, home, { ...ON, service_denylist: WITHOUT_HASSIO })

  const self = await callTool(client, 'ha_manage_addon', { action: 'stop', slug: 'local_ha_mcp' })
  t.equal(self.code, 'HAMCP_NOT_SUPPORTED', self.text)
  t.match(self.text, /this MCP server's own add-on/)
  const options = await callTool(client, 'ha_manage_addon', { action: 'options', slug: 'core_mosquitto', options: { logins: [] } })
  t.equal(options.code, 'HAMCP_NOT_PERMITTED')
  t.match(options.text, /on its page in Home Assistant/)
  const unknown = await callTool(client, 'ha_manage_addon', { action: 'start', slug: 'core_nothing' })
  t.equal(unknown.code, 'HAMCP_NOT_FOUND')

  // The Tokens tab answers only the Supervisor's ingress proxy in add-on mode: named tokens are made in development mode.
  const { server } = await serve(t, home, { ...ON, service_denylist: WITHOUT_HASSIO }, false)
  const ingress = await startIngress(t, server, [], await loadToolCatalog(TOOLS_DIR))
  for (const level of ['read', 'write']) {
    const created = await ingress.inject({ method: 'POST', url: '/api/tokens', headers: UI, payload: { name: `system ${level}`, levels: { '*': 'manage', system: level } } })
    t.equal(created.statusCode, 201)
    const named = await connectClient(t, server, created.json().token)
    t.notOk((await named.listTools()).tools.some(tool => tool.name === 'ha_manage_addon'), `not listed at ${level}`)
    const unlisted = await callTool(named, 'ha_manage_addon', { action: 'start', slug: 'core_samba' }).catch((err: unknown) => err as { data?: { code?: string } })
    t.equal((unlisted as { data?: { code?: string } }).data?.code, 'HAMCP_NOT_FOUND', `no such tool for a token at ${level}`)
    const through = await callTool(named, 'ha_call_service', { domain: 'hassio', service: 'addon_restart', data: { addon: 'core_samba' } })
    t.equal(through.code, 'HAMCP_DENIED_LEVEL', through.text)
    t.match(through.text, new RegExp(`needs the system category at manage; this token has it at ${level}`))
  }
  t.same(hassioCalls(home), [], 'nothing reached the house')
  t.equal(await addonState(client, 'local_ha_mcp'), 'started')
  t.equal(await addonState(client, 'core_samba'), 'stopped')
})

t.test('red team: ha_call_service is no way around the tool: its own stop is refused, a stop and an install ask first; slug self is this add-on', async t => {
  const home = await startHome(t)
  const { client } = await serve(t, home, { ...ON, service_denylist: WITHOUT_HASSIO })

  for (const [service, key, slug] of [['addon_stop', 'addon', 'local_ha_mcp'], ['app_stop', 'app', 'local_ha_mcp'], ['addon_stop', 'addon', 'self']] as const) {
    const own = await callTool(client, 'ha_call_service', { domain: 'hassio', service, data: { [key]: slug } })
    t.equal(own.code, 'HAMCP_NOT_SUPPORTED', `hassio.${service} ${slug}: ${own.text}`)
    t.match(own.text, /this MCP server's own add-on/)
  }
  const self = await callTool(client, 'ha_manage_addon', { action: 'stop', slug: 'self' })
  t.equal(self.code, 'HAMCP_NOT_SUPPORTED', self.text)
  t.equal(await addonState(client, 'local_ha_mcp'), 'started')

  const stop = await callTool(client, 'ha_call_service', { domain: 'hassio', service: 'addon_stop', data: { addon: 'core_mosquitto' } })
  t.equal(stop.json?.confirmation_required, true, `a stop asks first, as ha_manage_addon's does: ${stop.text}`)
  t.equal(await addonState(client, 'core_mosquitto'), 'started')
  const install = await callTool(client, 'ha_call_service', { domain: 'update', service: 'install', target: { entity_id: 'update.studio_code_server_update' } })
  t.equal(install.json?.confirmation_required, true, `an install asks first, as ha_manage_update's does: ${install.text}`)
  t.same(hassioCalls(home), [], 'nothing reached the house')

  const yes = await callTool(client, 'ha_call_service', { domain: 'hassio', service: 'addon_stop', data: { addon: 'core_mosquitto' }, confirm_token: stop.json?.confirm_token })
  t.notOk(yes.isError, yes.text)
  t.equal(await addonState(client, 'core_mosquitto'), 'stopped', 'the yes stops it')
})

// ha_list_updates and ha_manage_repair through the SDK client, against the demo home (issue 32 items 3 and 4).
import t from 'tap'
import { callTool, caughtUp, connectClient, fakeClock, pastWait, startHome, startServer, type ToolAnswer } from '../helper.ts'
import { startIngress } from '../ingress/_ingress.ts'
import { loadToolCatalog } from '../../src/mcp/runtime/registry.ts'
import { TOOLS_DIR } from '../../app/tools-dir.ts'

const UI = { 'x-ha-mcp-ui': '1', 'content-type': 'application/json' }

t.test('ha_list_updates: core, an add-on and a firmware, with what each supports', async t => {
  const home = await startHome(t)
  const server = await startServer(t, { home, options: { allow_config_write: true } })
  const client = await connectClient(t, server)
  const listed = await callTool(client, 'ha_list_updates', {})
  t.notOk(listed.isError, listed.text)
  const byId: Record<string, Record<string, unknown>> = Object.fromEntries((listed.json.items as Array<Record<string, unknown>>).map(item => [String(item.entity_id), item]))
  t.match(byId['update.home_assistant_core_update'], { installed: '2026.11.1', latest: '2026.11.2', update_available: true, in_progress: false, supports: ['install', 'specific_version', 'backup'] })
  t.match(byId['update.studio_code_server_update'], { title: 'Studio Code Server', release_summary: 'Upgrades code-server to 4.99.', supports: ['install', 'progress', 'backup', 'release_notes'] })
  t.match(byId['update.zigbee_coordinator_firmware'], { installed: '20240510', latest: '20241105', supports: ['install', 'progress', 'backup', 'release_notes'] })
  t.ok(Object.values(byId).every(item => item.update_available === true), 'up-to-date ones are left out by default')
  t.ok(Buffer.byteLength(listed.text) < 15_000)
  const all = await callTool(client, 'ha_list_updates', { all: true })
  t.ok(all.json.total > listed.json.total, 'all=true adds the up-to-date firmware')
})

t.test('ha_manage_repair: ignore and unignore reach the issue registry; refusals reach nothing', async t => {
  const home = await startHome(t)
  const server = await startServer(t, { home, options: { allow_config_write: true } })
  const client = await connectClient(t, server)
  const openRepairs = async (): Promise<string[]> => ((await callTool(client, 'ha_get_health', {})).json.repairs.items as Array<{ issue: string }>).map(i => i.issue)
  t.ok((await openRepairs()).includes('inconsistent_network_settings'))

  const dry = await callTool(client, 'ha_manage_repair', { action: 'ignore', domain: 'zha', issue_id: 'inconsistent_network_settings', dry_run: true })
  // No service ignores a repair: the dry run and the audit name the command Home Assistant gets.
  t.match(dry.json, { dry_run: true, would_call: { operation: 'repairs/ignore_issue' } })
  t.notOk('domain' in dry.json.would_call, 'not dressed as a service call')
  t.ok((await openRepairs()).includes('inconsistent_network_settings'), 'a dry run ignores nothing')

  const ignored = await callTool(client, 'ha_manage_repair', { action: 'ignore', domain: 'zha', issue_id: 'inconsistent_network_settings' })
  t.notOk(ignored.isError, ignored.text)
  t.match(ignored.json, { success: true, ignored: true, changed: true })
  t.notOk((await openRepairs()).includes('inconsistent_network_settings'), 'Home Assistant no longer lists it as open')
  t.match(server.app.services.policy.audit.recent(1)[0], { tool: 'ha_manage_repair', outcome: 'allowed', operation: 'repairs/ignore_issue', domain: undefined, service: undefined })

  const back = await callTool(client, 'ha_manage_repair', { action: 'unignore', domain: 'zha', issue_id: 'inconsistent_network_settings' })
  t.match(back.json, { success: true, ignored: false })
  t.ok((await openRepairs()).includes('inconsistent_network_settings'))

  const unknown = await callTool(client, 'ha_manage_repair', { action: 'ignore', domain: 'zha', issue_id: 'no_such_issue' })
  t.equal(unknown.code, 'HAMCP_NOT_FOUND')

  // service_denylist names services; an entry shaped like one does not reach a command (allow_config_write and the system level do).
  const denied = await startServer(t, { home, options: { allow_config_write: true, service_denylist: ['repairs.*'] } })
  const passed = await callTool(await connectClient(t, denied), 'ha_manage_repair', { action: 'ignore', domain: 'zha', issue_id: 'inconsistent_network_settings' })
  t.match(passed.json, { success: true, ignored: true }, 'no service, so no service_denylist entry applies')
  t.notOk((await openRepairs()).includes('inconsistent_network_settings'))
})

t.test('levels: system at manage may ignore a repair; at read it lists updates only', async t => {
  const home = await startHome(t)
  const server = await startServer(t, { home, options: { allow_config_write: true, tool_list: 'full' } })
  const ingress = await startIngress(t, server, [], await loadToolCatalog(TOOLS_DIR))
  const token = async (levels: Record<string, string>): Promise<string> => (await ingress.inject({ method: 'POST', url: '/api/tokens', headers: UI, payload: { name: `t ${Object.values(levels).join(' ')}`, levels } })).json().token
  const reader = await connectClient(t, server, await token({ '*': 'manage', system: 'read' }))
  const names = (await reader.listTools()).tools.map(tool => tool.name)
  t.ok(names.includes('ha_list_updates'))
  t.notOk(names.includes('ha_manage_repair'))
  await t.rejects(callTool(reader, 'ha_manage_repair', { action: 'ignore', domain: 'zha', issue_id: 'inconsistent_network_settings' }), { code: -32602 }, 'a tool beyond the level is not there to call')
  t.ok((await callTool(await connectClient(t, server), 'ha_get_health', {})).json.repairs.items.some((i: { issue: string }) => i.issue === 'inconsistent_network_settings'), 'and ignored nothing')
  const none = await connectClient(t, server, await token({ '*': 'manage', system: 'none' }))
  t.notOk((await none.listTools()).tools.some(tool => tool.name === 'ha_list_updates'))
  const manager = await connectClient(t, server, await token({ '*': 'none', system: 'manage' }))
  const done = await callTool(manager, 'ha_manage_repair', { action: 'ignore', domain: 'zha', issue_id: 'inconsistent_network_settings' })
  t.match(done.json, { success: true, ignored: true })
  t.match(server.app.services.policy.audit.recent(1)[0], { tool: 'ha_manage_repair', outcome: 'allowed' })
})

t.test('ha_manage_update: install asks first, runs without blocking, reports progress; skip and clear_skipped', async t => {
  const home = await startHome(t)
  const clock = fakeClock()
  const server = await startServer(t, { home, options: { allow_config_write: true }, app: { clock } })
  const client = await connectClient(t, server)
  const FIRMWARE = 'update.zigbee_coordinator_firmware'
  const installs = (): number => home.serviceCalls.filter(call => call.domain === 'update' && call.service === 'install').length
  /**
   * An install the house has not finished answers once its 2 s wait (tools/system/_updates.ts) passes on
   * the server's clock; on the fake clock that can be before the house has the install and the add-on its
   * progress, so the test waits for both.
   */
  const started = async (args: Record<string, unknown>): Promise<ToolAnswer> => {
    const answer = await pastWait(clock, 2000, callTool(client, 'ha_manage_update', args))
    await caughtUp(server)
    return answer
  }

  const asked = await callTool(client, 'ha_manage_update', { action: 'install', entity_id: FIRMWARE })
  t.equal(asked.json.confirmation_required, true, asked.text)
  t.match(asked.json.preview, /20240510 -> 20241105, no backup\. This update can make a backup first/)
  t.equal(installs(), 0, 'asking installs nothing')

  const withBackup = await callTool(client, 'ha_manage_update', { action: 'install', entity_id: FIRMWARE, backup: true })
  const running = await started({ action: 'install', entity_id: FIRMWARE, backup: true, confirm_token: withBackup.json.confirm_token })
  t.notOk(running.isError, running.text)
  t.match(running.json, { success: true, install: 'in_progress' }, 'answers while the install runs')
  t.match(home.serviceCalls.at(-1), { domain: 'update', service: 'install', service_data: { backup: true } })
  const progress = await callTool(client, 'ha_manage_update', { action: 'install', entity_id: FIRMWARE })
  t.match(progress.json, { in_progress: true, update: { in_progress: true, percentage: 0 } }, 'the next call reports progress, installing nothing again')
  t.equal(installs(), 1)

  t.ok(home.finishUpdate(FIRMWARE))
  await caughtUp(server)
  t.ok((await callTool(client, 'ha_list_updates', { all: true })).json.items.some((i: Record<string, any>) => i.entity_id === FIRMWARE && i.installed === '20241105' && i.last_install?.status === 'done'), 'the install is reported done')

  const addon = 'update.studio_code_server_update'
  const token = (await callTool(client, 'ha_manage_update', { action: 'install', entity_id: addon })).json.confirm_token
  await started({ action: 'install', entity_id: addon, confirm_token: token })
  t.ok(home.finishUpdate(addon, 'Download failed'))
  await caughtUp(server)
  t.ok((await callTool(client, 'ha_list_updates', {})).json.items.some((i: Record<string, any>) => i.entity_id === addon && i.last_install?.status === 'failed' && /Download failed/.test(i.last_install.error)), 'a failed install is reported failed')

  const core = 'update.home_assistant_core_update'
  const skipped = await callTool(client, 'ha_manage_update', { action: 'skip', entity_id: core })
  t.notOk(skipped.isError, skipped.text)
  t.match(home.getState(core), { state: 'off', attributes: { skipped_version: '2026.11.2' } }, 'the house skipped it')
  await callTool(client, 'ha_manage_update', { action: 'clear_skipped', entity_id: core })
  t.match(home.getState(core), { state: 'on', attributes: { skipped_version: null } })

  const noBackup = await callTool(client, 'ha_manage_update', { action: 'install', entity_id: 'update.home_assistant_core_update', version: '2026.11.2', backup: true })
  t.equal(noBackup.json.confirmation_required, true, 'the core update supports backups and specific versions')
  const plug = home.entityIds().find(id => id.startsWith('update.') && id.endsWith('_firmware') && id !== FIRMWARE) as string
  const refused = await callTool(client, 'ha_manage_update', { action: 'install', entity_id: plug, backup: true })
  t.equal(refused.code, 'HAMCP_NOT_SUPPORTED')
  const wrong = await callTool(client, 'ha_manage_update', { action: 'install', entity_id: 'light.living_room_ceiling_light' })
  t.equal(wrong.code, 'HAMCP_WRONG_DOMAIN')

  const denied = await startServer(t, { home, options: { allow_config_write: true, service_denylist: ['update.install'] } })
  const before = installs()
  const no = await callTool(await connectClient(t, denied), 'ha_manage_update', { action: 'install', entity_id: core })
  t.equal(no.code, 'HAMCP_DENIED_SERVICE')
  t.match(no.text, /update\.install is refused by the service_denylist/)
  t.equal(installs(), before, 'a denied install reached nothing')
})

t.test('update.install through ha_call_service needs system at manage, as ha_manage_update does', async t => {
  const home = await startHome(t)
  const server = await startServer(t, { home, options: { allow_write: true, allow_config_write: true } })
  const ingress = await startIngress(t, server, [], await loadToolCatalog(TOOLS_DIR))
  const created = await ingress.inject({ method: 'POST', url: '/api/tokens', headers: UI, payload: { name: 'services only', levels: { '*': 'manage', system: 'read' } } })
  const client = await connectClient(t, server, created.json().token)
  for (const service of ['install', 'skip', 'clear_skipped']) {
    const refused = await callTool(client, 'ha_call_service', { domain: 'update', service, target: { entity_id: 'update.home_assistant_core_update' } })
    t.equal(refused.code, 'HAMCP_DENIED_LEVEL', `update.${service}`)
  }
  t.notOk(home.serviceCalls.some(call => call.domain === 'update'), 'nothing reached the house')
  const primary = await connectClient(t, server)
  const skipped = await callTool(primary, 'ha_call_service', { domain: 'update', service: 'skip', target: { entity_id: 'update.home_assistant_core_update' } })
  t.notOk(skipped.isError, skipped.text)
  t.equal(home.getState('update.home_assistant_core_update')?.state, 'off', 'the primary token still reaches it')
})

t.test('ha_undo takes back a skip (update.clear_skipped) and a clear_skipped (update.skip); an install stays without undo', async t => {
  const home = await startHome(t)
  const server = await startServer(t, { home, options: { allow_write: true, allow_config_write: true } })
  const client = await connectClient(t, server)
  const core = 'update.home_assistant_core_update'

  const skipped = await callTool(client, 'ha_manage_update', { action: 'skip', entity_id: core })
  t.match(skipped.json, { success: true, undo_available: true }, skipped.text)
  t.equal(home.getState(core)?.attributes.skipped_version, '2026.11.2')
  const undone = await callTool(client, 'ha_undo', {})
  t.notOk(undone.isError, undone.text)
  t.match(home.serviceCalls.at(-1), { domain: 'update', service: 'clear_skipped' }, 'the undo un-skipped it')
  t.match(home.getState(core), { state: 'on', attributes: { skipped_version: null } })

  await callTool(client, 'ha_manage_update', { action: 'skip', entity_id: core })
  const cleared = await callTool(client, 'ha_manage_update', { action: 'clear_skipped', entity_id: core })
  t.match(cleared.json, { success: true, undo_available: true }, cleared.text)
  t.equal(home.getState(core)?.state, 'on')
  t.notOk((await callTool(client, 'ha_undo', {})).isError)
  t.match(home.serviceCalls.at(-1), { domain: 'update', service: 'skip' }, 'the undo skipped it again')
  t.match(home.getState(core), { state: 'off', attributes: { skipped_version: '2026.11.2' } })

  await callTool(client, 'ha_manage_update', { action: 'clear_skipped', entity_id: core })
  const installCall = { domain: 'update', service: 'install', target: { entity_id: core } }
  const asked = await callTool(client, 'ha_call_service', installCall)
  const install = await callTool(client, 'ha_call_service', { ...installCall, confirm_token: asked.json.confirm_token })
  t.match(install.json, { success: true }, install.text)
  t.notOk(install.json.undo_available, 'an install cannot be undone, so it offers no undo')
  t.equal((await callTool(client, 'ha_undo', {})).code, 'HAMCP_NOT_FOUND', 'and undo does not take back the clear before it instead')
})

t.test('a skip made under allow_config_write alone is undone under it too', async t => {
  const home = await startHome(t)
  const server = await startServer(t, { home, options: { allow_config_write: true } })
  const client = await connectClient(t, server)
  const core = 'update.home_assistant_core_update'
  await callTool(client, 'ha_manage_update', { action: 'skip', entity_id: core })
  const undone = await callTool(client, 'ha_undo', {})
  t.notOk(undone.isError, undone.text)
  t.match(home.getState(core), { state: 'on', attributes: { skipped_version: null } })
})

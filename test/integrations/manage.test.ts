import t from 'tap'
import { callTool, connectClient, startHome, startServer } from '../helper.ts'
import { entriesOf } from '../../demo/config-entries.ts'
import { authorizeUrl, exchange, openConsent, pkce, postForm, register } from '../oauth/_oauth.ts'

const entryOf = (home: { house: any }, domain: string): any => [...entriesOf(home.house).entries.values()].find(e => e.domain === domain)
const entitiesOf = (home: { house: any }, entryId: string): string[] => [...home.house.entities.values()].filter((e: any) => e.config_entry_id === entryId).map((e: any) => e.entity_id)

t.test('ha_manage_integration reaches the demo home through the guarded path', async t => {
  const home = await startHome(t, { entities: 400 })
  const server = await startServer(t, { home, options: { allow_write: true, allow_config_write: true } })
  const client = await connectClient(t, server)
  const audit = (): any[] => server.app.services.policy.audit.recent(20)
  const hue = entryOf(home, 'hue')
  const hueEntities = entitiesOf(home, hue.entry_id)

  t.test('reload is homeassistant.reload_config_entry, and says the state it reached', async t => {
    home.configWrites.length = 0
    const dry = await callTool(client, 'ha_manage_integration', { action: 'reload', entry_id: hue.entry_id, dry_run: true })
    t.match(dry.json, { dry_run: true, would_call: { domain: 'homeassistant', service: 'reload_config_entry', data: { entry_id: hue.entry_id } } }, dry.text)
    t.same(home.configWrites, [], 'a dry run reaches nothing')
    const done = await callTool(client, 'ha_manage_integration', { action: 'reload', entry_id: hue.entry_id })
    t.match(done.json, { success: true, state: 'loaded' }, done.text)
    t.same(home.configWrites, [`config_entries reload ${hue.entry_id}`])
    t.match(home.serviceCalls.at(-1), { domain: 'homeassistant', service: 'reload_config_entry' })
    t.match(audit()[0], { tool: 'ha_manage_integration', outcome: 'allowed', domain: 'homeassistant', service: 'reload_config_entry' })
    const nut = entryOf(home, 'nut')
    const failing = await callTool(client, 'ha_manage_integration', { action: 'reload', entry_id: nut.entry_id })
    t.match(failing.json, { success: true, state: 'setup_error', reason: /Connection refused/ }, 'a reload that fails again says why')
  })

  t.test('disable asks first, says what stops, and ha_undo enables it again', async t => {
    home.configWrites.length = 0
    const asked = await callTool(client, 'ha_manage_integration', { action: 'disable', entry_id: hue.entry_id })
    t.equal(asked.json.confirmation_required, true, asked.text)
    t.match(asked.json.preview, new RegExp(`Disable Hue Bridge \\(hue\\): stops \\d+ devices, ${hueEntities.length} entities`))
    t.same(home.configWrites, [], 'nothing before the confirmation')
    const done = await callTool(client, 'ha_manage_integration', { action: 'disable', entry_id: hue.entry_id, confirm_token: asked.json.confirm_token })
    t.match(done.json, { success: true, disabled_by: 'user', state: 'not_loaded', undo_available: true }, done.text)
    t.equal(hue.disabled_by, 'user')
    for (const id of hueEntities) t.notOk(home.house.states.has(id), `${id} stopped`)
    t.equal(home.house.entities.get(hueEntities[0])?.disabled_by, 'config_entry', 'its entities are disabled by the entry')
    const undone = await callTool(client, 'ha_undo', {})
    t.notOk(undone.isError, undone.text)
    t.equal(hue.disabled_by, null)
    t.equal(hue.state, 'loaded')
    for (const id of hueEntities) t.ok(home.house.states.has(id), `${id} back`)
  })

  t.test('enable is undone by a disable, which asks again', async t => {
    const spotify = entryOf(home, 'spotify')
    const done = await callTool(client, 'ha_manage_integration', { action: 'enable', entry_id: spotify.entry_id })
    t.match(done.json, { success: true, disabled_by: null, state: 'loaded' }, done.text)
    const again = await callTool(client, 'ha_manage_integration', { action: 'enable', entry_id: spotify.entry_id })
    t.equal(again.code, 'HAMCP_INVALID_ARGUMENT', 'already enabled')
    const undo = await callTool(client, 'ha_undo', {})
    t.equal(undo.json.confirmation_required, true, undo.text)
    await callTool(client, 'ha_undo', { confirm_token: undo.json.confirm_token })
    t.equal(spotify.disabled_by, 'user')
  })

  t.test('options: the form with current values, a change shows before and after, undo puts them back', async t => {
    const form = await callTool(client, 'ha_manage_integration', { action: 'options', entry_id: hue.entry_id })
    t.same(form.json.fields, [
      { name: 'allow_hue_groups', type: 'boolean', required: false, current: false },
      { name: 'allow_unreachable', type: 'boolean', required: false, current: false }
    ], form.text)
    const dry = await callTool(client, 'ha_manage_integration', { action: 'options', entry_id: hue.entry_id, options: { allow_hue_groups: true }, dry_run: true })
    t.match(dry.json, { dry_run: true, changes: { allow_hue_groups: { before: false, after: true } } }, dry.text)
    t.same(hue.options, { allow_hue_groups: false, allow_unreachable: false }, 'a dry run changes nothing')
    t.equal(entriesOf(home.house).optionsFlows.size, 0, 'the flows it opened to read the form are closed')
    const done = await callTool(client, 'ha_manage_integration', { action: 'options', entry_id: hue.entry_id, options: { allow_hue_groups: true } })
    t.match(done.json, { success: true, changes: { allow_hue_groups: { before: false, after: true } }, undo_available: true }, done.text)
    t.same(hue.options, { allow_hue_groups: true, allow_unreachable: false })
    const undone = await callTool(client, 'ha_undo', {})
    t.notOk(undone.isError, undone.text)
    t.same(hue.options, { allow_hue_groups: false, allow_unreachable: false })
    t.equal(entriesOf(home.house).optionsFlows.size, 0)

    // Undo never overwrites newer work: the owner changed the option in Home Assistant since.
    await callTool(client, 'ha_manage_integration', { action: 'options', entry_id: hue.entry_id, options: { allow_unreachable: true } })
    hue.options = { ...hue.options, allow_unreachable: false }
    const stale = await callTool(client, 'ha_undo', {})
    t.equal(stale.code, 'HAMCP_CONFLICT', 'an undo over newer work is a conflict, shown')
    t.match(stale.text, /option allow_unreachable: was true, now false/)
    t.same(hue.options, { allow_hue_groups: false, allow_unreachable: false }, 'nothing written before the yes')

    const unknown = await callTool(client, 'ha_manage_integration', { action: 'options', entry_id: hue.entry_id, options: { colour: 'red' } })
    t.equal(unknown.code, 'HAMCP_INVALID_ARGUMENT')
    t.match(unknown.text, /allow_hue_groups/)
    const wrongType = await callTool(client, 'ha_manage_integration', { action: 'options', entry_id: hue.entry_id, options: { allow_hue_groups: 'yes' } })
    t.equal(wrongType.code, 'HAMCP_INVALID_ARGUMENT', 'the flow\'s own validation comes back as an argument error')
    t.match(wrongType.text, /allow_hue_groups: expected bool/)
    t.same(hue.options, { allow_hue_groups: false, allow_unreachable: false })
    t.equal(entriesOf(home.house).optionsFlows.size, 0)
    const none = await callTool(client, 'ha_manage_integration', { action: 'options', entry_id: entryOf(home, 'nut').entry_id })
    t.equal(none.code, 'HAMCP_NOT_SUPPORTED')
  })

  t.test('discoveries: accepted, asked for a code, ignored', async t => {
    const flows = (): any[] => [...entriesOf(home.house).flows.values()]
    const shelly = flows().find(f => f.handler === 'shelly')
    const homekit = flows().find(f => f.handler === 'homekit_controller')
    const added = await callTool(client, 'ha_manage_integration', { action: 'accept_discovery', flow_id: shelly.flow_id })
    t.match(added.json, { success: true, added: 'Shelly Plus 1PM', domain: 'shelly' }, added.text)
    t.ok([...entriesOf(home.house).entries.values()].some(e => e.entry_id === added.json.entry_id && e.source === 'zeroconf'))
    const code = await callTool(client, 'ha_manage_integration', { action: 'accept_discovery', flow_id: homekit.flow_id })
    t.equal(code.code, 'HAMCP_NOT_SUPPORTED', code.text)
    t.match(code.text, /pairing_code/)
    t.match(code.text, /Settings > Devices & services/)
    t.ok(entriesOf(home.house).flows.has(homekit.flow_id), 'the discovery still waits')
    const ignored = await callTool(client, 'ha_manage_integration', { action: 'ignore_discovery', flow_id: homekit.flow_id })
    t.match(ignored.json, { success: true, ignored: 'Eve Door 20EBY9901' }, ignored.text)
    t.notOk(entriesOf(home.house).flows.has(homekit.flow_id))
    t.ok([...entriesOf(home.house).entries.values()].some(e => e.source === 'ignore' && e.domain === 'homekit_controller'))
    const gone = await callTool(client, 'ha_manage_integration', { action: 'accept_discovery', flow_id: homekit.flow_id })
    t.equal(gone.code, 'HAMCP_NOT_FOUND')
  })

  t.test('delete asks first, says what goes, then removes the entry with its devices', async t => {
    const tplink = entryOf(home, 'tplink')
    const devices = [...home.house.devices.values()].filter((d: any) => d.config_entry_id === tplink.entry_id).map((d: any) => d.id)
    t.ok(devices.length > 0)
    const asked = await callTool(client, 'ha_manage_integration', { action: 'delete', entry_id: tplink.entry_id })
    t.equal(asked.json.confirmation_required, true, asked.text)
    t.match(asked.json.preview, /for good: removes 1 devices/)
    t.ok(entriesOf(home.house).entries.has(tplink.entry_id))
    const done = await callTool(client, 'ha_manage_integration', { action: 'delete', entry_id: tplink.entry_id, confirm_token: asked.json.confirm_token })
    t.match(done.json, { success: true, deleted: tplink.title }, done.text)
    t.notOk(entriesOf(home.house).entries.has(tplink.entry_id))
    for (const id of devices) t.notOk(home.house.devices.has(id))
    const missing = await callTool(client, 'ha_manage_integration', { action: 'delete', entry_id: tplink.entry_id })
    t.equal(missing.code, 'HAMCP_NOT_FOUND')
    const noId = await callTool(client, 'ha_manage_integration', { action: 'disable' })
    t.equal(noId.code, 'HAMCP_INVALID_ARGUMENT')
  })
})

t.test('refusals reach nothing: service_denylist, entity lists, levels, the option', async t => {
  const home = await startHome(t, { entities: 400 })
  const hue = entryOf(home, 'hue')
  const hueLight = entitiesOf(home, hue.entry_id).find(id => id.startsWith('light.'))!
  const server = await startServer(t, { home, options: { allow_write: true, allow_config_write: true, service_denylist: ['homeassistant.reload_config_entry', 'config_entries.delete'], entity_denylist: [hueLight] } })
  const client = await connectClient(t, server)
  home.configWrites.length = 0
  home.clearServiceCalls()

  const reload = await callTool(client, 'ha_manage_integration', { action: 'reload', entry_id: hue.entry_id })
  t.equal(reload.code, 'HAMCP_DENIED_SERVICE', reload.text)
  t.match(reload.text, /homeassistant\.reload_config_entry/)
  const direct = await callTool(client, 'ha_call_service', { domain: 'homeassistant', service: 'reload_config_entry', data: { entry_id: hue.entry_id } })
  t.equal(direct.code, 'HAMCP_DENIED_SERVICE', 'the same entry refuses the service called directly')
  const nut = entryOf(home, 'nut')
  // No service deletes an integration: an entry shaped like one (config_entries.delete) refuses nothing,
  // the delete still waits for its confirmation, and the audit names the request it would send.
  const deleted = await callTool(client, 'ha_manage_integration', { action: 'delete', entry_id: nut.entry_id })
  t.match(deleted.json, { confirmation_required: true }, deleted.text)
  t.match(server.app.services.policy.audit.recent(1)[0], { tool: 'ha_manage_integration', outcome: 'confirmation_asked', operation: 'config/config_entries/entry', domain: undefined })
  const disable = await callTool(client, 'ha_manage_integration', { action: 'disable', entry_id: hue.entry_id })
  t.equal(disable.code, 'HAMCP_DENIED_ENTITY', 'an integration holding a denied entity cannot be stopped')
  t.same(home.configWrites, [])
  t.same(home.serviceCalls, [])
  t.equal(hue.disabled_by, null)
  t.ok(entriesOf(home.house).entries.has(nut.entry_id))

  // Levels: named tokens at each level of the integrations category.
  const open = await startServer(t, { home, options: { allow_write: true, allow_config_write: true, tool_list: 'full' } })
  const tokens = open.app.services.tokens
  const spotify = entryOf(home, 'spotify')
  for (const level of ['none', 'read', 'write'] as const) {
    const { token } = await tokens.create({ name: `integrations ${level}`, levels: { '*': 'manage', integrations: level } })
    const named = await connectClient(t, open, token)
    const listed = (await named.listTools()).tools.map(tool => tool.name)
    t.notOk(listed.includes('ha_manage_integration'), `${level}: not listed`)
    t.equal(listed.includes('ha_list_integrations'), level !== 'none', `${level}: the list needs read`)
    await t.rejects(named.callTool({ name: 'ha_manage_integration', arguments: { action: 'enable', entry_id: spotify.entry_id } }), { code: -32602 }, `${level}: not callable`)
    const viaService = await callTool(named, 'ha_call_service', { domain: 'homeassistant', service: 'reload_config_entry', data: { entry_id: hue.entry_id } })
    t.equal(viaService.code, 'HAMCP_DENIED_LEVEL', `${level}: the service that reloads an entry needs integrations at manage`)
    t.match(viaService.text, new RegExp(`needs the integrations category at manage; this token has it at ${level}`))
  }
  const { token: manager } = await tokens.create({ name: 'integrations manage', levels: { integrations: 'manage' } })
  const managing = await connectClient(t, open, manager)
  const enabled = await callTool(managing, 'ha_manage_integration', { action: 'enable', entry_id: spotify.entry_id })
  t.match(enabled.json, { success: true }, enabled.text)
  t.match(open.app.services.policy.audit.recent(1)[0], { identity_name: 'integrations manage', outcome: 'allowed', operation: 'config_entries/disable' })
  t.same(home.serviceCalls, [], 'no level refusal reached the house')

  const noConfig = await startServer(t, { home, options: { allow_write: true } })
  const writer = await connectClient(t, noConfig)
  const refused = await callTool(writer, 'ha_call_service', { domain: 'homeassistant', service: 'reload_config_entry', data: { entry_id: hue.entry_id } })
  t.equal(refused.code, 'HAMCP_DENIED_LEVEL', 'without allow_config_write the primary token cannot reload an entry either')
  t.same(home.serviceCalls, [])
})

t.test('an OAuth sign-in gets what its scopes grant: write is not enough, manage is', async t => {
  const home = await startHome(t, { entities: 400 })
  const server = await startServer(t, { home, options: { allow_write: true, allow_config_write: true } })
  const hue = entryOf(home, 'hue')
  const spotify = entryOf(home, 'spotify')
  // The owner ticks exactly these scopes on the consent page.
  const signedIn = async (scopes: string[]): Promise<Awaited<ReturnType<typeof connectClient>>> => {
    const redirectUri = 'http://127.0.0.1:33333/callback'
    const registered = await (await register(server.url, { redirect_uris: [redirectUri], token_endpoint_auth_method: 'none', grant_types: ['authorization_code'], client_name: 'Integrations app' })).json() as { client_id: string }
    const sign = { clientId: registered.client_id, redirectUri, pkce: pkce() }
    const page = await openConsent(authorizeUrl(server.url, sign))
    const decided = await postForm(`${server.url}/oauth/authorize`, { request: page.requestId ?? '', api_token: server.token, action: 'allow', scope: scopes })
    const code = new URL(decided.headers.get('location') ?? '').searchParams.get('code') ?? ''
    const answer = await exchange(server.url, { ...sign, code })
    const { access_token: token } = await answer.json() as { access_token: string }
    return await connectClient(t, server, token)
  }
  home.clearServiceCalls()
  const writer = await signedIn(['read', 'write'])
  t.notOk((await writer.listTools()).tools.some(tool => tool.name === 'ha_manage_integration'))
  const viaService = await callTool(writer, 'ha_call_service', { domain: 'homeassistant', service: 'reload_config_entry', data: { entry_id: hue.entry_id } })
  t.equal(viaService.code, 'HAMCP_DENIED_LEVEL', viaService.text)
  t.same(home.serviceCalls, [])
  const manager = await signedIn(['read', 'write', 'manage'])
  const enabled = await callTool(manager, 'ha_manage_integration', { action: 'enable', entry_id: spotify.entry_id })
  t.match(enabled.json, { success: true }, enabled.text)
  t.equal(spotify.disabled_by, null)
})

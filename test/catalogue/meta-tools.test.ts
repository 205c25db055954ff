import t from 'tap'
import type { Test } from 'tap'
import { TOOLS_DIR } from '../../app/tools-dir.ts'
import type { Identity, Levels } from '../../src/auth/identity.ts'
import { loadToolCatalog } from '../../src/mcp/runtime/registry.ts'
import { optionsSchema, type Options, type ToolList } from '../../src/options.ts'
import { callTool, connectClient, startHome, startServer, type TestServer } from '../helper.ts'
import { startIngress } from '../ingress/_ingress.ts'
import { authorizeUrl, exchange, openConsent, pkce, postForm, register, type SignIn } from '../oauth/_oauth.ts'
import { modern } from '../modern.ts'

/**
 * The tool catalogue through the SDK client against the demo home (issue 32 items 1, 9, 11):
 * ha_search_tools finds, ha_call_tool runs a tool exactly as a direct call would, and neither is a way
 * around a level, an option, an entity list, a confirmation or the audit.
 */

const UI = { 'x-ha-mcp-ui': '1', 'content-type': 'application/json' }
const SWITCH = 'switch.irrigation'
const WRITES = { allow_write: true, allow_config_write: true }

async function namedToken (t: Test, server: TestServer, name: string, levels: Levels, extra: Record<string, unknown> = {}): Promise<string> {
  const ingress = await startIngress(t, server)
  const created = await ingress.inject({ method: 'POST', url: '/api/tokens', headers: UI, payload: { name, levels, ...extra } })
  if (created.statusCode !== 201) throw new Error(`token not created: ${created.body}`)
  return created.json().token as string
}

/** An OAuth sign-in granted one level on the consent page. */
async function signIn (server: TestServer, level: 'read' | 'write' | 'manage'): Promise<string> {
  const redirectUri = 'http://127.0.0.1:41003/cb'
  const registered = await (await register(server.url, { redirect_uris: [redirectUri], token_endpoint_auth_method: 'none', grant_types: ['authorization_code'], client_name: 'Catalogue test' })).json() as { client_id: string }
  const sign: SignIn = { clientId: registered.client_id, redirectUri, pkce: pkce() }
  const page = await openConsent(authorizeUrl(server.url, sign))
  const decided = await postForm(`${server.url}/oauth/authorize`, { request: page.requestId ?? '', api_token: server.token, action: 'allow', level })
  const code = new URL(decided.headers.get('location') ?? '').searchParams.get('code') ?? ''
  return ((await (await exchange(server.url, { ...sign, code })).json()) as { access_token: string }).access_token
}

t.test('core lists everyday tools with their titles; the rest is found and run through the meta tools', async t => {
  const home = await startHome(t)
  const server = await startServer(t, { home, options: { allow_write: true } })
  const client = await connectClient(t, server)
  const { tools } = await client.listTools()
  const names = tools.map(tool => tool.name)
  t.ok(names.includes('ha_search_tools') && names.includes('ha_call_tool'), 'the meta tools are listed')
  t.ok(names.includes('ha_call_service') && names.includes('ha_search_entities'), 'everyday tools are listed')
  t.notOk(names.includes('ha_list_floors'), 'a tool that is not everyday is left to the search')
  for (const tool of tools) t.ok(typeof tool.title === 'string' && tool.title.length > 0, `${tool.name} carries its title`)
  t.notOk(tools.find(tool => tool.name === 'ha_call_tool')?.annotations?.readOnlyHint, 'ha_call_tool never says read-only: it runs writes')

  const found = await callTool(client, 'ha_search_tools', { query: 'which floors are there' })
  t.equal(found.json.tools[0].name, 'ha_list_floors', 'best match first')
  t.match(found.json.tools[0], { title: 'List floors', description: String, inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } })
  t.ok(found.json.tools.length <= 5, 'five at most by default')
  t.equal((await callTool(client, 'ha_search_tools', { query: 'floors', limit: 11 })).code, 'HAMCP_INVALID_ARGUMENT', 'limit is 1 to 10')

  const direct = await callTool(client, 'ha_list_floors')
  const through = await callTool(client, 'ha_call_tool', { name: 'ha_list_floors', arguments: {} })
  t.same(through.json, direct.json, 'the same answer as a direct call')
  t.same((await callTool(client, 'ha_call_tool', { name: 'ha_list_floors' })).json, direct.json, 'arguments default to none')

  const badDirect = await callTool(client, 'ha_get_history', { hours: 'soon' })
  const badThrough = await callTool(client, 'ha_call_tool', { name: 'ha_get_history', arguments: { hours: 'soon' } })
  t.equal(badThrough.code, 'HAMCP_INVALID_ARGUMENT')
  t.equal(badThrough.text, badDirect.text, 'the same argument error, word for word')

  const dry = await callTool(client, 'ha_call_tool', { name: 'ha_call_service', arguments: { domain: 'switch', service: 'turn_on', target: { entity_id: SWITCH }, dry_run: true } })
  t.notOk(dry.isError, dry.text)
  t.same(home.serviceCalls, [], 'a dry run reaches nothing')
  const done = await callTool(client, 'ha_call_tool', { name: 'ha_call_service', arguments: { domain: 'switch', service: 'turn_on', target: { entity_id: SWITCH } } })
  t.notOk(done.isError, done.text)
  t.equal(home.getState(SWITCH)?.state, 'on', 'the write reached the house')
  t.match(server.app.services.policy.audit.recent(1)[0], { tool: 'ha_call_service', outcome: 'allowed' }, 'audited as the tool it ran')

  t.equal((await callTool(client, 'ha_call_tool', { name: 'ha_no_such_tool', arguments: {} })).code, 'HAMCP_NOT_FOUND', 'an unknown name')
  t.equal((await callTool(client, 'ha_call_tool', { name: 'ha_call_tool', arguments: { name: 'ha_list_floors' } })).code, 'HAMCP_NOT_FOUND', 'not itself')
  t.equal((await callTool(client, 'ha_call_tool', { name: 42 })).code, 'HAMCP_INVALID_ARGUMENT', 'a name is text')
  t.equal((await callTool(client, 'ha_call_tool', { name: 'ha_search_tools', arguments: { query: 'floors' } })).json.tools[0].name, 'ha_list_floors', 'the search is a tool like any other')
})

t.test('a confirmation through ha_call_tool is the same confirmation: the token is needed, the lock only moves after it', async t => {
  const home = await startHome(t)
  const server = await startServer(t, { home, options: { allow_write: true } })
  const client = await connectClient(t, server)
  const lock = home.entityIds().find(id => id.startsWith('lock.')) as string
  const before = home.getState(lock)?.state
  const args = { domain: 'lock', service: before === 'locked' ? 'unlock' : 'lock', target: { entity_id: lock } }
  const asked = await callTool(client, 'ha_call_tool', { name: 'ha_call_service', arguments: args })
  t.equal(asked.json?.confirmation_required, true, asked.text)
  t.equal(home.getState(lock)?.state, before, 'nothing moved before the confirmation')
  t.same(home.serviceCalls, [])
  const forged = await callTool(client, 'ha_call_tool', { name: 'ha_call_service', arguments: { ...args, confirm_token: 'forged' } })
  t.equal(forged.code, 'HAMCP_CONFIRM_TOKEN_INVALID', forged.text)
  t.equal(home.getState(lock)?.state, before, 'a forged token moves nothing')
  const confirmed = await callTool(client, 'ha_call_tool', { name: 'ha_call_service', arguments: { ...args, confirm_token: asked.json.confirm_token } })
  t.notOk(confirmed.isError, confirmed.text)
  t.not(home.getState(lock)?.state, before, 'the confirmed call ran')
  const audit = server.app.services.policy.audit.recent(5).filter(entry => entry.tool === 'ha_call_service').map(entry => entry.outcome)
  t.ok(audit.length >= 2, `asked and confirmed are both audited (${audit.join(', ')})`)
})

t.test('2026-07-28: a confirmation through ha_call_tool is an input_required round bound to the named tool', async t => {
  const home = await startHome(t)
  const server = await startServer(t, { home, options: { allow_write: true } })
  const lock = home.entityIds().find(id => id.startsWith('lock.')) as string
  const before = home.getState(lock)?.state
  const args = { name: 'ha_call_service', arguments: { domain: 'lock', service: before === 'locked' ? 'unlock' : 'lock', target: { entity_id: lock } } }
  const meta = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': { elicitation: { form: {} } }, 'io.modelcontextprotocol/clientInfo': { name: 'catalogue', version: '1' } }
  const first = await modern(server, server.token, 'tools/call', { name: 'ha_call_tool', arguments: args }, meta)
  t.equal(first.body.result?.resultType, 'input_required', JSON.stringify(first.body).slice(0, 300))
  t.equal(home.getState(lock)?.state, before, 'nothing moved while asking')
  const state = first.body.result.requestState as string
  const yes = { confirm: { action: 'accept', content: { confirm: true } } }
  const other = await modern(server, server.token, 'tools/call', { name: 'ha_call_tool', arguments: { ...args, arguments: { ...args.arguments, service: 'open' } }, requestState: state, inputResponses: yes }, meta)
  t.match(JSON.stringify(other.body), /invalid_request_state|HAMCP_CONFIRM_TOKEN_INVALID/, 'the round belongs to the call it asked about')
  t.equal(home.getState(lock)?.state, before, 'a different call is not confirmed by it')
  const again = await modern(server, server.token, 'tools/call', { name: 'ha_call_tool', arguments: args }, meta)
  const confirmed = await modern(server, server.token, 'tools/call', { name: 'ha_call_tool', arguments: args, requestState: again.body.result.requestState, inputResponses: yes }, meta)
  t.notOk(confirmed.body.result?.isError, JSON.stringify(confirmed.body).slice(0, 300))
  t.not(home.getState(lock)?.state, before, 'yes ran the named tool')
})

t.test('ha_call_tool is no way around a level, an option or an entity list, and a search never shows more', async t => {
  const home = await startHome(t)
  const catalog = await loadToolCatalog(TOOLS_DIR)
  for (const mode of ['core', 'full', 'search'] as const satisfies readonly ToolList[]) {
    await t.test(`tool_list ${mode}`, async t => {
      const options: Partial<Options> = { ...WRITES, tool_list: mode }
      const server = await startServer(t, { home, options })
      const callable = (levels: Levels): Set<string> => {
        const identity: Identity = { id: 'x', name: 'x', levels }
        return new Set(catalog.listFor(optionsSchema.parse({ ...options, tool_list: 'full' }), identity).tools.map(tool => tool.name))
      }
      const callers: Array<[string, string, Levels]> = [
        ['primary token', server.token, { '*': 'manage', camera: 'manage' }],
        ['named token at read', await namedToken(t, server, `r-${mode}`, { '*': 'read' }), { '*': 'read' }],
        ['named token at write', await namedToken(t, server, `w-${mode}`, { '*': 'write' }), { '*': 'write' }],
        ['named token at manage, dashboards at read', await namedToken(t, server, `m-${mode}`, { '*': 'manage', dashboards: 'read' }), { '*': 'manage', dashboards: 'read' }],
        ['OAuth grant at read', await signIn(server, 'read'), { '*': 'read' }]
      ]
      const QUERIES = ['turn on the light', 'create automation', 'delete script', 'camera snapshot', 'render template', 'make a backup', 'rename entity', 'add dashboard card', 'which floors']
      for (const [who, token, levels] of callers) {
        const client = await connectClient(t, server, token)
        const may = callable(levels)
        const listed = (await client.listTools()).tools.map(tool => tool.name).filter(name => name !== 'ha_search_tools' && name !== 'ha_call_tool')
        t.same(listed.filter(name => !may.has(name)), [], `${who}: lists only tools it may call`)
        if (!(await client.listTools()).tools.some(tool => tool.name === 'ha_search_tools')) {
          t.equal(mode, 'full', `${who}: no meta tools only when every callable tool is listed`)
          continue
        }
        for (const query of QUERIES) {
          const found = (await callTool(client, 'ha_search_tools', { query, limit: 10 })).json.tools.map((tool: { name: string }) => tool.name) as string[]
          t.same(found.filter(name => !may.has(name)), [], `${who}: "${query}" finds nothing it may not call`)
        }
        const write = await callTool(client, 'ha_call_tool', { name: 'ha_call_service', arguments: { domain: 'switch', service: 'toggle', target: { entity_id: SWITCH } } })
        if (!may.has('ha_call_service')) t.equal(write.code, 'HAMCP_NOT_FOUND', `${who}: a write beyond its level is refused as unknown`)
        const camera = await callTool(client, 'ha_call_tool', { name: 'ha_get_camera_snapshot', arguments: { entity_id: 'camera.front_door' } })
        t.equal(camera.code, 'HAMCP_NOT_FOUND', `${who}: allow_camera is off, so the camera is no tool`)
        if (levels.dashboards === 'read') {
          const dashboard = await callTool(client, 'ha_call_tool', { name: 'ha_manage_config', arguments: { kind: 'dashboard', action: 'update', item: '0/0', config: { type: 'markdown', content: 'owned' } } })
          t.equal(dashboard.code, 'HAMCP_DENIED_LEVEL', `${who}: the kind's own category still decides`)
        }
      }
      t.equal(home.configWrites.length, 0, 'no configuration was written')
    })
    home.serviceCalls.length = 0
  }
})

t.test('a named token\'s own entity list and the service denylist hold through ha_call_tool, and the refusal is audited', async t => {
  const home = await startHome(t)
  const server = await startServer(t, { home, options: { allow_write: true, tool_list: 'search' } })
  const token = await namedToken(t, server, 'no switches', { '*': 'write' }, { entity_denylist: ['switch.*'] })
  const client = await connectClient(t, server, token)
  const denied = await callTool(client, 'ha_call_tool', { name: 'ha_call_service', arguments: { domain: 'switch', service: 'turn_on', target: { entity_id: SWITCH } } })
  t.equal(denied.code, 'HAMCP_DENIED_ENTITY', denied.text)
  // shell_command.*: a default denylist entry no category owns (homeassistant.restart and .stop are the system category's, refused by level first).
  const stop = await callTool(client, 'ha_call_tool', { name: 'ha_call_service', arguments: { domain: 'shell_command', service: 'backup' } })
  t.equal(stop.code, 'HAMCP_DENIED_SERVICE', stop.text)
  t.same(home.serviceCalls, [], 'nothing reached the house')
  t.equal(home.getState(SWITCH)?.state, 'off')
  const refusals = server.app.services.policy.audit.recent(5).filter(entry => entry.tool === 'ha_call_service' && entry.outcome !== 'allowed')
  t.equal(refusals.length, 2, 'both refusals are in the audit, under the tool that was asked for')
})

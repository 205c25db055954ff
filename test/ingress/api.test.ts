import t from 'tap'
import { INGRESS_PROXY_ADDRESS } from '../../src/hosts.ts'
import { connectClient, startHome, startServer } from '../helper.ts'
import { startIngress, testCatalog } from './_ingress.ts'

const UI = { 'x-ha-mcp-ui': '1' }

t.test('in add-on mode only the Supervisor ingress proxy may connect', async t => {
  const home = await startHome(t)
  const server = await startServer(t, { app: { catalog: await testCatalog() }, home, env: { SUPERVISOR_TOKEN: 'supervisor-token-for-tests', SUPERVISOR_URL: home.supervisorUrl } })
  t.equal(server.app.services.config.addonMode, true)
  const logs: string[] = []
  const ingress = await startIngress(t, server, logs)
  const foreign = await ingress.inject({ url: '/api/overview', remoteAddress: '192.168.1.50' })
  t.equal(foreign.statusCode, 403)
  const loopback = await ingress.inject({ url: '/', remoteAddress: '127.0.0.1' })
  t.equal(loopback.statusCode, 403, 'even loopback is refused inside the add-on')
  t.ok(logs.some(l => l.includes('192.168.1.50')), 'the refused address is logged')
  const proxied = await ingress.inject({ url: '/api/overview', remoteAddress: INGRESS_PROXY_ADDRESS })
  t.equal(proxied.statusCode, 200)
  t.equal(proxied.json().addon_mode, true)
})

t.test('outside the add-on the page answers loopback only', async t => {
  const home = await startHome(t)
  const server = await startServer(t, { app: { catalog: await testCatalog() }, home })
  const ingress = await startIngress(t, server)
  t.equal((await ingress.inject({ url: '/', remoteAddress: '10.0.0.2' })).statusCode, 403)
  const page = await ingress.inject({ url: '/' })
  t.equal(page.statusCode, 200)
  t.match(page.headers['content-type'], /text\/html/)
  t.notMatch(page.body, /(src|href)="\//, 'no absolute URL in the page: it must work under the ingress prefix')
})

t.test('overview shows the live state, the tools by kind and the options without the token', async t => {
  const home = await startHome(t)
  const server = await startServer(t, { app: { catalog: await testCatalog() }, home, options: { api_token: 'an-option-token-0123456789abcdef', allow_write: true } })
  const ingress = await startIngress(t, server)
  const res = await ingress.inject({ url: '/api/overview' })
  const body = res.json()
  t.equal(body.home_assistant.connected, true)
  t.equal(body.home_assistant.ha_version, '2026.11.2')
  t.equal(body.entities, home.entityIds().length)
  t.match(body.tools, [{ kind: 'read', enabled: true, available: 7 }, { kind: 'write', gate: 'allow_write', enabled: true }, { kind: 'manage', enabled: false }, { kind: 'camera', enabled: false }])
  t.ok(body.tools[0].exposed > 0)
  t.equal(body.options.allow_write, true)
  t.notOk(res.body.includes('an-option-token'), 'no token in the overview')
  t.equal(res.headers['cache-control'], 'no-store')
})

t.test('overview: an option problem is listed, and a safety list that cannot be read says writes are off', async t => {
  const home = await startHome(t)
  const server = await startServer(t, { app: { catalog: await testCatalog() }, home, options: { allow_write: true, entity_denylist: ['lock.*', ' '], service_denylist: 'hassio.*' as never } })
  const ingress = await startIngress(t, server)
  const body = (await ingress.inject({ url: '/api/overview' })).json()
  t.equal(body.writes_off, true)
  t.match(body.option_problems, [
    { option: 'entity_denylist', item: 2, value: '" "', effect: 'item_dropped' },
    { option: 'service_denylist', effect: 'writes_off' }
  ])
  t.match(body.tools, [{ kind: 'read' }, { kind: 'write', enabled: false }])

  const clean = await startServer(t, { app: { catalog: await testCatalog() }, home, options: { allow_write: true } })
  const fine = (await (await startIngress(t, clean)).inject({ url: '/api/overview' })).json()
  t.equal(fine.writes_off, false)
  t.same(fine.option_problems, [])
})

t.test('connect: the token is masked until revealed; internal hosts become HA_IP', async t => {
  const home = await startHome(t)
  const server = await startServer(t, { app: { catalog: await testCatalog() }, home })
  const ingress = await startIngress(t, server)
  const masked = await ingress.inject({ url: '/api/connect', headers: { host: '192.168.1.20:8123' } })
  const body = masked.json()
  t.equal(body.url, `http://192.168.1.20:${server.app.services.config.mcpPort}/mcp`)
  t.notOk(masked.body.includes(server.token), 'the full token is not in the masked answer')
  t.equal(body.token, `${server.token.slice(0, 8)}********`)
  t.same(body.clients.map((c: { id: string }) => c.id), ['claude-code', 'claude-desktop', 'cursor', 'vscode', 'gemini-cli', 'opencode', 'generic'])
  const revealed = (await ingress.inject({ url: '/api/connect?reveal=1', headers: { 'x-forwarded-host': 'homeassistant:8123' } })).json()
  t.equal(revealed.token, server.token)
  t.ok(revealed.clients.every((c: { text: string }) => c.text.includes(server.token)), 'every config carries the real token')
  t.equal(revealed.url, `http://HA_IP:${server.app.services.config.mcpPort}/mcp`)
})

t.test('tokens: create shows the secret once, it works on /mcp, revoke ends it', async t => {
  const home = await startHome(t)
  const server = await startServer(t, { app: { catalog: await testCatalog() }, home })
  const ingress = await startIngress(t, server)
  const refused = await ingress.inject({ method: 'POST', url: '/api/tokens', payload: { name: 'x', scopes: ['read'] } })
  t.equal(refused.statusCode, 403, 'a mutation without the page header is refused')
  const bad = await ingress.inject({ method: 'POST', url: '/api/tokens', headers: UI, payload: { name: 'x', scopes: ['root'] } })
  t.equal(bad.statusCode, 400)
  const created = await ingress.inject({ method: 'POST', url: '/api/tokens', headers: UI, payload: { name: 'kitchen tablet', scopes: ['read'] } })
  t.equal(created.statusCode, 201)
  const { token, entry } = created.json()
  t.equal(entry.prefix, token.slice(0, 8))
  t.equal((await ingress.inject({ method: 'POST', url: '/api/tokens', headers: UI, payload: { name: 'kitchen tablet', scopes: ['read'] } })).statusCode, 409)
  const listed = await ingress.inject({ url: '/api/tokens' })
  t.match(listed.json().tokens, [{ name: 'kitchen tablet', levels: { '*': 'read' } }])
  t.notOk(listed.body.includes(token), 'the list never holds the secret')

  const client = await connectClient(t, server, token)
  const tools = await client.listTools()
  t.ok(tools.tools.length > 0, 'the new token opens the MCP endpoint')

  t.equal((await ingress.inject({ method: 'DELETE', url: `/api/tokens/${entry.id as string}`, headers: UI })).statusCode, 200)
  t.equal((await ingress.inject({ method: 'DELETE', url: `/api/tokens/${entry.id as string}`, headers: UI })).statusCode, 404)
  const after = await fetch(`${server.url}/mcp`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }) })
  t.equal(after.status, 401, 'a revoked token is refused')
})

t.test('activity: usage counters and audit entries with filters', async t => {
  const home = await startHome(t)
  const server = await startServer(t, { app: { catalog: await testCatalog() }, home })
  const ingress = await startIngress(t, server)
  const client = await connectClient(t, server)
  await client.callTool({ name: 'ha_list_areas', arguments: {} })
  const audit = server.app.services.policy.audit
  audit.record({ tool: 'ha_call_service', identity: 'primary', identity_name: 'primary token', outcome: 'allowed', domain: 'light', service: 'turn_on', entities: ['light.kitchen'] })
  audit.record({ tool: 'ha_run_script', identity: 'primary', identity_name: 'primary token', outcome: 'refused', domain: 'script', service: 'turn_on', reason: 'denylisted' })
  const all = (await ingress.inject({ url: '/api/activity' })).json()
  t.match(all.usage.byTool, [{ tool: 'ha_list_areas', calls: 1 }])
  t.match(all.usage.byIdentity, [{ identity: 'primary', name: 'primary token', calls: 1 }])
  t.equal(all.audit.length, 2)
  t.equal(all.audit[0].tool, 'ha_run_script', 'newest first')
  t.same(all.audit_tools, ['ha_call_service', 'ha_run_script'])
  const refused = (await ingress.inject({ url: '/api/activity?outcome=refused' })).json()
  t.match(refused.audit, [{ tool: 'ha_run_script', reason: 'denylisted' }])
  t.equal(refused.audit.length, 1)
  const byTool = (await ingress.inject({ url: '/api/activity?tool=ha_call_service' })).json()
  t.match(byTool.audit, [{ entities: ['light.kitchen'] }])
  t.equal(byTool.audit.length, 1)
})

t.test('activity hides filter_reads entities, even inside a failure reason', async t => {
  const home = await startHome(t)
  const server = await startServer(t, { app: { catalog: await testCatalog() }, home, options: { filter_reads: true, entity_denylist: ['lock.*'] } })
  const ingress = await startIngress(t, server)
  const lock = home.entityIds().find(id => id.startsWith('lock.')) as string
  server.app.services.policy.audit.record({ tool: 'ha_call_service', identity: 'primary', identity_name: 'primary token', outcome: 'failed', domain: 'homeassistant', service: 'turn_on', entities: [lock, 'light.kitchen'], reason: `Home Assistant refused ${lock}` })
  const res = await ingress.inject({ url: '/api/activity' })
  t.notOk(res.body.includes(lock), 'the hidden entity appears nowhere')
  t.match(res.json().audit, [{ entities: ['light.kitchen'] }])
  const overview = (await ingress.inject({ url: '/api/overview' })).json()
  t.equal(overview.entities, home.entityIds().filter(id => !id.startsWith('lock.')).length, 'the entity count leaves hidden ones out')
})

t.test('in the add-on the URL uses the host port from the Supervisor, and says when it is disabled', async t => {
  const home = await startHome(t)
  const server = await startServer(t, { app: { catalog: await testCatalog() }, home, env: { SUPERVISOR_TOKEN: home.supervisorToken, SUPERVISOR_URL: home.supervisorUrl } })
  const ingress = await startIngress(t, server)
  const answer = (await ingress.inject({ url: '/api/connect', remoteAddress: INGRESS_PROXY_ADDRESS, headers: { 'x-forwarded-host': '192.168.1.20:8123' } })).json()
  t.equal(answer.url, 'http://192.168.1.20:9583/mcp', 'the demo Supervisor maps 9583/tcp to 9583')
  t.equal(answer.port_disabled, false)
})

t.test('hostPortLookup: remapped, disabled, unreachable', async t => {
  const { hostPortLookup } = await import('../../src/addon/host-port.ts')
  const fake = (network: unknown) => ({ call: async <T>(): Promise<T> => ({ network }) as T })
  t.same(await hostPortLookup(fake({ '9583/tcp': 19583 }), 9583)(), { port: 19583, fromSupervisor: true })
  t.same(await hostPortLookup(fake({ '9583/tcp': null }), 9583)(), { port: null, fromSupervisor: true })
  t.same(await hostPortLookup({ call: async () => { throw new Error('down') } }, 9583)(), { port: 9583, fromSupervisor: false })
  t.same(await hostPortLookup(undefined, 9583)(), { port: 9583, fromSupervisor: false })
})

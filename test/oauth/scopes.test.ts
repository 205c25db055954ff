import t from 'tap'
import type { Test } from 'tap'
import { callTool, connectClient, startHome, startServer, type TestServer } from '../helper.ts'
import { startIngress } from '../ingress/_ingress.ts'
import { authorizeUrl, exchange, openConsent, pkce, postForm, register, type SignIn } from './_oauth.ts'

/** What the owner ticks is exactly what the token can do (issue 15 item 1, issue 18 item 3). */

const UI = { 'x-ha-mcp-ui': '1', 'content-type': 'application/json' }
const SWITCH = 'switch.irrigation'

async function consentFor (server: TestServer): Promise<SignIn & { requestId: string, html: string }> {
  const redirectUri = 'http://127.0.0.1:41002/cb'
  const registered = await (await register(server.url, { redirect_uris: [redirectUri], token_endpoint_auth_method: 'none', grant_types: ['authorization_code', 'refresh_token'], client_name: 'Scope test' })).json() as { client_id: string }
  const sign: SignIn = { clientId: registered.client_id, redirectUri, pkce: pkce() }
  const page = await openConsent(authorizeUrl(server.url, sign))
  if (!page.requestId) throw new Error(`no consent page: ${page.status}`)
  return { ...sign, requestId: page.requestId, html: page.html }
}

async function tokenFrom (server: TestServer, sign: SignIn, location: string): Promise<{ access_token: string, scope: string }> {
  const code = new URL(location).searchParams.get('code')
  if (!code) throw new Error(`no code in ${location}`)
  return await (await exchange(server.url, { ...sign, code })).json() as { access_token: string, scope: string }
}

async function toolNames (t: Test, server: TestServer, token: string): Promise<string[]> {
  const client = await connectClient(t, server, token)
  return (await client.listTools()).tools.map(tool => tool.name)
}

t.test('sign-ins grant one level at a time: read+manage is refused, never taken as manage with write', async t => {
  const home = await startHome(t)
  const server = await startServer(t, { home, options: { allow_write: true, allow_config_write: true } })
  const ingress = await startIngress(t, server)
  t.equal(home.getState(SWITCH)?.state, 'off')

  // The consent page offers levels; the camera is switched off in the options, so it is not pre-ticked.
  const first = await consentFor(server)
  t.match(first.html, /type="radio" name="level" value="manage" checked/, 'the highest level the options allow is preselected')
  t.match(first.html, /name="scope" value="camera" data-testid="scope-camera">/, 'camera is offered unticked')
  t.notMatch(first.html, /value="camera" checked/)
  t.match(first.html, /camera<\/b>[^<]*<span class="off">\(switched off in the add-on options/)

  // "write" unticked, "manage" ticked (the form of the old page): nothing is granted.
  const mixed = await postForm(`${server.url}/oauth/authorize`, { request: first.requestId, api_token: server.token, action: 'allow', scope: ['read', 'manage'] })
  t.equal(mixed.status, 400, 'read+manage is no level: refused')
  t.equal(mixed.headers.get('location'), null, 'no code was issued')
  t.match(await mixed.text(), /Nothing was granted: levels include the ones below them/)

  // The same through the Sign-ins tab's JSON.
  const panelMixed = await ingress.inject({ method: 'POST', url: `/api/sign-ins/${first.requestId}`, headers: UI, payload: { action: 'approve', scopes: ['read', 'manage'] } })
  t.equal(panelMixed.statusCode, 400)
  t.match(panelMixed.json().message, /levels include the ones below/)

  // Read, approved in the panel: the token answer, the Tokens tab, the audit and tools/list say read.
  const panelRead = await ingress.inject({ method: 'POST', url: `/api/sign-ins/${first.requestId}`, headers: UI, payload: { action: 'approve', level: 'read' } })
  t.same(panelRead.json(), { approved: true, scopes: ['read'] })
  const status = await (await fetch(`${server.url}/oauth/authorize/status?request=${encodeURIComponent(first.requestId)}`)).json() as { redirect: string }
  const read = await tokenFrom(server, first, status.redirect)
  t.equal(read.scope, 'read')
  const grants = (await ingress.inject({ method: 'GET', url: '/api/tokens' })).json().sign_ins as Array<{ client_name: string, scopes: string[] }>
  t.same(grants.map(g => g.scopes), [['read']], 'the Tokens tab lists read')
  t.match(server.app.services.policy.audit.recent(5).find(e => e.tool === 'oauth_sign_in'), { outcome: 'allowed', reason: /with read$/ })
  const readTools = await toolNames(t, server, read.access_token)
  t.notOk(readTools.includes('ha_call_service'), 'tools/list has no service call')
  t.notOk(readTools.includes('ha_create_automation'))
  const readClient = await connectClient(t, server, read.access_token)
  await t.rejects(callTool(readClient, 'ha_call_service', { domain: 'switch', service: 'turn_on', target: { entity_id: SWITCH } }), /Unknown tool/)
  t.equal(home.getState(SWITCH)?.state, 'off', 'the switch stayed off')
  t.same(home.serviceCalls, [], 'nothing reached the house')

  // Manage chosen on the consent page: it is read write manage, and the token answer says so.
  const second = await consentFor(server)
  const manage = await postForm(`${server.url}/oauth/authorize`, { request: second.requestId, api_token: server.token, action: 'allow', level: 'manage' })
  t.equal(manage.status, 303)
  const managed = await tokenFrom(server, second, manage.headers.get('location') ?? '')
  t.equal(managed.scope, 'read write manage', 'manage brings write, and the answer lists it')
  const manageTools = await toolNames(t, server, managed.access_token)
  t.ok(manageTools.includes('ha_call_service') && manageTools.includes('ha_create_automation'))
  t.notOk(manageTools.includes('ha_get_camera_snapshot'), 'no camera: it was not ticked')
  t.match(server.app.services.policy.audit.recent(5).find(e => e.tool === 'oauth_sign_in'), { reason: /with read write manage$/ })
})

t.test('named tokens: scopes must be a level; the Tokens tab shows what the token can do', async t => {
  const home = await startHome(t)
  const server = await startServer(t, { home, options: { allow_write: true, allow_config_write: true } })
  const ingress = await startIngress(t, server)

  const mixed = await ingress.inject({ method: 'POST', url: '/api/tokens', headers: UI, payload: { name: 'mixed', scopes: ['read', 'manage', 'camera'] } })
  t.equal(mixed.statusCode, 400, 'read+manage+camera is refused, not widened to write')
  t.match(mixed.json().message, /levels include the ones below/)
  t.same((await ingress.inject({ method: 'GET', url: '/api/tokens' })).json().tokens, [], 'no token was made')

  const readCamera = await ingress.inject({ method: 'POST', url: '/api/tokens', headers: UI, payload: { name: 'read and camera', scopes: ['read', 'camera'] } })
  t.equal(readCamera.statusCode, 201)
  t.same(readCamera.json().entry.levels, { '*': 'read', camera: 'read' })
  const tools = await toolNames(t, server, readCamera.json().token)
  t.notOk(tools.includes('ha_call_service'))
  t.notOk(tools.includes('ha_get_camera_snapshot'), 'the camera stays capped while allow_camera is off')
  t.same(home.serviceCalls, [])
})

// A consent form (or the Sign-ins tab) asking for more than the client registered, or for the camera
// while the options switch it off: never granted beyond what the client asked and the options allow.
const REDIRECT = 'http://127.0.0.1:33333/callback'

t.test('a read-only client cannot be granted write, manage or camera by a forged form', async t => {
  const home = await startHome(t)
  const server = await startServer(t, { home, options: { allow_write: true, allow_config_write: true } })
  const ingress = await startIngress(t, server)
  const client = await (await register(server.url, { redirect_uris: [REDIRECT], token_endpoint_auth_method: 'none', grant_types: ['authorization_code'], client_name: 'Reader', scope: 'read' })).json() as { client_id: string }

  const forged: Array<Record<string, string | string[]>> = [
    { level: 'manage' },
    { level: 'write' },
    { level: 'read', scope: ['read', 'write', 'manage', 'camera'] },
    { scope: ['camera'] },
    { level: 'admin' }
  ]
  for (const fields of forged) {
    const sign = { clientId: client.client_id, redirectUri: REDIRECT, pkce: pkce() }
    const page = await openConsent(authorizeUrl(server.url, sign))
    t.ok(page.requestId, page.html.slice(0, 120))
    const decided = await postForm(`${server.url}/oauth/authorize`, { request: page.requestId!, api_token: server.token, action: 'allow', ...fields })
    const code = new URL(decided.headers.get('location') ?? 'http://x/').searchParams.get('code')
    if (code === null) { t.pass(`${JSON.stringify(fields)}: refused (${decided.status})`); continue }
    const token = await (await exchange(server.url, { ...sign, code })).json() as { scope?: string }
    t.equal(token.scope, 'read', `${JSON.stringify(fields)}: at most what the client registered`)
  }

  // The Sign-ins tab: same bound.
  const sign = { clientId: client.client_id, redirectUri: REDIRECT, pkce: pkce() }
  const page = await openConsent(authorizeUrl(server.url, sign))
  const panel = await ingress.inject({ method: 'POST', url: `/api/sign-ins/${page.requestId!}`, headers: UI, payload: { action: 'approve', level: 'manage', scopes: ['camera'] } })
  if (panel.statusCode === 200) t.same(panel.json().scopes, ['read'], 'the panel grants no more than registered')
  else t.ok(panel.statusCode >= 400 && panel.statusCode < 500, `the panel refuses: ${panel.body}`)
  t.same(home.serviceCalls, [], 'nothing reached the house')
})

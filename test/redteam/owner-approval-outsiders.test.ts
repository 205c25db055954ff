// Attacks on confirm_with: owner (src/policy/approvals.ts, approval-notices.ts) from outside: a client
// that words its own notification, a phone tap after Home Assistant reconnected, a flood of approvals.
import t from 'tap'
import { INGRESS_PROXY_ADDRESS } from '../../src/hosts.ts'
import { callTool, connectClient, eventually, fakeClock, rpc, startHome, startServer, TEST_TOKEN, type TestServer } from '../helper.ts'
import { startIngress } from '../ingress/_ingress.ts'
import { authorizeUrl, codeFor, exchange, openConsent, pkce, postForm, register } from '../oauth/_oauth.ts'
import { ACCESS_TTL_MS } from '../../src/oauth/authorization-server.ts'
import type { DemoHome } from '../../demo/index.ts'

const LOCK = 'lock.front_door_lock'
const UNLOCK = { domain: 'lock', service: 'unlock', target: { entity_id: LOCK } }

const callsTo = (home: DemoHome, name: string): Array<{ service_data: Record<string, unknown> }> =>
  home.serviceCalls.filter(c => `${c.domain}.${c.service}` === name)

/** The Approve action the newest actionable notification of `phone` carries. */
function approveAction (home: DemoHome, phone: string): string | undefined {
  const sent = callsTo(home, `notify.mobile_app_${phone}`).filter(c => Array.isArray((c.service_data.data as { actions?: unknown } | undefined)?.actions))
  const actions = (sent.at(-1)?.service_data.data as { actions: Array<{ action: string }> } | undefined)?.actions
  return actions?.find(a => a.action.includes('APPROVE'))?.action
}

/** An OAuth sign-in of a client that chose its own name, approved with the primary token: its access token. */
async function signInAs (server: TestServer, clientName: string): Promise<string> {
  const redirectUri = 'http://127.0.0.1:33333/callback'
  const registered = await (await register(server.url, { redirect_uris: [redirectUri], token_endpoint_auth_method: 'none', grant_types: ['authorization_code', 'refresh_token'], client_name: clientName })).json() as { client_id: string }
  const sign = { clientId: registered.client_id, redirectUri, pkce: pkce() }
  const page = await openConsent(authorizeUrl(server.url, sign))
  if (!page.requestId) throw new Error(`no consent page: ${page.status}`)
  const decided = await postForm(`${server.url}/oauth/authorize`, { request: page.requestId, api_token: TEST_TOKEN, action: 'allow', scope: ['read', 'write'] })
  const code = new URL(decided.headers.get('location') ?? '').searchParams.get('code') ?? ''
  const tokens = await (await postForm(`${server.url}/oauth/token`, { grant_type: 'authorization_code', code, redirect_uri: redirectUri, code_verifier: sign.pkce.verifier, client_id: sign.clientId })).json() as { access_token: string }
  return tokens.access_token
}

t.test('a client cannot word the owner\'s notification: its name is text, not markdown', async t => {
  const home = await startHome(t)
  const server = await startServer(t, { home, options: { allow_write: true, confirm_with: 'owner' } })
  home.setState(LOCK, 'locked')
  // Home Assistant renders a persistent notification's message as markdown (frontend ha-markdown): a link
  // or an image there is the client's, shown to every user as the add-on's words.
  const token = await signInAs(server, 'Door check [Approve here](http://192.0.2.7/approve) ![](http://192.0.2.7/pixel.png) <a href="http://192.0.2.7">x</a>')
  const client = await connectClient(t, server, token)
  const asked = await callTool(client, 'ha_call_service', UNLOCK)
  t.equal(asked.json.awaiting_owner, true, asked.text)
  const [notice] = callsTo(home, 'persistent_notification.create')
  const message = String(notice?.service_data.message)
  t.match(message, /Door check/, 'the notification names the client')
  t.notMatch(message, /(^|[^\\])\[Approve here\]\(/, 'no link of the client\'s in the notification')
  t.notMatch(message, /(^|[^\\])!\[\]\(/, 'no image of the client\'s in the notification')
  t.notMatch(message, /(^|[^\\])<a /, 'no HTML of the client\'s in the notification')
  t.equal(unlocks(home), 0)
})

t.test('a phone\'s tap still approves after Home Assistant\'s connection dropped and came back', async t => {
  const home = await startHome(t)
  const server = await startServer(t, { home, options: { allow_write: true, confirm_with: 'owner' } })
  const ingress = await startIngress(t, server)
  const client = await connectClient(t, server)
  await server.app.services.home.ready()
  home.setState(LOCK, 'locked')
  const { ha } = server.app.services
  const before = ha.status().connectedAt
  home.faults.dropConnections()
  await eventually(() => ha.ready && ha.status().connectedAt !== before, 15_000, 'the add-on to reconnect')
  const asked = await callTool(client, 'ha_call_service', UNLOCK)
  t.equal(asked.json.awaiting_owner, true, asked.text)
  await eventually(() => approveAction(home, 'alice_phone') !== undefined, 5000, 'the phone notification')
  home.tapPhoneAction('alice_phone', approveAction(home, 'alice_phone') as string)
  await eventually(async () => (await ingress.inject({ url: '/api/approvals' })).json().approvals.some((a: { state: string }) => a.state === 'done'), 5000, 'the approval from the phone')
  t.equal(unlocks(home), 1, 'unlocked once, on the owner\'s tap')
})

const unlocks = (home: DemoHome): number => callsTo(home, 'lock.unlock').length

t.test('in the add-on, the approvals API answers the ingress proxy alone; the MCP port has none', async t => {
  const home = await startHome(t)
  const server = await startServer(t, { home, options: { allow_write: true, confirm_with: 'owner' }, env: { SUPERVISOR_TOKEN: 'supervisor-token-for-tests', SUPERVISOR_URL: home.supervisorUrl } })
  const ingress = await startIngress(t, server)
  const client = await connectClient(t, server)
  home.setState(LOCK, 'locked')
  const asked = await callTool(client, 'ha_call_service', UNLOCK)
  t.equal(asked.json.awaiting_owner, true, asked.text)
  const [waiting] = (await ingress.inject({ url: '/api/approvals', remoteAddress: INGRESS_PROXY_ADDRESS })).json().approvals
  const headers = { 'x-ha-mcp-ui': '1', 'x-remote-user-id': 'abc123', 'x-remote-user-name': 'mallory' }
  // The LAN, another add-on on the Supervisor's network, and loopback inside the container.
  for (const remoteAddress of ['192.168.1.50', '172.30.33.5', '127.0.0.1']) {
    t.equal((await ingress.inject({ url: '/api/approvals', remoteAddress })).statusCode, 403, `${remoteAddress} cannot list`)
    const approve = await ingress.inject({ method: 'POST', url: `/api/approvals/${waiting.id as string}`, remoteAddress, headers, payload: { decision: 'approve' } })
    t.equal(approve.json().error?.code ?? approve.json().code, 'HAMCP_INGRESS_ONLY', `${remoteAddress} cannot approve`)
  }
  // A cross-site form from the owner's own browser: text/plain, no custom header.
  const form = await ingress.inject({ method: 'POST', url: `/api/approvals/${waiting.id as string}`, remoteAddress: INGRESS_PROXY_ADDRESS, headers: { 'content-type': 'text/plain' }, payload: '{"decision":"approve"}' })
  t.not(form.statusCode, 200, 'a cross-site form cannot approve')
  for (const path of ['/api/approvals', `/api/approvals/${waiting.id as string}`]) {
    const direct = await fetch(`${server.url}${path}`, { method: path === '/api/approvals' ? 'GET' : 'POST', headers: { authorization: `Bearer ${TEST_TOKEN}`, 'content-type': 'application/json', 'x-ha-mcp-ui': '1' }, body: path === '/api/approvals' ? undefined : '{"decision":"approve"}' })
    t.equal(direct.status, 404, `the MCP port has no ${path}`)
  }
  t.equal(unlocks(home), 0, 'nothing reached the lock')
  t.equal((await ingress.inject({ url: '/api/approvals', remoteAddress: INGRESS_PROXY_ADDRESS })).json().approvals[0].state, 'waiting', 'still waiting for the owner')
})

t.test('a sign-in that expired cannot have its waiting unlock approved, not even before the minute\'s sweep', async t => {
  const home = await startHome(t)
  const clock = fakeClock(Date.parse('2026-12-01T12:00:00Z'))
  const server = await startServer(t, { home, options: { allow_write: true, confirm_with: 'owner' }, app: { clock } })
  const ingress = await startIngress(t, server)
  home.setState(LOCK, 'locked')
  // Off the sweep's minute: the access token expires 30 s after one.
  clock.advance(30_000)
  // Registered for authorization_code only: no refresh token, the sign-in ends with its access token.
  const code = await codeFor(server.url, TEST_TOKEN, { grantTypes: ['authorization_code'] })
  const { access_token: token } = await (await exchange(server.url, code)).json() as { access_token: string }
  const client = await connectClient(t, server, token)
  clock.advance(ACCESS_TTL_MS - 10_000)
  const asked = await callTool(client, 'ha_call_service', UNLOCK)
  t.equal(asked.json.awaiting_owner, true, asked.text)
  clock.advance(20_000)
  t.equal((await rpc(server.url, { jsonrpc: '2.0', id: 1, method: 'tools/list' }, { authorization: `Bearer ${token}` })).status, 401, 'the credential is dead')
  const [waiting] = (await ingress.inject({ url: '/api/approvals' })).json().approvals
  const late = await ingress.inject({ method: 'POST', url: `/api/approvals/${waiting.id as string}`, headers: { 'x-ha-mcp-ui': '1', 'x-remote-user-name': 'alice' }, payload: { decision: 'approve' } })
  t.equal(late.statusCode, 409, late.body)
  t.equal(late.json().message, 'this approval is no longer waiting: it is revoked')
  t.equal(unlocks(home), 0, 'nothing reached the lock')
  server.app.services.backoff.succeed('127.0.0.1')
})

t.test('clients that each stay under 5 waiting approvals, together', async t => {
  const home = await startHome(t)
  const server = await startServer(t, { home, options: { allow_write: true, confirm_with: 'owner' } })
  const locks = home.entityIds().filter(id => id.startsWith('lock.'))
  // Twenty credentials (named tokens here; sign-ins approved with the primary token do the same), each
  // asking five different unlocks, the per-identity cap.
  for (let i = 0; i < 20; i++) {
    const { token } = await server.app.services.tokens.create({ name: `flood ${i}`, scopes: ['read', 'write'] })
    const flood = await connectClient(t, server, token)
    for (let j = 0; j < 5; j++) await callTool(flood, 'ha_call_service', { domain: 'lock', service: 'unlock', target: { entity_id: locks[j % locks.length] }, data: { code: `${i}-${j}` } })
    await flood.close()
  }
  const { token } = await server.app.services.tokens.create({ name: 'kitchen tablet', scopes: ['read', 'write'] })
  const kitchen = await connectClient(t, server, token)
  const asked = await callTool(kitchen, 'ha_call_service', UNLOCK)
  t.test('a client refused because the owner\'s list is full is told so, not that it asked too much itself', async t => {
    if (asked.code !== 'HAMCP_LIMIT_REACHED') return t.pass('not refused')
    t.notMatch(asked.text, /calls of this client already wait/, asked.text)
    t.match(asked.text, /100 calls wait for the owner/)
  })
  t.test('cannot lock the owner\'s other clients out', { todo: 'the store holds 100 approvals in all and refuses every identity once 100 wait (HAMCP_LIMIT_REACHED): twenty sign-ins, each made with the one primary token, fill it for ten minutes and put 100 notifications on every phone. Needs a cap per person or per root credential (a grant\'s approved_by), not only per identity' }, async t => {
    t.equal(asked.json?.awaiting_owner, true, `the owner's own client can still ask: ${asked.text.slice(0, 200)}`)
    t.ok(callsTo(home, 'persistent_notification.create').length <= 20, 'the owner is not buried under a hundred notifications')
  })
})

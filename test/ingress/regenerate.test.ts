import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import t from 'tap'
import { resolvePrimaryToken } from '../../src/auth/bootstrap.ts'
import { createLogger, SecretScrubber } from '../../src/logger.ts'
import { callTool, connectClient, rpc, startHome, startServer, TEST_TOKEN } from '../helper.ts'
import { listTools, openRawSession, sendRaw } from '../sessions/_raw.ts'
import { startIngress } from './_ingress.ts'
import { buildIngressApp, ingressServicesOf } from '../../app/ingress-app.ts'
import { authorizeUrl, openConsent, pkce, postForm, register } from '../oauth/_oauth.ts'

/** The primary token can be rotated on the ingress page (issue 15 item 14). */

const UI = { 'x-ha-mcp-ui': '1', 'content-type': 'application/json' }
const LIST = { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }
const quiet = createLogger({ level: 'error', scrubber: new SecretScrubber(), write: () => {} })

t.test('regenerate: confirmed, the old token stops at once and is told where the new one is; the next start keeps the new one', async t => {
  const home = await startHome(t)
  const server = await startServer(t, { home, options: { allow_write: true } })
  const ingress = await startIngress(t, server)
  const before = await connectClient(t, server, server.token)
  t.notOk((await callTool(before, 'ha_search_entities', { query: 'kitchen' })).isError)

  const unconfirmed = await ingress.inject({ method: 'POST', url: '/api/token/regenerate', headers: UI, payload: {} })
  t.equal(unconfirmed.statusCode, 400, 'nothing happens without the confirmation')
  t.equal((await rpc(server, LIST, { authorization: `Bearer ${server.token}` })).status, 200, 'the token still works')
  t.equal((await ingress.inject({ method: 'POST', url: '/api/token/regenerate', payload: { confirm: true } })).statusCode, 403, 'a foreign page cannot do it')

  const done = await ingress.inject({ method: 'POST', url: '/api/token/regenerate', headers: { ...UI, 'x-remote-user-id': 'u1', 'x-remote-user-display-name': 'Alice' }, payload: { confirm: true } })
  t.equal(done.statusCode, 200, done.body)
  const answer = done.json()
  t.match(answer, { regenerated: true, revealed: true, options_written: false, note: /old token stopped working/ })
  t.not(answer.token, server.token)
  t.ok(answer.clients.some((c: { text: string }) => c.text.includes(answer.token)), 'the client snippets carry the new token')

  // The old token: refused with the next request, saying where the new one is.
  const old = await rpc(server, LIST, { authorization: `Bearer ${server.token}` })
  t.equal(old.status, 401)
  t.match(old.headers.get('www-authenticate'), /error="invalid_token", error_description="the API token was regenerated; get the new one from the add-on panel \(sidebar MCP, Connect tab\)/)
  t.match((await old.json() as { error: { message: string } }).error.message, /regenerated and no longer works\. Get the new one from Home Assistant: sidebar, MCP, Connect tab/)
  await t.rejects(callTool(before, 'ha_call_service', { domain: 'switch', service: 'turn_on', target: { entity_id: 'switch.irrigation' } }), 'a client still holding the old token is cut off at once')
  t.equal(home.getState('switch.irrigation')?.state, 'off', 'and its call did not reach the house')
  t.same(home.serviceCalls, [])

  // The new token works, the page shows it, and the consent page takes only it.
  const after = await connectClient(t, server, answer.token)
  t.notOk((await callTool(after, 'ha_search_entities', { query: 'kitchen' })).isError)
  t.equal((await ingress.inject({ method: 'GET', url: '/api/connect?reveal=1' })).json().token, answer.token)
  t.match(server.app.services.policy.audit.recent(5).find(e => e.tool === 'api_token_regenerated'), { identity_name: 'Alice', outcome: 'allowed' })

  // What the next start reads: DATA_DIR/token holds the new token (the api_token option being empty).
  t.equal(readFileSync(join(server.dataDir, 'token'), 'utf8').trim(), answer.token)
  const next = await resolvePrimaryToken({ option: '', envToken: undefined, dataDir: server.dataDir, log: quiet })
  t.same(next, { token: answer.token, source: 'file' }, 'a restart keeps the new token, not the old one')
})

t.test('in the add-on the new token is written back to the add-on options; a token from MCP_API_TOKEN is refused', async t => {
  const home = await startHome(t)
  home.setAddonOptions({ ...home.addonOptions(), api_token: 'the-token-in-the-options-0123456789' })
  const server = await startServer(t, { home, env: { SUPERVISOR_TOKEN: home.supervisorToken, SUPERVISOR_URL: home.supervisorUrl }, app: { primaryToken: 'the-token-in-the-options-0123456789', primarySource: 'option' } })
  const ingress = await startIngress(t, server)
  // In the add-on only the Supervisor's ingress proxy reaches the page.
  const done = await ingress.inject({ method: 'POST', url: '/api/token/regenerate', remoteAddress: '172.30.32.2', headers: UI, payload: { confirm: true } })
  t.equal(done.statusCode, 200, done.body)
  t.equal(done.json().options_written, true)
  t.equal(home.addonOptions().api_token, done.json().token, 'the Configuration tab shows the new token, as the bootstrap does')
  t.equal((await rpc(server, LIST, { authorization: 'Bearer the-token-in-the-options-0123456789' })).status, 401)
  const next = await resolvePrimaryToken({ option: String(home.addonOptions().api_token), envToken: undefined, dataDir: server.dataDir, log: quiet })
  t.equal(next.token, done.json().token, 'the next start reads the new token from the options')

  const envHome = await startHome(t)
  const fromEnv = await startServer(t, { home: envHome, app: { primarySource: 'env' } })
  const envIngress = await startIngress(t, fromEnv)
  const refused = await envIngress.inject({ method: 'POST', url: '/api/token/regenerate', headers: UI, payload: { confirm: true } })
  t.equal(refused.statusCode, 409)
  t.match(refused.json().message, /MCP_API_TOKEN/)
  t.equal((await rpc(fromEnv.url, LIST, { authorization: `Bearer ${fromEnv.token}` })).status, 200, 'the token from the environment still works')
})

t.test('with sessions on, regenerating ends the old token\'s sessions and their open streams at once; revoking a named token ends its own', async t => {
  const home = await startHome(t)
  const server = await startServer(t, { home, options: { enable_sessions: true } })
  const ingress = await startIngress(t, server)
  const made = await ingress.inject({ method: 'POST', url: '/api/tokens', headers: UI, payload: { name: 'tablet', scopes: ['read'] } })
  t.equal(made.statusCode, 201, made.body)
  const named = { token: made.json().token as string, id: made.json().entry.id as string }

  const primarySession = await openRawSession(server.url, server.token)
  const stream = await sendRaw(server.url, 'GET', server.token, primarySession)
  t.equal(stream.status, 200)
  const namedSession = await openRawSession(server.url, named.token)

  const done = await ingress.inject({ method: 'POST', url: '/api/token/regenerate', headers: UI, payload: { confirm: true } })
  t.equal(done.statusCode, 200, done.body)
  await stream.text()
  t.pass('the old token\'s open notification stream ended')
  t.notOk(server.app.services.sessions.registry.get(primarySession), 'its session is closed')
  t.ok(server.app.services.sessions.registry.get(namedSession), 'another token\'s session stays')

  t.equal((await ingress.inject({ method: 'DELETE', url: `/api/tokens/${named.id}`, headers: { 'x-ha-mcp-ui': '1' } })).statusCode, 200)
  t.notOk(server.app.services.sessions.registry.get(namedSession), 'revoking the named token closes its session')
  const refused = await listTools(server.url, named.token, namedSession)
  t.equal(refused.status, 401, 'and its requests are refused')
})

// Attacks on the primary token's Regenerate (ingress API): who can trigger it, whether the old token
// stops everywhere at once, and whether the new one ever shows up unmasked where it should not.
t.test('regenerate under attack', async t => {
  const home = await startHome(t)
  // Wired as app/start.ts does it: one logger for both apps, whose scrubber learns the new token.
  const logs: string[] = []
  const scrubber = new SecretScrubber()
  scrubber.add(TEST_TOKEN)
  scrubber.add(home.token)
  const logger = createLogger({ level: 'debug', scrubber, write: line => { logs.push(line) } })
  const server = await startServer(t, { home, options: { allow_write: true }, app: Object.assign({ secrets: scrubber }, { logger }) })
  const ingress = await buildIngressApp({ services: ingressServicesOf(server.app.services), logger })
  t.teardown(() => ingress.close())
  const { token: named } = await server.app.services.tokens.create({ name: 'tablet', scopes: ['read', 'write', 'manage'] })
  const works = async (token: string): Promise<number> => (await rpc(server, LIST, { authorization: `Bearer ${token}` })).status

  t.test('not from the MCP port, with or without a token, named or primary', async t => {
    for (const token of [undefined, named, TEST_TOKEN]) {
      const res = await fetch(`${server.url}/api/token/regenerate`, { method: 'POST', headers: { ...UI, ...(token ? { authorization: `Bearer ${token}` } : {}) }, body: '{"confirm":true}' })
      t.ok(res.status === 404 || res.status === 401 || res.status === 403, `MCP port answers ${res.status}`)
    }
    t.equal(await works(TEST_TOKEN), 200, 'the primary token was not replaced')
  })

  t.test('not from a foreign page (CSRF): no header, a foreign Origin, a rebound Host, a form post', async t => {
    const attempts = [
      { headers: { 'content-type': 'application/json', origin: 'https://evil.example' }, payload: { confirm: true } },
      { headers: { ...UI, origin: 'https://evil.example' }, payload: { confirm: true } },
      { headers: { ...UI, host: 'evil.example:8099' }, payload: { confirm: true } },
      { headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'https://evil.example' }, payload: 'confirm=true' },
      { headers: { 'content-type': 'text/plain', origin: 'https://evil.example' }, payload: '{"confirm":true}' }
    ]
    for (const attempt of attempts) {
      const res = await ingress.inject({ method: 'POST', url: '/api/token/regenerate', ...attempt })
      t.equal(res.statusCode, 403, `${JSON.stringify(attempt.headers)}: ${res.body}`)
    }
    const preflight = await ingress.inject({ method: 'OPTIONS', url: '/api/token/regenerate', headers: { origin: 'https://evil.example', 'access-control-request-method': 'POST', 'access-control-request-headers': 'x-ha-mcp-ui,content-type' } })
    t.notOk(preflight.headers['access-control-allow-origin'], 'no CORS grant, so a browser never sends the header cross-site')
    const outside = await ingress.inject({ method: 'POST', url: '/api/token/regenerate', remoteAddress: '192.168.1.50', headers: UI, payload: { confirm: true } })
    t.equal(outside.statusCode, 403, 'not from another address than loopback (the ingress proxy in the add-on)')
    t.equal(await works(TEST_TOKEN), 200, 'the primary token was not replaced')
  })

  t.test('confirmed: the old token stops on /mcp and on the consent page at once; the new one is masked in every log line', async t => {
    const done = await ingress.inject({ method: 'POST', url: '/api/token/regenerate', headers: UI, payload: { confirm: true } })
    t.equal(done.statusCode, 200, done.body)
    const fresh = done.json().token as string
    t.equal(await works(TEST_TOKEN), 401, 'old token refused on /mcp')
    t.equal(await works(named), 200, 'a named token is not affected')

    // The consent page: the old primary token approves nothing, the new one does.
    const redirectUri = 'http://127.0.0.1:33333/callback'
    const client = await (await register(server.url, { redirect_uris: [redirectUri], token_endpoint_auth_method: 'none', grant_types: ['authorization_code'], client_name: 'After regenerate' })).json() as { client_id: string }
    const sign = { clientId: client.client_id, redirectUri, pkce: pkce() }
    const page = await openConsent(authorizeUrl(server.url, sign))
    t.ok(page.requestId, page.html.slice(0, 200))
    const withOld = await postForm(`${server.url}/oauth/authorize`, { request: page.requestId!, api_token: TEST_TOKEN, action: 'allow', scope: ['read'] }, {})
    t.notMatch(withOld.headers.get('location') ?? '', /code=/, 'the old token approves no sign-in')
    const page2 = await openConsent(authorizeUrl(server.url, sign))
    const withNew = await postForm(`${server.url}/oauth/authorize`, { request: page2.requestId ?? page.requestId!, api_token: fresh, action: 'allow', scope: ['read'] }, {})
    t.match(withNew.headers.get('location') ?? '', /code=/, 'the new token approves it')

    // Use the new token in every way a log line might catch it.
    const mcp = await connectClient(t, server, fresh)
    await callTool(mcp, 'ha_search_entities', { query: fresh })
    await rpc(server, LIST, { authorization: `Bearer ${fresh}x` })
    await fetch(`${server.url}/mcp?token=${fresh}`, { method: 'POST', headers: { authorization: `Bearer ${fresh}`, 'content-type': 'application/json' }, body: JSON.stringify(LIST) })
    await ingress.inject({ method: 'GET', url: '/api/connect?reveal=1' })

    const leaked = logs.filter(line => line.includes(fresh))
    t.same(leaked, [], 'the new token never appears unmasked in a log line')
    t.ok(logs.some(line => /regenerated/.test(line)), 'the regenerate itself was logged')

    // Answers that must not carry it: the masked connect view, the overview, the activity, the audit.
    for (const url of ['/api/connect', '/api/overview', '/api/activity', '/api/tokens']) {
      const res = await ingress.inject({ method: 'GET', url })
      t.notMatch(res.body, fresh, `${url} does not show the new token`)
    }
    t.notMatch(JSON.stringify(server.app.services.policy.audit.recent(50)), fresh, 'nor the audit')
    const old = await rpc(server, LIST, { authorization: `Bearer ${TEST_TOKEN}` })
    t.notMatch(await old.text() + (old.headers.get('www-authenticate') ?? ''), fresh, 'the 401 for the old token does not hand out the new one')
  })
})

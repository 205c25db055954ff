// Attacks on the primary token's Regenerate (ingress API): who can trigger it, whether the old token
// stops everywhere at once, and whether the new one ever shows up unmasked where it should not.
import t from 'tap'
import { buildIngressApp, ingressServicesOf } from '../../app/ingress-app.ts'
import { createLogger, SecretScrubber } from '../../src/logger.ts'
import { connectClient, callTool, rpc, startHome, startServer, TEST_TOKEN } from '../helper.ts'
import { authorizeUrl, openConsent, pkce, postForm, register } from '../oauth/_oauth.ts'

const UI = { 'x-ha-mcp-ui': '1', 'content-type': 'application/json' }
const LIST = { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }

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
  const works = async (token: string): Promise<number> => (await rpc(server.url, LIST, { authorization: `Bearer ${token}` })).status

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
    await rpc(server.url, LIST, { authorization: `Bearer ${fresh}x` })
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
    const old = await rpc(server.url, LIST, { authorization: `Bearer ${TEST_TOKEN}` })
    t.notMatch(await old.text() + (old.headers.get('www-authenticate') ?? ''), fresh, 'the 401 for the old token does not hand out the new one')
  })
})

import t from 'tap'
import { rpc, startHome, startServer, TEST_TOKEN } from '../helper.ts'

const LIST = { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }

t.test('MCP endpoint over HTTP', async t => {
  const home = await startHome(t)
  // trace: the most verbose level, so the token check below covers every log line there is.
  // The backoff's clock is the test's: a block lifts when the test moves time on, not after a real wait.
  let clock = Date.now()
  const server = await startServer(t, { home, logLevel: 'trace', app: { backoff: { freeFailures: 5, baseBlockMs: 1000, now: () => clock } } })
  const auth = { authorization: `Bearer ${TEST_TOKEN}` }

  t.test('no token: 401 with WWW-Authenticate and a JSON-RPC body', async t => {
    const res = await rpc(server.url, LIST)
    t.equal(res.status, 401)
    t.match(res.headers.get('www-authenticate'), /^Bearer resource_metadata="http:\/\/127\.0\.0\.1:\d+\/\.well-known\/oauth-protected-resource\/mcp"/)
    const body = await res.json() as { jsonrpc: string, error: { code: number, message: string } }
    t.equal(body.jsonrpc, '2.0')
    t.match(body.error.message, /bearer token/i)
  })

  t.test('wrong token: 401', async t => {
    const res = await rpc(server.url, LIST, { authorization: 'Bearer not-the-token' })
    t.equal(res.status, 401)
    t.match(res.headers.get('www-authenticate') ?? '', /^Bearer/)
  })

  t.test('valid token lists tools as plain JSON', async t => {
    const res = await rpc(server.url, LIST, auth)
    t.equal(res.status, 200)
    const body = await res.json() as { result: { tools: Array<{ name: string }> } }
    t.ok(body.result.tools.some(tool => tool.name === 'ha_search_entities'))
  })

  t.test('GET and DELETE answer 405 with Allow: POST; other paths 404', async t => {
    for (const method of ['GET', 'DELETE']) {
      const res = await fetch(`${server.url}/mcp`, { method, headers: auth })
      t.equal(res.status, 405, method)
      t.equal(res.headers.get('allow'), 'POST', method)
    }
    const res = await fetch(`${server.url}/nope`, { headers: auth })
    t.equal(res.status, 404)
  })

  t.test('bad input never crashes the server', async t => {
    const bad = await rpc(server.url, '{"jsonrpc":"2.0",', auth)
    t.equal(bad.status, 400)
    t.equal((await bad.json() as { error: { code: number } }).error.code, -32700, 'parse error')

    const notObject = await rpc(server.url, '42', auth)
    t.equal(notObject.status, 400)

    const text = await fetch(`${server.url}/mcp`, { method: 'POST', headers: { ...auth, 'content-type': 'text/plain' }, body: 'hi' })
    t.equal(text.status, 415)

    const huge = await rpc(server.url, JSON.stringify({ ...LIST, params: { pad: 'x'.repeat(1024 * 1024 + 10) } }), auth)
    t.equal(huge.status, 413)

    const foreign = await rpc(server.url, LIST, { ...auth, origin: 'http://evil.example' })
    t.equal(foreign.status, 403, 'foreign Origin refused')
    const local = await rpc(server.url, LIST, { ...auth, origin: 'http://localhost:3000' })
    t.equal(local.status, 200, 'loopback Origin accepted')

    const version = await rpc(server.url, LIST, { ...auth, 'mcp-protocol-version': '1999-01-01' })
    t.equal(version.status, 400)

    const unknownTool = await rpc(server.url, { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'ha_nope', arguments: {} } }, auth)
    const unknownBody = await unknownTool.json() as { error?: { code: number, message: string } }
    t.equal(unknownBody.error?.code, -32602, 'unknown tool is a protocol error')

    const health = await fetch(`${server.url}/health`)
    t.equal(health.status, 200, 'still alive')
  })

  t.test('health is unauthenticated', async t => {
    const res = await fetch(`${server.url}/health`)
    t.equal(res.status, 200)
    t.same(await res.json(), { status: 'ok', websocket: true })
  })

  // Last: it blocks this address.
  t.test('repeated failures: 429 with Retry-After, then a success clears the address', async t => {
    for (let i = 0; i < 6; i++) await rpc(server.url, LIST, { authorization: `Bearer wrong-${i}` })
    const blocked = await rpc(server.url, LIST, auth)
    t.equal(blocked.status, 429, 'blocked even with the right token while the block lasts')
    t.ok(Number(blocked.headers.get('retry-after')) >= 1, 'Retry-After in seconds')
    clock += 999
    t.equal((await rpc(server.url, LIST, auth)).status, 429, 'still blocked a moment before the block ends')
    clock += 2
    const ok = await rpc(server.url, LIST, auth)
    t.equal(ok.status, 200, 'allowed after the block')
    const again = await rpc(server.url, LIST, { authorization: 'Bearer wrong-again' })
    t.equal(again.status, 401, 'the success cleared the failure count')
  })

  t.test('no token, not even masked beyond its prefix, in the logs', async t => {
    const joined = server.logs.join('')
    t.notOk(joined.includes(TEST_TOKEN), 'primary token never logged')
    t.match(joined, /authentication failed/, 'failures are logged')
  })
})

t.test('red team: lock the owner out', async t => {
  /**
   * Attack pass: lock the owner out. The failed-authentication backoff and the cap on waiting sign-ins
   * are kept per client address (an IPv6 /64 counts as one), and a blocked address is refused before
   * its token is looked at. Every device behind one address shares them: the clients behind a reverse
   * proxy (public_url), behind a NAT, or on a home LAN's single IPv6 /64 (loopback stands for that
   * shared address in the first test). Both seen failing; left as todo.
   */

  const LIST = { jsonrpc: '2.0', id: 1, method: 'tools/list' }

  const UNDECIDED = 'one key per address, an IPv6 /64 counting as one (src/hosts.ts clientKey), so that an attacker cannot dodge the bounds by changing address; but every device behind one address shares its failures and caps. Ending that (e.g. letting a token that already worked from there through a block) is a design decision for the owners of src/auth/backoff.ts and src/oauth/requests.ts'

  t.test('another device behind the same address failing on purpose locks out a token that works', { todo: UNDECIDED }, async t => {
    const home = await startHome(t)
    let clock = Date.now()
    const server = await startServer(t, { home, app: { backoff: { freeFailures: 5, baseBlockMs: 1000, maxBlockMs: 60_000, now: () => clock } } })
    const owner = { authorization: `Bearer ${TEST_TOKEN}` }
    t.equal((await rpc(server.url, LIST, owner)).status, 200, 'the owner\'s assistant works')
    // The attacker keeps failing, a little faster than the block doubles.
    for (let round = 0; round < 8; round++) {
      for (let i = 0; i < 6; i++) await rpc(server.url, LIST, { authorization: 'Bearer guess' })
      clock += 500
    }
    const answer = await rpc(server.url, LIST, owner)
    t.equal(answer.status, 200, `the owner's working token still works (got ${answer.status}, Retry-After ${answer.headers.get('retry-after') ?? '-'})`)
  })

  t.test('a device on the home LAN\'s IPv6 /64 holding ten sign-ins open keeps the owner\'s laptop from signing in', { todo: UNDECIDED }, async t => {
    const home = await startHome(t)
    const server = await startServer(t, { home })
    const redirect = 'http://127.0.0.1:41001/cb'
    const register = async (address: string, name: string): Promise<string> => {
      const answer = await server.app.inject({ method: 'POST', url: '/oauth/register', remoteAddress: address, headers: { 'content-type': 'application/json' }, payload: JSON.stringify({ redirect_uris: [redirect], token_endpoint_auth_method: 'none', client_name: name }) })
      return answer.json().client_id as string
    }
    const authorize = async (address: string, clientId: string, state: string): Promise<number | string> => {
      const path = `/oauth/authorize?${new URLSearchParams({ response_type: 'code', client_id: clientId, redirect_uri: redirect, state, code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM', code_challenge_method: 'S256' }).toString()}`
      const answer = await server.app.inject({ method: 'GET', url: path, remoteAddress: address })
      const location = answer.headers.location
      return typeof location === 'string' ? new URL(location).searchParams.get('error') ?? answer.statusCode : answer.statusCode
    }
    const plug = await register('2001:db8:1:2::66', 'Smart plug')
    for (let i = 0; i < 10; i++) await authorize('2001:db8:1:2::66', plug, `flood-${i}`)
    const laptop = await register('2001:db8:1:2::10', 'Owner laptop')
    t.equal(await authorize('2001:db8:1:2::10', laptop, 'mine'), 200, 'the owner\'s sign-in page opens')
  })
})

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

// Every refusal a client can see on /mcp answers a JSON-RPC error body with its stable code in
// `error.data.code` (docs/errors.md, "Refusals at the HTTP layer"). The walk covers each code of
// HTTP_REFUSAL_CODES, so a new code cannot be added without a request that shows it.
import { connect } from 'node:net'
import t, { type Test } from 'tap'
import { realClock, within } from '../../src/clock.ts'
import { HTTP_REFUSAL_CODES, type RefusalCode } from '../../src/errors.ts'
import { eventually, rpc, startHome, startServer, TEST_TOKEN, type TestServer } from '../helper.ts'
import { openRawSession } from '../sessions/_raw.ts'

const LIST = { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }
const MODERN_META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': {},
  'io.modelcontextprotocol/clientInfo': { name: 'refusals-test', version: '1.0.0' }
}
const bearer = (token = TEST_TOKEN): Record<string, string> => ({ authorization: `Bearer ${token}` })

interface Refusal { status: number, rpcCode?: number, code: RefusalCode, response: Response, body: any }

async function send (url: string, init: { method?: string, headers?: Record<string, string>, body?: string }): Promise<{ response: Response, body: any }> {
  const response = await fetch(`${url}/mcp`, { method: init.method ?? 'POST', headers: init.headers, body: init.body })
  return { response, body: await response.json() }
}

const seen = new Set<string>()

function refused (t: Test, got: { response: Response, body: any }, expected: Omit<Refusal, 'response' | 'body'>): void {
  t.equal(got.response.status, expected.status, `HTTP ${expected.status}`)
  t.equal(got.body.jsonrpc, '2.0', 'a JSON-RPC body')
  t.equal(got.body.error?.data?.code, expected.code, `error.data.code is ${expected.code}`)
  if (expected.rpcCode !== undefined) t.equal(got.body.error?.code, expected.rpcCode, `JSON-RPC code ${expected.rpcCode}`)
  seen.add(expected.code)
}

t.test('the refusals of /mcp, stateless', async t => {
  const home = await startHome(t)
  const server = await startServer(t, { home })
  const json = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }

  t.test('no bearer token: 401, HAMCP_UNAUTHENTICATED, the challenge names the metadata', async t => {
    const got = await send(server.url, { headers: json, body: JSON.stringify(LIST) })
    refused(t, got, { status: 401, rpcCode: -32001, code: 'HAMCP_UNAUTHENTICATED' })
    t.match(got.response.headers.get('www-authenticate'), /^Bearer resource_metadata="http:\/\/127\.0\.0\.1:\d+\/\.well-known\/oauth-protected-resource\/mcp"/)
  })

  t.test('a wrong bearer token: 401, HAMCP_INVALID_TOKEN, and the RFC 6750 error in the challenge', async t => {
    const got = await send(server.url, { headers: { ...json, ...bearer('not-a-token-of-this-server') }, body: JSON.stringify(LIST) })
    refused(t, got, { status: 401, rpcCode: -32001, code: 'HAMCP_INVALID_TOKEN' })
    const challenge = got.response.headers.get('www-authenticate') ?? ''
    t.match(challenge, /^Bearer /)
    t.match(challenge, /error="invalid_token"/, 'OAuth clients read error= in the challenge')
    t.match(challenge, /error_description="[^"]+"/)
    t.match(challenge, /resource_metadata="[^"]+"/)
  })

  t.test('a foreign Origin: 403', async t => {
    refused(t, await send(server.url, { headers: { ...json, ...bearer(), origin: 'https://evil.example' }, body: JSON.stringify(LIST) }), { status: 403, code: 'HAMCP_ORIGIN_NOT_ALLOWED' })
  })

  t.test('an Accept without JSON: 406', async t => {
    refused(t, await send(server.url, { headers: { ...json, ...bearer(), accept: 'text/html' }, body: JSON.stringify(LIST) }), { status: 406, code: 'HAMCP_NOT_ACCEPTABLE' })
  })

  t.test('a body that is not application/json: 415', async t => {
    refused(t, await send(server.url, { headers: { ...json, ...bearer(), 'content-type': 'text/plain' }, body: JSON.stringify(LIST) }), { status: 415, code: 'HAMCP_UNSUPPORTED_MEDIA_TYPE' })
  })

  t.test('bad JSON: 400, parse error', async t => {
    refused(t, await send(server.url, { headers: { ...json, ...bearer() }, body: '{"jsonrpc": "2.0", ' }), { status: 400, rpcCode: -32700, code: 'HAMCP_PARSE_ERROR' })
  })

  t.test('JSON that is not a JSON-RPC message, and an empty batch: 400, invalid request', async t => {
    refused(t, await send(server.url, { headers: { ...json, ...bearer() }, body: '{"hello": "world"}' }), { status: 400, rpcCode: -32600, code: 'HAMCP_INVALID_REQUEST' })
    refused(t, await send(server.url, { headers: { ...json, ...bearer() }, body: '[]' }), { status: 400, rpcCode: -32600, code: 'HAMCP_INVALID_REQUEST' })
  })

  t.test('a body over 1 MB: 413', async t => {
    const big = JSON.stringify({ ...LIST, params: { pad: 'x'.repeat(1024 * 1024 + 10) } })
    refused(t, await send(server.url, { headers: { ...json, ...bearer() }, body: big }), { status: 413, code: 'HAMCP_TOO_LARGE' })
  })

  t.test('GET and DELETE while sessions are off: 405 with Allow: POST', async t => {
    for (const method of ['GET', 'DELETE']) {
      const got = await send(server.url, { method, headers: { accept: 'text/event-stream', ...bearer() } })
      refused(t, got, { status: 405, code: 'HAMCP_METHOD_NOT_ALLOWED' })
      t.equal(got.response.headers.get('allow'), 'POST')
    }
  })

  t.test('an MCP-Protocol-Version this server does not speak: 400', async t => {
    refused(t, await send(server.url, { headers: { ...json, ...bearer(), 'mcp-protocol-version': '1999-01-01' }, body: JSON.stringify(LIST) }), { status: 400, code: 'HAMCP_UNSUPPORTED_PROTOCOL_VERSION' })
    // The 2026-07-28 envelope naming another revision: the spec's data (supported, requested) is kept beside the code.
    const envelope = { ...LIST, params: { _meta: { ...MODERN_META, 'io.modelcontextprotocol/protocolVersion': '2031-01-01' } } }
    const got = await send(server.url, { headers: { ...json, ...bearer(), 'mcp-protocol-version': '2031-01-01', 'mcp-method': 'tools/list' }, body: JSON.stringify(envelope) })
    refused(t, got, { status: 400, code: 'HAMCP_UNSUPPORTED_PROTOCOL_VERSION' })
    t.same(got.body.error.data.supported, ['2026-07-28'])
    t.equal(got.body.id, 1, 'the request id is echoed')
  })

  t.test('a 2026-07-28 request whose headers disagree with the body: 400, -32020', async t => {
    const envelope = { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'ha_list_areas', arguments: {}, _meta: MODERN_META } }
    const got = await send(server.url, { headers: { ...json, ...bearer(), 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': 'ha_get_entity' }, body: JSON.stringify(envelope) })
    refused(t, got, { status: 400, rpcCode: -32020, code: 'HAMCP_HEADER_MISMATCH' })
    t.equal(got.body.error.data.mismatch.header, 'ha_get_entity', 'the spec\'s mismatch data is kept beside the code')
  })

  t.test('a 2026-07-28 request for a method this server does not serve: 404, -32601', async t => {
    const envelope = { jsonrpc: '2.0', id: 4, method: 'nope/nope', params: { _meta: MODERN_META } }
    const got = await send(server.url, { headers: { ...json, ...bearer(), 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'nope/nope' }, body: JSON.stringify(envelope) })
    refused(t, got, { status: 404, rpcCode: -32601, code: 'HAMCP_METHOD_NOT_FOUND' })
    t.equal(got.body.id, 4)
  })

  t.test('too many failed logins from an address: 429 with Retry-After', async t => {
    let got: { response: Response, body: any } | undefined
    for (let i = 0; i < 20 && got?.response.status !== 429; i++) got = await send(server.url, { headers: { ...json, ...bearer('wrong-token-again') }, body: JSON.stringify(LIST) })
    refused(t, got!, { status: 429, code: 'HAMCP_RATE_LIMITED' })
    t.ok(Number(got!.response.headers.get('retry-after')) >= 1)
  })
})

t.test('the refusals of /mcp, with sessions', async t => {
  const home = await startHome(t)
  const server = await startServer(t, { home, options: { enable_sessions: true }, app: { requestLimits: { perToken: 6 } } })
  const stream = { accept: 'text/event-stream' }

  t.test('GET without Mcp-Session-Id: 400', async t => {
    refused(t, await send(server.url, { method: 'GET', headers: { ...stream, ...bearer() } }), { status: 400, code: 'HAMCP_SESSION_REQUIRED' })
  })

  t.test('an Mcp-Session-Id of no open session: 404', async t => {
    refused(t, await send(server.url, { method: 'GET', headers: { ...stream, ...bearer(), 'mcp-session-id': 'f00dfeed-0000-4000-8000-000000000000' } }), { status: 404, code: 'HAMCP_SESSION_NOT_FOUND' })
  })

  t.test('a session of another token: 403', async t => {
    const other = await server.app.services.tokens.create({ name: 'other tablet', scopes: ['read'] })
    const id = await openRawSession(server.url, server.token)
    refused(t, await send(server.url, { method: 'DELETE', headers: { ...stream, ...bearer(other.token), 'mcp-session-id': id } }), { status: 403, code: 'HAMCP_SESSION_FORBIDDEN' })
  })

  t.test('over the per-token request limit: 429', async t => {
    let status = 0
    let got: { response: Response, body: any } | undefined
    for (let i = 0; i < 10 && status !== 429; i++) {
      const response = await rpc(server, LIST, bearer())
      status = response.status
      got = { response, body: status === 429 ? await response.json() : await response.text() }
    }
    refused(t, got!, { status: 429, code: 'HAMCP_RATE_LIMITED' })
  })
})

/** A raw HTTP/1.1 request. */
function raw (port: string, method: string, path: string, headers: Record<string, string>, body = ''): string {
  const lines = Object.entries({ host: `127.0.0.1:${port}`, ...headers, ...(body ? { 'content-length': String(Buffer.byteLength(body)) } : {}) }).map(([name, value]) => `${name}: ${value}\r\n`)
  return `${method} ${path} HTTP/1.1\r\n${lines.join('')}\r\n${body}`
}

/**
 * A request that arrives while the server closes: a slow call (its template held by the demo home) holds a
 * kept-alive connection while the server starts closing; once its answer is in, `second` is sent on the
 * same connection. Returns the answer to `second`.
 */
async function whileClosing (server: TestServer, second: (port: string) => string): Promise<{ status: number, headers: string, body: any }> {
  const port = new URL(server.url).port
  const slow = JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'tools/call', params: { name: 'ha_render_template', arguments: { template: '{{ 1 }}' } } })
  const first = raw(port, 'POST', '/mcp', { authorization: `Bearer ${TEST_TOKEN}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, slow)
  const socket = connect(Number(port), '127.0.0.1')
  socket.setEncoding('utf8')
  let data = ''
  socket.on('data', (chunk: string) => { data += chunk })
  const ended = new Promise(resolve => socket.once('close', resolve))
  const template = server.home.faults.holdAnswers('/api/template')
  socket.write(first)
  await within(realClock, 5000, template.held, () => { throw new Error('the slow call never reached the demo home') })
  const closing = server.app.close()
  // The slow call answers once the server has begun to close: its preClose hooks ran (plugins/closing.ts
  // answers requests from then on) and it stopped listening.
  await eventually(() => !server.app.server.listening, 5000, 'the server to begin closing')
  template.release()
  await eventually(() => /"id":9/.test(data), 10_000, 'the slow call\'s answer')
  const before = data.length
  socket.write(second(port))
  await within(realClock, 3000, ended, () => undefined)
  socket.destroy()
  await closing
  const answer = data.slice(before)
  const split = answer.indexOf('\r\n\r\n')
  const status = Number(answer.slice(9, 12))
  let body: any
  try { body = JSON.parse(answer.slice(split + 4)) } catch { body = answer.slice(split + 4) }
  return { status, headers: answer.slice(0, split).toLowerCase(), body }
}

t.test('a request that arrives while the server closes: 503, coded in each kind of body', async t => {
  t.test('on /mcp, a JSON-RPC error', async t => {
    const server = await startServer(t, { home: await startHome(t) })
    const list = JSON.stringify(LIST)
    const got = await whileClosing(server, port => raw(port, 'POST', '/mcp', { authorization: `Bearer ${TEST_TOKEN}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, list))
    t.equal(got.status, 503)
    t.equal(got.body.jsonrpc, '2.0')
    t.equal(got.body.error?.data?.code, 'HAMCP_SHUTTING_DOWN')
    t.match(got.headers, /retry-after: \d+/)
    seen.add('HAMCP_SHUTTING_DOWN')
  })
  t.test('on the sign-in\'s paths, an RFC 6749 error', async t => {
    const server = await startServer(t, { home: await startHome(t) })
    const got = await whileClosing(server, port => raw(port, 'POST', '/oauth/token', { 'content-type': 'application/x-www-form-urlencoded' }, 'grant_type=refresh_token&refresh_token=x'))
    t.equal(got.status, 503)
    t.equal(got.body.error, 'temporarily_unavailable')
    t.type(got.body.error_description, 'string')
  })
  t.test('elsewhere, {error, code, message}', async t => {
    const server = await startServer(t, { home: await startHome(t) })
    const got = await whileClosing(server, port => raw(port, 'GET', '/health', {}))
    t.equal(got.status, 503)
    t.equal(got.body.code, 'HAMCP_SHUTTING_DOWN')
    t.type(got.body.message, 'string')
  })
})

t.test('the walk showed every code of the HTTP layer', async t => {
  t.same([...Object.keys(HTTP_REFUSAL_CODES)].filter(code => !seen.has(code)), [], 'no refusal code without a request that shows it')
})

t.test('behind a reverse proxy the public_url origin is accepted, and only it', async t => {
  const home = await startHome(t)
  const server = await startServer(t, { home, options: { public_url: 'https://mcp.example.com' } })
  const json = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...bearer() }
  // A proxy that forwards the browser's Host, and one that sends its own upstream address.
  for (const host of ['mcp.example.com', new URL(server.url).host]) {
    const got = await send(server.url, { headers: { ...json, host, origin: 'https://mcp.example.com' }, body: JSON.stringify(LIST) })
    t.equal(got.response.status, 200, `Origin https://mcp.example.com, Host ${host}`)
    t.ok(Array.isArray(got.body.result?.tools), 'answered')
  }
  for (const origin of ['http://mcp.example.com', 'https://mcp.example.com:8443', 'https://evil.example']) {
    const got = await send(server.url, { headers: { ...json, host: 'mcp.example.com', origin }, body: JSON.stringify(LIST) })
    t.equal(got.response.status, 403, `${origin} is still foreign`)
  }
})

import t from 'tap'
import { caughtUp, rpc, startHome, startServer, TEST_TOKEN } from '../helper.ts'
import { request as httpRequest } from 'node:http'

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

// Red-team test for answer bodies (routes/mcp.ts): many clients with different tokens at once,
// answers of every size (small, tens of KB, batches past 64 KB), names with multi-byte text, lone surrogates, quotes and backslashes, error answers,
// 202s, and clients that hang up before or in the middle of their answer. Every body must be exactly
// its JSON (no byte of another answer, no padding) and the same bytes the request gets when it runs alone.
interface Sent { token: string, body: unknown, marker: string }

t.test('concurrent answers to different tokens are each exactly their own JSON', async t => {
  const home = await startHome(t)
  const server = await startServer(t, { home, app: { requestLimits: { perToken: 0, perAddress: 0 } } })
  await server.app.services.home.ready()
  const lights = home.entityIds().filter(id => id.startsWith('light.') || id.startsWith('sensor.')).slice(0, 60)
  // Names whose JSON escapes differ from their text, of growing sizes: multi-byte, astral, a lone
  // surrogate of each kind, quotes, backslashes, a control character.
  lights.forEach((id, i) => {
    home.setState(id, 'on', { ...home.getState(id)?.attributes, friendly_name: `Lamp ${i} é🔥\ud800x\udfff"\\\u0001 ${'ß€'.repeat(i * 3)}` })
  })
  const last = lights[lights.length - 1] as string
  await caughtUp(server)
  t.ok(String(server.app.services.ha.states.get(last)?.attributes.friendly_name).startsWith(`Lamp ${lights.length - 1} `), 'the add-on sees the names')

  const tokens = [server.token]
  for (const name of ['alpha', 'bravo', 'charlie']) tokens.push((await server.app.services.tokens.create({ name, scopes: ['read'] })).token)

  const call = (id: string, name: string, args: Record<string, unknown>): Record<string, unknown> => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } })
  const requests: Sent[] = []
  for (let n = 0; n < 96; n++) {
    const token = tokens[n % tokens.length] as string
    // Each request's own marker, in its id (echoed) and where it can be, in the answer's text.
    const marker = `m${n}x${'q'.repeat(n % 13)}`
    // Some ids are awkward JSON themselves: a lone surrogate, multi-byte text, a quote, a backslash.
    const id = n % 3 === 0 ? `${marker}\ud800é🔥"\\` : marker
    const kind = n % 8
    let body: unknown
    if (kind === 0) body = call(id, 'ha_list_entities', { domain: 'light', limit: 1 + (n % 50) })
    else if (kind === 1) body = call(id, 'ha_search_entities', { query: 'lamp', limit: 1 + (n % 50) })
    else if (kind === 2) body = call(id, 'ha_get_entity', { entity_id: `light.${marker}` })
    else if (kind === 3) body = call(id, 'ha_get_entity', { entity_id: lights[n % lights.length] })
    else if (kind === 4) body = { jsonrpc: '2.0', id, method: 'tools/list', params: {} }
    else if (kind === 5) {
      // A batch past 64 KB: list answers near the cap, an error, a notification.
      body = [
        ...Array.from({ length: 6 }, (_, i) => call(`${marker}-${i}`, 'ha_list_entities', { search: 'lamp', limit: 200 })),
        call(`${marker}-e`, 'ha_no_such_tool', {}),
        { jsonrpc: '2.0', method: 'notifications/initialized' }
      ]
    } else if (kind === 6) body = [call(`${marker}-a`, 'ha_get_entity', { entity_id: `light.${marker}` }), { jsonrpc: '2.0', id: `${marker}-b`, method: 'tools/list', params: {} }]
    else body = { jsonrpc: '2.0', method: 'notifications/initialized' }
    requests.push({ token, body, marker })
  }

  const post = async (sent: Sent, hangUp?: 'before' | 'midway'): Promise<{ status: number, bytes: Buffer, length: string | undefined }> =>
    await new Promise((resolve, reject) => {
      const payload = JSON.stringify(sent.body)
      const url = new URL(`${server.url}/mcp`)
      const req = httpRequest({
        host: url.hostname,
        port: url.port,
        path: '/mcp',
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: `Bearer ${sent.token}`, 'content-length': Buffer.byteLength(payload) }
      }, res => {
        const chunks: Buffer[] = []
        res.on('data', (chunk: Buffer) => {
          chunks.push(chunk)
          if (hangUp === 'midway') req.destroy()
        })
        res.on('end', () => { resolve({ status: res.statusCode ?? 0, bytes: Buffer.concat(chunks), length: res.headers['content-length'] }) })
        res.on('error', () => { resolve({ status: -1, bytes: Buffer.alloc(0), length: undefined }) })
      })
      req.on('error', err => { if (hangUp === undefined) reject(err); else resolve({ status: -1, bytes: Buffer.alloc(0), length: undefined }) })
      req.end(payload)
      if (hangUp === 'before') setImmediate(() => req.destroy())
    })

  const check = (sent: Sent, answer: { status: number, bytes: Buffer, length: string | undefined }, label: string): void => {
    const messages = Array.isArray(sent.body) ? sent.body : [sent.body]
    const ids = messages.filter(m => 'id' in (m as object)).map(m => (m as { id: string }).id)
    if (ids.length === 0) {
      t.equal(answer.status, 202, `${label}: notifications only, 202`)
      t.equal(answer.bytes.length, 0, `${label}: and no body`)
      return
    }
    t.equal(answer.status, 200, label)
    t.equal(answer.length, String(answer.bytes.length), `${label}: Content-Length is the body's length`)
    const text = answer.bytes.toString('utf8')
    let parsed: unknown
    try { parsed = JSON.parse(text) } catch { t.fail(`${label}: not JSON: ${text.slice(-200)}`); return }
    t.ok(Buffer.from(JSON.stringify(parsed), 'utf8').equals(answer.bytes), `${label}: the body is exactly its JSON, no byte more`)
    const answers = Array.isArray(sent.body) ? parsed as Array<{ id: string }> : [parsed as { id: string }]
    t.same(answers.map(a => a.id), ids, `${label}: its own ids, in order`)
    for (const other of requests) {
      if (other !== sent && text.includes(`"${other.marker}`)) t.fail(`${label}: holds ${other.marker}'s bytes`)
    }
  }

  // Three rounds at once; in each, some clients hang up before or during their answer.
  const answered = new Map<Sent, Buffer>()
  for (let round = 0; round < 3; round++) {
    const hangUps = requests.map((_, i) => (i + round) % 11 === 0 ? post(requests[(i * 7) % requests.length] as Sent, i % 2 === 0 ? 'before' : 'midway') : undefined)
    const outcomes = await Promise.all(requests.map(async sent => await post(sent)))
    await Promise.all(hangUps)
    outcomes.forEach((answer, i) => {
      const sent = requests[i] as Sent
      check(sent, answer, `round ${round}, request ${i}`)
      const before = answered.get(sent)
      if (before === undefined) answered.set(sent, answer.bytes)
      else t.ok(before.equals(answer.bytes), `round ${round}, request ${i}: the same bytes as in the first round`)
    })
  }
  // Alone, one after the other: the same bytes again (nothing in the home changed meanwhile).
  for (const [i, sent] of requests.entries()) {
    const alone = await post(sent)
    t.ok((answered.get(sent) as Buffer).equals(alone.bytes), `request ${i} alone: the same bytes as under load`)
  }
  t.ok(requests.some(sent => Array.isArray(sent.body) && (answered.get(sent)?.length ?? 0) > 64 * 1024), 'some bodies were past 64 KB')
  t.ok(requests.some(sent => (answered.get(sent)?.length ?? 0) > 20_000 && (answered.get(sent)?.length ?? 0) <= 64 * 1024), 'and some of tens of KB')
})

// Red-team test for answer bodies (routes/mcp.ts): many clients with different tokens at once,
// answers of every size (small, tens of KB, batches past 64 KB), names with multi-byte text, lone surrogates, quotes and backslashes, error answers,
// 202s, and clients that hang up before or in the middle of their answer. Every body must be exactly
// its JSON (no byte of another answer, no padding) and the same bytes the request gets when it runs alone.
import { request as httpRequest } from 'node:http'
import t from 'tap'
import { eventually, startHome, startServer } from '../helper.ts'

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
  await eventually(() => String(server.app.services.ha.states.get(last)?.attributes.friendly_name).startsWith(`Lamp ${lights.length - 1} `), 5000, 'the names')

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

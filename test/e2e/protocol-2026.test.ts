// MCP 2026-07-28 on /mcp beside the 2025-era protocol: the era is chosen per request, the SDK's v2
// client connects pinned and in auto mode, and the v1 client keeps the 2025 handshake.
import t from 'tap'
import { connectClient, rpc, startHome, startServer, TEST_TOKEN } from '../helper.ts'
import { connectModern, metaFor, modern, MODERN } from '../modern.ts'

const auth = { authorization: `Bearer ${TEST_TOKEN}` }

t.test('MCP 2026-07-28 beside the 2025 era', async t => {
  const home = await startHome(t)
  const server = await startServer(t, { home })

  t.test('server/discover names 2026-07-28 and carries resultType and cache hints', async t => {
    const { status, body } = await modern(server, TEST_TOKEN, 'server/discover')
    t.equal(status, 200)
    t.same(body.result.supportedVersions, [MODERN])
    t.equal(body.result.resultType, 'complete')
    t.equal(body.result.cacheScope, 'private')
    t.equal(body.result._meta['io.modelcontextprotocol/serverInfo'].name, 'ha-mcp')
    t.ok(body.result.capabilities.tools)
  })

  t.test('tools/list: resultType, a private cache hint (the list depends on the token), a stable order', async t => {
    const first = await modern(server, TEST_TOKEN, 'tools/list')
    t.equal(first.status, 200)
    t.equal(first.body.result.resultType, 'complete')
    t.equal(first.body.result.cacheScope, 'private')
    t.ok(first.body.result.ttlMs > 0)
    const names = first.body.result.tools.map((tool: { name: string }) => tool.name)
    t.ok(names.includes('ha_search_entities'))
    const again = await modern(server, TEST_TOKEN, 'tools/list')
    t.same(again.body.result.tools.map((tool: { name: string }) => tool.name), names, 'same order every time')
  })

  t.test('tools/call answers with resultType complete', async t => {
    const { status, body } = await modern(server, TEST_TOKEN, 'tools/call', { name: 'ha_search_entities', arguments: { query: 'kitchen' } })
    t.equal(status, 200)
    t.equal(body.result.resultType, 'complete')
    t.notOk(body.result.isError)
  })

  t.test('Mcp-Method and Mcp-Name must match the body', async t => {
    const wrongMethod = await modern(server, TEST_TOKEN, 'tools/list', {}, metaFor(), { 'mcp-method': 'prompts/list' })
    t.equal(wrongMethod.status, 400)
    t.equal(wrongMethod.body.error.code, -32020)
    t.equal(wrongMethod.body.id, 1, 'the error echoes the request id')

    const noMethod = await rpc(server, { jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: metaFor() } }, { ...auth, 'mcp-protocol-version': MODERN })
    t.equal(noMethod.status, 400)
    t.equal((await noMethod.json() as any).error.code, -32020)

    const wrongName = await modern(server, TEST_TOKEN, 'tools/call', { name: 'ha_search_entities', arguments: {} }, metaFor(), { 'mcp-name': 'ha_call_service' })
    t.equal(wrongName.status, 400)
    t.equal(wrongName.body.error.code, -32020)

    const encoded = `=?base64?${Buffer.from('ha_search_entities').toString('base64')}?=`
    const base64 = await modern(server, TEST_TOKEN, 'tools/call', { name: 'ha_search_entities', arguments: { query: 'x' } }, metaFor(), { 'mcp-name': encoded })
    t.equal(base64.status, 200, 'a base64-encoded Mcp-Name is decoded')

    const badBase64 = await modern(server, TEST_TOKEN, 'tools/call', { name: 'ha_search_entities', arguments: {} }, metaFor(), { 'mcp-name': '=?base64?***?=' })
    t.equal(badBase64.status, 400)

    const versionMismatch = await modern(server, TEST_TOKEN, 'tools/list', {}, metaFor(), { 'mcp-protocol-version': '2025-11-25' })
    t.equal(versionMismatch.status, 400)
    t.equal(versionMismatch.body.error.code, -32020)
  })

  t.test('a 2026-07-28 header without the _meta envelope is invalid params, not an unsupported version', async t => {
    const res = await rpc(server, { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }, { ...auth, 'mcp-protocol-version': MODERN, 'mcp-method': 'tools/list' })
    t.equal(res.status, 400)
    t.equal((await res.json() as any).error.code, -32602)
  })

  t.test('an unknown resource is -32602 in 2026-07-28 and still -32002 for 2025 clients', async t => {
    const uri = 'ha://entity/light.does_not_exist'
    const now = await modern(server, TEST_TOKEN, 'resources/read', { uri })
    t.equal(now.body.error.code, -32602)
    t.equal(now.body.error.data.uri, uri)
    const before = await rpc(server, { jsonrpc: '2.0', id: 1, method: 'resources/read', params: { uri } }, auth)
    t.equal((await before.json() as any).error.code, -32002)
  })

  t.test('initialize is still the 2025 handshake', async t => {
    const res = await rpc(server, { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'old', version: '1' } } }, auth)
    const body = await res.json() as any
    t.equal(body.result.protocolVersion, '2025-06-18')
    t.notOk('resultType' in body.result, '2025 results carry no resultType')
  })

  t.test('subscriptions/listen streams changes to the entity and area resources a client listed', async t => {
    await server.app.services.home.ready()
    const light = server.app.services.home.entities().find(row => row.domain === 'light' && row.area_id !== null)
    const other = server.app.services.home.entities().find(row => row.domain === 'sensor' && row.area_id !== light?.area_id)
    if (!light || !other) throw new Error('the demo home lacks a light in an area or a sensor elsewhere')
    const entityUri = `ha://entity/${light.entity_id}`
    const areaUri = `ha://area/${light.area_id}`
    const aborted = new AbortController()
    t.teardown(() => { aborted.abort() })
    const res = await fetch(`${server.url}/mcp`, {
      method: 'POST',
      signal: aborted.signal,
      headers: { ...auth, 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': MODERN, 'mcp-method': 'subscriptions/listen' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 'listen-1', method: 'subscriptions/listen', params: { notifications: { resourceSubscriptions: [entityUri, areaUri] }, _meta: metaFor() } })
    })
    t.equal(res.status, 200)
    t.match(res.headers.get('content-type'), /text\/event-stream/)
    const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader()
    const seen: any[] = []
    let buffer = ''
    const until = async (check: () => boolean, what: string): Promise<void> => {
      const deadline = Date.now() + 5000
      while (!check()) {
        if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
        const { value, done } = await reader.read()
        if (done) throw new Error('the stream ended')
        buffer += value
        let end: number
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const data = buffer.slice(0, end).split('\n').filter(line => line.startsWith('data:')).map(line => line.slice(5).trim()).join('')
          buffer = buffer.slice(end + 2)
          if (data) seen.push(JSON.parse(data))
        }
      }
    }
    await until(() => seen.length >= 1, 'the acknowledgement')
    t.equal(seen[0].method, 'notifications/subscriptions/acknowledged', 'acknowledged first')
    t.equal(seen[0].params._meta['io.modelcontextprotocol/subscriptionId'], 'listen-1')

    home.setState(other.entity_id, 'elsewhere-1')
    home.setState(light.entity_id, light.state === 'on' ? 'off' : 'on')
    const updates = (): string[] => seen.filter(m => m.method === 'notifications/resources/updated').map(m => m.params.uri)
    await until(() => updates().includes(entityUri) && updates().includes(areaUri), 'the entity and area updates')
    t.notOk(updates().includes(`ha://entity/${other.entity_id}`), 'nothing for a resource the client did not list')
    const update = seen.find(m => m.method === 'notifications/resources/updated')
    t.equal(update.params._meta['io.modelcontextprotocol/subscriptionId'], 'listen-1', 'tagged with the subscription')
    aborted.abort()
  })

  t.test('the 2025 subscribe methods are not 2026-07-28 methods: 404', async t => {
    const { status, body } = await modern(server, TEST_TOKEN, 'resources/subscribe', { uri: 'ha://entity/light.x' })
    t.equal(status, 404)
    t.equal(body.error.code, -32601)
  })

  for (const [label, mode] of [['pinned to 2026-07-28', { pin: MODERN }], ['in auto mode', 'auto']] as const) {
    t.test(`the v2 client ${label} lists and calls tools`, async t => {
      const { client } = await connectModern(t, server, { mode })
      t.equal(client.getProtocolEra(), 'modern')
      const { tools } = await client.listTools()
      t.ok(tools.some(tool => tool.name === 'ha_search_entities'))
      const result = await client.callTool({ name: 'ha_search_entities', arguments: { query: 'kitchen' } })
      t.notOk(result.isError)
    })
  }

  t.test('the v1 client lists and calls tools over the 2025 handshake', async t => {
    const client = await connectClient(t, server)
    t.equal(client.getServerVersion()?.name, 'ha-mcp')
    const { tools } = await client.listTools()
    t.ok(tools.some(tool => tool.name === 'ha_search_entities'))
    const result = await client.callTool({ name: 'ha_search_entities', arguments: { query: 'kitchen' } })
    t.notOk(result.isError)
  })
})

// What server/discover and the 2026-07-28 list caching hints tell whom, and the Mcp-Name header as
// a gateway would read it (src/mcp/transport/stateless.ts, src/mcp/handlers.ts).
t.test('red team: server/discover, list caching hints and Mcp-Name', async t => {
  t.test('discover, caching hints and Mcp-Name under attack', async t => {
    const home = await startHome(t)
    const server = await startServer(t, { home, options: { allow_write: true, filter_reads: true, entity_denylist: ['lock.*'] } })
    const { token: reader } = await server.app.services.tokens.create({ name: 'reader', scopes: ['read'] })

    t.test('server/discover says the same to every token and names no entity, token or option', async t => {
      const asOwner = await modern(server, TEST_TOKEN, 'server/discover')
      const asReader = await modern(server, reader, 'server/discover')
      t.equal(asOwner.status, 200)
      t.same(asReader.body.result, asOwner.body.result, 'one answer for every token')
      const text = JSON.stringify(asOwner.body)
      for (const secret of [TEST_TOKEN, reader, home.token]) t.notOk(text.includes(secret), 'no token')
      t.notOk(home.entityIds().some(id => text.includes(id)), 'no entity id, hidden or not')
      t.notMatch(text, /entity_denylist|lock\.\*|allow_write/, 'no option')
      const unauthenticated = await rpc(server, { jsonrpc: '2.0', id: 1, method: 'server/discover', params: { _meta: metaFor() } }, { 'mcp-protocol-version': MODERN, 'mcp-method': 'server/discover' })
      t.equal(unauthenticated.status, 401, 'and nothing without a token')
    })

    t.test('tools/list depends on the token and every list says cacheScope private', async t => {
      const owner = await modern(server, TEST_TOKEN, 'tools/list')
      const read = await modern(server, reader, 'tools/list')
      const names = (answer: { body: any }): string[] => answer.body.result.tools.map((tool: { name: string }) => tool.name)
      t.ok(names(owner).includes('ha_call_service'))
      t.notOk(names(read).includes('ha_call_service'), 'a read token is not shown a write tool')
      for (const method of ['tools/list', 'prompts/list', 'resources/list', 'resources/templates/list']) {
        for (const token of [TEST_TOKEN, reader]) {
          const answer = await modern(server, token, method)
          t.equal(answer.body.result?.cacheScope, 'private', `${method} is private`)
        }
      }
    })

    t.test('Mcp-Name must name exactly the body\'s tool: case, padding, encoding or a second header do not pass', async t => {
      const params = { name: 'ha_call_service', arguments: { domain: 'light', service: 'turn_on', target: { entity_id: 'light.x' }, dry_run: true }, _meta: metaFor() }
      const send = async (headers: Record<string, string> | Array<[string, string]>): Promise<number> => {
        const res = await fetch(`${server.url}/mcp`, {
          method: 'POST',
          headers: [['authorization', `Bearer ${TEST_TOKEN}`], ['content-type', 'application/json'], ['accept', 'application/json'], ['mcp-protocol-version', MODERN], ['mcp-method', 'tools/call'], ...(Array.isArray(headers) ? headers : Object.entries(headers))],
          body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params })
        })
        await res.text()
        return res.status
      }
      const encoded = (text: string): string => `=?base64?${Buffer.from(text).toString('base64')}?=`
      t.equal(await send({ 'mcp-name': 'ha_search_entities' }), 400, 'another tool')
      t.equal(await send({ 'mcp-name': 'HA_CALL_SERVICE' }), 400, 'another case')
      t.equal(await send({ 'mcp-name': encoded('ha_call_service ') }), 400, 'padding inside the encoding')
      t.equal(await send({ 'mcp-name': encoded('ha_search_entities') }), 400, 'another tool, encoded')
      t.equal(await send([['mcp-name', 'ha_search_entities'], ['mcp-name', 'ha_call_service']]), 400, 'two headers')
      t.equal(await send({ 'mcp-name': encoded('ha_call_service') }), 200, 'the same tool, encoded, passes')
    })
  })
})

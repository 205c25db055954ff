import t from 'tap'
import type { Client } from '@modelcontextprotocol/sdk/client/index.js'
import type { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { ResourceUpdatedNotificationSchema } from '@modelcontextprotocol/sdk/types.js'
import type { DemoHome } from '../../demo/index.ts'
import { realClock, within } from '../../src/clock.ts'
import { caughtUp, connectClient, eventually, fakeClock, rpc, startHome, startServer, TEST_TOKEN, type FakeClock, type TestServer } from '../helper.ts'
import { stalledStream } from './_stalled.ts'
import { answerOf, auth, openRawSession } from './_raw.ts'
import { startIngress } from '../ingress/_ingress.ts'
import { listen, metaFor, MODERN, type ListenStream } from '../modern.ts'

interface Received { uri: string, at: number }

/** A session client recording every resources/updated notification, once its event stream is open. */
async function listeningClient (t: { teardown: (fn: () => unknown) => void }, server: TestServer, clock: FakeClock): Promise<{ client: Client, received: Received[] }> {
  const client = await connectClient(t, server, TEST_TOKEN, { inject: false })
  const received: Received[] = []
  client.setNotificationHandler(ResourceUpdatedNotificationSchema, notification => {
    received.push({ uri: notification.params.uri, at: clock.now() })
  })
  const id = (client.transport as StreamableHTTPClientTransport).sessionId as string
  await eventually(() => server.app.services.sessions.registry.listening(id), 5000, 'the client to open its event stream')
  return { client, received }
}

/**
 * Proves nothing else is on its way: one more subscription signals at once, and the session's event
 * stream is ordered, so anything sent before it has arrived by the time it does.
 */
async function settle (client: Client, received: Received[], home: DemoHome, entityId: string): Promise<void> {
  const uri = `ha://entity/${entityId}`
  const before = received.length
  await client.subscribeResource({ uri })
  home.setState(entityId, `sync-${before}`)
  await eventually(() => received.some((r, i) => i >= before && r.uri === uri), 5000, 'the sync notification')
  received.splice(received.findIndex((r, i) => i >= before && r.uri === uri), 1)
  await client.unsubscribeResource({ uri })
}

t.test('subscriptions in a session', async t => {
  const home = await startHome(t)
  // The throttle runs on the test's clock: a trailing signal goes out when the test moves time on.
  const clock = fakeClock()
  const server = await startServer(t, { home, options: { enable_sessions: true }, app: { sessions: { now: clock.now, schedule: clock.schedule } } })
  await server.app.services.home.ready()
  const light = server.app.services.home.entities().find(row => row.domain === 'light' && row.area_id !== null)
  if (!light) throw new Error('the demo home has no light in an area')
  const other = server.app.services.home.entities().find(row => row.domain === 'sensor' && row.area_id !== light.area_id)
  if (!other) throw new Error('the demo home has no sensor outside the light\'s area')

  t.test('the session offers subscriptions', async t => {
    const client = await connectClient(t, server)
    t.equal(client.getServerCapabilities()?.resources?.subscribe, true)
  })

  t.test('an entity subscription signals each change, at most once per second per URI', async t => {
    const { client, received } = await listeningClient(t, server, clock)
    const uri = `ha://entity/${light.entity_id}`
    await client.subscribeResource({ uri })
    home.setState(light.entity_id, light.state === 'on' ? 'off' : 'on')
    await eventually(() => received.length === 1, 5000, 'the first notification')
    t.same(received.map(r => r.uri), [uri], 'names the subscribed URI')

    // A burst of changes: one trailing notification a second after the first, not one per change.
    for (let i = 0; i < 5; i++) home.setState(light.entity_id, i % 2 === 0 ? 'on' : 'off', { brightness: 10 * i })
    await caughtUp(server)
    t.equal(server.app.services.ha.states.get(light.entity_id)?.attributes.brightness, 40, 'the add-on sees the burst')
    t.same(clock.pending(), [1000], 'the burst waits for one trailing signal, a second after the first')
    await settle(client, received, home, other.entity_id)
    t.equal(received.length, 1, 'nothing more within the second')
    clock.advance(1000)
    await eventually(() => received.length === 2, 5000, 'the trailing notification')
    t.equal((received[1] as Received).at - (received[0] as Received).at, 1000, 'the second came a second after the first')
    t.same(clock.pending(), [], 'the burst produced exactly one more notification')

    await client.unsubscribeResource({ uri })
    clock.advance(5000)
    home.setState(light.entity_id, 'off', { brightness: 1 })
    home.setState(light.entity_id, 'on', { brightness: 2 })
    await caughtUp(server)
    t.equal(server.app.services.ha.states.get(light.entity_id)?.attributes.brightness, 2, 'the add-on sees the changes')
    t.same(clock.pending(), [])
    await settle(client, received, home, other.entity_id)
    t.equal(received.length, 2, 'nothing after unsubscribing')
  })

  t.test('an area subscription signals when an entity in it changes state', async t => {
    const { client, received } = await listeningClient(t, server, clock)
    const uri = `ha://area/${light.area_id as string}`
    await client.subscribeResource({ uri })
    home.setState(light.entity_id, 'off')
    home.setState(light.entity_id, 'on')
    await eventually(() => received.some(r => r.uri === uri), 5000, 'the area notification')
    t.ok(received.every(r => r.uri === uri), 'only the area is signalled')
  })

  t.test('only existing entity and area resources can be subscribed, at most 50 per session', async t => {
    const client = await connectClient(t, server)
    await t.rejects(client.subscribeResource({ uri: 'ha://entity/light.does_not_exist' }), { code: -32002 }, 'unknown entity: resource not found, like resources/read')
    await t.rejects(client.subscribeResource({ uri: 'ha://area/atlantis' }), { code: -32002 }, 'unknown area')
    await t.rejects(client.subscribeResource({ uri: 'ha://services' }), { code: -32602, data: { code: 'HAMCP_NOT_SUPPORTED' } })
    const ids = server.app.services.home.entities().slice(0, 51).map(row => row.entity_id)
    for (const id of ids.slice(0, 50)) await client.subscribeResource({ uri: `ha://entity/${id}` })
    await client.subscribeResource({ uri: `ha://entity/${ids[0] as string}` })
    t.pass('subscribing again to the same URI does not count twice')
    await t.rejects(client.subscribeResource({ uri: `ha://entity/${ids[50] as string}` }), { code: -32602, data: { code: 'HAMCP_LIMIT_REACHED' }, message: /At most 50 subscriptions/ }, 'the 51st is refused')
  })

  t.test('closing the session releases its state listener', async t => {
    const client = await connectClient(t, server)
    const id = (client.transport as StreamableHTTPClientTransport).sessionId as string
    await client.subscribeResource({ uri: `ha://entity/${light.entity_id}` })
    const session = server.app.services.sessions.registry.get(id)
    t.equal(session?.subscriptions.size, 1)
    await (client.transport as StreamableHTTPClientTransport).terminateSession()
    t.equal(session?.subscriptions.size, 0, 'subscriptions dropped')
    t.notOk(server.app.services.sessions.registry.get(id), 'session gone')
  })
})

t.test('with filter_reads, hidden entities cannot be subscribed and never signal', async t => {
  const home = await startHome(t)
  const clock = fakeClock()
  const server = await startServer(t, { home, options: { enable_sessions: true, filter_reads: true, entity_denylist: ['lock.*'] }, app: { sessions: { now: clock.now, schedule: clock.schedule } } })
  await server.app.services.home.ready()
  const lock = server.app.services.home.catalog.all().find(row => row.domain === 'lock' && row.area_id !== null)
  if (!lock) throw new Error('the demo home has no lock in an area')
  const neighbour = server.app.services.home.entities().find(row => row.area_id === lock.area_id && row.domain !== 'lock')
  if (!neighbour) throw new Error('no visible entity shares the lock\'s area')

  const { client, received } = await listeningClient(t, server, clock)
  const read = await client.readResource({ uri: `ha://entity/${lock.entity_id}` }).catch((err: { code: number, message: string }) => err)
  await t.rejects(client.subscribeResource({ uri: `ha://entity/${lock.entity_id}` }), { code: (read as { code: number }).code, message: (read as { message: string }).message }, 'refused exactly like reading it')

  const areaUri = `ha://area/${lock.area_id as string}`
  await client.subscribeResource({ uri: areaUri })
  home.setState(lock.entity_id, lock.state === 'locked' ? 'unlocked' : 'locked')
  home.setState(neighbour.entity_id, neighbour.state === 'on' ? 'off' : 'on')
  await eventually(() => received.length === 1, 5000, 'the visible change to signal the area')
  t.same(clock.pending(), [], 'the hidden lock\'s change signalled nothing (else the visible one would wait its turn)')
})

t.test('a session stream whose reader does not read holds one update per resource, and is closed once stalled', async t => {
  const home = await startHome(t)
  const clock = fakeClock()
  const server = await startServer(t, { home, options: { enable_sessions: true }, app: { sessions: { now: clock.now, schedule: clock.schedule } } })
  await server.app.services.home.ready()
  const rows = server.app.services.home.ha.states
  const busy = server.app.services.home.entities().filter(row => row.domain === 'sensor' || row.domain === 'light').slice(0, 50).map(row => row.entity_id)
  const session = await openRawSession(server.url, server.token)
  await (await rpc(server, { jsonrpc: '2.0', method: 'notifications/initialized' }, auth(server.token, session))).text()
  for (const [i, id] of busy.entries()) {
    const answer = answerOf(await (await rpc(server, { jsonrpc: '2.0', id: 10 + i, method: 'resources/subscribe', params: { uri: `ha://entity/${id}` } }, auth(server.token, session))).text())
    t.notOk(answer.error, JSON.stringify(answer))
  }
  const stalled = await stalledStream(server, ['GET /mcp HTTP/1.1', `authorization: Bearer ${server.token}`, `mcp-session-id: ${session}`, 'accept: text/event-stream'], '', () => server.app.services.sessions.registry.listening(session))
  t.teardown(() => { stalled.socket.destroy() })
  const state = { closed: false }
  stalled.ended.then(() => { state.closed = true }).catch(() => {})
  let round = 0
  for (; round < 40 && !state.closed; round++) {
    for (const id of busy) home.setState(id, `v${round}`)
    await caughtUp(server)
    if (!busy.every(id => rows.get(id)?.state === `v${round}`)) throw new Error(`round ${round} did not reach the add-on`)
    clock.advance(20_000)
    await new Promise(resolve => setImmediate(resolve))
  }
  await within(realClock, 3000, stalled.ended, () => undefined)
  t.ok(state.closed, `the server closed the stream that did not read (after ${round} rounds of 50 updates)`)
  t.ok((stalled.response()?.writableLength ?? 0) < 256 * 1024, 'what waited for it stayed small')
  const tools = answerOf(await (await rpc(server, { jsonrpc: '2.0', id: 99, method: 'tools/list' }, auth(server.token, session))).text())
  t.ok(Array.isArray(tools.result?.tools), 'the session itself goes on: its client may open a new stream')
})

// Attacks on 2026-07-28 subscriptions/listen (src/mcp/transport/stateless.ts, routes/mcp.ts): hidden entities
// must never signal, one token must not hold every stream nor the memory, and a token that stops
// working must stop streaming.
t.test('red team: subscriptions/listen streams', async t => {
  t.test('subscriptions/listen under attack', async t => {
    const home = await startHome(t)
    const server = await startServer(t, { home, options: { filter_reads: true, entity_denylist: ['lock.*'] } })
    await server.app.services.home.ready()
    const rows = server.app.services.home.ha.states
    const lock = home.entityIds().find(id => id.startsWith('lock.'))
    const visible = server.app.services.home.entities().find(row => row.domain === 'light' && row.area_id !== null)
    if (!lock || !visible) throw new Error('the demo home lacks a lock or a light in an area')
    const lockArea = server.app.services.home.catalog.all().find(row => row.entity_id === lock)?.area_id
    const open: ListenStream[] = []
    t.teardown(() => { for (const stream of open) stream.close() })
    const opened = async (token: string, id: string, uris: unknown[]): Promise<ListenStream> => {
      const stream = await listen(server.url, token, id, uris)
      open.push(stream)
      await stream.until(() => stream.seen.length >= 1, `the first message of ${id}`)
      return stream
    }
    const flip = (id: string): void => { home.setState(id, rows.get(id)?.state === 'on' ? 'off' : 'on') }

    t.test('a hidden entity (filter_reads) never signals, by its own URI nor through its area', async t => {
      const uris = [`ha://entity/${lock}`, ...(lockArea ? [`ha://area/${lockArea}`] : []), `ha://entity/${visible.entity_id}`]
      const stream = await opened(TEST_TOKEN, 'hidden-1', uris)
      home.setState(lock, rows.get(lock)?.state === 'locked' ? 'unlocked' : 'locked')
      home.setState(lock, 'jammed')
      flip(visible.entity_id)
      await stream.until(() => stream.updates().includes(`ha://entity/${visible.entity_id}`), 'the visible light\'s update')
      t.notOk(stream.updates().includes(`ha://entity/${lock}`), 'nothing for the hidden lock')
      if (lockArea && lockArea !== visible.area_id) t.notOk(stream.updates().includes(`ha://area/${lockArea}`), 'nor for its area')
      stream.close()
    })

    t.test('a listen naming more resources than a session may subscribe (50) is refused before any stream', async t => {
      // 120 000 URIs in one body held ~14 MB of heap per stream; 64 streams of them passed the 256 MB heap.
      const many = Array.from({ length: 51 }, (_, i) => `ha://entity/sensor.s${i}`)
      const refused = await opened(TEST_TOKEN, 'many-1', many)
      t.equal(refused.seen[0]?.error?.code, -32602, JSON.stringify(refused.seen[0]).slice(0, 300))
      t.equal(refused.seen[0]?.id, 'many-1')
      const fifty = await opened(TEST_TOKEN, 'fifty-1', many.slice(0, 50))
      t.equal(fifty.seen[0].method, 'notifications/subscriptions/acknowledged', 'fifty are served')
      fifty.close()
      // A stream keeps its request body as long as it lives: extra fields cannot make that 4 MB either.
      const padded = await listen(server.url, TEST_TOKEN, 'padded-1', [`ha://entity/${visible.entity_id}`], { padding: 'x'.repeat(100_000) })
      t.equal(padded.status, 413)
      t.equal(padded.seen[0]?.error?.code, -32600, JSON.stringify(padded.seen[0]).slice(0, 300))
      const junk = await opened(TEST_TOKEN, 'junk-1', [{ uri: 'x'.repeat(1000) }])
      t.not(junk.seen[0]?.method, 'notifications/subscriptions/acknowledged', 'a URI that is not a string is not acknowledged')
    })

    t.test('a 64 KB request id is refused, never kept: on a listen stream nor on any other request', async t => {
      // Every notification of a stream carries its id: eight streams with 64 KB ids on busy entities took
      // RSS from 96 to 429 MB in 15 s.
      const long = 'i'.repeat(64 * 1024 - 400)
      const refused = await listen(server.url, TEST_TOKEN, long, [`ha://entity/${visible.entity_id}`])
      t.equal(refused.status, 400)
      t.equal(refused.seen[0]?.error?.code, -32600, JSON.stringify(refused.seen[0]).slice(0, 300))
      t.equal(refused.seen[0]?.error?.data?.code, 'HAMCP_INVALID_REQUEST')
      t.equal(refused.seen[0]?.id, null, 'the id is not echoed back')
      const call = await rpc(server, { jsonrpc: '2.0', id: long, method: 'tools/list' }, { authorization: `Bearer ${TEST_TOKEN}` })
      t.equal(call.status, 400, 'a 2025-era request too')
      const fine = await opened(TEST_TOKEN, 'i'.repeat(256), [`ha://entity/${visible.entity_id}`])
      t.equal(fine.seen[0]?.method, 'notifications/subscriptions/acknowledged', 'an id of 256 characters is served')
      fine.close()
    })

    t.test('one token cannot hold every listen stream of the server', async t => {
      const { token: tablet } = await server.app.services.tokens.create({ name: 'greedy tablet', scopes: ['read'] })
      const mine: ListenStream[] = []
      for (let i = 0; i < 12; i++) mine.push(await opened(tablet, `greedy-${i}`, [`ha://entity/${visible.entity_id}`]))
      const served = mine.filter(stream => stream.seen[0]?.method === 'notifications/subscriptions/acknowledged')
      const refusals = mine.filter(stream => stream.seen[0]?.error !== undefined)
      t.ok(refusals.length > 0, `a token past its share is refused (${served.length} open)`)
      t.equal(refusals[0]?.seen[0]?.error?.code, -32603, JSON.stringify(refusals[0]?.seen[0]))
      const owner = await opened(TEST_TOKEN, 'owner-1', [`ha://entity/${visible.entity_id}`])
      t.equal(owner.seen[0].method, 'notifications/subscriptions/acknowledged', 'another token still gets a stream')
      for (const stream of [...mine, owner]) stream.close()
      // Closed streams give their places back.
      await eventually(async () => {
        const again = await opened(tablet, `greedy-again-${Date.now()}`, [`ha://entity/${visible.entity_id}`])
        const ok = again.seen[0]?.error === undefined
        again.close()
        return ok
      }, 5000, 'a place for the tablet again')
      t.pass('the tablet gets a stream once its others closed')
    })
  })

  t.test('a revoked token stops streaming', async t => {
    const home = await startHome(t)
    const server = await startServer(t, { home })
    await server.app.services.home.ready()
    const ingress = await startIngress(t, server)
    const made = await ingress.inject({ method: 'POST', url: '/api/tokens', headers: { 'x-ha-mcp-ui': '1', 'content-type': 'application/json' }, payload: { name: 'tablet', scopes: ['read'] } })
    t.equal(made.statusCode, 201, made.body)
    const light = server.app.services.home.entities().find(row => row.domain === 'light')
    if (!light) throw new Error('no light in the demo home')
    const stream = await listen(server.url, made.json().token as string, 'revoked-1', [`ha://entity/${light.entity_id}`])
    t.teardown(() => { stream.close() })
    await stream.until(() => stream.seen.length >= 1, 'the acknowledgement')
    t.equal((await ingress.inject({ method: 'DELETE', url: `/api/tokens/${made.json().entry.id as string}`, headers: { 'x-ha-mcp-ui': '1' } })).statusCode, 200)
    home.setState(light.entity_id, 'on')
    home.setState(light.entity_id, 'off')
    let streamed = false
    try {
      await stream.until(() => stream.updates().length > 0, 'an update after the revocation', 1500)
      streamed = true
    } catch {}
    t.comment(`streamed after the revocation: ${streamed}`)
    // Finding of the red-team pass: the stream went on after the revocation (sessions closed, listens not).
    t.notOk(streamed, 'no update reaches a revoked token: its listen stream ended with it')
    await stream.ended()
    t.pass('the server ended the revoked token\'s stream')
  })

  t.test('a listen stream whose reader does not read holds one update per URI, and is closed once stalled', async t => {
    // Eight streams whose readers never read, on 50 busy entities: the SDK queued every update for them.
    const home = await startHome(t)
    const clock = fakeClock()
    const server = await startServer(t, { home, app: { sessions: { now: clock.now, schedule: clock.schedule } } })
    await server.app.services.home.ready()
    const rows = server.app.services.home.ha.states
    const busy = server.app.services.home.entities().filter(row => row.domain === 'sensor' || row.domain === 'light').slice(0, 50).map(row => row.entity_id)
    const uris = busy.map(id => `ha://entity/${id}`)
    const body = JSON.stringify({ jsonrpc: '2.0', id: 'stalled', method: 'subscriptions/listen', params: { notifications: { resourceSubscriptions: uris }, _meta: metaFor() } })
    const stalled = await stalledStream(server, [
      'POST /mcp HTTP/1.1', `authorization: Bearer ${server.token}`, 'content-type: application/json',
      'accept: application/json, text/event-stream', `mcp-protocol-version: ${MODERN}`, 'mcp-method: subscriptions/listen'
    ], body, 'notifications/subscriptions/acknowledged')
    t.teardown(() => { stalled.socket.destroy() })
    t.ok(stalled.response(), 'the stream\'s response was seen')
    const reading = await listen(server.url, TEST_TOKEN, 'reading', uris.slice(0, 1))
    t.teardown(() => { reading.close() })
    await reading.until(() => reading.seen.length >= 1, 'the reading stream\'s acknowledgement')
    const state = { closed: false }
    stalled.ended.then(() => { state.closed = true }).catch(() => {})
    let held = 0
    let round = 0
    for (; round < 30 && !state.closed; round++) {
      for (const id of busy) home.setState(id, `v${round}`)
      await caughtUp(server)
      if (!busy.every(id => rows.get(id)?.state === `v${round}`)) throw new Error(`round ${round} did not reach the add-on`)
      held = Math.max(held, stalled.response()?.writableLength ?? 0)
      // Each URI is signalled at most once a second: every round signals all 50; the stalled minute passes in three.
      clock.advance(20_000)
      await new Promise(resolve => setImmediate(resolve))
    }
    await within(realClock, 3000, stalled.ended, () => undefined)
    t.ok(state.closed, `the server closed the stream that did not read (after ${round} rounds of 50 updates)`)
    t.ok(held < 256 * 1024, `what waited for it in the process stayed small (${held} bytes)`)
    home.setState(busy[0] as string, 'after')
    await reading.until(() => reading.updates().length > 0, 'an update on the stream that reads')
    t.pass('a stream that reads is untouched')
  })
})

import t from 'tap'
import type { Client } from '@modelcontextprotocol/sdk/client/index.js'
import type { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { ResourceUpdatedNotificationSchema } from '@modelcontextprotocol/sdk/types.js'
import type { DemoHome } from '../../demo/index.ts'
import { connectClient, eventually, fakeClock, rpc, startHome, startServer, type FakeClock, type TestServer } from '../helper.ts'
import { stalledStream } from '../redteam/_stalled.ts'
import { answerOf, auth, openRawSession } from './_raw.ts'

interface Received { uri: string, at: number }

/** A session client recording every resources/updated notification, once its event stream is open. */
async function listeningClient (t: { teardown: (fn: () => unknown) => void }, server: TestServer, clock: FakeClock): Promise<{ client: Client, received: Received[] }> {
  const client = await connectClient(t, server)
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
    await eventually(() => server.app.services.ha.states.get(light.entity_id)?.attributes.brightness === 40, 5000, 'the server to see the burst')
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
    await eventually(() => server.app.services.ha.states.get(light.entity_id)?.attributes.brightness === 2, 5000, 'the server to see the changes')
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
  await (await rpc(server.url, { jsonrpc: '2.0', method: 'notifications/initialized' }, auth(server.token, session))).text()
  for (const [i, id] of busy.entries()) {
    const answer = answerOf(await (await rpc(server.url, { jsonrpc: '2.0', id: 10 + i, method: 'resources/subscribe', params: { uri: `ha://entity/${id}` } }, auth(server.token, session))).text())
    t.notOk(answer.error, JSON.stringify(answer))
  }
  const stalled = await stalledStream(server, ['GET /mcp HTTP/1.1', `authorization: Bearer ${server.token}`, `mcp-session-id: ${session}`, 'accept: text/event-stream'], '', () => server.app.services.sessions.registry.listening(session))
  t.teardown(() => { stalled.socket.destroy() })
  const state = { closed: false }
  stalled.ended.then(() => { state.closed = true }).catch(() => {})
  let round = 0
  for (; round < 40 && !state.closed; round++) {
    for (const id of busy) home.setState(id, `v${round}`)
    await eventually(() => busy.every(id => rows.get(id)?.state === `v${round}`), 5000, `round ${round} to reach the add-on`)
    clock.advance(20_000)
    await new Promise(resolve => setImmediate(resolve))
  }
  await Promise.race([stalled.ended, new Promise(resolve => { setTimeout(resolve, 3000) })])
  t.ok(state.closed, `the server closed the stream that did not read (after ${round} rounds of 50 updates)`)
  t.ok((stalled.response()?.writableLength ?? 0) < 256 * 1024, 'what waited for it stayed small')
  const tools = answerOf(await (await rpc(server.url, { jsonrpc: '2.0', id: 99, method: 'tools/list' }, auth(server.token, session))).text())
  t.ok(Array.isArray(tools.result?.tools), 'the session itself goes on: its client may open a new stream')
})

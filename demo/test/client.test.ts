// The official home-assistant-js-websocket client must work against the demo home unchanged.
import t, { type Test } from 'tap'
import WebSocket from 'ws'
import {
  callService, createConnection, ERR_INVALID_AUTH, createLongLivedTokenAuth, getConfig, getServices, getStates,
  subscribeEntities, type Connection, type HassEntities
} from 'home-assistant-js-websocket'
import { startDemoHome, type DemoHome } from '../index.ts'

const g = globalThis as unknown as { WebSocket?: unknown }
g.WebSocket ??= WebSocket

function waitFor (check: () => boolean, timeoutMs = 8000): Promise<void> {
  return new Promise((resolve, reject) => {
    const started = Date.now()
    const timer = setInterval(() => {
      if (check()) { clearInterval(timer); resolve() } else if (Date.now() - started > timeoutMs) { clearInterval(timer); reject(new Error('condition not met in time')) }
    }, 10)
  })
}

/** A fresh home, an official-client connection to it and a live subscribeEntities collection. */
async function liveHome (t: Test): Promise<{ home: DemoHome, conn: Connection, live: { entities: HassEntities } }> {
  const home = await startDemoHome()
  t.teardown(() => home.close())
  const conn = await createConnection({ auth: createLongLivedTokenAuth(home.url, home.token) })
  t.teardown(() => conn.close())
  const live = { entities: {} as HassEntities }
  subscribeEntities(conn, e => { live.entities = e })
  await waitFor(() => Object.keys(live.entities).length > 0)
  return { home, conn, live }
}

t.test('official client: states, services, config, subscribeEntities and a call', async t => {
  const home = await startDemoHome({ token: 'long-lived-token' })
  t.teardown(() => home.close())
  const conn: Connection = await createConnection({ auth: createLongLivedTokenAuth(home.url, 'long-lived-token') })
  t.teardown(() => conn.close())
  t.equal(conn.haVersion, '2026.11.2')

  const states = await getStates(conn)
  t.ok(states.length > 100, 'default home has well over 100 states')
  t.same(states.map(s => s.entity_id).sort(), home.entityIds().sort())
  const services = await getServices(conn)
  t.ok(services.light?.turn_on, 'light.turn_on is described')
  t.same(services.weather?.get_forecasts?.response, { optional: false })
  const config = await getConfig(conn)
  t.equal(config.version, '2026.11.2')
  t.equal(config.state, 'RUNNING')

  let entities: HassEntities = {}
  subscribeEntities(conn, e => { entities = e })
  await waitFor(() => Object.keys(entities).length === states.length)
  const light = states.find(s => s.entity_id.startsWith('light.') && s.state === 'off')
  t.ok(light, 'there is a light that is off')
  const id = light?.entity_id as string
  const result = await callService(conn, 'light', 'turn_on', { brightness_pct: 40 }, { entity_id: id }) as { context: { id: string } }
  t.equal(result.context.id.length, 26, 'ULID-like context id')
  t.equal(home.getState(id)?.state, 'on', 'the house changed before the call resolved')
  await waitFor(() => entities[id]?.state === 'on')
  t.equal(entities[id]?.attributes.brightness, 102)
  t.equal(entities[id]?.context.id, result.context.id, 'the change carries the call context')
  t.equal(home.serviceCalls.at(-1)?.service, 'turn_on')
})

t.test('official client reconnects and resubscribes after dropConnections', async t => {
  const { home, conn, live } = await liveHome(t)
  let disconnected = 0
  let ready = 0
  conn.addEventListener('disconnected', () => { disconnected++ })
  conn.addEventListener('ready', () => { ready++ })
  home.faults.dropConnections()
  await waitFor(() => ready === 1)
  t.equal(disconnected, 1)
  await waitFor(() => home.connectionCount() === 1)
  home.setState('input_text.welcome_message', 'Bienvenue après la reconnexion')
  await waitFor(() => live.entities['input_text.welcome_message']?.state === 'Bienvenue après la reconnexion')
  t.pass('a change after the reconnection reached the resubscribed collection')
})

t.test('official client gets ERR_INVALID_AUTH for a bad token and for refused auth', async t => {
  const home = await startDemoHome()
  t.teardown(() => home.close())
  const failure = async (token: string): Promise<unknown> => await createConnection({ auth: createLongLivedTokenAuth(home.url, token) }).then(() => 'connected', (err: unknown) => err)
  t.equal(await failure('wrong'), ERR_INVALID_AUTH)
  home.faults.refuseAuth(1)
  t.equal(await failure(home.token), ERR_INVALID_AUTH)
  const conn = await createConnection({ auth: createLongLivedTokenAuth(home.url, home.token) })
  t.teardown(() => conn.close())
  t.ok(conn.connected, 'the next attempt succeeds')
})

t.test('official client through the Supervisor /core proxy with the supervisor token', async t => {
  const home = await startDemoHome({ token: 'core-token', supervisorToken: 'sup-token' })
  t.teardown(() => home.close())
  const conn = await createConnection({ auth: createLongLivedTokenAuth(`${home.supervisorUrl}/core`, 'sup-token') })
  t.teardown(() => conn.close())
  const states = await getStates(conn)
  t.ok(states.length > 0)
  const refused = await createConnection({ auth: createLongLivedTokenAuth(`${home.supervisorUrl}/core`, 'core-token') }).then(() => 'connected', (err: unknown) => err)
  t.equal(refused, ERR_INVALID_AUTH, 'the core token is not the supervisor token')
})

t.test('official client survives restart() and a WebSocket outage, state kept', async t => {
  const { home, conn, live } = await liveHome(t)
  await callService(conn, 'input_select', 'select_option', { option: 'Night' }, { entity_id: 'input_select.house_mode' })
  let ready = 0
  conn.addEventListener('ready', () => { ready++ })
  await home.restart()
  await waitFor(() => ready === 1)
  t.equal(home.getState('input_select.house_mode')?.state, 'Night', 'state survives a restart')
  t.equal((await getStates(conn)).find(s => s.entity_id === 'input_select.house_mode')?.state, 'Night')

  home.faults.setWebSocketDown(true)
  await waitFor(() => !conn.connected)
  home.setState('input_text.welcome_message', 'changed while down')
  home.faults.setWebSocketDown(false)
  await waitFor(() => live.entities['input_text.welcome_message']?.state === 'changed while down')
  t.equal(ready, 2, 'reconnected once the proxy answered again')
})

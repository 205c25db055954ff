import t from 'tap'
import { callTool, connectClient, eventually, startHome, startServer, TEST_TOKEN } from '../helper.ts'

t.test('Home Assistant drops away mid-use and comes back', async t => {
  const home = await startHome(t)
  const server = await startServer(t, { home })
  const client = await connectClient(t, server, TEST_TOKEN, { inject: false })
  const light = home.entityIds().find(id => id.startsWith('light.')) as string

  const before = await callTool(client, 'ha_get_entity', { entity_id: light })
  t.notOk(before.isError, 'works while connected')

  home.faults.setWebSocketDown(true)
  await eventually(() => !server.app.services.ha.ready, 5000, 'the server to notice')
  const down = await callTool(client, 'ha_get_entity', { entity_id: light })
  t.ok(down.isError, 'a tool call fails while Home Assistant is away')
  t.equal(down.code, 'HAMCP_HA_NOT_CONNECTED')
  t.match(down.text, /not connected/i, 'with a clear message')
  const health = await (await fetch(`${server.url}/health`)).json() as { websocket: boolean }
  t.equal(health.websocket, false, '/health says the WebSocket is down')

  // The house keeps living while we are away.
  const newState = home.getState(light)?.state === 'on' ? 'off' : 'on'
  home.setState(light, newState, { ...home.getState(light)?.attributes })
  home.faults.setWebSocketDown(false)

  await eventually(() => server.app.services.ha.ready, 10_000, 'the server to reconnect by itself')
  const after = await callTool(client, 'ha_get_entity', { entity_id: light })
  t.notOk(after.isError, after.text)
  t.equal(after.json.state, newState, 'the change made while disconnected is seen, without a restart')
})

t.test('a dropped socket is re-established and live changes keep flowing', async t => {
  const home = await startHome(t)
  const server = await startServer(t, { home })
  const sensor = home.entityIds().find(id => id.startsWith('input_boolean.')) as string
  home.faults.dropConnections()
  await eventually(() => server.app.services.ha.ready, 10_000, 'reconnection')
  home.setState(sensor, 'on')
  await eventually(() => server.app.services.ha.states.get(sensor)?.state === 'on', 5000, 'the live map to follow')
  home.setState(sensor, 'off')
  await eventually(() => server.app.services.ha.states.get(sensor)?.state === 'off', 5000, 'the live map to follow again')
  t.pass('live map follows after reconnection')
})

t.test('auth refused on reconnect: keeps retrying instead of giving up', async t => {
  const home = await startHome(t)
  const server = await startServer(t, { home })
  home.faults.refuseAuth(2)
  home.faults.dropConnections()
  await eventually(() => server.app.services.ha.connection.state === 'auth_failed' || !server.app.services.ha.ready, 5000, 'the refusal')
  await eventually(() => server.app.services.ha.ready, 15_000, 'a fresh connection after the refusals')
  t.ok(server.app.services.ha.ready, 'connected again')
  t.match(server.logs.join(''), /refused the token/, 'the refusal is logged')
})

// A session is told, as MCP log messages, when Home Assistant's connection goes and comes back; the
// level the client sets with logging/setLevel filters them. Stateless requests declare no logging.
import t from 'tap'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { LoggingMessageNotificationSchema, type LoggingMessageNotification } from '@modelcontextprotocol/sdk/types.js'
import { connectClient, dropConnections, eventually, startHome, startServer, type TestServer } from '../helper.ts'

async function sessionClient (t: { teardown: (fn: () => unknown) => void }, server: TestServer): Promise<{ client: Client, logs: LoggingMessageNotification['params'][] }> {
  const client = new Client({ name: 'listener', version: '1.0.0' })
  const logs: LoggingMessageNotification['params'][] = []
  client.setNotificationHandler(LoggingMessageNotificationSchema, notification => { logs.push(notification.params) })
  await client.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${server.token}` } } }))
  t.teardown(async () => { await client.close() })
  return { client, logs }
}

t.test('a session hears that Home Assistant went away and came back', async t => {
  const home = await startHome(t)
  const server = await startServer(t, { home, options: { enable_sessions: true } })
  await server.app.services.home.ready()
  const { client, logs } = await sessionClient(t, server)
  t.ok(client.getServerCapabilities()?.logging, 'a session declares logging')
  await client.setLoggingLevel('info')
  // The notification stream (GET) carries messages not tied to a request.
  await eventually(() => server.app.services.sessions.registry.size === 1, 5000, 'the session to be open')

  await dropConnections(home, server.app.services.ha)
  await eventually(() => logs.some(log => log.level === 'notice'), 5000, 'the all-clear')
  const levels = logs.map(log => log.level)
  t.ok(levels.includes('warning') && levels.indexOf('warning') < levels.indexOf('notice'), `the warning, then the all-clear (${levels.join(', ')})`)
  const warning = logs.find(log => log.level === 'warning')
  t.equal(warning?.logger, 'home-assistant')
  t.match(String(warning?.data), /Lost the connection to Home Assistant/, 'says what happened')
  t.match(String(warning?.data), /HAMCP_HA_NOT_CONNECTED/, 'and what calls answer meanwhile')
  t.match(String(logs.find(log => log.level === 'notice')?.data), /connected again/)
})

t.test('the level a client sets filters the messages', async t => {
  const home = await startHome(t)
  const server = await startServer(t, { home, options: { enable_sessions: true } })
  await server.app.services.home.ready()
  const quiet = await sessionClient(t, server)
  await quiet.client.setLoggingLevel('error')
  const chatty = await sessionClient(t, server)
  await chatty.client.setLoggingLevel('debug')
  await dropConnections(home, server.app.services.ha)
  await eventually(() => chatty.logs.some(log => log.level === 'warning') && chatty.logs.some(log => log.level === 'notice'), 5000, 'the warning and the all-clear to the chatty session')
  t.same(quiet.logs, [], 'nothing below error reaches a session that asked for error')
})

t.test('stateless requests declare no logging', async t => {
  const server = await startServer(t, { home: await startHome(t) })
  const client = await connectClient(t, server)
  t.notOk(client.getServerCapabilities()?.logging, 'no log stream, no logging capability')
})

// The whole server on one injected clock (src/clock.ts): what a tool calls "now" and when the sweeps
// run follow it, not the wall clock.
import t from 'tap'
import { callTool, connectClient, fakeClock, startHome, startServer } from '../helper.ts'
import { listTools, openRawSession } from '../sessions/_raw.ts'

const MINUTE = 60_000
const NOW = Date.parse('2026-03-01T12:00:00Z')

t.test('a tool\'s "now" is the injected clock\'s', async t => {
  const home = await startHome(t)
  const clock = fakeClock(NOW)
  const server = await startServer(t, { home, app: { clock } })
  const client = await connectClient(t, server)

  const logbook = await callTool(client, 'ha_get_logbook', { hours: 2 })
  t.notOk(logbook.isError, logbook.text)
  t.same(logbook.json.window, { start: '2026-03-01T10:00:00Z', end: '2026-03-01T12:00:00Z' }, 'the default window ends at the clock\'s now')
  clock.advance(60 * MINUTE)
  const later = await callTool(client, 'ha_get_logbook', { hours: 2 })
  t.same(later.json.window, { start: '2026-03-01T11:00:00Z', end: '2026-03-01T13:00:00Z' }, 'and moves when the clock does')

  const light = home.entityIds().find(id => id.startsWith('light.')) as string
  const future = await callTool(client, 'ha_explain_event', { entity_id: light, at: '2026-03-01T13:30:00Z' })
  t.equal(future.code, 'HAMCP_INVALID_ARGUMENT', 'a time after the clock\'s now is "in the future", though the wall clock passed it long ago')
  t.match(future.text, /in the future/)
})

t.test('the idle-session sweep runs on the injected clock', async t => {
  const home = await startHome(t)
  const clock = fakeClock(NOW)
  const server = await startServer(t, { home, options: { enable_sessions: true }, app: { clock } })
  const quiet = await openRawSession(server.url, server.token)
  t.equal(server.app.services.sessions.registry.size, 1)

  clock.advance(29 * MINUTE)
  const used = await listTools(server.url, server.token, quiet)
  t.equal(used.status, 200, 'a session used within 30 minutes stays')
  await used.text()
  clock.advance(31 * MINUTE)
  // No sweep() by hand: the plugin's minute sweep fired when the clock passed it, and let the session go at once.
  t.equal(server.app.services.sessions.registry.size, 0, 'the sweep closed the idle session')
  t.equal((await listTools(server.url, server.token, quiet)).status, 404, 'its id is gone')
})

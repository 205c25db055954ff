import t from 'tap'
import { eventually, rpc, startHome, startServer } from '../helper.ts'
import { auth, INITIALIZE, listTools, openRawSession, sendRaw } from '../sessions/_raw.ts'

const MINUTE = 60_000

t.test('at most 16 sessions: idle ones make room, 503 only when all are active', async t => {
  let clock = 1_000_000
  const home = await startHome(t)
  const server = await startServer(t, { home, options: { enable_sessions: true }, app: { sessions: { now: () => clock } } })

  const ids: string[] = []
  for (let i = 0; i < 16; i++) ids.push(await openRawSession(server.url, server.token))
  t.equal(server.app.services.sessions.registry.size, 16)

  const full = await rpc(server.url, INITIALIZE, auth(server.token))
  t.equal(full.status, 503, 'a 17th session is refused while all 16 are active')
  t.match(await full.json(), { error: { code: -32000, data: { code: 'HAMCP_LIMIT_REACHED' } } })
  const stateless = await listTools(server.url, server.token)
  t.equal(stateless.status, 200, 'stateless requests are still served at the cap')
  await stateless.text()

  clock += MINUTE + 1000
  // Session 0 is used again, so session 1 becomes the least recently used idle one.
  const touched = await listTools(server.url, server.token, ids[0])
  t.equal(touched.status, 200)
  await touched.text()

  const room = await openRawSession(server.url, server.token)
  t.ok(room, 'the 17th initialize succeeds once some session has been idle for over a minute')
  t.equal(server.app.services.sessions.registry.size, 16, 'still at most 16')
  t.equal((await listTools(server.url, server.token, ids[1])).status, 404, 'the least recently used idle session was closed')
  const kept = await listTools(server.url, server.token, ids[0])
  t.equal(kept.status, 200, 'the recently used session was kept')
  await kept.text()
  const next = await listTools(server.url, server.token, ids[2])
  t.equal(next.status, 200, 'only one session was evicted')
  await next.text()
})

t.test('sessions idle for 30 minutes are swept, unless their client is listening', async t => {
  let clock = 5_000_000
  const home = await startHome(t)
  const server = await startServer(t, { home, options: { enable_sessions: true }, app: { sessions: { now: () => clock } } })
  const quiet = await openRawSession(server.url, server.token)
  const listener = await openRawSession(server.url, server.token)
  const stop = new AbortController()
  const stream = await sendRaw(server.url, 'GET', server.token, listener, stop.signal)
  t.equal(stream.status, 200)

  clock += 29 * MINUTE
  t.equal(await server.app.services.sessions.sweep(), 0, 'nothing is idle for 30 minutes yet')
  clock += 2 * MINUTE
  t.equal(await server.app.services.sessions.sweep(), 1, 'the quiet session expired')
  t.equal((await listTools(server.url, server.token, quiet)).status, 404, 'and its id is gone')
  t.ok(server.app.services.sessions.registry.get(listener), 'a session whose client holds its stream open is not idle')

  stop.abort()
  await t.rejects(stream.text())
  // The stream closing counts as use; 30 minutes later the session is idle.
  await eventually(() => !server.app.services.sessions.registry.listening(listener), 5000, 'the server to see the stream close')
  clock += 31 * MINUTE
  t.equal(await server.app.services.sessions.sweep(), 1, 'once its client stops listening it expires too')
  t.equal(server.app.services.sessions.registry.size, 0)
})

t.test('one token that never closes its sessions cannot take every session: each identity gets a fair share', async t => {
  const clock = 9_000_000
  const home = await startHome(t)
  const server = await startServer(t, { home, options: { enable_sessions: true }, app: { sessions: { now: () => clock } } })
  const { token: other } = await server.app.services.tokens.create({ name: 'tablet', scopes: ['read'] })

  const hog: string[] = []
  for (let i = 0; i < 16; i++) hog.push(await openRawSession(server.url, server.token))
  const refused = await rpc(server.url, INITIALIZE, auth(server.token))
  t.equal(refused.status, 503, 'the token holding all 16 gets no 17th')
  await refused.text()

  // No time passes: every session was used within the last minute, yet the other client gets in.
  const mine: string[] = []
  for (let i = 0; i < 8; i++) mine.push(await openRawSession(server.url, other))
  t.equal(server.app.services.sessions.registry.size, 16, 'still at most 16')
  t.same(Object.fromEntries(server.app.services.sessions.registry.counts()), { primary: 8, [server.app.services.sessions.registry.owner(mine[0]!)!]: 8 }, 'an even split')
  const works = await listTools(server.url, other, mine[0])
  t.equal(works.status, 200, 'the other client\'s session answers')
  await works.text()
  t.equal((await listTools(server.url, server.token, hog[0])).status, 404, 'the hog\'s least recently used session made room')
  const kept = await listTools(server.url, server.token, hog[15])
  t.equal(kept.status, 200, 'the hog keeps its fair share')
  await kept.text()

  const beyond = await rpc(server.url, INITIALIZE, auth(other))
  t.equal(beyond.status, 503, 'past its own share, the other client cannot take the hog\'s share in turn')
  await beyond.text()
})

// Every way a credential dies ends what it opened at once: its 2025 sessions with their GET streams,
// and its 2026-07-28 subscriptions/listen streams; nobody else's. Each case opens both kinds of
// stream with the credential, kills it, and checks no entity update reaches them and they ended.
import { request } from 'node:http'
import t from 'tap'
import type { Test } from 'tap'
import { eventually, fakeClock, rpc, startHome, startServer } from '../helper.ts'
import { startIngress } from '../ingress/_ingress.ts'
import { codeFor, exchange, postForm } from '../oauth/_oauth.ts'
import { eventStream, listen, metaFor, MODERN, type ListenStream } from '../modern.ts'
import { answerOf, auth, openRawSession, sendRaw } from '../sessions/_raw.ts'
import { ACCESS_TTL_MS } from '../../src/oauth/authorization-server.ts'

const NOW = Date.parse('2026-12-01T12:00:00Z')
const UI = { 'x-ha-mcp-ui': '1' }

interface Tokens { access_token: string, refresh_token: string }

t.test('a dead credential ends its sessions and streams at once', async t => {
  t.setTimeout(180_000)
  const home = await startHome(t)
  const clock = fakeClock(NOW)
  const server = await startServer(t, { home, options: { enable_sessions: true }, app: { clock } })
  const ingress = await startIngress(t, server)
  await server.app.services.home.ready()
  // Streams show they are live with changes of the light; the sentinel changes only after a kill.
  const [light, sentinel] = server.app.services.home.entities().filter(row => row.domain === 'light').map(row => row.entity_id)
  if (!light || !sentinel) throw new Error('the demo home lacks two lights')
  const uris = [`ha://entity/${light}`, `ha://entity/${sentinel}`]
  const sentinelUri = `ha://entity/${sentinel}`
  const opened: ListenStream[] = []
  t.teardown(() => { for (const stream of opened) stream.close() })

  let changes = 0
  /** A change, past the once-a-second throttle so that it goes out at once. */
  const change = (entityId = light): void => {
    clock.advance(1001)
    home.setState(entityId, `state-${++changes}`)
  }

  /**
   * A listen stream and a session (subscribed to both lights) with its GET stream, both opened with
   * `token`, each shown to deliver a change.
   */
  const streamsOf = async (token: string, name: string): Promise<{ listen: ListenStream, session: ListenStream, sessionId: string }> => {
    const listening = await listen(server.url, token, `listen-${name}`, uris)
    opened.push(listening)
    await listening.until(() => listening.seen.length >= 1, `${name}'s acknowledgement`)
    t.equal(listening.seen[0]?.method, 'notifications/subscriptions/acknowledged', `${name}'s listen stream is open`)
    const sessionId = await openRawSession(server.url, token)
    for (const uri of uris) {
      const subscribed = await rpc(server, { jsonrpc: '2.0', id: 2, method: 'resources/subscribe', params: { uri } }, auth(token, sessionId))
      t.same(answerOf(await subscribed.text()).result, {}, `${name}'s session subscribed to ${uri}`)
    }
    const aborted = new AbortController()
    const response = sendRaw(server.url, 'GET', token, sessionId, aborted.signal)
    await eventually(() => server.app.services.sessions.registry.listening(sessionId), 5000, `${name}'s session stream`)
    // Node sends an event stream's headers with its first event: a change opens it.
    change()
    const session = await eventStream(await response, aborted)
    opened.push(session)
    await session.until(() => session.updates().length >= 1, `${name}'s first session update`)
    await listening.until(() => listening.updates().length >= 1, `${name}'s first listen update`)
    return { listen: listening, session, sessionId }
  }

  // Someone else's streams, open all along: each case proves an update went out after the kill.
  const bystanderToken = (await server.app.services.tokens.create({ name: 'bystander', scopes: ['read'] })).token
  const bystander = await streamsOf(bystanderToken, 'bystander')
  const sentinelUpdates = (stream: ListenStream): number => stream.updates().filter(uri => uri === sentinelUri).length

  /** The victim's streams ended, and a change after the kill reached the bystander, not them. */
  const endedFor = async (t: Test, victim: { listen: ListenStream, session: ListenStream }): Promise<void> => {
    const before = { listen: sentinelUpdates(bystander.listen), session: sentinelUpdates(bystander.session) }
    change(sentinel)
    await bystander.listen.until(() => sentinelUpdates(bystander.listen) > before.listen, 'the bystander\'s listen update')
    await bystander.session.until(() => sentinelUpdates(bystander.session) > before.session, 'the bystander\'s session update')
    await t.resolves(victim.listen.ended(), 'the listen stream ended')
    await t.resolves(victim.session.ended(), 'the session\'s GET stream ended')
    t.equal(sentinelUpdates(victim.listen), 0, 'no update on the listen stream after the kill')
    t.equal(sentinelUpdates(victim.session), 0, 'nor on the session stream')
  }
  const sessionGone = (sessionId: string): boolean => server.app.services.sessions.registry.get(sessionId) === undefined
  const signIn = async (): Promise<{ clientId: string, tokens: Tokens, code: Awaited<ReturnType<typeof codeFor>> }> => {
    // A fresh registration window each time (ten registrations per address per ten minutes).
    clock.advance(10 * 60_000)
    const code = await codeFor(server.url, server.app.services.tokens.primary())
    const tokens = await (await exchange(server.url, code)).json() as Tokens
    return { clientId: code.clientId, tokens, code }
  }
  const refresh = async (clientId: string, refreshToken: string): Promise<Response> =>
    await postForm(`${server.url}/oauth/token`, { grant_type: 'refresh_token', refresh_token: refreshToken, client_id: clientId })
  // The 401s below count as failed logins from this address: they must not lock the test out.
  t.afterEach(() => { server.app.services.backoff.succeed('127.0.0.1') })

  t.test('refresh-token reuse revokes the grant', async t => {
    const { clientId, tokens } = await signIn()
    const rotated = await (await refresh(clientId, tokens.refresh_token)).json() as Tokens
    const victim = await streamsOf(rotated.access_token, 'rotated')
    t.equal((await refresh(clientId, tokens.refresh_token)).status, 400, 'the spent refresh token is refused')
    await endedFor(t, victim)
    t.ok(sessionGone(victim.sessionId), 'the session is closed')
  })

  t.test('RFC 7009 revocation of the refresh token ends the grant', async t => {
    const { clientId, tokens } = await signIn()
    const victim = await streamsOf(tokens.access_token, 'revoked')
    t.equal((await postForm(`${server.url}/oauth/revoke`, { token: tokens.refresh_token, client_id: clientId })).status, 200)
    await endedFor(t, victim)
    t.ok(sessionGone(victim.sessionId), 'the session is closed')
  })

  t.test('RFC 7009 revocation of one access token ends what that token opened, not its sibling\'s', async t => {
    const { clientId, tokens } = await signIn()
    const sibling = await (await refresh(clientId, tokens.refresh_token)).json() as Tokens
    const victim = await streamsOf(tokens.access_token, 'first access')
    const kept = await streamsOf(sibling.access_token, 'second access')
    t.equal((await postForm(`${server.url}/oauth/revoke`, { token: tokens.access_token, client_id: clientId })).status, 200)
    await endedFor(t, victim)
    await kept.listen.until(() => sentinelUpdates(kept.listen) > 0, 'the sibling\'s listen update')
    await kept.session.until(() => sentinelUpdates(kept.session) > 0, 'the sibling\'s session update')
    t.pass('the other access token of the same sign-in still streams')
    kept.listen.close()
    kept.session.close()
  })

  t.test('a replayed authorization code revokes what it gave', async t => {
    const { tokens, code } = await signIn()
    const victim = await streamsOf(tokens.access_token, 'replayed')
    t.equal((await exchange(server.url, code)).status, 400, 'the second exchange is refused')
    await endedFor(t, victim)
    t.ok(sessionGone(victim.sessionId), 'the session is closed')
  })

  t.test('an access token pushed out by later refreshes (a sign-in keeps its last five) ends its streams', async t => {
    const { clientId, tokens } = await signIn()
    const victim = await streamsOf(tokens.access_token, 'oldest access')
    let refreshToken = tokens.refresh_token
    let newest = tokens.access_token
    for (let i = 0; i < 5; i++) {
      const rotated = await (await refresh(clientId, refreshToken)).json() as Tokens
      refreshToken = rotated.refresh_token
      newest = rotated.access_token
    }
    t.equal((await rpc(server, { jsonrpc: '2.0', id: 1, method: 'tools/list' }, { authorization: `Bearer ${tokens.access_token}` })).status, 401, 'the oldest access token no longer works')
    await endedFor(t, victim)
    t.equal((await rpc(server, { jsonrpc: '2.0', id: 1, method: 'tools/list' }, { authorization: `Bearer ${newest}` })).status, 200, 'the newest does')
  })

  t.test('an access token that expires ends its streams when it does', async t => {
    const { clientId, tokens } = await signIn()
    const victim = await streamsOf(tokens.access_token, 'expiring')
    clock.advance(ACCESS_TTL_MS - 5000)
    const before = victim.listen.updates().length
    change()
    await victim.listen.until(() => victim.listen.updates().length > before, 'an update seconds before expiry')
    clock.advance(5000)
    await endedFor(t, victim)
    // The sign-in lives on: a refreshed token carries on the same session, with a new stream.
    const renewed = await (await refresh(clientId, tokens.refresh_token)).json() as Tokens
    await eventually(() => !server.app.services.sessions.registry.listening(victim.sessionId), 5000, 'the expired stream to be let go')
    const aborted = new AbortController()
    const again = sendRaw(server.url, 'GET', renewed.access_token, victim.sessionId, aborted.signal).catch(() => undefined)
    await eventually(() => server.app.services.sessions.registry.listening(victim.sessionId), 5000, 'a stream opened with the refreshed token')
    t.pass('the session takes a stream opened with the refreshed token')
    aborted.abort()
    await again
  })

  t.test('a sign-in without a refresh token ends with its last access token', async t => {
    clock.advance(10 * 60_000)
    // A client registered for authorization_code only gets no refresh token: its grant expires with its access token.
    const code = await codeFor(server.url, server.app.services.tokens.primary(), { grantTypes: ['authorization_code'] })
    const tokens = await (await exchange(server.url, code)).json() as Tokens
    t.notOk(tokens.refresh_token, 'no refresh token')
    const victim = await streamsOf(tokens.access_token, 'no refresh')
    clock.advance(ACCESS_TTL_MS)
    await endedFor(t, victim)
    // The OAuth sweep (every minute) finds the grant dead and ends it.
    clock.advance(60_000)
    await eventually(() => sessionGone(victim.sessionId), 5000, 'the session to close with its grant')
    t.pass('the session is closed')
  })

  t.test('revoking a sign-in on the Tokens tab', async t => {
    const { tokens } = await signIn()
    const victim = await streamsOf(tokens.access_token, 'panel sign-in')
    const grant = server.app.services.oauth.grants().at(-1)?.id as string
    t.equal((await ingress.inject({ method: 'DELETE', url: `/api/tokens/${grant}`, headers: UI })).statusCode, 200)
    await endedFor(t, victim)
    t.ok(sessionGone(victim.sessionId), 'the session is closed')
  })

  t.test('deleting a named token', async t => {
    const made = await ingress.inject({ method: 'POST', url: '/api/tokens', headers: { ...UI, 'content-type': 'application/json' }, payload: { name: 'tablet', scopes: ['read'] } })
    const victim = await streamsOf(made.json().token as string, 'named')
    t.equal((await ingress.inject({ method: 'DELETE', url: `/api/tokens/${made.json().entry.id as string}`, headers: UI })).statusCode, 200)
    await endedFor(t, victim)
    t.ok(sessionGone(victim.sessionId), 'the session is closed')
  })

  t.test('Regenerate of the primary token', async t => {
    const victim = await streamsOf(server.app.services.tokens.primary(), 'primary')
    const regenerated = await ingress.inject({ method: 'POST', url: '/api/token/regenerate', headers: { ...UI, 'content-type': 'application/json' }, payload: { confirm: true } })
    t.equal(regenerated.statusCode, 200, 'regenerated')
    await endedFor(t, victim)
    t.ok(sessionGone(victim.sessionId), 'the session is closed')
  })

  t.test('the bystander streamed through every case', async t => {
    t.equal(sentinelUpdates(bystander.listen), 10, 'every change after a kill reached its listen stream')
    t.equal(sentinelUpdates(bystander.session), 10, 'and its session stream')
    t.notOk(sessionGone(bystander.sessionId), 'its session is open')
  })
})

/**
 * A POST whose headers arrived (the bearer check passed) and whose body is still coming in: sent
 * raw, the body in two parts, so that the credential can die in between.
 */
async function trickled (url: string, token: string, body: object, headers: Record<string, string>, between: () => Promise<void>): Promise<{ status: number, text: string }> {
  const payload = Buffer.from(JSON.stringify(body))
  const target = new URL(`${url}/mcp`)
  return await new Promise((resolve, reject) => {
    const req = request({ host: target.hostname, port: target.port, path: target.pathname, method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'content-length': String(payload.length), ...headers } }, res => {
      let text = ''
      res.setEncoding('utf8')
      // A stream that opened is read only until its first message: that it opened is the finding.
      res.on('data', (chunk: string) => { text += chunk; if (res.headers['content-type']?.includes('event-stream')) res.destroy() })
      res.on('close', () => { resolve({ status: res.statusCode ?? 0, text }) })
    })
    req.on('error', reject)
    req.write(payload.subarray(0, 10))
    between().then(() => { req.end(payload.subarray(10)) }, reject)
  })
}

t.test('a request whose body arrives after its credential died is refused', async t => {
  const home = await startHome(t)
  const server = await startServer(t, { home, options: { allow_write: true } })
  await server.app.services.home.ready()
  const light = server.app.services.home.entities().find(row => row.domain === 'light' && row.state === 'off')?.entity_id
  if (!light) throw new Error('no light that is off in the demo home')
  const { tokens } = server.app.services
  /** Once the bearer check passed on the headers (the token's last use is stamped then), the token is revoked. */
  const revokeOnceChecked = async (id: string): Promise<void> => {
    await eventually(() => tokens.list().find(token => token.id === id)?.last_used_at !== null, 5000, 'the bearer check on the headers')
    t.ok(await tokens.revoke(id), 'revoked while the body is on its way')
  }

  t.test('a subscriptions/listen stream', async t => {
    const made = await tokens.create({ name: 'sleeper listen', scopes: ['read'] })
    const answer = await trickled(server.url, made.token, {
      jsonrpc: '2.0', id: 'sleeper', method: 'subscriptions/listen', params: { notifications: { resourceSubscriptions: [`ha://entity/${light}`] }, _meta: metaFor() }
    }, { 'mcp-protocol-version': MODERN, 'mcp-method': 'subscriptions/listen' }, async () => { await revokeOnceChecked(made.entry.id) })
    t.equal(answer.status, 401, answer.text.slice(0, 200))
    t.notMatch(answer.text, /acknowledged/, 'no stream opened')
  })

  t.test('a write', async t => {
    const made = await tokens.create({ name: 'sleeper write', scopes: ['read', 'write'] })
    home.clearServiceCalls()
    const answer = await trickled(server.url, made.token, {
      jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'ha_call_service', arguments: { domain: 'light', service: 'turn_on', target: { entity_id: light } } }
    }, {}, async () => { await revokeOnceChecked(made.entry.id) })
    t.equal(answer.status, 401, answer.text.slice(0, 200))
    t.match(JSON.parse(answer.text), { error: { data: { code: 'HAMCP_INVALID_TOKEN' } } })
    t.same(home.serviceCalls, [], 'nothing reached the house')
  })
})

import { readFileSync, statSync } from 'node:fs'
import t from 'tap'
import { startHome, startServer, type TestServer } from '../helper.ts'
import { startIngress } from '../ingress/_ingress.ts'
import { pkce, signInClock } from './_oauth.ts'

/** Sign-in that one device on the LAN cannot lock out, and a store that stays small (issue 15 items 7-9). */

const HA_REDIRECT = 'https://my.home-assistant.io/redirect/oauth'
const HA_PAYLOAD = { redirect_uris: [HA_REDIRECT], token_endpoint_auth_method: 'client_secret_post', grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'], client_name: 'Home Assistant', scope: 'read write manage camera', application_type: 'web' }

async function registerFrom (server: TestServer, address: string, metadata: unknown): Promise<{ status: number, body: any }> {
  const answer = await server.app.inject({ method: 'POST', url: '/oauth/register', remoteAddress: address, headers: { 'content-type': 'application/json' }, payload: JSON.stringify(metadata) })
  return { status: answer.statusCode, body: answer.json() }
}

function authorizePath (clientId: string, redirectUri: string, extra: Record<string, string> = {}): string {
  return `/oauth/authorize?${new URLSearchParams({ response_type: 'code', client_id: clientId, redirect_uri: redirectUri, state: 's', code_challenge: pkce().challenge, code_challenge_method: 'S256', ...extra }).toString()}`
}

async function authorizeFrom (server: TestServer, address: string, path: string): Promise<{ status: number, requestId?: string, shortCode?: string, error?: string | null, html: string }> {
  const answer = await server.app.inject({ method: 'GET', url: path, remoteAddress: address })
  const location = answer.headers.location
  return {
    status: answer.statusCode,
    html: answer.body,
    requestId: /name="request" value="([^"]+)"/.exec(answer.body)?.[1],
    shortCode: /data-testid="short-code">([^<]+)</.exec(answer.body)?.[1],
    error: typeof location === 'string' ? new URL(location).searchParams.get('error') : undefined
  }
}

t.test('pending sign-ins: capped per peer, a reload reuses its request, a finished sign-in leaves the list', async t => {
  const home = await startHome(t)
  const clock = signInClock()
  const server = await startServer(t, { home, app: { oauth: { now: clock.now } } })
  const ingress = await startIngress(t, server)
  const waiting = async (): Promise<Array<{ short_code: string, client_name: string }>> => (await ingress.inject({ method: 'GET', url: '/api/sign-ins' })).json().waiting

  const redirect = 'http://127.0.0.1:41001/cb'
  const attacker = await registerFrom(server, '10.0.0.66', { redirect_uris: [redirect], token_endpoint_auth_method: 'none', client_name: 'Flood' })
  const statuses: Array<string | number> = []
  for (let i = 0; i < 60; i++) {
    const opened = await authorizeFrom(server, '10.0.0.66', authorizePath(attacker.body.client_id, redirect, { state: `flood-${i}` }))
    statuses.push(opened.status === 200 ? 200 : opened.error ?? opened.status)
  }
  t.same(statuses.slice(0, 10), Array(10).fill(200), 'ten sign-ins wait from one address')
  t.same(statuses.slice(10), Array(50).fill('temporarily_unavailable'), 'then that address is told to wait')

  // Everyone else still signs in.
  const app = await registerFrom(server, '10.0.0.7', { redirect_uris: [redirect], token_endpoint_auth_method: 'none', client_name: 'Kitchen tablet' })
  const verifier = pkce()
  const path = authorizePath(app.body.client_id, redirect, { code_challenge: verifier.challenge, state: 'tablet' })
  const first = await authorizeFrom(server, '10.0.0.7', path)
  t.equal(first.status, 200, 'another peer gets its consent page')

  // Reloading the same authorize URL is the same sign-in: same code, one row in the panel.
  const reloaded = await authorizeFrom(server, '10.0.0.7', path)
  t.equal(reloaded.requestId, first.requestId, 'a reload reuses its pending request')
  t.equal(reloaded.shortCode, first.shortCode)
  t.equal((await waiting()).filter(r => r.client_name === 'Kitchen tablet').length, 1, 'the Sign-ins tab lists it once')

  // The app restarted its sign-in (a new PKCE challenge) and then finished the first one.
  const restarted = await authorizeFrom(server, '10.0.0.7', authorizePath(app.body.client_id, redirect, { state: 'tablet-2' }))
  t.not(restarted.shortCode, first.shortCode)
  t.equal((await waiting()).filter(r => r.client_name === 'Kitchen tablet').length, 2)
  const approved = await server.app.inject({ method: 'POST', url: '/oauth/authorize', remoteAddress: '10.0.0.7', headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: new URLSearchParams({ request: first.requestId ?? '', api_token: server.token, action: 'allow', level: 'read' }).toString() })
  t.equal(approved.statusCode, 303)
  const code = new URL(approved.headers.location as string).searchParams.get('code') ?? ''
  const exchanged = await server.app.inject({ method: 'POST', url: '/oauth/token', remoteAddress: '10.0.0.7', headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: new URLSearchParams({ grant_type: 'authorization_code', code, redirect_uri: redirect, code_verifier: verifier.verifier, client_id: app.body.client_id }).toString() })
  t.equal(exchanged.statusCode, 200)
  t.same((await waiting()).filter(r => r.client_name === 'Kitchen tablet'), [], 'once the client signed in, none of its requests keeps an Approve button')
  const late = await ingress.inject({ method: 'POST', url: `/api/sign-ins/${restarted.requestId ?? ''}`, headers: { 'x-ha-mcp-ui': '1', 'content-type': 'application/json' }, payload: { action: 'approve', level: 'read' } })
  t.equal(late.statusCode, 404, 'the duplicate cannot be approved afterwards')
  const closed = await server.app.inject({ method: 'GET', url: `/oauth/authorize/status?request=${encodeURIComponent(restarted.requestId ?? '')}` })
  t.same(closed.json(), { status: 'finished' }, 'its consent page is told the app finished signing in elsewhere')
  t.equal(server.app.services.oauth?.grants().length, 1, 'one sign-in, one grant')

  // The flood's requests expire after ten minutes and the address may try again.
  clock.advance(10 * 60_000)
  t.equal((await authorizeFrom(server, '10.0.0.66', authorizePath(attacker.body.client_id, redirect, { state: 'later' }))).status, 200)
  t.same(home.serviceCalls, [], 'nothing reached the house')
})

t.test('registrations: bounded fields, capped per peer, unused ones expire within the hour; Home Assistant always registers', async t => {
  const home = await startHome(t)
  const clock = signInClock()
  const server = await startServer(t, { home, app: { oauth: { now: clock.now } } })
  const file = (): string => readFileSync(server.app.services.oauth?.file ?? '', 'utf8')

  // One address: ten per ten minutes, and at most twenty waiting unused.
  const one: number[] = []
  for (let window = 0; window < 3; window++) {
    for (let i = 0; i < 11; i++) one.push((await registerFrom(server, '127.0.0.2', { redirect_uris: [`http://127.0.0.1:${5000 + i}/cb`], token_endpoint_auth_method: 'none' })).status)
    clock.advance(10 * 60_000)
  }
  t.same(one.map(s => s === 201), [...Array(10).fill(true), false, ...Array(10).fill(true), false, ...Array(11).fill(false)])
  t.same(one.filter(s => s !== 201), Array(13).fill(429))

  // Eleven more loopback addresses register as fast as they may.
  let created = 0
  for (let window = 0; window < 2; window++) {
    for (let peer = 3; peer <= 13; peer++) {
      for (let i = 0; i < 10; i++) {
        if ((await registerFrom(server, `127.0.0.${peer}`, { redirect_uris: [`http://127.0.0.1:${5000 + i}/cb`], token_endpoint_auth_method: 'none', client_name: `flood ${peer}` })).status === 201) created++
      }
    }
    clock.advance(10 * 60_000)
  }
  t.equal(created, 220)
  const ha = await registerFrom(server, '127.0.0.1', HA_PAYLOAD)
  t.equal(ha.status, 201, 'Home Assistant\'s own registration is never refused because of other peers')
  t.ok(JSON.parse(file()).clients.length <= 201, 'the store holds at most 200 unused registrations (plus this one)')

  // One oversized registration: refused, nothing stored.
  const huge = await server.app.inject({ method: 'POST', url: '/oauth/register', remoteAddress: '127.0.0.20', headers: { 'content-type': 'application/json' }, payload: JSON.stringify({ redirect_uris: Array.from({ length: 10 }, (_, i) => `https://x.example/${String(i).repeat(90_000)}`), client_name: 'n'.repeat(50_000) }) })
  t.equal(huge.statusCode, 413, 'an 879 KB registration is refused before it is read')
  const refusals: Array<[string, unknown]> = [
    ['client_name', { redirect_uris: ['https://x.example/cb'], client_name: 'n'.repeat(50_000) }],
    ['redirect URI length', { redirect_uris: [`https://x.example/${'a'.repeat(2100)}`] }],
    ['redirect URI count', { redirect_uris: Array.from({ length: 11 }, (_, i) => `https://x.example/${i}`) }],
    ['total size', { redirect_uris: Array.from({ length: 10 }, (_, i) => `https://x.example/${String(i).repeat(1900)}`) }],
    ['grant_types', { redirect_uris: ['https://x.example/cb'], grant_types: Array(20).fill('authorization_code') }],
    ['scope', { redirect_uris: ['https://x.example/cb'], scope: 'read '.repeat(100) }]
  ]
  for (const [what, metadata] of refusals) {
    const answer = await registerFrom(server, '127.0.0.21', metadata)
    t.equal(answer.status, 400, what)
    t.match(answer.body.error, /^invalid_(client_metadata|redirect_uri)$/, what)
  }
  t.ok(statSync(server.app.services.oauth?.file ?? '').size < 100_000, `oauth.json stays small (${statSync(server.app.services.oauth?.file ?? '').size} bytes)`)
  t.notOk(file().includes('nnnnnnnnnn'), 'no oversized field reached the store')

  // An hour later every registration no sign-in used is gone.
  clock.advance(61 * 60_000)
  await server.app.services.oauth?.sweep()
  t.same(JSON.parse(file()).clients, [], 'unused registrations expired within the hour')
  t.equal((await registerFrom(server, '127.0.0.2', HA_PAYLOAD)).status, 201, 'and the flooding address may register again')
})

t.test('loopback redirect URIs: only the port may vary; fragments and user info are refused', async t => {
  const home = await startHome(t)
  const server = await startServer(t, { home })
  const registered = 'http://127.0.0.1:41001/cb'
  const client = await registerFrom(server, '127.0.0.1', { redirect_uris: [registered], token_endpoint_auth_method: 'none' })
  const cases: Array<[string, number]> = [
    [registered, 200],
    ['http://127.0.0.1:50123/cb', 200],
    ['http://127.0.0.1/cb', 200],
    [`${registered}#x`, 400],
    ['http://evil.example@127.0.0.1:41001/cb', 400],
    ['http://user:pw@127.0.0.1:41001/cb', 400],
    ['http://127.0.0.1:41001/cb/../cb', 400],
    ['http://127.0.0.1:41001/CB', 400],
    ['http://localhost:41001/cb', 400],
    ['http://127.0.0.1:41001/cb?x=1', 400]
  ]
  for (const [uri, status] of cases) {
    const opened = await authorizeFrom(server, '127.0.0.1', authorizePath(client.body.client_id, uri))
    t.equal(opened.status, status, uri)
    if (status === 400) t.match(opened.html, /redirect_uri does not match/, uri)
  }
  for (const uri of ['http://evil.example@127.0.0.1:41001/cb', 'https://user@app.example/cb']) {
    const refused = await registerFrom(server, '127.0.0.1', { redirect_uris: [uri] })
    t.equal(refused.body.error, 'invalid_redirect_uri', `registering ${uri}`)
  }
})

// One device on an IPv6 network holds a whole /64 and can speak from any address in it: the per-peer
// caps on registrations and pending sign-ins must count that /64 as one peer, or it pushes Home
// Assistant's own registration and sign-in out of the store by sheer number of addresses.
/** An address of the one attacker's /64. */
const inTheSlash64 = (i: number): string => `2001:db8:1:2::${i.toString(16)}`

t.test('a /64 is one peer: registrations', async t => {
  const home = await startHome(t)
  const clock = signInClock()
  const server = await startServer(t, { home, app: { oauth: { now: clock.now } } })
  const ha = await registerFrom(server, '127.0.0.1', HA_PAYLOAD)
  t.equal(ha.status, 201)
  const statuses: number[] = []
  for (let i = 1; i <= 210; i++) statuses.push((await registerFrom(server, inTheSlash64(i), { redirect_uris: [`http://127.0.0.1:${5000 + i}/cb`], token_endpoint_auth_method: 'none' })).status)
  t.equal(statuses.filter(s => s === 201).length, 10, 'ten per window for the whole /64')
  t.ok(server.app.services.oauth?.clients.get(ha.body.client_id), 'Home Assistant\'s registration was not pushed out')
  const mapped = await registerFrom(server, '::ffff:127.0.0.9', { redirect_uris: ['http://127.0.0.1:6000/cb'], token_endpoint_auth_method: 'none' })
  t.equal(mapped.status, 201, 'an IPv4-mapped address is its IPv4 peer')
})

t.test('a /64 is one peer: pending sign-ins', async t => {
  const home = await startHome(t)
  const server = await startServer(t, { home })
  const ha = await registerFrom(server, '127.0.0.1', HA_PAYLOAD)
  const haPath = authorizePath(ha.body.client_id, HA_REDIRECT, { state: 'ha-state' })
  const mine = await authorizeFrom(server, '127.0.0.1', haPath)
  t.ok(mine.requestId)
  const app = await registerFrom(server, '127.0.0.3', { redirect_uris: ['http://127.0.0.1:7000/cb'], token_endpoint_auth_method: 'none' })
  let opened = 0
  for (let i = 1; i <= 520; i++) if ((await authorizeFrom(server, inTheSlash64(i), authorizePath(app.body.client_id, 'http://127.0.0.1:7000/cb', { state: `s${i}` }))).requestId) opened++
  t.equal(opened, 10, 'ten waiting sign-ins for the whole /64')
  const again = await authorizeFrom(server, '127.0.0.1', haPath)
  t.equal(again.requestId, mine.requestId, 'Home Assistant\'s waiting sign-in is still the same one')
})

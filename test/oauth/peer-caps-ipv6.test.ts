// One device on an IPv6 network holds a whole /64 and can speak from any address in it: the per-peer
// caps on registrations and pending sign-ins must count that /64 as one peer, or it pushes Home
// Assistant's own registration and sign-in out of the store by sheer number of addresses.
import t from 'tap'
import { startHome, startServer, type TestServer } from '../helper.ts'
import { pkce, signInClock } from './_oauth.ts'

const HA_REDIRECT = 'https://my.home-assistant.io/redirect/oauth'
const HA_PAYLOAD = { redirect_uris: [HA_REDIRECT], token_endpoint_auth_method: 'client_secret_post', grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'], client_name: 'Home Assistant', scope: 'read write manage camera', application_type: 'web' }
const attacker = (i: number): string => `2001:db8:1:2::${i.toString(16)}`

async function registerFrom (server: TestServer, address: string, metadata: unknown): Promise<{ status: number, body: any }> {
  const answer = await server.app.inject({ method: 'POST', url: '/oauth/register', remoteAddress: address, headers: { 'content-type': 'application/json' }, payload: JSON.stringify(metadata) })
  return { status: answer.statusCode, body: answer.json() }
}

const CHALLENGE = pkce().challenge

async function authorizeFrom (server: TestServer, address: string, clientId: string, redirectUri: string, state: string): Promise<{ status: number, requestId?: string }> {
  const query = new URLSearchParams({ response_type: 'code', client_id: clientId, redirect_uri: redirectUri, state, code_challenge: CHALLENGE, code_challenge_method: 'S256' })
  const answer = await server.app.inject({ method: 'GET', url: `/oauth/authorize?${query.toString()}`, remoteAddress: address })
  return { status: answer.statusCode, requestId: /name="request" value="([^"]+)"/.exec(answer.body)?.[1] }
}

t.test('a /64 is one peer: registrations', async t => {
  const home = await startHome(t)
  const clock = signInClock()
  const server = await startServer(t, { home, app: { oauth: { now: clock.now } } })
  const ha = await registerFrom(server, '127.0.0.1', HA_PAYLOAD)
  t.equal(ha.status, 201)
  const statuses: number[] = []
  for (let i = 1; i <= 210; i++) statuses.push((await registerFrom(server, attacker(i), { redirect_uris: [`http://127.0.0.1:${5000 + i}/cb`], token_endpoint_auth_method: 'none' })).status)
  t.equal(statuses.filter(s => s === 201).length, 10, 'ten per window for the whole /64')
  t.ok(server.app.services.oauth?.clients.get(ha.body.client_id), 'Home Assistant\'s registration was not pushed out')
  const mapped = await registerFrom(server, '::ffff:127.0.0.9', { redirect_uris: ['http://127.0.0.1:6000/cb'], token_endpoint_auth_method: 'none' })
  t.equal(mapped.status, 201, 'an IPv4-mapped address is its IPv4 peer')
})

t.test('a /64 is one peer: pending sign-ins', async t => {
  const home = await startHome(t)
  const server = await startServer(t, { home })
  const ha = await registerFrom(server, '127.0.0.1', HA_PAYLOAD)
  const mine = await authorizeFrom(server, '127.0.0.1', ha.body.client_id, HA_REDIRECT, 'ha-state')
  t.ok(mine.requestId)
  const app = await registerFrom(server, '127.0.0.3', { redirect_uris: ['http://127.0.0.1:7000/cb'], token_endpoint_auth_method: 'none' })
  let opened = 0
  for (let i = 1; i <= 520; i++) if ((await authorizeFrom(server, attacker(i), app.body.client_id, 'http://127.0.0.1:7000/cb', `s${i}`)).requestId) opened++
  t.equal(opened, 10, 'ten waiting sign-ins for the whole /64')
  const again = await authorizeFrom(server, '127.0.0.1', ha.body.client_id, HA_REDIRECT, 'ha-state')
  t.equal(again.requestId, mine.requestId, 'Home Assistant\'s waiting sign-in is still the same one')
})

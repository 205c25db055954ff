import t from 'tap'
import type { Test } from 'tap'
import { rpc, startHome, startServer, type TestServer } from '../helper.ts'
import { authorizeUrl, codeFor, exchange, openConsent, pkce, postForm, register, signInClock } from './_oauth.ts'

const LIST = { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }

async function errorOf (response: Response): Promise<{ status: number, error: string }> {
  const body = await response.json() as { error: string }
  return { status: response.status, error: body.error }
}

async function reachesTools (server: TestServer, accessToken: string): Promise<boolean> {
  return (await rpc(server.url, LIST, { authorization: `Bearer ${accessToken}` })).status === 200
}

async function refresh (server: TestServer, clientId: string, refreshToken: string, extra: Record<string, string> = {}): Promise<Response> {
  return await postForm(`${server.url}/oauth/token`, { grant_type: 'refresh_token', refresh_token: refreshToken, client_id: clientId, ...extra })
}

/** Every refusal answers with the RFC's code and nothing reaches the house. */
t.test('OAuth refusals', async t => {
  const home = await startHome(t)
  const clock = signInClock()
  const server = await startServer(t, { home, options: { allow_write: true }, app: { oauth: { now: clock.now } } })
  // Each case starts in a fresh registration window (ten registrations per address per ten minutes).
  t.beforeEach(() => { clock.advance(10 * 60_000) })

  t.test('a wrong PKCE verifier', async t => {
    const signIn = await codeFor(server.url, server.token)
    t.same(await errorOf(await exchange(server.url, signIn, { code_verifier: pkce().verifier })), { status: 400, error: 'invalid_grant' })
    t.same(await errorOf(await exchange(server.url, signIn, { code_verifier: '' })), { status: 400, error: 'invalid_request' })
  })

  t.test('a reused code ends what the first exchange gave', async t => {
    const signIn = await codeFor(server.url, server.token)
    const first = await (await exchange(server.url, signIn)).json() as { access_token: string, refresh_token: string }
    t.ok(await reachesTools(server, first.access_token))
    t.same(await errorOf(await exchange(server.url, signIn)), { status: 400, error: 'invalid_grant' })
    t.notOk(await reachesTools(server, first.access_token), 'the tokens of the first exchange are revoked')
    t.same(await errorOf(await refresh(server, signIn.clientId, first.refresh_token)), { status: 400, error: 'invalid_grant' })
  })

  t.test('an expired code (60 s)', async t => {
    const signIn = await codeFor(server.url, server.token)
    clock.advance(60_001)
    t.same(await errorOf(await exchange(server.url, signIn)), { status: 400, error: 'invalid_grant' })
  })

  t.test('a redirect mismatch: never redirected at authorize, invalid_grant at the token endpoint', async t => {
    const signIn = await codeFor(server.url, server.token, { redirectUri: 'http://127.0.0.1:4000/callback' })
    const elsewhere = await openConsent(authorizeUrl(server.url, { ...signIn, redirectUri: 'https://evil.example/callback' }))
    t.equal(elsewhere.status, 400)
    t.equal(elsewhere.location, null, 'no redirect to an unregistered URI')
    t.match(elsewhere.html, /redirect_uri does not match/)
    const otherPath = await openConsent(authorizeUrl(server.url, { ...signIn, redirectUri: 'http://127.0.0.1:4000/other' }))
    t.equal(otherPath.status, 400)
    const otherPort = await openConsent(authorizeUrl(server.url, { ...signIn, redirectUri: 'http://127.0.0.1:5999/callback' }))
    t.equal(otherPort.status, 200, 'a loopback redirect may use any port (RFC 8252)')
    t.same(await errorOf(await exchange(server.url, signIn, { redirect_uri: 'http://127.0.0.1:4000/other' })), { status: 400, error: 'invalid_grant' })
  })

  t.test('a reused refresh token revokes the whole family', async t => {
    const signIn = await codeFor(server.url, server.token)
    const first = await (await exchange(server.url, signIn)).json() as { access_token: string, refresh_token: string }
    const second = await (await refresh(server, signIn.clientId, first.refresh_token)).json() as { access_token: string, refresh_token: string }
    t.ok(await reachesTools(server, second.access_token))
    t.same(await errorOf(await refresh(server, signIn.clientId, first.refresh_token)), { status: 400, error: 'invalid_grant' })
    t.notOk(await reachesTools(server, second.access_token), 'the rotated access token is gone too')
    t.notOk(await reachesTools(server, first.access_token))
    t.same(await errorOf(await refresh(server, signIn.clientId, second.refresh_token)), { status: 400, error: 'invalid_grant' }, 'and the rotated refresh token')
  })

  t.test('a token for another resource', async t => {
    const foreign = await openConsent(authorizeUrl(server.url, { ...(await codeFor(server.url, server.token)), pkce: pkce() }, { resource: 'https://other.example/mcp' }))
    t.equal(foreign.status, 303)
    t.equal(new URL(foreign.location ?? '').searchParams.get('error'), 'invalid_target')
    const signIn = await codeFor(server.url, server.token, { extra: { resource: `${server.url}/mcp` } })
    t.same(await errorOf(await exchange(server.url, signIn, { resource: 'https://other.example/mcp' })), { status: 400, error: 'invalid_target' })
    const bound = await (await exchange(server.url, signIn, { resource: `${server.url}/mcp` })).json() as { access_token: string }
    t.ok(await reachesTools(server, bound.access_token))
    // The same token presented to this server under another name (another resource) is refused.
    const renamed = await server.app.inject({ method: 'POST', url: '/mcp', headers: { host: 'other-name:9583', authorization: `Bearer ${bound.access_token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, payload: LIST })
    t.equal(renamed.statusCode, 401)
    t.match(renamed.headers['www-authenticate'], /error="invalid_token"/)
  })

  t.test('a revoked grant (RFC 7009, and from the Tokens tab)', async t => {
    const signIn = await codeFor(server.url, server.token)
    const tokens = await (await exchange(server.url, signIn)).json() as { access_token: string, refresh_token: string }
    const revoked = await postForm(`${server.url}/oauth/revoke`, { token: tokens.refresh_token, client_id: signIn.clientId })
    t.equal(revoked.status, 200)
    t.notOk(await reachesTools(server, tokens.access_token), 'revoking the refresh token ends the access token at once')
    t.same(await errorOf(await refresh(server, signIn.clientId, tokens.refresh_token)), { status: 400, error: 'invalid_grant' })

    const other = await (await exchange(server.url, await codeFor(server.url, server.token))).json() as { access_token: string }
    const grant = server.app.services.oauth?.grants().at(-1)
    t.ok(await server.app.services.oauth?.revokeGrant(grant?.id ?? '', 'test'))
    t.notOk(await reachesTools(server, other.access_token))
  })

  t.test('consent denied: access_denied with the state', async t => {
    const registered = await (await register(server.url, { redirect_uris: ['http://127.0.0.1:4100/cb'], token_endpoint_auth_method: 'none' })).json() as { client_id: string }
    const page = await openConsent(authorizeUrl(server.url, { clientId: registered.client_id, redirectUri: 'http://127.0.0.1:4100/cb', pkce: pkce() }))
    const denied = await postForm(`${server.url}/oauth/authorize`, { request: page.requestId ?? '', action: 'deny' })
    t.equal(denied.status, 303)
    const back = new URL(denied.headers.get('location') ?? '')
    t.equal(back.searchParams.get('error'), 'access_denied')
    t.equal(back.searchParams.get('state'), 'state-123')
    t.notOk(back.searchParams.get('code'))
    const again = await postForm(`${server.url}/oauth/authorize`, { request: page.requestId ?? '', api_token: server.token, action: 'allow' })
    t.equal(again.status, 400, 'an answered request cannot be approved afterwards')
  })

  t.test('a consent request expires after 10 minutes; a missing PKCE challenge goes back to the client', async t => {
    const registered = await (await register(server.url, { redirect_uris: ['http://127.0.0.1:4200/cb'], token_endpoint_auth_method: 'none' })).json() as { client_id: string }
    const sign = { clientId: registered.client_id, redirectUri: 'http://127.0.0.1:4200/cb', pkce: pkce() }
    const page = await openConsent(authorizeUrl(server.url, sign))
    clock.advance(10 * 60_000)
    const late = await postForm(`${server.url}/oauth/authorize`, { request: page.requestId ?? '', api_token: server.token, action: 'allow' })
    t.equal(late.status, 400)
    const plain = await openConsent(authorizeUrl(server.url, sign, { code_challenge_method: 'plain' }))
    t.equal(plain.status, 303, plain.html.slice(0, 300))
    t.equal(new URL(plain.location ?? '').searchParams.get('error'), 'invalid_request')
  })

  t.test('an unknown client', async t => {
    t.same(await errorOf(await postForm(`${server.url}/oauth/token`, { grant_type: 'authorization_code', code: 'x', code_verifier: pkce().verifier, client_id: 'nobody', redirect_uri: 'http://127.0.0.1/cb' })), { status: 401, error: 'invalid_client' })
    const page = await openConsent(authorizeUrl(server.url, { clientId: 'nobody', redirectUri: 'https://evil.example/cb', pkce: pkce() }))
    t.equal(page.status, 400)
    t.equal(page.location, null)
    const confidential = await (await register(server.url, { redirect_uris: ['https://app.example/cb'], token_endpoint_auth_method: 'client_secret_basic' })).json() as { client_id: string }
    const wrongSecret = await postForm(`${server.url}/oauth/token`, { grant_type: 'refresh_token', refresh_token: 'x' }, { authorization: `Basic ${Buffer.from(`${confidential.client_id}:wrong`).toString('base64')}` })
    t.same(await errorOf(wrongSecret), { status: 401, error: 'invalid_client' })
  })

  t.test('guessing the token on the consent page meets the per-address backoff', async t => {
    const registered = await (await register(server.url, { redirect_uris: ['http://127.0.0.1:4300/cb'], token_endpoint_auth_method: 'none' })).json() as { client_id: string }
    const page = await openConsent(authorizeUrl(server.url, { clientId: registered.client_id, redirectUri: 'http://127.0.0.1:4300/cb', pkce: pkce() }))
    server.app.services.backoff.succeed('127.0.0.1')
    const statuses: number[] = []
    for (let i = 0; i < 7; i++) statuses.push((await postForm(`${server.url}/oauth/authorize`, { request: page.requestId ?? '', api_token: `guess-${i}`, action: 'allow' })).status)
    t.same(statuses.slice(0, 5), [401, 401, 401, 401, 401])
    t.equal(statuses.at(-1), 429, 'then blocked')
    server.app.services.backoff.succeed('127.0.0.1')
  })

  // Last: it uses up this address's registrations.
  t.test('a registration flood', async (t: Test) => {
    const statuses: number[] = []
    for (let i = 0; i < 12; i++) statuses.push((await register(server.url, { redirect_uris: [`http://127.0.0.1:${5000 + i}/cb`], token_endpoint_auth_method: 'none' })).status)
    t.equal(statuses.at(-1), 429)
    const refused = await register(server.url, { redirect_uris: ['http://127.0.0.1:6000/cb'] })
    t.same(await errorOf(refused), { status: 429, error: 'temporarily_unavailable' })
    t.ok(refused.headers.get('retry-after'))
    clock.advance(10 * 60_000)
    t.equal((await register(server.url, { redirect_uris: ['http://127.0.0.1:6001/cb'], token_endpoint_auth_method: 'none' })).status, 201, 'the window passes')
  })

  t.test('nothing reached the house', async t => {
    t.same(home.serviceCalls, [], 'the demo recorded no service call')
  })
})

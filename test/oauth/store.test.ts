import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import t from 'tap'
import type { Revocation } from '../../src/auth/revocations.ts'
import { ACCESS_TTL_MS, AuthorizationServer, REFRESH_TTL_MS } from '../../src/oauth/authorization-server.ts'
import { tempDataDir, type FakeClock } from '../helper.ts'
import { pkce, signInClock } from './_oauth.ts'

const HOST = '127.0.0.1:9583'
const ours = (resource: string): boolean => resource === `http://${HOST}/mcp`

function serverAt (dataDir: string, clock: FakeClock, logs: string[] = [], revocations?: Revocation[]): AuthorizationServer {
  return new AuthorizationServer({
    dataDir,
    now: clock.now,
    log: { error: m => logs.push(`error ${m}`), warn: m => logs.push(`warn ${m}`) },
    ...(revocations ? { revocations: { announce: (r: Revocation) => { revocations.push(r) } } } : {})
  })
}

async function signIn (server: AuthorizationServer, method: 'none' | 'client_secret_basic' = 'none'): Promise<{ clientId: string, secret?: string, access: string, refresh: string }> {
  const registered = await server.clients.register({ redirect_uris: ['http://127.0.0.1:7000/cb'], token_endpoint_auth_method: method, grant_types: ['authorization_code', 'refresh_token'], client_name: 'Kitchen tablet' }, '10.0.0.9')
  const clientId = registered.client_id as string
  const secret = registered.client_secret as string | undefined
  const { verifier, challenge } = pkce()
  const request = server.requests.open({ params: { client_id: clientId, redirect_uri: 'http://127.0.0.1:7000/cb', response_type: 'code', code_challenge: challenge, code_challenge_method: 'S256', state: 's' }, client: id => server.clients.get(id), isOurs: ours })
  const redirect = server.issueCode(request, ['read', 'write'], 'Alice')
  const code = new URL(redirect).searchParams.get('code') ?? ''
  const client = await server.clients.authenticate({ clientId, clientSecret: secret })
  const answer = await server.exchangeCode(client, { code, redirect_uri: 'http://127.0.0.1:7000/cb', code_verifier: verifier }, ours)
  return { clientId, secret, access: answer.access_token, refresh: answer.refresh_token ?? '' }
}

t.test('grants survive a restart, hashed at rest', async t => {
  const dataDir = tempDataDir(t)
  const clock = signInClock()
  const first = serverAt(dataDir, clock)
  const tokens = await signIn(first, 'client_secret_basic')
  const identity = first.verifyAccess(tokens.access, HOST)
  t.match(identity, { id: /^oauth:g[0-9a-f]+$/, name: 'Kitchen tablet' })
  t.same(identity?.levels, { '*': 'write' }, 'the consent\'s scopes as levels')
  await first.flush()

  const onDisk = readFileSync(join(dataDir, 'oauth.json'), 'utf8')
  for (const secret of [tokens.access, tokens.refresh, tokens.secret ?? 'none']) t.notOk(onDisk.includes(secret), 'no secret in clear on disk')

  const second = serverAt(dataDir, clock)
  t.ok(second.verifyAccess(tokens.access, HOST), 'the access token works after a restart')
  const client = await second.clients.authenticate({ clientId: tokens.clientId, clientSecret: tokens.secret })
  const rotated = await second.refresh(client, { refresh_token: tokens.refresh }, ours)
  t.equal(rotated.expires_in, 3600)
  t.match(second.grants(), [{ client_name: 'Kitchen tablet', scopes: ['read', 'write'], approved_by: 'Alice', last_used_at: /^2026-/ }])
})

t.test('a corrupt file is set aside with a clear log, and the store starts empty', async t => {
  const dataDir = tempDataDir(t)
  writeFileSync(join(dataDir, 'oauth.json'), '{"version":1,"clients":[{"oops"')
  const logs: string[] = []
  const server = serverAt(dataDir, signInClock(), logs)
  t.same(server.grants(), [])
  t.match(logs, [/^error .*oauth\.json is corrupt; moved it to .*oauth\.json\.corrupt-\d+ and started with no OAuth clients or grants/])
  t.ok(readdirSync(dataDir).some(name => name.startsWith('oauth.json.corrupt-')))
  t.notOk(existsSync(join(dataDir, 'oauth.json')))
  await signIn(server)
  t.ok(existsSync(join(dataDir, 'oauth.json')), 'a new file is written')
})

t.test('unused registrations expire after a day; expired grants go away', async t => {
  const dataDir = tempDataDir(t)
  const clock = signInClock()
  const server = serverAt(dataDir, clock)
  const unused = await server.clients.register({ redirect_uris: ['http://127.0.0.1:7001/cb'], token_endpoint_auth_method: 'none' }, '10.0.0.8')
  const used = await signIn(server)
  clock.advance(24 * 60 * 60_000 + 1)
  await server.sweep()
  t.notOk(server.clients.get(unused.client_id as string), 'the never-used registration is gone')
  t.ok(server.clients.get(used.clientId), 'a used one stays')
  t.equal(server.verifyAccess(used.access, HOST), undefined, 'an access token lives an hour')
  clock.advance(90 * 24 * 60 * 60_000)
  await server.sweep()
  t.same(server.grants(), [], 'a grant whose refresh token ran out is removed')
})

t.test('a sign-in whose refresh token runs out is announced dead by the sweep; an access token says which it is and until when', async t => {
  const clock = signInClock()
  const announced: Revocation[] = []
  const server = serverAt(tempDataDir(t), clock, [], announced)
  const tokens = await signIn(server)
  const identity = server.verifyAccess(tokens.access, HOST)
  t.match(identity, { credential: /^access:[0-9a-f]{16}$/, expiresAt: clock.now() + ACCESS_TTL_MS }, 'what a stream it opens ends with')
  clock.advance(ACCESS_TTL_MS)
  await server.sweep()
  t.same(announced, [], 'an expired access token alone leaves the sign-in (its streams end on their own timers)')
  clock.advance(REFRESH_TTL_MS)
  await server.sweep()
  t.same(announced.map(r => r.identity), [identity?.id], 'the sign-in is announced dead once its refresh token expired')
  t.equal(announced[0]?.credential, undefined, 'the whole sign-in, not one token')
})

import t from 'tap'
import { rpc, startHome, startServer, TEST_TOKEN } from '../helper.ts'

/**
 * Attack pass: lock the owner out. The failed-authentication backoff and the cap on waiting sign-ins
 * are kept per client address (an IPv6 /64 counts as one), and a blocked address is refused before
 * its token is looked at. Every device behind one address shares them: the clients behind a reverse
 * proxy (public_url), behind a NAT, or on a home LAN's single IPv6 /64 (loopback stands for that
 * shared address in the first test). Both seen failing; left as todo.
 */

const LIST = { jsonrpc: '2.0', id: 1, method: 'tools/list' }

const UNDECIDED = 'one key per address, an IPv6 /64 counting as one (src/hosts.ts clientKey), so that an attacker cannot dodge the bounds by changing address; but every device behind one address shares its failures and caps. Ending that (e.g. letting a token that already worked from there through a block) is a design decision for the owners of src/auth/backoff.ts and src/oauth/requests.ts'

t.test('another device behind the same address failing on purpose locks out a token that works', { todo: UNDECIDED }, async t => {
  const home = await startHome(t)
  let clock = Date.now()
  const server = await startServer(t, { home, app: { backoff: { freeFailures: 5, baseBlockMs: 1000, maxBlockMs: 60_000, now: () => clock } } })
  const owner = { authorization: `Bearer ${TEST_TOKEN}` }
  t.equal((await rpc(server.url, LIST, owner)).status, 200, 'the owner\'s assistant works')
  // The attacker keeps failing, a little faster than the block doubles.
  for (let round = 0; round < 8; round++) {
    for (let i = 0; i < 6; i++) await rpc(server.url, LIST, { authorization: 'Bearer guess' })
    clock += 500
  }
  const answer = await rpc(server.url, LIST, owner)
  t.equal(answer.status, 200, `the owner's working token still works (got ${answer.status}, Retry-After ${answer.headers.get('retry-after') ?? '-'})`)
})

t.test('a device on the home LAN\'s IPv6 /64 holding ten sign-ins open keeps the owner\'s laptop from signing in', { todo: UNDECIDED }, async t => {
  const home = await startHome(t)
  const server = await startServer(t, { home })
  const redirect = 'http://127.0.0.1:41001/cb'
  const register = async (address: string, name: string): Promise<string> => {
    const answer = await server.app.inject({ method: 'POST', url: '/oauth/register', remoteAddress: address, headers: { 'content-type': 'application/json' }, payload: JSON.stringify({ redirect_uris: [redirect], token_endpoint_auth_method: 'none', client_name: name }) })
    return answer.json().client_id as string
  }
  const authorize = async (address: string, clientId: string, state: string): Promise<number | string> => {
    const path = `/oauth/authorize?${new URLSearchParams({ response_type: 'code', client_id: clientId, redirect_uri: redirect, state, code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM', code_challenge_method: 'S256' }).toString()}`
    const answer = await server.app.inject({ method: 'GET', url: path, remoteAddress: address })
    const location = answer.headers.location
    return typeof location === 'string' ? new URL(location).searchParams.get('error') ?? answer.statusCode : answer.statusCode
  }
  const plug = await register('2001:db8:1:2::66', 'Smart plug')
  for (let i = 0; i < 10; i++) await authorize('2001:db8:1:2::66', plug, `flood-${i}`)
  const laptop = await register('2001:db8:1:2::10', 'Owner laptop')
  t.equal(await authorize('2001:db8:1:2::10', laptop, 'mine'), 200, 'the owner\'s sign-in page opens')
})

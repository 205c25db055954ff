import t from 'tap'
import { rpc, startHome, startServer, TEST_TOKEN } from '../helper.ts'

/**
 * Attack pass: lock the owner out. The failed-authentication backoff is kept per client
 * address (an IPv6 /64 counts as one), and a blocked address is refused before its token is looked
 * at. Every device behind one address shares the block: the clients behind a reverse proxy (public_url),
 * behind a NAT, or on a home LAN's single IPv6 /64. Loopback stands for that shared address here.
 */

const LIST = { jsonrpc: '2.0', id: 1, method: 'tools/list' }

const UNDECIDED = 'a blocked address is refused before its token is read; letting a token that already worked from there through would end the lockout but answers a guesser during the block (the request limits still bound it): a design decision for the owner of src/auth/backoff.ts'

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

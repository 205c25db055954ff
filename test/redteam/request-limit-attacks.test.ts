// Red-team tests for the request limits (plugins/request-limits.ts, on @fastify/rate-limit): a token id
// that reads like an address, one host's many IPv6 addresses and its IPv4-mapped form, 5000+ other
// keys to push a limited window out, the window's boundary and a clock that steps back. The request.ip
// values a socket can hand over (undefined once it is gone, zones, junk) are clientKey's table
// (test/unit/hosts.test.ts).
import t from 'tap'
import Fastify, { type FastifyInstance, type FastifyRequest } from 'fastify'
import requestLimitsPlugin from '../../plugins/request-limits.ts'
import { createLogger, SecretScrubber } from '../../src/logger.ts'
import type { Identity } from '../../src/auth/identity.ts'
import { rpc, startHome, startServer } from '../helper.ts'

interface Limited {
  app: FastifyInstance
  clock: { at: number }
  /** One request: its status and Retry-After (seconds), from `ip` as `identity` (none: unauthenticated). */
  hit: (ip: string, identity?: string) => Promise<{ status: number, retryAfter: number | undefined }>
}

/**
 * The /mcp guards' order on a small app: per address, then who is asking (an `x-id` header standing
 * for the bearer check), then per token; the limits on a clock the test moves.
 */
async function limitedApp (t: { teardown: (fn: () => unknown) => void }, max: { perAddress: number, perToken: number }): Promise<Limited> {
  const clock = { at: 1_000_000 }
  const logger = createLogger({ level: 'notice', scrubber: new SecretScrubber(), write: () => {} })
  const app = Fastify({ loggerInstance: logger })
  await app.register(requestLimitsPlugin, { now: () => clock.at })
  app.decorateRequest('identity', null)
  const refusal = (message: string): Error => Object.assign(new Error(message), { statusCode: 429 })
  const perAddress = app.requestLimit({ by: 'address', max: max.perAddress, refusal })
  const perToken = app.requestLimit({ by: 'token', max: max.perToken, refusal })
  const who = async (request: FastifyRequest): Promise<void> => {
    const id = request.headers['x-id']
    if (typeof id === 'string') request.identity = { id, name: id } as unknown as Identity
  }
  app.get('/', { onRequest: [perAddress, who, perToken] }, async () => 'ok')
  await app.ready()
  t.teardown(async () => { await app.close() })
  return {
    app,
    clock,
    hit: async (ip, identity) => {
      const res = await app.inject({ method: 'GET', url: '/', remoteAddress: ip, headers: identity === undefined ? {} : { 'x-id': identity } })
      const retry = res.headers['retry-after']
      return { status: res.statusCode, retryAfter: retry === undefined ? undefined : Number(retry) }
    }
  }
}

t.test('a token id that reads like an address and that address count apart', async t => {
  const { hit } = await limitedApp(t, { perAddress: 0, perToken: 2 })
  // The token limit counts an identity as token:<id> and an unauthenticated request as address:<ip>.
  for (const id of ['10.0.0.9', 'address:10.0.0.9', 'token:10.0.0.9']) {
    t.equal((await hit('10.0.0.1', id)).status, 200)
    t.equal((await hit('10.0.0.1', id)).status, 200)
    t.equal((await hit('10.0.0.1', id)).status, 429, `${id}: over its own limit`)
  }
  t.equal((await hit('10.0.0.9')).status, 200, 'the address 10.0.0.9 without a token was not counted by them')
  t.equal((await hit('10.0.0.9')).status, 200)
  t.equal((await hit('10.0.0.9')).status, 429)
  t.equal((await hit('10.0.0.1', '10.0.0.7')).status, 200, 'and it did not count for a token of that name either')
})

t.test('one IPv6 /64 is one address, whichever of its addresses or spellings asks; its IPv4-mapped form is the IPv4 one', async t => {
  const { hit } = await limitedApp(t, { perAddress: 3, perToken: 0 })
  const host = ['2001:db8:1:2::1', '2001:DB8:1:2:ffff:ffff:ffff:fffe', '2001:0db8:0001:0002:0000:0000:0000:0abc']
  for (const ip of host) t.equal((await hit(ip)).status, 200, ip)
  t.equal((await hit('2001:db8:1:2:dead:beef::1')).status, 429, 'a fourth address of the same /64 is over the limit')
  t.equal((await hit('2001:db8:1:3::1')).status, 200, 'the next /64 counts on its own')

  for (let i = 0; i < 3; i++) t.equal((await hit('192.0.2.7')).status, 200)
  t.equal((await hit('::ffff:192.0.2.7')).status, 429, 'the IPv4-mapped spelling of a limited IPv4 address')
  t.equal((await hit('::FFFF:192.0.2.7')).status, 429)

  // Link-local addresses come with a zone (Node writes fe80::1%eth0): counted, never an error.
  for (let i = 0; i < 3; i++) t.equal((await hit(`fe80::${i + 1}%eth0`)).status, 200)
  t.equal((await hit('fe80::9%eth1')).status, 429, 'one link-local /64, whatever the zone')
})

t.test('5000 other keys do not push a limited token out of its window', async t => {
  const { hit } = await limitedApp(t, { perAddress: 0, perToken: 2 })
  const overLimit = async (): Promise<void> => {
    t.equal((await hit('10.1.0.1', 'victim')).status, 200)
    t.equal((await hit('10.1.0.1', 'victim')).status, 200)
    t.equal((await hit('10.1.0.1', 'victim')).status, 429)
  }
  await overLimit()
  // The same token from 5001 addresses: one key, still limited.
  for (let i = 0; i < 5001; i++) await hit(`10.${2 + (i >> 16)}.${(i >> 8) & 255}.${i & 255}`, 'victim')
  t.equal((await hit('10.9.9.9', 'victim')).status, 429, 'the token is still over its limit')

  // Requests that reach the token limit unauthenticated count per address, and one host's IPv6
  // addresses are one address: 5001 of them, one request each, are one key, not 5001 keys that push
  // the token's window out (a reset of its limit for whoever holds one /64).
  const { hit: hit2 } = await limitedApp(t, { perAddress: 0, perToken: 2 })
  t.equal((await hit2('10.1.0.1', 'victim')).status, 200)
  t.equal((await hit2('10.1.0.1', 'victim')).status, 200)
  t.equal((await hit2('10.1.0.1', 'victim')).status, 429)
  for (let i = 0; i < 5001; i++) await hit2(`2001:db8:7:7::${i.toString(16)}`)
  t.equal((await hit2('10.1.0.1', 'victim')).status, 429, 'the token is still over its limit after 5001 addresses of one /64')
})

t.test('at most max requests per window, and Retry-After says when the next one is answered', async t => {
  const { hit, clock } = await limitedApp(t, { perAddress: 2, perToken: 0 })
  const start = clock.at
  t.equal((await hit('10.0.0.1')).status, 200)
  clock.at = start + 30_000
  t.equal((await hit('10.0.0.1')).status, 200)
  clock.at = start + 59_998
  const refused = await hit('10.0.0.1')
  t.same(refused, { status: 429, retryAfter: 1 }, '2 ms before the window ends: retry in 1 s')
  clock.at = start + 59_999
  t.equal((await hit('10.0.0.1')).status, 429, 'the last millisecond of the window is still in it')
  clock.at = start + 60_000
  t.equal((await hit('10.0.0.1')).status, 200, 'the window is over after exactly a minute')
  t.equal((await hit('10.0.0.1')).status, 200)
  const again = await hit('10.0.0.1')
  t.same(again, { status: 429, retryAfter: 60 }, 'a fresh window: a whole minute')
  clock.at += again.retryAfter as number * 1000
  t.equal((await hit('10.0.0.1')).status, 200, 'answered once Retry-After has passed')
})

t.test('a clock that steps back does not lock a client out for longer than a minute', async t => {
  const { hit, clock } = await limitedApp(t, { perAddress: 1, perToken: 0 })
  t.equal((await hit('10.0.0.1')).status, 200)
  t.equal((await hit('10.0.0.1')).status, 429)
  // The wall clock is set back an hour (an NTP step, a board without a real-time clock).
  clock.at -= 3_600_000
  const refused = await hit('10.0.0.1')
  t.equal(refused.status, 429, 'still over the limit in this window')
  t.ok(refused.retryAfter !== undefined && refused.retryAfter <= 60, `Retry-After within the minute (${String(refused.retryAfter)} s)`)
  clock.at += 60_000
  t.equal((await hit('10.0.0.1')).status, 200, 'answered a minute later, not an hour and a minute later')
})

t.test('through the whole server: an unauthenticated flood from one /64 is cut by the per-address limit', async t => {
  const home = await startHome(t)
  const server = await startServer(t, { home, app: { requestLimits: { perAddress: 5, perToken: 0 } } })
  const post = async (remoteAddress: string, token?: string): Promise<number> => (await server.app.inject({
    method: 'POST',
    url: '/mcp',
    remoteAddress,
    headers: { 'content-type': 'application/json', accept: 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    payload: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} })
  })).statusCode
  const statuses: number[] = []
  for (let i = 1; i <= 5; i++) statuses.push(await post(`2001:db8:aa:bb::${i.toString(16)}`))
  t.same(statuses, [401, 401, 401, 401, 401], 'no token: refused by the token check, and counted')
  t.equal(await post('2001:db8:aa:bb::99', server.token), 429, 'a sixth address of the /64, even with the right token')
  t.equal(await post('::ffff:127.0.0.9', server.token), 200, 'another host is answered')
  // The real listener too (its loopback address, not an injected one).
  t.equal((await rpc(server.url, { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }, { authorization: `Bearer ${server.token}` })).status, 200)
})

import t from 'tap'
import { loadConfig } from '../../src/config.ts'
import { DEFAULT_REQUEST_LIMITS } from '../../src/request-limits.ts'
import { callTool, connectClient, rpc, startHome, startServer, tempDataDir, TEST_TOKEN } from '../helper.ts'
import { startIngress } from '../ingress/_ingress.ts'
import { MAX_BATCH } from '../../src/mcp/transport/era.ts'
import { metaFor, MODERN } from '../modern.ts'
import Fastify, { type FastifyInstance, type FastifyRequest } from 'fastify'
import requestLimitsPlugin from '../../plugins/request-limits.ts'
import { createLogger, SecretScrubber } from '../../src/logger.ts'
import type { Identity } from '../../src/auth/identity.ts'

const listTools = { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }

t.test('per token: over the cap 429 with Retry-After; another token is unaffected', async t => {
  const home = await startHome(t)
  const server = await startServer(t, { home, logLevel: 'notice', app: { requestLimits: { perToken: 4 } } })
  const other = await server.app.services.tokens.create({ name: 'kitchen tablet', scopes: ['read'] })
  const bearer = (token: string): Record<string, string> => ({ authorization: `Bearer ${token}` })

  for (let i = 0; i < 4; i++) t.equal((await rpc(server, listTools, bearer(server.token))).status, 200, `request ${i + 1} of 4 answered`)
  const refused = await rpc(server, listTools, bearer(server.token))
  t.equal(refused.status, 429)
  const retryAfter = Number(refused.headers.get('retry-after'))
  t.ok(Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= 60, `Retry-After in whole seconds within the minute (${retryAfter})`)
  const body = await refused.json() as { jsonrpc: string, error: { code: number, message: string }, id: null }
  t.match(body, { jsonrpc: '2.0', error: { code: -32000 }, id: null }, 'a JSON-RPC error the client can show')
  t.match(body.error.message, /at most 4 a minute/)
  t.equal((await rpc(server, listTools, bearer(server.token))).status, 429)
  t.equal(server.logs.filter(line => line.includes('request rate limit reached')).length, 1, 'one notice in the log, not one per refused request')
  t.notOk(server.logs.some(line => line.includes(server.token)), 'the token is not logged')

  // The SDK client with the other token: initialize, initialized, then a tool call, all answered.
  const client = await connectClient(t, server, other.token)
  const areas = await callTool(client, 'ha_list_areas')
  t.notOk(areas.isError, 'the other token still works')
  t.equal((await rpc(server, listTools, bearer(server.token))).status, 429, 'the first token stays limited')
})

t.test('per address: counts every request from it, before the token is even checked', async t => {
  const home = await startHome(t)
  const server = await startServer(t, { home, app: { requestLimits: { perAddress: 3 } } })
  t.equal((await rpc(server, listTools)).status, 401, 'no token: refused by the token check')
  t.equal((await rpc(server, listTools, { authorization: `Bearer ${server.token}` })).status, 200)
  t.equal((await rpc(server, listTools, { authorization: `Bearer ${server.token}` })).status, 200)
  const refused = await rpc(server, listTools, { authorization: `Bearer ${server.token}` })
  t.equal(refused.status, 429, 'the fourth request from this address')
  t.ok(Number(refused.headers.get('retry-after')) >= 1, 'with Retry-After')
  const health = await fetch(`${server.url}/health`)
  t.equal(health.status, 200, '/health is never limited (the watchdog probes it)')
})

t.test('the ingress API is capped per address; the page itself is not', async t => {
  const home = await startHome(t)
  const server = await startServer(t, { home, app: { requestLimits: { ingressPerAddress: 2 } } })
  const ingress = await startIngress(t, server)
  const get = async (url: string): Promise<{ statusCode: number, headers: Record<string, unknown>, json: () => any }> =>
    await ingress.inject({ method: 'GET', url, remoteAddress: '127.0.0.1' })
  t.equal((await get('/api/tokens')).statusCode, 200)
  t.equal((await get('/api/tokens')).statusCode, 200)
  const refused = await get('/api/tokens')
  t.equal(refused.statusCode, 429)
  t.ok(Number(refused.headers['retry-after']) >= 1, 'with Retry-After')
  t.match(refused.json(), { error: 'Too Many Requests', message: /at most 2 a minute/ })
  t.equal((await get('/')).statusCode, 200, 'the static page still loads')
})

t.test('limits come from the environment for development and the bench; bad values are reported', async t => {
  const dataDir = tempDataDir(t)
  const good = loadConfig({ DATA_DIR: dataDir, RATE_LIMIT_PER_TOKEN: '0', RATE_LIMIT_PER_ADDRESS: '100000' })
  t.same(good.requestLimits, { perToken: 0, perAddress: 100000 })
  t.same(good.optionErrors, [])
  const bad = loadConfig({ DATA_DIR: dataDir, RATE_LIMIT_INGRESS_PER_ADDRESS: 'lots' })
  t.same(bad.requestLimits, {})
  t.match(bad.optionErrors, [/RATE_LIMIT_INGRESS_PER_ADDRESS=lots .*using 600/])
  t.ok(DEFAULT_REQUEST_LIMITS.perToken >= 1000, 'the default never bothers a working client')
})

t.test('0 turns a limit off', async t => {
  const home = await startHome(t)
  const server = await startServer(t, { home, app: { requestLimits: { perToken: 0, perAddress: 0 } } })
  const statuses = await Promise.all(Array.from({ length: 20 }, async () => (await rpc(server, listTools, { authorization: `Bearer ${server.token}` })).status))
  t.same(new Set(statuses), new Set([200]))
})

// One rule for "which client is this" (src/hosts.ts clientKey): the failed-authentication backoff
// counts a /64 as one client, as the request limits do, or a host with a /64 gets five free guesses
// per address, and an IPv4 client gets five more under its IPv4-mapped spelling.
t.test('the failed-authentication backoff counts one /64, and an IPv4 address in either spelling, as one client', async t => {
  const home = await startHome(t)
  const server = await startServer(t, { home, app: { requestLimits: { perAddress: 0, perToken: 0 } } })
  const post = async (remoteAddress: string, token: string): Promise<number> => (await server.app.inject({
    method: 'POST',
    url: '/mcp',
    remoteAddress,
    headers: { 'content-type': 'application/json', accept: 'application/json', authorization: `Bearer ${token}` },
    payload: JSON.stringify(listTools)
  })).statusCode
  const guesses: number[] = []
  for (let i = 1; i <= 6; i++) guesses.push(await post(`2001:db8:5:6::${i.toString(16)}`, `wrong-${i}`))
  t.same(guesses, [401, 401, 401, 401, 401, 401], 'five free failures, the sixth starts the block')
  t.equal(await post('2001:db8:5:6:ffff::1', server.token), 429, 'another address of the /64 is blocked too')
  t.equal(await post('2001:db8:5:7::1', server.token), 200, 'the next /64 is another client')

  for (let i = 1; i <= 3; i++) await post('192.0.2.44', `wrong-${i}`)
  for (let i = 1; i <= 3; i++) await post('::ffff:192.0.2.44', `wrong-mapped-${i}`)
  t.equal(await post('192.0.2.44', server.token), 429, 'an IPv4 address and its IPv4-mapped spelling share one count')
})

// The biggest request the limits allow. 2026-07-28 forbids batches (the SDK refuses them); the 2025
// era still takes JSON-RPC batches, and before a cap one 377 KB POST of 3000 tool calls kept the
// server busy for 20 s (a lone small call waited 17 s), built a 35 MB answer and took the process to
// 344 MB of RSS under its 256 MB heap cap; the 1 MB body limit allows nearly three times that.
t.test('red team: the biggest batch the limits allow', async t => {
  const auth = { authorization: `Bearer ${TEST_TOKEN}` }
  const search = (id: number): object => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'ha_search_entities', arguments: { query: 'a', limit: 50 } } })

  t.test('batches are bounded', async t => {
    const home = await startHome(t)
    const server = await startServer(t, { home })

    t.test('a 2025 batch over the cap is refused whole, before any call runs', async t => {
      const calls = server.app.services.usage.snapshot().total
      const res = await rpc(server, Array.from({ length: MAX_BATCH + 1 }, (_, i) => search(i)), auth)
      t.equal(res.status, 400)
      const body = await res.json() as any
      t.equal(body.error?.code, -32600, JSON.stringify(body).slice(0, 200))
      t.match(body.error?.message, new RegExp(`at most ${MAX_BATCH}`))
      t.equal(server.app.services.usage.snapshot().total, calls, 'no tool ran')
    })

    t.test('the biggest batch allowed, of the biggest search answers, is served and the process goes on', async t => {
      const res = await rpc(server, Array.from({ length: MAX_BATCH }, (_, i) => search(i)), auth)
      t.equal(res.status, 200)
      const answers = await res.json() as any[]
      t.equal(answers.length, MAX_BATCH)
      t.ok(answers.every(answer => answer.result?.isError !== true), 'every call answered')
      const after = await rpc(server, search(1), auth)
      t.equal(after.status, 200, 'the next request is served')
    })

    t.test('a 2026-07-28 batch is refused, so its Mcp-Name header cannot name one call and carry others', async t => {
      const call = (id: number, name: string, args: object): object => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args, _meta: metaFor() } })
      const res = await rpc(server, [call(1, 'ha_search_entities', { query: 'x' }), call(2, 'ha_call_service', { domain: 'light', service: 'turn_on', target: { entity_id: 'light.x' } })], {
        ...auth, 'mcp-protocol-version': MODERN, 'mcp-method': 'tools/call', 'mcp-name': 'ha_search_entities'
      })
      t.equal(res.status, 400)
      t.equal((await res.json() as any).error?.code, -32600)
    })
  })
})

// Red-team tests for the request limits (plugins/request-limits.ts, on @fastify/rate-limit): a token id
// that reads like an address, one host's many IPv6 addresses and its IPv4-mapped form, 5000+ other
// keys to push a limited window out, the window's boundary and a clock that steps back. The request.ip
// values a socket can hand over (undefined once it is gone, zones, junk) are clientKey's table
// (test/unit/hosts.test.ts).
t.test('red team: dodging the request limits', async t => {
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
    t.equal((await rpc(server, { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }, { authorization: `Bearer ${server.token}` })).status, 200)
  })
})

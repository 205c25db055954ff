import t from 'tap'
import { loadConfig } from '../../src/config.ts'
import { DEFAULT_REQUEST_LIMITS } from '../../src/request-limits.ts'
import { callTool, connectClient, rpc, startHome, startServer, tempDataDir } from '../helper.ts'
import { startIngress } from '../ingress/_ingress.ts'

const listTools = { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }

t.test('per token: over the cap 429 with Retry-After; another token is unaffected', async t => {
  const home = await startHome(t)
  const server = await startServer(t, { home, logLevel: 'notice', app: { requestLimits: { perToken: 4 } } })
  const other = await server.app.services.tokens.create({ name: 'kitchen tablet', scopes: ['read'] })
  const bearer = (token: string): Record<string, string> => ({ authorization: `Bearer ${token}` })

  for (let i = 0; i < 4; i++) t.equal((await rpc(server.url, listTools, bearer(server.token))).status, 200, `request ${i + 1} of 4 answered`)
  const refused = await rpc(server.url, listTools, bearer(server.token))
  t.equal(refused.status, 429)
  const retryAfter = Number(refused.headers.get('retry-after'))
  t.ok(Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= 60, `Retry-After in whole seconds within the minute (${retryAfter})`)
  const body = await refused.json() as { jsonrpc: string, error: { code: number, message: string }, id: null }
  t.match(body, { jsonrpc: '2.0', error: { code: -32000 }, id: null }, 'a JSON-RPC error the client can show')
  t.match(body.error.message, /at most 4 a minute/)
  t.equal((await rpc(server.url, listTools, bearer(server.token))).status, 429)
  t.equal(server.logs.filter(line => line.includes('request rate limit reached')).length, 1, 'one notice in the log, not one per refused request')
  t.notOk(server.logs.some(line => line.includes(server.token)), 'the token is not logged')

  // The SDK client with the other token: initialize, initialized, then a tool call, all answered.
  const client = await connectClient(t, server, other.token)
  const areas = await callTool(client, 'ha_list_areas')
  t.notOk(areas.isError, 'the other token still works')
  t.equal((await rpc(server.url, listTools, bearer(server.token))).status, 429, 'the first token stays limited')
})

t.test('per address: counts every request from it, before the token is even checked', async t => {
  const home = await startHome(t)
  const server = await startServer(t, { home, app: { requestLimits: { perAddress: 3 } } })
  t.equal((await rpc(server.url, listTools)).status, 401, 'no token: refused by the token check')
  t.equal((await rpc(server.url, listTools, { authorization: `Bearer ${server.token}` })).status, 200)
  t.equal((await rpc(server.url, listTools, { authorization: `Bearer ${server.token}` })).status, 200)
  const refused = await rpc(server.url, listTools, { authorization: `Bearer ${server.token}` })
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
  const statuses = await Promise.all(Array.from({ length: 20 }, async () => (await rpc(server.url, listTools, { authorization: `Bearer ${server.token}` })).status))
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

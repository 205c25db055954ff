// Every JSON-RPC error a client can see carries a documented code in `error.data.code`, whoever
// produced it: our handlers, the SDK's own checks (an unknown method, params that fail the method's
// schema, an unknown resource, a requestState it cannot verify) or the session transport's HTTP
// refusals, in the 2025 era, in 2026-07-28 and in sessions. A tool's own argument errors stay
// `isError` results (the MCP spec's tool execution errors), never JSON-RPC errors.
import t, { type Test } from 'tap'
import { HOME_ASSISTANT_ERROR_CODES, HTTP_REFUSAL_CODES, INTERNAL_ERROR_CODE, PANEL_REFUSAL_CODES, USER_ERROR_CODES } from '../../src/errors.ts'
import { createHomeSurface } from '../../src/mcp/content/home-surface.ts'
import { rpc, startHome, startServer, TEST_TOKEN } from '../helper.ts'
import { modern } from '../modern.ts'
import { answerOf, INITIALIZE, openRawSession } from '../sessions/_raw.ts'

const DOCUMENTED = new Set([...Object.keys(USER_ERROR_CODES), ...Object.keys(HTTP_REFUSAL_CODES), ...Object.keys(PANEL_REFUSAL_CODES), ...Object.keys(HOME_ASSISTANT_ERROR_CODES), INTERNAL_ERROR_CODE])
const auth = { authorization: `Bearer ${TEST_TOKEN}` }

interface Case {
  what: string
  method: string
  params?: unknown
  /** The JSON-RPC error code expected. */
  rpcCode: number
  code: string
  status?: number
}

/** Requests the SDK or our handlers refuse in both eras, and in a session. */
const COMMON: Case[] = [
  { what: 'an unknown method', method: 'nope/nope', params: {}, rpcCode: -32601, code: 'HAMCP_METHOD_NOT_FOUND' },
  { what: 'tools/call without a name (the SDK\'s schema)', method: 'tools/call', params: {}, rpcCode: -32602, code: 'HAMCP_INVALID_ARGUMENT' },
  { what: 'tools/call whose arguments are not an object', method: 'tools/call', params: { name: 'ha_get_entity', arguments: 'light.kitchen' }, rpcCode: -32602, code: 'HAMCP_INVALID_ARGUMENT' },
  { what: 'an unknown tool', method: 'tools/call', params: { name: 'ha_nope' }, rpcCode: -32602, code: 'HAMCP_NOT_FOUND' },
  { what: 'resources/read without a uri', method: 'resources/read', params: {}, rpcCode: -32602, code: 'HAMCP_INVALID_ARGUMENT' },
  { what: 'prompts/get without a name', method: 'prompts/get', params: {}, rpcCode: -32602, code: 'HAMCP_INVALID_ARGUMENT' },
  { what: 'an unknown prompt', method: 'prompts/get', params: { name: 'nope' }, rpcCode: -32602, code: 'HAMCP_NOT_FOUND' },
  { what: 'tools/list with a cursor that is not a string', method: 'tools/list', params: { cursor: 5 }, rpcCode: -32602, code: 'HAMCP_INVALID_ARGUMENT' },
  { what: 'completion/complete without a ref', method: 'completion/complete', params: {}, rpcCode: -32602, code: 'HAMCP_INVALID_ARGUMENT' }
]

const LEGACY: Case[] = [
  ...COMMON,
  { what: 'an unknown resource (-32002 in the 2025 era)', method: 'resources/read', params: { uri: 'ha://nope/x' }, rpcCode: -32002, code: 'HAMCP_NOT_FOUND' },
  { what: 'server/discover, a 2026-07-28 method', method: 'server/discover', params: {}, rpcCode: -32601, code: 'HAMCP_METHOD_NOT_FOUND' }
]

function coded (t: Test, error: any, c: Pick<Case, 'rpcCode' | 'code'>): void {
  t.ok(error, 'a JSON-RPC error')
  t.equal(error?.code, c.rpcCode, `JSON-RPC ${c.rpcCode}`)
  t.equal(error?.data?.code, c.code, `data.code ${c.code}`)
  t.ok(DOCUMENTED.has(error?.data?.code), 'the code is documented')
  t.type(error?.message, 'string')
}

t.test('stateless, 2025 era', async t => {
  const home = await startHome(t)
  const server = await startServer(t, { home })
  for (const c of [...LEGACY,
    { what: 'initialize without params', method: 'initialize', rpcCode: -32602, code: 'HAMCP_INVALID_ARGUMENT' },
    { what: 'initialize whose protocolVersion is not a string', method: 'initialize', params: { ...INITIALIZE.params, protocolVersion: 5 }, rpcCode: -32602, code: 'HAMCP_INVALID_ARGUMENT' },
    { what: 'resources/subscribe without a session', method: 'resources/subscribe', params: { uri: 'ha://entity/light.kitchen' }, rpcCode: -32601, code: 'HAMCP_METHOD_NOT_FOUND' },
    { what: 'logging/setLevel without a session', method: 'logging/setLevel', params: { level: 'info' }, rpcCode: -32601, code: 'HAMCP_METHOD_NOT_FOUND' }
  ]) {
    t.test(c.what, async t => {
      const res = await rpc(server, { jsonrpc: '2.0', id: 4, method: c.method, ...(c.params !== undefined ? { params: c.params } : {}) }, auth)
      t.equal(res.status, 200)
      const body = await res.json() as any
      t.equal(body.id, 4)
      coded(t, body.error, c)
    })
  }
  t.test('in a batch, each error is coded', async t => {
    const res = await rpc(server, [{ jsonrpc: '2.0', id: 1, method: 'nope' }, { jsonrpc: '2.0', id: 2, method: 'tools/list' }], auth)
    const [first, second] = await res.json() as any[]
    coded(t, first.error, { rpcCode: -32601, code: 'HAMCP_METHOD_NOT_FOUND' })
    t.ok(second.result.tools.length > 0, 'and an answer beside it is untouched')
  })
  t.test('a tool\'s argument errors stay isError results', async t => {
    const res = await rpc(server, { jsonrpc: '2.0', id: 5, method: 'tools/call', params: { name: 'ha_get_entity', arguments: { entity_id: 5 } } }, auth)
    const body = await res.json() as any
    t.notOk(body.error)
    t.equal(body.result.isError, true)
    t.equal(body.result.structuredContent.error.code, 'HAMCP_INVALID_ARGUMENT')
  })
})

t.test('stateless, 2026-07-28', async t => {
  const home = await startHome(t)
  const server = await startServer(t, { home })
  for (const c of [...COMMON.map(c => c.rpcCode === -32601 ? { ...c, status: 404 } : c),
    { what: 'an unknown resource (-32602 with the uri)', method: 'resources/read', params: { uri: 'ha://nope/x' }, rpcCode: -32602, code: 'HAMCP_NOT_FOUND' },
    { what: 'initialize, which 2026-07-28 does not have', method: 'initialize', params: {}, rpcCode: -32601, code: 'HAMCP_METHOD_NOT_FOUND', status: 404 },
    { what: 'a requestState the server did not mint', method: 'tools/call', params: { name: 'ha_list_areas', arguments: {}, requestState: 'forged' }, rpcCode: -32602, code: 'HAMCP_CONFIRM_TOKEN_INVALID' },
    { what: 'subscriptions/listen without a filter', method: 'subscriptions/listen', params: { notifications: 5 }, rpcCode: -32602, code: 'HAMCP_INVALID_ARGUMENT' }
  ] as Case[]) {
    t.test(c.what, async t => {
      const { status, body } = await modern(server, TEST_TOKEN, c.method, c.params as Record<string, unknown>)
      t.equal(status, c.status ?? 200)
      coded(t, body.error, c)
    })
  }
  t.test('the uri stays in the data of an unknown resource', async t => {
    t.equal((await modern(server, TEST_TOKEN, 'resources/read', { uri: 'ha://nope/x' })).body.error.data.uri, 'ha://nope/x')
  })
  t.test('a tool\'s argument errors stay isError results', async t => {
    const { body } = await modern(server, TEST_TOKEN, 'tools/call', { name: 'ha_get_entity', arguments: { entity_id: 5 } })
    t.equal(body.result.isError, true)
    t.equal(body.result.structuredContent.error.code, 'HAMCP_INVALID_ARGUMENT')
  })
})

t.test('in a session', async t => {
  const home = await startHome(t)
  const server = await startServer(t, { home, options: { enable_sessions: true } })
  const id = await openRawSession(server.url, TEST_TOKEN)
  const inSession = { ...auth, 'mcp-session-id': id }
  for (const c of [...LEGACY,
    { what: 'logging/setLevel with a level that does not exist', method: 'logging/setLevel', params: { level: 'loud' }, rpcCode: -32602, code: 'HAMCP_INVALID_ARGUMENT' }
  ]) {
    t.test(c.what, async t => {
      const res = await rpc(server, { jsonrpc: '2.0', id: 4, method: c.method, ...(c.params !== undefined ? { params: c.params } : {}) }, inSession)
      t.equal(res.status, 200)
      coded(t, answerOf(await res.text()).error, c)
    })
  }
  t.test('the session transport\'s own refusals', async t => {
    const refusal = async (res: Response, status: number, c: Pick<Case, 'rpcCode' | 'code'>): Promise<void> => {
      t.equal(res.status, status, `HTTP ${status}`)
      coded(t, (await res.json() as any).error, c)
    }
    await refusal(await rpc(server, { jsonrpc: '2.0', id: 1, method: 'tools/list' }, { ...inSession, accept: 'application/json' }), 406, { rpcCode: -32000, code: 'HAMCP_NOT_ACCEPTABLE' })
    await refusal(await fetch(`${server.url}/mcp`, { method: 'GET', headers: { ...inSession, accept: 'application/json' } }), 406, { rpcCode: -32000, code: 'HAMCP_NOT_ACCEPTABLE' })
    await refusal(await rpc(server, INITIALIZE, inSession), 400, { rpcCode: -32600, code: 'HAMCP_INVALID_REQUEST' })
    await refusal(await rpc(server, { jsonrpc: '2.0', id: 1, method: 'initialize' }, auth), 400, { rpcCode: -32000, code: 'HAMCP_INVALID_REQUEST' })
    const stream = await fetch(`${server.url}/mcp`, { method: 'GET', headers: { ...inSession, accept: 'text/event-stream' } })
    t.equal(stream.status, 200)
    await refusal(await fetch(`${server.url}/mcp`, { method: 'GET', headers: { ...inSession, accept: 'text/event-stream' } }), 409, { rpcCode: -32000, code: 'HAMCP_LIMIT_REACHED' })
    await stream.body?.cancel()
  })
  t.test('a tool\'s argument errors stay isError results', async t => {
    const res = await rpc(server, { jsonrpc: '2.0', id: 5, method: 'tools/call', params: { name: 'ha_get_entity', arguments: { entity_id: 5 } } }, inSession)
    const body = answerOf(await res.text())
    t.equal(body.result.isError, true)
    t.equal(body.result.structuredContent.error.code, 'HAMCP_INVALID_ARGUMENT')
  })
})

t.test('a bug under resources or prompts is a generic internal error: its message stays in the log', async t => {
  const home = await startHome(t)
  const base = createHomeSurface()
  const bug = (): never => { throw new Error('bug reading /data/options.json at line 7') }
  const server = await startServer(t, { home, app: { surface: { ...base, readResource: async () => bug(), getPrompt: async () => bug() } } })
  for (const [method, params] of [['resources/read', { uri: 'ha://entities' }], ['prompts/get', { name: 'troubleshoot' }]] as const) {
    const answer: any = await (await rpc(server, { jsonrpc: '2.0', id: 1, method, params }, auth)).json()
    coded(t, answer.error, { rpcCode: -32603, code: 'HAMCP_INTERNAL' })
    t.notMatch(JSON.stringify(answer), /options\.json|line 7/, `${method}: the bug's message is not in the answer`)
  }
  t.ok(server.logs.some(line => line.includes('options.json')), 'the bug is in the log')
})

// The biggest request the limits allow. 2026-07-28 forbids batches (the SDK refuses them); the 2025
// era still takes JSON-RPC batches, and before a cap one 377 KB POST of 3000 tool calls kept the
// server busy for 20 s (a lone small call waited 17 s), built a 35 MB answer and took the process to
// 344 MB of RSS under its 256 MB heap cap; the 1 MB body limit allows nearly three times that.
import t from 'tap'
import { MAX_BATCH } from '../../src/mcp/transport/era.ts'
import { rpc, startHome, startServer, TEST_TOKEN } from '../helper.ts'
import { metaFor, MODERN } from './_modern.ts'

const auth = { authorization: `Bearer ${TEST_TOKEN}` }
const search = (id: number): object => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'ha_search_entities', arguments: { query: 'a', limit: 50 } } })

t.test('batches are bounded', async t => {
  const home = await startHome(t)
  const server = await startServer(t, { home })

  t.test('a 2025 batch over the cap is refused whole, before any call runs', async t => {
    const calls = server.app.services.usage.snapshot().total
    const res = await rpc(server.url, Array.from({ length: MAX_BATCH + 1 }, (_, i) => search(i)), auth)
    t.equal(res.status, 400)
    const body = await res.json() as any
    t.equal(body.error?.code, -32600, JSON.stringify(body).slice(0, 200))
    t.match(body.error?.message, new RegExp(`at most ${MAX_BATCH}`))
    t.equal(server.app.services.usage.snapshot().total, calls, 'no tool ran')
  })

  t.test('the biggest batch allowed, of the biggest search answers, is served and the process goes on', async t => {
    const res = await rpc(server.url, Array.from({ length: MAX_BATCH }, (_, i) => search(i)), auth)
    t.equal(res.status, 200)
    const answers = await res.json() as any[]
    t.equal(answers.length, MAX_BATCH)
    t.ok(answers.every(answer => answer.result?.isError !== true), 'every call answered')
    const after = await rpc(server.url, search(1), auth)
    t.equal(after.status, 200, 'the next request is served')
  })

  t.test('a 2026-07-28 batch is refused, so its Mcp-Name header cannot name one call and carry others', async t => {
    const call = (id: number, name: string, args: object): object => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args, _meta: metaFor() } })
    const res = await rpc(server.url, [call(1, 'ha_search_entities', { query: 'x' }), call(2, 'ha_call_service', { domain: 'light', service: 'turn_on', target: { entity_id: 'light.x' } })], {
      ...auth, 'mcp-protocol-version': MODERN, 'mcp-method': 'tools/call', 'mcp-name': 'ha_search_entities'
    })
    t.equal(res.status, 400)
    t.equal((await res.json() as any).error?.code, -32600)
  })
})

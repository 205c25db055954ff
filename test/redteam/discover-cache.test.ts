// What server/discover and the 2026-07-28 list caching hints tell whom, and the Mcp-Name header as
// a gateway would read it (src/mcp/transport/stateless.ts, src/mcp/handlers.ts).
import t from 'tap'
import { rpc, startHome, startServer, TEST_TOKEN } from '../helper.ts'
import { metaFor, modern, MODERN } from './_modern.ts'

t.test('discover, caching hints and Mcp-Name under attack', async t => {
  const home = await startHome(t)
  const server = await startServer(t, { home, options: { allow_write: true, filter_reads: true, entity_denylist: ['lock.*'] } })
  const { token: reader } = await server.app.services.tokens.create({ name: 'reader', scopes: ['read'] })

  t.test('server/discover says the same to every token and names no entity, token or option', async t => {
    const asOwner = await modern(server.url, TEST_TOKEN, 'server/discover')
    const asReader = await modern(server.url, reader, 'server/discover')
    t.equal(asOwner.status, 200)
    t.same(asReader.body.result, asOwner.body.result, 'one answer for every token')
    const text = JSON.stringify(asOwner.body)
    for (const secret of [TEST_TOKEN, reader, home.token]) t.notOk(text.includes(secret), 'no token')
    t.notOk(home.entityIds().some(id => text.includes(id)), 'no entity id, hidden or not')
    t.notMatch(text, /entity_denylist|lock\.\*|allow_write/, 'no option')
    const unauthenticated = await rpc(server.url, { jsonrpc: '2.0', id: 1, method: 'server/discover', params: { _meta: metaFor() } }, { 'mcp-protocol-version': MODERN, 'mcp-method': 'server/discover' })
    t.equal(unauthenticated.status, 401, 'and nothing without a token')
  })

  t.test('tools/list depends on the token and every list says cacheScope private', async t => {
    const owner = await modern(server.url, TEST_TOKEN, 'tools/list')
    const read = await modern(server.url, reader, 'tools/list')
    const names = (answer: { body: any }): string[] => answer.body.result.tools.map((tool: { name: string }) => tool.name)
    t.ok(names(owner).includes('ha_call_service'))
    t.notOk(names(read).includes('ha_call_service'), 'a read token is not shown a write tool')
    for (const method of ['tools/list', 'prompts/list', 'resources/list', 'resources/templates/list']) {
      for (const token of [TEST_TOKEN, reader]) {
        const answer = await modern(server.url, token, method)
        t.equal(answer.body.result?.cacheScope, 'private', `${method} is private`)
      }
    }
  })

  t.test('Mcp-Name must name exactly the body\'s tool: case, padding, encoding or a second header do not pass', async t => {
    const params = { name: 'ha_call_service', arguments: { domain: 'light', service: 'turn_on', target: { entity_id: 'light.x' }, dry_run: true }, _meta: metaFor() }
    const send = async (headers: Record<string, string> | Array<[string, string]>): Promise<number> => {
      const res = await fetch(`${server.url}/mcp`, {
        method: 'POST',
        headers: [['authorization', `Bearer ${TEST_TOKEN}`], ['content-type', 'application/json'], ['accept', 'application/json'], ['mcp-protocol-version', MODERN], ['mcp-method', 'tools/call'], ...(Array.isArray(headers) ? headers : Object.entries(headers))],
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params })
      })
      await res.text()
      return res.status
    }
    const encoded = (text: string): string => `=?base64?${Buffer.from(text).toString('base64')}?=`
    t.equal(await send({ 'mcp-name': 'ha_search_entities' }), 400, 'another tool')
    t.equal(await send({ 'mcp-name': 'HA_CALL_SERVICE' }), 400, 'another case')
    t.equal(await send({ 'mcp-name': encoded('ha_call_service ') }), 400, 'padding inside the encoding')
    t.equal(await send({ 'mcp-name': encoded('ha_search_entities') }), 400, 'another tool, encoded')
    t.equal(await send([['mcp-name', 'ha_search_entities'], ['mcp-name', 'ha_call_service']]), 400, 'two headers')
    t.equal(await send({ 'mcp-name': encoded('ha_call_service') }), 200, 'the same tool, encoded, passes')
  })
})

// What a call reads and answers must die with it. V8 keeps some objects in the old generation from the
// start: a function literal assigned straight to a property (`obj.prop = () => ...`), and the map of an
// object with accessors of its own. Whatever such an object's scope holds then survives every young
// collection until the next full one. zod had both on a call's path (`addIssue`, set by the schema the
// SDK checks each tools/call result with, and the result of every failed parse, which the SDK's
// message checks make on each request): each answer and each request stayed in memory until a full
// collection, and those collections set the lookups' p99 (docs/performance.md; fixed by
// patches/zod+4.6.7.patch). These hold the paths to them: once a call is answered, or once a check has
// turned a message down, two young collections leave nothing of it.
import t from 'tap'
import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'
import { PRIMARY_IDENTITY } from '../../src/auth/identity.ts'
import { startHome, startServer, TEST_TOKEN } from '../helper.ts'
import { metaFor, MODERN } from '../modern.ts'
import { isJSONRPCErrorResponse, isJSONRPCResultResponse } from '@modelcontextprotocol/server'

setFlagsFromString('--expose-gc')
const collectYoung = runInNewContext('gc') as (options: { type: 'minor' }) => void

const CALLS = 40

t.test('a value a tool returned is gone after two young collections, in both eras', async t => {
  const home = await startHome(t, { entities: 300 })
  const { app } = await startServer(t, { home })
  const mcp = app.services.mcp
  const tool = mcp.catalog.find('ha_list_entities', mcp.options, PRIMARY_IDENTITY)
  if (!tool) throw new Error('ha_list_entities is not in the catalogue')
  // The one value to watch: what the handler returns, before it is serialized.
  let returned: WeakRef<object> | undefined
  const handler = tool.definition.handler
  const watched: typeof handler = async (ctx, args) => {
    const value = await handler(ctx, args)
    returned = new WeakRef(value as object)
    return value
  }
  Object.assign(tool.definition, { handler: watched })
  t.teardown(() => { Object.assign(tool.definition, { handler }) })

  const params = (i: number): Record<string, unknown> => ({ name: 'ha_list_entities', arguments: { domain: i % 2 === 0 ? 'light' : 'sensor', limit: 50 } })
  const eras = {
    2025: (i: number) => ({ headers: {}, body: { jsonrpc: '2.0', id: i, method: 'tools/call', params: params(i) } }),
    '2026-07-28': (i: number) => ({
      headers: { 'mcp-protocol-version': MODERN, 'mcp-method': 'tools/call', 'mcp-name': 'ha_list_entities' },
      body: { jsonrpc: '2.0', id: i, method: 'tools/call', params: { ...params(i), _meta: metaFor() } }
    })
  }
  for (const [era, request] of Object.entries(eras)) {
    let alive = 0
    for (let i = 0; i < CALLS; i++) {
      const { headers, body } = request(i)
      const res = await app.inject({
        method: 'POST',
        url: '/mcp',
        headers: { authorization: `Bearer ${TEST_TOKEN}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
        payload: body
      })
      t.equal(res.json().result?.isError, undefined, `${era}: call ${i} answered`)
      // Let what the answer's delivery scheduled run, then collect twice: a young object that lives on
      // through two collections is promoted.
      await new Promise(resolve => setImmediate(resolve))
      await new Promise(resolve => setImmediate(resolve))
      collectYoung({ type: 'minor' })
      collectYoung({ type: 'minor' })
      if (returned?.deref() !== undefined) alive++
      returned = undefined
    }
    // A young collection that happens to fall inside a call may keep that one call's value: a few, not all.
    t.ok(alive <= CALLS / 10, `${era}: ${alive} of ${CALLS} answers outlived their call`)
  }
})

/** A request a check turns down, as a weak reference: the function's frame holds the message no longer. */
function turnedDown (check: (value: unknown) => boolean, i: number): WeakRef<object> {
  const message = { jsonrpc: '2.0', id: i, method: 'tools/call', params: { name: 'ha_list_entities', arguments: { domain: 'light', nested: [{ deep: 'x' }] } } }
  if (check(message)) throw new Error('a request passed for a response')
  return new WeakRef(message)
}

t.test('requests the SDK\'s message checks turned down are gone after two young collections', async t => {
  for (const [name, check] of Object.entries({ isJSONRPCResultResponse, isJSONRPCErrorResponse })) {
    const messages = Array.from({ length: CALLS }, (_, i) => turnedDown(check, i))
    // A new WeakRef keeps its target until the current job ends.
    await new Promise(resolve => setImmediate(resolve))
    collectYoung({ type: 'minor' })
    collectYoung({ type: 'minor' })
    // zod remembers the context of a schema's last parse, so the last message may stay: one, not all.
    const alive = messages.filter(message => message.deref() !== undefined).length
    t.ok(alive <= CALLS / 10, `${name}: ${alive} of ${CALLS} requests outlived their check`)
  }
})

// The direct path for 2025-era read tool calls (src/mcp/handlers.ts directToolCall) against the SDK's
// path: for every caller (the primary token, named tokens with '*': 'none' or category levels, an
// OAuth grant, a denylist), every read tool and a hidden or denied one, and odd messages (ids of
// every type, extra or odd params keys, `__proto__`/`constructor` keys, unicode, deep and wide
// arguments), the answer a client reads must be byte for byte the SDK's.
import t from 'tap'
import { identityForScopes, PRIMARY_IDENTITY, type Identity } from '../../src/auth/identity.ts'
import { answersBody, checkBody, isDirectAnswer } from '../../src/mcp/stateless.ts'
import { startHome, startServer } from '../helper.ts'
import { bothPaths } from '../e2e/_both-paths.ts'

const callers: Identity[] = [
  PRIMARY_IDENTITY,
  { id: 'token:none', name: 'nothing', levels: { '*': 'none' } },
  { id: 'token:entities', name: 'entities only', levels: { '*': 'none', entities: 'read' } },
  { id: 'token:system', name: 'system only', levels: { '*': 'none', system: 'read' } },
  { id: 'token:deny', name: 'no lights', levels: { '*': 'read' }, entityDenylist: ['light.*', 'camera.*'] },
  { id: 'token:allow', name: 'locks only', levels: { '*': 'read' }, entityAllowlist: ['lock.*'] },
  identityForScopes('oauth:grant', 'an app', ['read']),
  identityForScopes('oauth:nothing', 'an app granted nothing', [])
]

/** Timings, clock readings and history windows differ between two runs of the same call: digits are not compared. */
const normal = (text: string): string => text.replace(/[0-9]+/g, '0')

function deep (depth: number): unknown {
  let value: unknown = 'light.x'
  for (let i = 0; i < depth; i++) value = { a: value }
  return value
}

t.test('every caller, every read tool, odd messages: the direct answer is the SDK\'s', async t => {
  const home = await startHome(t)
  for (const options of [{ allow_camera: true }, { filter_reads: true, entity_denylist: ['lock.*'], allow_camera: true }]) {
    const server = await startServer(t, { home, options })
    await server.app.services.home.ready()
    const deps = server.app.services.mcp
    const { viaSdk, direct } = await bothPaths(t, deps)
    const ids = home.entityIds()
    const light = ids.find(id => id.startsWith('light.')) as string
    const lock = ids.find(id => id.startsWith('lock.')) as string
    const camera = ids.find(id => id.startsWith('camera.')) as string
    const reads = deps.catalog.tools.filter(tool => tool.definition.kind === 'read').map(tool => tool.definition.name)
    const call = (id: unknown, params: unknown): Record<string, unknown> => ({ jsonrpc: '2.0', id, method: 'tools/call', params })
    const messages: unknown[] = []
    for (const name of reads) {
      messages.push(call(1, { name }), call(2, { name, arguments: {} }), call(3, { name, arguments: { entity_id: lock } }))
    }
    const odd: unknown[] = [
      call(0, { name: 'ha_get_entity', arguments: { entity_id: light } }),
      call(-7, { name: 'ha_get_entity', arguments: { entity_id: camera } }),
      call(1.5, { name: 'ha_get_entity', arguments: { entity_id: light } }),
      call('', { name: 'ha_get_entity', arguments: { entity_id: lock } }),
      call('é\u2028\ud800', { name: 'ha_get_entity', arguments: { entity_id: lock } }),
      call(Number.MAX_SAFE_INTEGER, { name: 'ha_get_entity', arguments: { entity_id: lock } }),
      call(null, { name: 'ha_get_entity', arguments: { entity_id: lock } }),
      call(true, { name: 'ha_get_entity', arguments: { entity_id: lock } }),
      call({}, { name: 'ha_get_entity', arguments: { entity_id: lock } }),
      call(4, { name: 'ha_get_entity', arguments: { entity_id: lock }, extra: 1 }),
      call(5, { name: 'ha_get_entity', arguments: { entity_id: lock }, task: { ttl: 1000 } }),
      call(6, { name: 'ha_get_entity', arguments: { entity_id: lock }, _meta: {} }),
      call(7, { name: 'ha_get_entity', arguments: null }),
      call(8, { name: 'ha_get_entity', arguments: 'light.x' }),
      call(9, { name: 'ha_get_entity', arguments: [lock] }),
      call(10, { name: 42 }),
      call(11, { name: 'HA_GET_ENTITY', arguments: { entity_id: lock } }),
      call(12, { name: 'ha_get_entity ', arguments: { entity_id: lock } }),
      call(13, { name: '__proto__' }),
      call(14, { name: 'constructor' }),
      call(15, JSON.parse(`{"name":"ha_get_entity","arguments":{"__proto__":{"entity_id":"${lock}"},"entity_id":"${lock}"}}`)),
      call(16, JSON.parse(`{"name":"ha_get_entity","arguments":{"constructor":{"prototype":1},"entity_id":"${lock}"}}`)),
      call(17, JSON.parse(`{"name":"ha_get_entity","__proto__":{"x":1},"arguments":{"entity_id":"${lock}"}}`)),
      call(18, { name: 'ha_get_entity', arguments: { entity_id: lock.toUpperCase() } }),
      call(19, { name: 'ha_get_entity', arguments: { entity_id: `${lock}\u0000` } }),
      call(20, { name: 'ha_get_entity', arguments: { entity_id: deep(5000) } }),
      call(21, { name: 'ha_search_entities', arguments: { query: 'x'.repeat(100_000) } }),
      call(22, { name: 'ha_list_entities', arguments: { domain: 'light', limit: 50, junk: Array.from({ length: 2000 }, (_, i) => ({ [`k${i}`]: i })) } }),
      call(23, { name: 'ha_render_template', arguments: { template: `{{ state_attr('${camera}', 'access_token') }}x{{ state_attr('${camera}', 'access_token') }}` } }),
      call(24, { name: 'ha_render_template', arguments: { template: `{"__proto__": {"a": 1}, "{{ state_attr('${camera}', 'access_token') }}": 1}` } }),
      call(25, { name: 'ha_render_template', arguments: { template: `{{ {'__proto__': states('${lock}')} | tojson }}` } }),
      call(26, { name: 'ha_get_entity', arguments: { entity_id: `camera.${'x'.repeat(60)}` } }),
      { jsonrpc: '2.0', method: 'tools/call', params: { name: 'ha_get_entity', arguments: { entity_id: lock } } },
      { jsonrpc: '2.0', id: 30, result: {} },
      { jsonrpc: '2.0', id: 31, error: { code: 1, message: 'x' } },
      { jsonrpc: '1.0', id: 32, method: 'tools/call', params: { name: 'ha_get_entity', arguments: { entity_id: lock } } },
      { id: 33, method: 'tools/call', params: { name: 'ha_get_entity', arguments: { entity_id: lock } } },
      { jsonrpc: '2.0', id: 34, method: 'tools/call', params: { name: 'ha_get_entity', arguments: { entity_id: lock } }, extra: true },
      { jsonrpc: '2.0', id: 35, method: 'tools/call', params: [] },
      { jsonrpc: '2.0', id: 36, method: 'tools/call', params: null },
      { jsonrpc: '2.0', id: 37, method: 'tools/call', params: 'ha_get_entity' },
      { jsonrpc: '2.0', id: 38, method: 'tools/call' }
    ]
    messages.push(...odd)
    let compared = 0
    let directly = 0
    for (const identity of callers) {
      for (const message of messages) {
        const checked = checkBody(message)
        if (!checked.ok) continue
        const label = `${identity.name}, ${JSON.stringify(message).slice(0, 140)}`
        const sdk = await viaSdk.handle(checked.messages, identity, new AbortController().signal)
        const ours = await direct.handle(checked.messages, identity, new AbortController().signal)
        const expected = normal(sdk.length === 0 ? '' : JSON.stringify(sdk[0]))
        const got = normal(ours.length === 0 ? '' : answersBody(ours, false).toString())
        compared++
        if (ours.some(isDirectAnswer)) directly++
        if (got !== expected) t.equal(got.slice(0, 600), expected.slice(0, 600), `${label}: the same bytes`)
      }
      // A batch of all of them at once, as a 2025 client may send.
      const batch = messages.filter(m => checkBody(m).ok).slice(0, 100)
      const sdk = await viaSdk.handle(batch as never, identity, new AbortController().signal)
      const ours = await direct.handle(batch as never, identity, new AbortController().signal)
      const [a, b] = [normal(answersBody(ours, true).toString()), normal(JSON.stringify(sdk))]
      let at = 0
      while (at < a.length && a[at] === b[at]) at++
      t.equal(a.slice(Math.max(0, at - 300), at + 200), b.slice(Math.max(0, at - 300), at + 200), `${identity.name}: a batch, the same bytes`)
    }
    t.ok(directly > 50, `some calls were answered directly (${directly} of ${compared})`)
  }
})

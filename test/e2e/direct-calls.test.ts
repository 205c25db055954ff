// 2025-era read tool calls are answered without the SDK's round trip (src/mcp/handlers.ts
// directToolCall): every answer must be byte for byte what the SDK's way gives, errors included, and
// everything else must still take the SDK's way.
import t from 'tap'
import { PRIMARY_IDENTITY } from '../../src/auth/identity.ts'
import { answersBody, isDirectAnswer } from '../../src/mcp/stateless.ts'
import { rpc, startHome, startServer } from '../helper.ts'
import { bothPaths } from './_both-paths.ts'

t.test('direct read calls answer exactly what the SDK answers', async t => {
  const home = await startHome(t)
  const server = await startServer(t, { home, options: { allow_camera: true } })
  const deps = server.app.services.mcp
  const { viaSdk, direct } = await bothPaths(t, deps)
  const ids = home.entityIds()
  const light = ids.find(id => id.startsWith('light.')) as string
  const camera = ids.find(id => id.startsWith('camera.')) as string
  const call = (id: number | string, name: string, args?: unknown, extra: Record<string, unknown> = {}): Record<string, unknown> =>
    ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, ...(args === undefined ? {} : { arguments: args }), ...extra } })
  const cases: Array<[string, Array<Record<string, unknown>>, boolean]> = [
    ['get', [call(1, 'ha_get_entity', { entity_id: light })], true],
    ['get of a camera (its token removed)', [call('a-string-id', 'ha_get_entity', { entity_id: camera })], true],
    ['get of a missing entity (an error result)', [call(2, 'ha_get_entity', { entity_id: 'light.nowhere_at_all' })], true],
    ['list by domain', [call(3, 'ha_list_entities', { domain: 'light', limit: 50 })], true],
    ['list without arguments (counts)', [call(4, 'ha_list_entities')], true],
    ['list over the answer cap (shaped to fit)', [call(5, 'ha_list_entities', { limit: 200, search: 'a' })], true],
    ['list with a numeric string limit', [call(6, 'ha_list_entities', { domain: 'sensor', limit: '5' })], true],
    ['invalid arguments', [call(7, 'ha_list_entities', { limit: 'lots' })], true],
    ['search', [call(8, 'ha_search_entities', { query: 'kitchen light', limit: 20 })], true],
    ['search without a match', [call(9, 'ha_search_entities', { query: 'zzqx nothing' })], true],
    ['a template quoting a camera token (scrubbed, parsed back)', [call(10, 'ha_render_template', { template: `{{ state_attr('${camera}', 'access_token') }}` })], true],
    ['a batch of reads', [call(11, 'ha_get_entity', { entity_id: light }), call(12, 'ha_search_entities', { query: 'door' })], true],
    ['an unknown tool (the SDK answers)', [call(13, 'ha_no_such_tool', {})], false],
    ['a camera tool (the SDK answers)', [call(14, 'ha_get_camera_snapshot', { entity_id: camera })], false],
    ['arguments that are not an object (the SDK answers)', [call(15, 'ha_get_entity', ['light.x'])], false],
    ['params with _meta (the SDK answers)', [call(16, 'ha_get_entity', { entity_id: light }, { _meta: { progressToken: 1 } })], false],
    ['tools/list (the SDK answers)', [{ jsonrpc: '2.0', id: 17, method: 'tools/list' }], false]
  ]
  let capped = 0
  for (const [label, messages, expectDirect] of cases) {
    const batch = messages.length > 1
    const sdkAnswers = await viaSdk.handle(messages as never, PRIMARY_IDENTITY, new AbortController().signal)
    const directAnswers = await direct.handle(messages as never, PRIMARY_IDENTITY, new AbortController().signal)
    t.equal(answersBody(directAnswers, batch).toString('utf8'), JSON.stringify(batch ? sdkAnswers : sdkAnswers[0]), `${label}: the same bytes`)
    t.equal(directAnswers.every(isDirectAnswer), expectDirect, `${label}: ${expectDirect ? 'answered directly' : 'through the SDK'}`)
    if (JSON.stringify(sdkAnswers).includes('Answer capped at about 15 KB')) capped++
  }
  t.equal(capped, 1, 'the over-cap list was shaped to the cap')
  // The route writes that body as is.
  const message = call(21, 'ha_list_entities', { domain: 'light', limit: 50 })
  const [expected] = await viaSdk.handle([message] as never, PRIMARY_IDENTITY, new AbortController().signal)
  const res = await rpc(server.url, message, { authorization: `Bearer ${server.token}` })
  t.equal(res.status, 200)
  t.equal(res.headers.get('content-type'), 'application/json; charset=utf-8')
  t.equal(await res.text(), JSON.stringify(expected), 'over HTTP: the SDK\'s answer, byte for byte')
})

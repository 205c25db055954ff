// The camera-token scrub (src/home/camera-tokens.ts, a skipping pass since 9d6bedb) on the direct
// path of 2025-era read calls: a token quoted at the answer's very start or end, glued to other
// letters and digits, as a key, in an error message, and the token before a rotation, never reaches
// the client; a token of another alphabet (base64url) and a shorter token beside a longer one too.
import t from 'tap'
import { eventually, rpc, startHome, startServer, TEST_TOKEN } from '../helper.ts'

const auth = { authorization: `Bearer ${TEST_TOKEN}` }

t.test('camera tokens never reach a client of the direct path', async t => {
  const home = await startHome(t)
  const server = await startServer(t, { home })
  await server.app.services.home.ready()
  const cameras = home.entityIds().filter(id => id.startsWith('camera.'))
  const camera = cameras[0] as string
  const call = async (name: string, args: Record<string, unknown>): Promise<string> => {
    const res = await rpc(server.url, { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } }, auth)
    return await res.text()
  }
  const rotate = async (token: string): Promise<void> => {
    home.setState(camera, 'idle', { ...home.getState(camera)?.attributes, access_token: token })
    await eventually(() => server.app.services.ha.states.get(camera)?.attributes.access_token === token, 5000, 'the new token')
  }
  const tokens = ['a1'.repeat(32), 'b2'.repeat(32), 'c3'.repeat(32)]
  for (const token of tokens) await rotate(token)
  const current = tokens[2] as string
  const older = tokens[0] as string
  const attr = `state_attr('${camera}', 'access_token')`
  const templates: Array<[string, string]> = [
    ['alone', `{{ ${attr} }}`],
    ['at the start, glued to letters after', `{{ ${attr} }}abc123`],
    ['at the end, glued to digits before', `999{{ ${attr} }}`],
    ['twice, glued to each other', `{{ ${attr} }}{{ ${attr} }}`],
    ['between underscores and dots', `_{{ ${attr} }}.x`],
    ['as a key', `{"{{ ${attr} }}": 1}`],
    ['the token before the last two rotations', `x${older}y`],
    ['a prefix of the token only, then the token', `${current.slice(0, 63)} ${current}`]
  ]
  for (const [label, template] of templates) {
    const text = await call('ha_render_template', { template })
    for (const token of tokens) t.notOk(text.includes(token), `${label}: no token in ${text.slice(0, 200)}`)
    t.ok(text.includes('[redacted camera token]'), `${label}: the redaction is shown`)
  }
  const missing = await call('ha_get_entity', { entity_id: `light.${current}` })
  t.notOk(missing.includes(current), `an error message echoing the id: ${missing.slice(0, 200)}`)
  const listed = await call('ha_list_entities', { domain: 'camera', limit: 50 })
  t.notOk(tokens.some(token => listed.includes(token)), 'the camera list')
  const got = await call('ha_get_entity', { entity_id: camera })
  t.notOk(tokens.some(token => got.includes(token)), 'the camera itself')

  // A token of another alphabet takes the slow path: it is still found everywhere.
  const odd = 'Zk-_9q'.repeat(8)
  await rotate(odd)
  const text = await call('ha_render_template', { template: `-{{ ${attr} }}-${current}` })
  t.notOk(text.includes(odd) || text.includes(current), `a base64url token and an older hex one: ${text.slice(0, 200)}`)

  // A template may transform the token first (upper, reverse, spaced) and the client undo it: no scrub
  // can follow every rewrite, so rendering a template counts as reading the cameras (its category, tools/camera/render-template.ts).
  // A token without the camera category neither sees nor runs ha_render_template.
  const { token: reader } = await server.app.services.tokens.create({ name: 'reader', scopes: ['read'] })
  const asReader = { authorization: `Bearer ${reader}` }
  const listing = await (await rpc(server.url, { jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} }, asReader)).json() as { result: { tools: Array<{ name: string }> } }
  t.notOk(listing.result.tools.some(tool => tool.name === 'ha_render_template'), 'a read token without camera is not offered templates')
  t.ok(listing.result.tools.some(tool => tool.name === 'ha_get_entity'), 'it still reads entities')
  const refused = await (await rpc(server.url, { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'ha_render_template', arguments: { template: `{{ ${attr} | upper }}` } } }, asReader)).text()
  t.notOk(refused.toLowerCase().includes(odd.toLowerCase()), `a read token's template call gets no token: ${refused.slice(0, 200)}`)
  t.notMatch(refused, /"result":\{"content"/, 'and no rendered result')
  const { token: viewer } = await server.app.services.tokens.create({ name: 'viewer', scopes: ['read', 'camera'] })
  const allowed = await (await rpc(server.url, { jsonrpc: '2.0', id: 4, method: 'tools/call', params: { name: 'ha_render_template', arguments: { template: '{{ 1 + 1 }}' } } }, { authorization: `Bearer ${viewer}` })).text()
  t.match(allowed, /"result":"2"/, 'a token with the camera category renders templates')
})

// List and search rows are each row's compact form, made once per catalogue row: a token in a name,
// or one that becomes a token after the row's compact form was made, is still redacted in both.
t.test('camera tokens in list and search rows, remembered or not, never reach a client', async t => {
  const home = await startHome(t)
  const server = await startServer(t, { home })
  await server.app.services.home.ready()
  const camera = home.entityIds().find(id => id.startsWith('camera.')) as string
  const call = async (name: string, args: Record<string, unknown>): Promise<string> => {
    const res = await rpc(server.url, { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } }, auth)
    return await res.text()
  }
  const token = 'd4e5'.repeat(16)
  home.setState(camera, 'idle', { ...home.getState(camera)?.attributes, access_token: token, friendly_name: `Door ${token}` })
  await eventually(() => server.app.services.ha.states.get(camera)?.attributes.access_token === token, 5000, 'the token')
  for (const [label, text] of [['list', await call('ha_list_entities', { domain: 'camera', limit: 50 })], ['search', await call('ha_search_entities', { query: 'door' })]] as const) {
    t.notOk(text.includes(token), `${label}: no token in ${text.slice(0, 200)}`)
    t.ok(text.includes('[redacted camera token]'), `${label}: the redaction is shown`)
  }
  // A light whose name is listed (its row's JSON remembered) before that name becomes a camera's token.
  const light = home.entityIds().find(id => id.startsWith('light.')) as string
  const later = 'f6a7'.repeat(16)
  home.setState(light, 'on', { ...home.getState(light)?.attributes, friendly_name: `Lamp ${later}` })
  await eventually(() => server.app.services.ha.states.get(light)?.attributes.friendly_name === `Lamp ${later}`, 5000, 'the name')
  const before = await call('ha_list_entities', { domain: 'light', limit: 200 })
  t.ok(before.includes(later), 'not a token yet: shown')
  home.setState(camera, 'idle', { ...home.getState(camera)?.attributes, access_token: later })
  await eventually(() => server.app.services.ha.states.get(camera)?.attributes.access_token === later, 5000, 'the new token')
  const after = await call('ha_list_entities', { domain: 'light', limit: 200 })
  t.notOk(after.includes(later), 'a remembered row quoting what is now a token is redacted')
  t.ok(after.includes('[redacted camera token]'))
})

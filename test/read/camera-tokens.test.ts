// A camera's access_token opens /api/camera_proxy/<id>?token= with nothing else: it is a credential,
// so it never appears in an answer, with allow_camera off or on.
import t from 'tap'
import { callTool, caughtUp, connectClient, rpc, startHome, startServer, TEST_TOKEN, type TestServer, type ToolAnswer } from '../helper.ts'
import { MODERN, metaFor } from '../modern.ts'

t.test('camera access tokens never reach the client', async t => {
  const home = await startHome(t)
  const cameras = home.entityIds().filter(id => id.startsWith('camera.'))
  t.ok(cameras.length > 0, 'the demo has cameras')
  const camera = cameras[0] as string
  const raw = home.getState(camera)?.attributes as { access_token: string, entity_picture: string }
  t.match(raw.entity_picture, /\?token=/, 'the house itself serves a token in the picture URL')
  const proxied = await fetch(`${home.url}${raw.entity_picture}`)
  t.equal(proxied.status, 200, 'and that URL opens the image with nothing else: it is a credential')

  for (const allowCamera of [false, true]) {
    t.test(`allow_camera ${String(allowCamera)}`, async t => {
      const server = await startServer(t, { home, options: { allow_camera: allowCamera } })
      const client = await connectClient(t, server)
      const answers: Array<[string, string]> = []
      const keep = (label: string, answer: ToolAnswer): void => { answers.push([label, answer.text]) }

      const entity = await callTool(client, 'ha_get_entity', { entity_id: camera })
      keep('ha_get_entity', entity)
      t.notOk(entity.isError, entity.text)
      t.notOk('access_token' in entity.json.attributes, 'no access_token attribute')
      t.notMatch(String(entity.json.attributes.entity_picture ?? ''), /token=/, 'entity_picture without its token')
      if (typeof entity.json.attributes.entity_picture === 'string') {
        const stripped = await fetch(`${home.url}${entity.json.attributes.entity_picture as string}`)
        t.equal(stripped.status, 401, 'the URL we hand out does not open the image by itself')
      }
      const resource = await client.readResource({ uri: `ha://entity/${camera}` })
      answers.push(['resource', JSON.stringify(resource)])
      keep('search', await callTool(client, 'ha_search_entities', { query: camera }))
      keep('list', await callTool(client, 'ha_list_entities', { domain: 'camera' }))
      keep('history', await callTool(client, 'ha_get_history', { entity_id: camera, hours: 24 }))
      keep('template', await callTool(client, 'ha_render_template', { template: `{{ state_attr('${camera}', 'access_token') }} {{ state_attr('${camera}', 'entity_picture') }}` }))
      for (const [label, text] of answers) {
        for (const id of cameras) {
          const token = (home.getState(id)?.attributes as { access_token: string }).access_token
          t.notOk(text.includes(token), `${label}: no raw token of ${id}`)
        }
      }
    })
  }
})

// The camera-token scrub (src/home/camera-tokens.ts, a skipping pass) on stateless
// 2025-era read calls: a token quoted at the answer's very start or end, glued to other
// letters and digits, as a key, in an error message, and the token before a rotation, never reaches
// the client; a token of another alphabet (base64url) and a shorter token beside a longer one too.
t.test('red team: camera tokens at the edges of an answer', async t => {
  const auth = { authorization: `Bearer ${TEST_TOKEN}` }

  t.test('camera tokens never reach a client of a stateless read call', async t => {
    const home = await startHome(t)
    const server = await startServer(t, { home })
    await server.app.services.home.ready()
    const cameras = home.entityIds().filter(id => id.startsWith('camera.'))
    const camera = cameras[0] as string
    const call = async (name: string, args: Record<string, unknown>): Promise<string> => {
      const res = await rpc(server, { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } }, auth)
      return await res.text()
    }
    const rotate = async (token: string): Promise<void> => {
      home.setState(camera, 'idle', { ...home.getState(camera)?.attributes, access_token: token })
      await caughtUp(server)
      t.equal(server.app.services.ha.states.get(camera)?.attributes.access_token, token, 'the add-on sees the new token')
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
    const listing = await (await rpc(server, { jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} }, asReader)).json() as { result: { tools: Array<{ name: string }> } }
    t.notOk(listing.result.tools.some(tool => tool.name === 'ha_render_template'), 'a read token without camera is not offered templates')
    t.ok(listing.result.tools.some(tool => tool.name === 'ha_get_entity'), 'it still reads entities')
    const refused = await (await rpc(server, { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'ha_render_template', arguments: { template: `{{ ${attr} | upper }}` } } }, asReader)).text()
    t.notOk(refused.toLowerCase().includes(odd.toLowerCase()), `a read token's template call gets no token: ${refused.slice(0, 200)}`)
    t.notMatch(refused, /"result":\{"content"/, 'and no rendered result')
    const { token: viewer } = await server.app.services.tokens.create({ name: 'viewer', scopes: ['read', 'camera'] })
    const allowed = await (await rpc(server, { jsonrpc: '2.0', id: 4, method: 'tools/call', params: { name: 'ha_render_template', arguments: { template: '{{ 1 + 1 }}' } } }, { authorization: `Bearer ${viewer}` })).text()
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
      const res = await rpc(server, { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } }, auth)
      return await res.text()
    }
    const token = 'd4e5'.repeat(16)
    home.setState(camera, 'idle', { ...home.getState(camera)?.attributes, access_token: token, friendly_name: `Door ${token}` })
    await caughtUp(server)
    t.equal(server.app.services.ha.states.get(camera)?.attributes.access_token, token, 'the add-on sees the token')
    for (const [label, text] of [['list', await call('ha_list_entities', { domain: 'camera', limit: 50 })], ['search', await call('ha_search_entities', { query: 'door' })]] as const) {
      t.notOk(text.includes(token), `${label}: no token in ${text.slice(0, 200)}`)
      t.ok(text.includes('[redacted camera token]'), `${label}: the redaction is shown`)
    }
    // A light whose name is listed (its row's JSON remembered) before that name becomes a camera's token.
    const light = home.entityIds().find(id => id.startsWith('light.')) as string
    const later = 'f6a7'.repeat(16)
    home.setState(light, 'on', { ...home.getState(light)?.attributes, friendly_name: `Lamp ${later}` })
    await caughtUp(server)
    t.equal(server.app.services.ha.states.get(light)?.attributes.friendly_name, `Lamp ${later}`, 'the add-on sees the name')
    const before = await call('ha_list_entities', { domain: 'light', limit: 200 })
    t.ok(before.includes(later), 'not a token yet: shown')
    home.setState(camera, 'idle', { ...home.getState(camera)?.attributes, access_token: later })
    await caughtUp(server)
    t.equal(server.app.services.ha.states.get(camera)?.attributes.access_token, later, 'the add-on sees the new token')
    const after = await call('ha_list_entities', { domain: 'light', limit: 200 })
    t.notOk(after.includes(later), 'a remembered row quoting what is now a token is redacted')
    t.ok(after.includes('[redacted camera token]'))
  })
})

// Red-team tests for list and search answers (invoke.ts jsonResult) and the camera-token scrub over
// their text: a token as a row's state, in a name among quotes, backslashes, astral text and a
// control character's \u escape, rows made before the token existed, the three tokens a camera keeps;
// hidden entities' names and ids inside visible rows (filter_reads). Each as a 2025-era POST without
// a session, with the 2026-07-28 envelope, and through the SDK's own client in a session; and the
// three must give the same answer.
t.test('red team: list and search answers and their scrub', async t => {
  const REDACTED = '[redacted camera token]'

  type Way = 'legacy' | 'modern' | 'session'

  /** One tool call the three ways; each answer as its raw text (the HTTP body, or the SDK's result as JSON) and its result. */
  async function threeWays (t: { teardown: (fn: () => unknown) => void }, server: TestServer): Promise<(name: string, args: Record<string, unknown>) => Promise<Record<Way, { raw: string, text: string, structured: unknown }>>> {
    const client = await connectClient(t, server)
    return async (name, args) => {
      const legacy = await (await rpc(server, { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } }, { authorization: `Bearer ${server.token}` })).text()
      const modern = await (await rpc(server, { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args, _meta: metaFor() } }, {
        authorization: `Bearer ${server.token}`, 'mcp-protocol-version': MODERN, 'mcp-method': 'tools/call', 'mcp-name': name
      })).text()
      const session = await client.callTool({ name, arguments: args }) as { content: Array<{ text: string }>, structuredContent: unknown }
      const of = (raw: string): { raw: string, text: string, structured: unknown } => {
        const result = (JSON.parse(raw) as { result: { content: Array<{ text: string }>, structuredContent: unknown } }).result
        return { raw, text: result.content[0]?.text ?? '', structured: result.structuredContent }
      }
      return { legacy: of(legacy), modern: of(modern), session: { raw: JSON.stringify(session), text: session.content[0]?.text ?? '', structured: session.structuredContent } }
    }
  }

  t.test('camera tokens never leak from list and search answers, whichever way they are asked', async t => {
    const home = await startHome(t)
    const server = await startServer(t, { home, options: { enable_sessions: true } })
    await server.app.services.home.ready()
    const camera = home.entityIds().find(id => id.startsWith('camera.')) as string
    const lights = home.entityIds().filter(id => id.startsWith('light.'))
    t.ok(lights.length >= 4, 'enough lights')
    const [l1, l2, l3, l4] = lights as [string, string, string, string]
    const tokens = ['0a1b2c3d'.repeat(8), 'FfEeDdCc'.repeat(8), '9e8d7c6b'.repeat(8)]
    const [t1, t2, t3] = tokens as [string, string, string]
    const split = 'a5b6c7d8'.repeat(8)
    const set = (id: string, state: string, name: string): void => { home.setState(id, state, { ...home.getState(id)?.attributes, friendly_name: name }) }
    // Before any of them is a token: a light whose state is t1, one whose name holds t2 among quotes,
    // backslashes and astral text, one whose name has a control character just before t3 (its JSON
    // escape \u0001 runs into the token's letters), one split across name and state.
    set(l1, t1, 'Lamp one')
    set(l2, 'on', `Lamp "two" \\${t2}\\ 🔥é`)
    set(l3, 'off', `Lamp three \u0001${t3}`)
    set(l4, split.slice(32), `Lamp four ${split.slice(0, 32)}`)
    await caughtUp(server)
    t.equal(server.app.services.ha.states.get(l4)?.attributes.friendly_name, `Lamp four ${split.slice(0, 32)}`, 'the add-on sees the names')
    const call = await threeWays(t, server)

    // Listed and searched first: their rows' JSON is remembered while none is a token.
    const before = await call('ha_list_entities', { domain: 'light', limit: 200 })
    for (const token of tokens) t.ok(before.legacy.raw.includes(token), 'not a token yet: shown')
    await call('ha_search_entities', { query: 'lamp', limit: 50 })

    // Then the camera's token rotates through all three (it keeps the last three).
    for (const token of tokens) {
      home.setState(camera, 'idle', { ...home.getState(camera)?.attributes, access_token: token })
      await caughtUp(server)
      t.equal(server.app.services.ha.states.get(camera)?.attributes.access_token, token, 'the add-on sees the token')
    }
    const asks: Array<[string, Record<string, unknown>]> = [
      ['ha_list_entities', { domain: 'light', limit: 200 }],
      ['ha_list_entities', { state: t1 }],
      ['ha_list_entities', { search: 'lamp', limit: 200 }],
      ['ha_search_entities', { query: 'lamp', limit: 50 }],
      ['ha_search_entities', { query: 'lamp three', limit: 5 }],
      ['ha_list_entities', { domain: 'camera' }]
    ]
    for (const [name, args] of asks) {
      const answers = await call(name, args)
      const label = `${name} ${JSON.stringify(args).replace(t1, 't1')}`
      for (const [way, answer] of Object.entries(answers)) {
        for (const token of tokens) {
          t.notOk(answer.raw.includes(token), `${label}, ${way}: no token in the answer`)
          t.notOk(answer.raw.toLowerCase().includes(token.toLowerCase()), `${label}, ${way}: not in another case either`)
        }
      }
      if (name !== 'ha_list_entities' || args.domain !== 'camera') t.ok(answers.legacy.raw.includes(REDACTED), `${label}: the redaction is shown`)
      // The same answer whichever way it was asked, and its text is its structured content.
      t.same(answers.modern.structured, answers.legacy.structured, `${label}: 2026-07-28 as 2025-era`)
      t.same(answers.session.structured, answers.legacy.structured, `${label}: session as 2025-era`)
      t.equal(answers.modern.text, answers.legacy.text, `${label}: the same text`)
      t.equal(answers.session.text, answers.legacy.text, `${label}: the same text in a session`)
      t.same(JSON.parse(answers.legacy.text), answers.legacy.structured, `${label}: text and structured content agree`)
    }
    // A token split across two fields is not in the text as one run: no scrub sees it;
    // what matters is that both agree (above) and no whole token passes (checked).
    const listed = JSON.parse((await call('ha_list_entities', { domain: 'light', limit: 200 })).legacy.text) as { items: Array<{ entity_id: string, name: string, state: string }> }
    t.match(listed.items.find(item => item.entity_id === l1), { state: REDACTED }, 'a state that is a token')
    t.match(listed.items.find(item => item.entity_id === l2), { name: `Lamp "two" \\${REDACTED}\\ 🔥é` }, 'a name around a token keeps its quotes and backslashes')
    t.match(listed.items.find(item => item.entity_id === l3), { name: `Lamp three \u0001${REDACTED}` }, 'a control character just before a token')
  })

  t.test('hidden entities never leak from list and search answers, whichever way they are asked', async t => {
    const home = await startHome(t)
    const server = await startServer(t, { home, options: { enable_sessions: true, filter_reads: true, entity_denylist: ['lock.*'] } })
    await server.app.services.home.ready()
    const lock = home.entityIds().find(id => id.startsWith('lock.')) as string
    const lights = home.entityIds().filter(id => id.startsWith('light.'))
    const [l1, l2] = lights as [string, string]
    home.setState(lock, 'locked', { ...home.getState(lock)?.attributes, friendly_name: 'Vault Latch Zeta' })
    home.setState(l1, 'on', { ...home.getState(l1)?.attributes, friendly_name: 'Vault Latch Zeta lamp "é🔥"' })
    home.setState(l2, 'on', { ...home.getState(l2)?.attributes, friendly_name: `Lamp beside ${lock}` })
    await caughtUp(server)
    t.equal(server.app.services.ha.states.get(l2)?.attributes.friendly_name, `Lamp beside ${lock}`, 'the add-on sees the names')
    const call = await threeWays(t, server)
    const asks: Array<[string, Record<string, unknown>]> = [
      ['ha_list_entities', { domain: 'light', limit: 200 }],
      ['ha_list_entities', { search: 'lamp', limit: 200 }],
      ['ha_list_entities', { domain: 'lock' }],
      ['ha_search_entities', { query: 'lamp', limit: 50 }],
      ['ha_search_entities', { query: 'vault', limit: 50 }],
      ['ha_search_entities', { query: 'lock', limit: 50 }]
    ]
    for (const [name, args] of asks) {
      const answers = await call(name, args)
      const label = `${name} ${JSON.stringify(args)}`
      for (const [way, answer] of Object.entries(answers)) {
        t.notOk(answer.raw.includes('Vault Latch Zeta'), `${label}, ${way}: no hidden name`)
        t.notOk(answer.raw.includes(lock), `${label}, ${way}: no hidden id`)
      }
      t.same(answers.modern.structured, answers.legacy.structured, `${label}: 2026-07-28 as 2025-era`)
      t.same(answers.session.structured, answers.legacy.structured, `${label}: session as 2025-era`)
      t.equal(answers.session.text, answers.legacy.text, `${label}: the same text in a session`)
    }
    const listed = JSON.parse((await call('ha_list_entities', { domain: 'light', limit: 200 })).legacy.text) as { items: Array<{ entity_id: string, name: string }> }
    t.match(listed.items.find(item => item.entity_id === l1), { name: '[hidden] lamp "é🔥"' })
    t.match(listed.items.find(item => item.entity_id === l2), { name: 'Lamp beside [hidden]' })
  })
})

// Red-team tests for list and search answers (invoke.ts jsonResult) and the camera-token scrub over
// their text: a token as a row's state, in a name among quotes, backslashes, astral text and a
// control character's \u escape, rows made before the token existed, the three tokens a camera keeps;
// hidden entities' names and ids inside visible rows (filter_reads). Each as a 2025-era POST without
// a session, with the 2026-07-28 envelope, and through the SDK's own client in a session; and the
// three must give the same answer.
import t from 'tap'
import { MODERN, metaFor } from './_modern.ts'
import { connectClient, eventually, rpc, startHome, startServer, type TestServer } from '../helper.ts'

const REDACTED = '[redacted camera token]'

type Way = 'legacy' | 'modern' | 'session'

/** One tool call the three ways; each answer as its raw text (the HTTP body, or the SDK's result as JSON) and its result. */
async function threeWays (t: { teardown: (fn: () => unknown) => void }, server: TestServer): Promise<(name: string, args: Record<string, unknown>) => Promise<Record<Way, { raw: string, text: string, structured: unknown }>>> {
  const client = await connectClient(t, server)
  return async (name, args) => {
    const legacy = await (await rpc(server.url, { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } }, { authorization: `Bearer ${server.token}` })).text()
    const modern = await (await rpc(server.url, { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args, _meta: metaFor() } }, {
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
  await eventually(() => server.app.services.ha.states.get(l4)?.attributes.friendly_name === `Lamp four ${split.slice(0, 32)}`, 5000, 'the names')
  const call = await threeWays(t, server)

  // Listed and searched first: their rows' JSON is remembered while none is a token.
  const before = await call('ha_list_entities', { domain: 'light', limit: 200 })
  for (const token of tokens) t.ok(before.legacy.raw.includes(token), 'not a token yet: shown')
  await call('ha_search_entities', { query: 'lamp', limit: 50 })

  // Then the camera's token rotates through all three (it keeps the last three).
  for (const token of tokens) {
    home.setState(camera, 'idle', { ...home.getState(camera)?.attributes, access_token: token })
    await eventually(() => server.app.services.ha.states.get(camera)?.attributes.access_token === token, 5000, 'the token')
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
  await eventually(() => server.app.services.ha.states.get(l2)?.attributes.friendly_name === `Lamp beside ${lock}`, 5000, 'the names')
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

// Attacks on 2026-07-28 confirmation rounds (src/mcp/runtime/confirm-rounds.ts) beside those in
// test/e2e/confirm-rounds-attacks.test.ts: a yes shown for one door used for another, a state carried
// into a 2025 request, a huge answer, and one identity flooding the pending rounds of everyone.
import t from 'tap'
import { rpc, startHome, startServer, TEST_TOKEN } from '../helper.ts'
import { metaFor, modern } from './_modern.ts'

const ASKABLE = metaFor({ elicitation: { form: {} } })
const YES = { confirm: { action: 'accept', content: { confirm: true } } }

t.test('confirmation rounds: crossed calls, eras and identities', async t => {
  const home = await startHome(t)
  const server = await startServer(t, { home, options: { allow_write: true, confirm_domains: ['lock', 'light'] } })
  const lights = home.entityIds().filter(id => id.startsWith('light.')).slice(0, 2) as [string, string]
  const lock = home.entityIds().find(id => id.startsWith('lock.')) as string
  const turnOn = (id: string): object => ({ domain: 'light', service: 'turn_on', target: { entity_id: id } })
  const unlock = { domain: 'lock', service: 'unlock', target: { entity_id: lock } }
  const calls = (service: string): string[] => home.serviceCalls.filter(call => call.service === service).flatMap(call => [call.target?.entity_id ?? call.service_data.entity_id].flat().map(String))
  const call = async (token: string, args: object, extra: Record<string, unknown> = {}): Promise<any> =>
    (await modern(server.url, token, 'tools/call', { name: 'ha_call_service', arguments: args, ...extra }, ASKABLE)).body
  const ask = async (token: string, args: object): Promise<string> => {
    const first = await call(token, args)
    if (first.result?.resultType !== 'input_required') throw new Error(`no round: ${JSON.stringify(first).slice(0, 300)}`)
    return first.result.requestState as string
  }

  t.test('the yes to "turn on the first light" does not turn on the second', async t => {
    home.clearServiceCalls()
    const state = await ask(TEST_TOKEN, turnOn(lights[0]))
    const crossed = await call(TEST_TOKEN, turnOn(lights[1]), { requestState: state, inputResponses: YES })
    t.equal(crossed.error?.code, -32602, JSON.stringify(crossed).slice(0, 300))
    const again = await call(TEST_TOKEN, turnOn(lights[0]), { requestState: state, inputResponses: YES })
    t.equal(again.error?.code, -32602, 'the crossed attempt spent the state')
    t.same(calls('turn_on'), [], 'neither light was turned on')
  })

  t.test('a 2026 state and yes carried into a 2025 request do nothing: the 2025 token flow answers', async t => {
    home.clearServiceCalls()
    const state = await ask(TEST_TOKEN, unlock)
    const res = await rpc(server.url, { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'ha_call_service', arguments: unlock, requestState: state, inputResponses: YES } }, { authorization: `Bearer ${TEST_TOKEN}` })
    const body = await res.json() as any
    t.equal(body.result?.structuredContent?.confirmation_required, true, JSON.stringify(body).slice(0, 300))
    t.same(calls('unlock'), [], 'nothing unlocked')
  })

  t.test('a huge, deeply nested or many-keyed answer is no yes and no crash', async t => {
    home.clearServiceCalls()
    let deep: unknown = { confirm: true }
    for (let i = 0; i < 2000; i++) deep = { a: deep }
    const answers: unknown[] = [
      { confirm: { action: 'accept', content: { confirm: 'x'.repeat(1_000_000) } } },
      Object.fromEntries(Array.from({ length: 20_000 }, (_, i) => [`k${i}`, YES.confirm])),
      { confirm: { action: 'accept', content: deep } }
    ]
    for (const inputResponses of answers) {
      const state = await ask(TEST_TOKEN, unlock)
      const res = await modern(server.url, TEST_TOKEN, 'tools/call', { name: 'ha_call_service', arguments: unlock, requestState: state, inputResponses }, ASKABLE)
      t.ok(res.status < 500, `status ${res.status}`)
      t.not(res.body.result?.structuredContent?.success, true)
    }
    t.same(calls('unlock'), [], 'nothing unlocked')
    const after = await modern(server.url, TEST_TOKEN, 'tools/call', { name: 'ha_search_entities', arguments: { query: 'kitchen' } })
    t.equal(after.body.result?.resultType, 'complete', 'the process still answers')
  })

  t.test('another identity flooding rounds does not push out the owner\'s pending one', async t => {
    home.clearServiceCalls()
    const state = await ask(TEST_TOKEN, unlock)
    const { token: flood } = await server.app.services.tokens.create({ name: 'flood', scopes: ['read', 'write'] })
    for (let batch = 0; batch < 17; batch++) await Promise.all(Array.from({ length: 30 }, async () => await ask(flood, turnOn(lights[0]))))
    const yes = await call(TEST_TOKEN, unlock, { requestState: state, inputResponses: YES })
    t.comment(`the owner's yes after the flood: ${JSON.stringify(yes.error ?? yes.result?.structuredContent).slice(0, 120)}`)
    // Finding of the red-team pass: one LRU of 500 for every identity let the flood evict the owner's round.
    t.equal(yes.result?.structuredContent?.success, true, JSON.stringify(yes).slice(0, 200))
    t.ok(calls('unlock').length <= 1, 'at most the owner\'s one unlock')
    t.same(calls('turn_on'), [], 'the flood turned nothing on')
  })
})

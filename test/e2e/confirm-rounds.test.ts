// Confirmations as multi-round-trip results for 2026-07-28 clients: the write completes inside the
// same tool call (input_required, then the client's retry with the answer), with no confirm token
// for the model to carry; the state is sealed, bound to the identity and the call, single use.
import t from 'tap'
import { createModernConfirmations } from '../../src/mcp/runtime/confirm-rounds.ts'
import { callTool, connectClient, fakeClock, rpc, setSeen, startHome, startServer, TEST_TOKEN, type TestServer } from '../helper.ts'
import { connectModern, type ElicitationAnswer, metaFor, modern } from '../modern.ts'

const UNLOCK = { domain: 'lock', service: 'unlock', target: { entity_id: 'lock.front_door_lock' } }

/** The `_meta` of a 2026-07-28 client that can answer a confirmation's question. */
const ASKABLE = metaFor({ elicitation: { form: {} } })

/** A raw 2026-07-28 tools/call, for the rounds a well-behaved client never sends; `meta` may be malformed on purpose. */
async function raw (server: TestServer, name: string, args: unknown, extra: Record<string, unknown> = {}, meta: unknown = ASKABLE, token = TEST_TOKEN): Promise<{ status: number, body: any }> {
  return await modern(server, token, 'tools/call', { name, arguments: args, ...extra }, meta as Record<string, unknown>)
}

/** ha_call_service through {@link raw}: the JSON-RPC answer. */
async function rawCall (server: TestServer, args: object, extra: Record<string, unknown> = {}, token = TEST_TOKEN): Promise<any> {
  return (await raw(server, 'ha_call_service', args, extra, ASKABLE, token)).body
}

const YES = { confirm: { action: 'accept', content: { confirm: true } } }

t.test('confirmations by input_required rounds', async t => {
  const home = await startHome(t)
  const server = await startServer(t, { home, options: { allow_write: true } })
  const unlocks = (): number => home.serviceCalls.filter(call => call.domain === 'lock' && call.service === 'unlock').length

  t.test('a group: the question names the lock it covers, and the answer the lock it reached', async t => {
    home.clearServiceCalls()
    home.setState('lock.front_door_lock', 'locked')
    const { client, asked } = await connectModern(t, server, { answer: () => ({ action: 'accept', content: { confirm: true } }) })
    const result = await callTool(client, 'ha_call_service', { ...UNLOCK, target: { entity_id: 'group.doors' } })
    t.notOk(result.isError, result.text)
    t.equal(asked.length, 1, 'the human was asked once')
    t.match(asked[0], /lock\.front_door_lock \(through group\.doors\)/, 'the question names the lock behind the group')
    t.ok((result.json.entities as string[]).includes('lock.front_door_lock'), 'the answer lists it')
    t.equal(unlocks(), 1)
  })

  t.test('yes: the unlock runs inside the same tool call, no confirm token anywhere', async t => {
    home.clearServiceCalls()
    const { client, asked } = await connectModern(t, server, { answer: () => ({ action: 'accept', content: { confirm: true } }) })
    const result = await callTool(client, 'ha_call_service', UNLOCK)
    t.notOk(result.isError, result.text)
    t.equal(result.json.success, true)
    t.notMatch(result.text, /confirm_token/, 'the model never sees a token')
    t.equal(asked.length, 1, 'the human was asked once')
    t.match(asked[0], /lock\.unlock/, 'the question shows the call')
    t.equal(unlocks(), 1, 'the unlock reached the house exactly once')
    t.match(server.app.services.policy.audit.recent(1)[0], { outcome: 'confirmation_given', via: 'round' }, 'audited as a confirmation given in a round')
  })

  for (const [what, answer] of [['decline', { action: 'decline' }], ['cancel', { action: 'cancel' }], ['accept with confirm false', { action: 'accept', content: { confirm: false } }]] as Array<[string, ElicitationAnswer]>) {
    t.test(`${what}: refused, audited, nothing reaches the house`, async t => {
      home.clearServiceCalls()
      const { client, asked } = await connectModern(t, server, { answer: () => answer })
      const result = await callTool(client, 'ha_call_service', UNLOCK)
      t.equal(result.isError, true)
      t.equal(result.code, 'HAMCP_CONFIRMATION_DECLINED')
      t.equal(asked.length, 1)
      t.equal(unlocks(), 0)
      t.match(server.app.services.policy.audit.recent(1)[0], { outcome: 'refused', reason: 'declined' })
    })
  }

  t.test('a 2026 client that cannot be asked gets the confirm-token flow', async t => {
    home.clearServiceCalls()
    const { client } = await connectModern(t, server)
    const asked = await callTool(client, 'ha_call_service', UNLOCK)
    t.equal(asked.json.confirmation_required, true)
    t.equal(unlocks(), 0)
    const confirmed = await callTool(client, 'ha_call_service', { ...UNLOCK, confirm_token: asked.json.confirm_token })
    t.equal(confirmed.json.success, true)
    t.equal(unlocks(), 1)
  })

  t.test('what the question showed changed before the yes: asked again with the new preview, never a token', async t => {
    home.clearServiceCalls()
    const lock = UNLOCK.target.entity_id
    await setSeen(t, server, lock, 'locked')
    const first = await rawCall(server, UNLOCK)
    t.equal(first.result.resultType, 'input_required')
    await setSeen(t, server, lock, 'jammed')
    const again = await rawCall(server, UNLOCK, { requestState: first.result.requestState, inputResponses: YES })
    t.equal(again.result?.resultType, 'input_required', JSON.stringify(again))
    t.notMatch(JSON.stringify(again), /confirm_token/, 'no token for the model to carry')
    const message: string = again.result.inputRequests.confirm.params.message
    t.match(message, /was locked, now jammed/, 'the new question says what changed')
    t.match(message, /lock\.unlock/, 'and shows the call again')
    t.not(again.result.requestState, first.result.requestState)
    t.equal(unlocks(), 0, 'the stale yes wrote nothing')
    t.match(server.app.services.policy.audit.recent(1)[0], { outcome: 'refused', reason: 'confirm_token_conflict' })
    const done = await rawCall(server, UNLOCK, { requestState: again.result.requestState, inputResponses: YES })
    t.equal(done.result?.resultType, 'complete', JSON.stringify(done))
    t.equal(done.result.structuredContent.success, true)
    t.equal(unlocks(), 1, 'the yes to the new question unlocks')
    t.match(server.app.services.policy.audit.recent(1)[0], { outcome: 'confirmation_given', via: 'round' })
  })

  t.test('every round stays under the 15 KB answer cap, whatever the call carries', async t => {
    // 1 MB of data gave a 1 MB input_required answer (the 2025 path answered 4.9 KB).
    home.clearServiceCalls()
    const lock = UNLOCK.target.entity_id
    await setSeen(t, server, lock, 'locked')
    const big = { ...UNLOCK, data: { code: '"'.repeat(30_000) } }
    const first = await rawCall(server, big)
    const firstBytes = Buffer.byteLength(JSON.stringify(first))
    t.equal(first.result?.resultType, 'input_required', JSON.stringify(first).slice(0, 300))
    t.ok(firstBytes <= 15_000, `the question's answer is ${firstBytes} bytes`)
    const message: string = first.result.inputRequests.confirm.params.message
    t.match(message, /^Confirm this action\? lock\.unlock on .*lock\.front_door_lock/, 'the call and its target come first, whole')
    t.match(message, /not shown/, 'the question says it was shortened')
    await setSeen(t, server, lock, 'jammed')
    const again = await rawCall(server, big, { requestState: first.result.requestState, inputResponses: YES })
    const againBytes = Buffer.byteLength(JSON.stringify(again))
    t.equal(again.result?.resultType, 'input_required')
    t.ok(againBytes <= 15_000, `asked again: ${againBytes} bytes`)
    const done = await rawCall(server, big, { requestState: again.result.requestState, inputResponses: YES })
    t.equal(done.result?.structuredContent?.success, true, JSON.stringify(done).slice(0, 300))
    t.equal(unlocks(), 1, 'the yes to the shortened question still unlocks, once')
  })

  t.test('tampered, replayed, foreign or re-aimed state is refused before anything runs', async t => {
    home.clearServiceCalls()
    const first = await rawCall(server, UNLOCK)
    t.equal(first.result.resultType, 'input_required')
    t.equal(first.result.inputRequests.confirm.method, 'elicitation/create')
    const state: string = first.result.requestState
    t.type(state, 'string')
    t.notMatch(JSON.stringify(first.result), /confirm_token/)

    const [body, mac] = state.split('.') as [string, string]
    const forged = Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(body, 'base64url').toString()), i: 'someone-else' })).toString('base64url')
    for (const bad of [`${forged}.${mac}`, `${body}.${mac.slice(0, -2)}AA`, 'not-a-state']) {
      const refused = await rawCall(server, UNLOCK, { requestState: bad, inputResponses: YES })
      t.equal(refused.error?.code, -32602, 'tampered state refused')
    }

    const { token: otherToken } = await server.app.services.tokens.create({ name: 'other tablet', scopes: ['read', 'write'] })
    const foreign = await rawCall(server, UNLOCK, { requestState: state, inputResponses: YES }, otherToken)
    t.equal(foreign.error?.code, -32602, 'another identity cannot use it')

    const reaimed = await rawCall(server, { ...UNLOCK, target: { entity_id: 'lock.back_door' } }, { requestState: state, inputResponses: YES })
    t.equal(reaimed.error?.code, -32602, 'state for one call does not confirm another')
    t.equal(unlocks(), 0, 'nothing ran so far')

    // The re-aimed attempt spent it: state is single use, whatever the outcome.
    const spent = await rawCall(server, UNLOCK, { requestState: state, inputResponses: YES })
    t.equal(spent.error?.code, -32602)

    const fresh = (await rawCall(server, UNLOCK)).result.requestState as string
    const done = await rawCall(server, UNLOCK, { requestState: fresh, inputResponses: YES })
    t.equal(done.result.resultType, 'complete')
    t.equal(done.result.structuredContent.success, true)
    t.equal(unlocks(), 1)
    const replayed = await rawCall(server, UNLOCK, { requestState: fresh, inputResponses: YES })
    t.equal(replayed.error?.code, -32602, 'a replay is refused')
    t.equal(unlocks(), 1, 'the replay did not unlock again')
  })
})

t.test('a sealed state expires with the token it stands for', async t => {
  let clock = 1_000_000
  const rounds = createModernConfirmations({ now: () => clock, ttlMs: 1000 })
  const ctx = { http: { authInfo: { extra: { identity: { id: 'me' } } } } } as never
  const state = rounds.mint('me', 'ha_call_service', { a: 1 }, 'tok')
  t.ok(rounds.verify(state, ctx), 'valid while fresh')
  clock += 1000
  t.throws(() => rounds.verify(state, ctx), /expired/)
})

// Attacks on the 2026-07-28 confirmation rounds (input_required + requestState) and on /mcp's
// request handling, against the demo home: each one must leave the house untouched and answer with
// a clear JSON-RPC code, and the process must keep answering afterwards.
const LOCK = 'lock.front_door_lock'
const NO = { confirm: { action: 'decline' } }
t.test('confirmation rounds under attack', async t => {
  const home = await startHome(t)
  const clock = fakeClock()
  const server = await startServer(t, { home, options: { allow_write: true }, app: { policy: { now: clock.now } } })
  const unlocks = (): number => home.serviceCalls.filter(call => call.domain === 'lock' && call.service === 'unlock').length
  const stateFor = async (args: unknown = UNLOCK): Promise<string> => {
    const first = await raw(server, 'ha_call_service', args)
    if (first.body.result?.resultType !== 'input_required') throw new Error(`no input_required round: ${JSON.stringify(first.body)}`)
    return first.body.result.requestState as string
  }
  const stillServes = async (): Promise<void> => {
    const ok = await raw(server, 'ha_search_entities', { query: 'kitchen' })
    t.equal(ok.body.result?.resultType, 'complete', 'the process still answers')
  }

  t.test('a state for one tool does not confirm another tool with the same arguments', async t => {
    home.clearServiceCalls()
    const state = await stateFor()
    const other = await raw(server, 'ha_search_entities', UNLOCK, { requestState: state, inputResponses: YES })
    t.equal(other.body.error?.code, -32602, JSON.stringify(other.body))
    const spent = await raw(server, 'ha_call_service', UNLOCK, { requestState: state, inputResponses: YES })
    t.equal(spent.body.error?.code, -32602, 'the misuse spent the state')
    t.equal(unlocks(), 0)
  })

  t.test('changed data kept under the same state is refused', async t => {
    home.clearServiceCalls()
    const state = await stateFor()
    const more = await raw(server, 'ha_call_service', { ...UNLOCK, data: { code: '1234' } }, { requestState: state, inputResponses: YES })
    t.equal(more.body.error?.code, -32602)
    t.equal(unlocks(), 0)
  })

  t.test('a declined round with a confirm token smuggled into the arguments does not write', async t => {
    home.clearServiceCalls()
    // A token for the very same call, from a round that could not be asked (the legacy token flow).
    const client = await connectClient(t, server)
    const legacy = await callTool(client, 'ha_call_service', UNLOCK)
    t.equal(legacy.json.confirmation_required, true)
    const state = await stateFor()
    const declined = await raw(server, 'ha_call_service', { ...UNLOCK, confirm_token: legacy.json.confirm_token }, { requestState: state, inputResponses: NO })
    t.equal(declined.body.result?.structuredContent?.error?.code, 'HAMCP_CONFIRMATION_DECLINED', JSON.stringify(declined.body))
    t.equal(unlocks(), 0, 'the user said no: nothing reached the house')
  })

  t.test('two retries with one state at once: one unlock at most', async t => {
    home.clearServiceCalls()
    const state = await stateFor()
    const answers = await Promise.all([1, 2, 3].map(async () => await raw(server, 'ha_call_service', UNLOCK, { requestState: state, inputResponses: YES })))
    t.equal(answers.filter(a => a.body.result?.structuredContent?.success === true).length, 1)
    t.equal(answers.filter(a => a.body.error?.code === -32602).length, 2)
    t.equal(unlocks(), 1)
    await setSeen(t, server, LOCK, 'locked')
  })

  t.test('the house changes between the question and the yes: asked again, not an unlock', async t => {
    home.clearServiceCalls()
    const state = await stateFor()
    await setSeen(t, server, LOCK, 'jammed')
    const answer = await raw(server, 'ha_call_service', UNLOCK, { requestState: state, inputResponses: YES })
    t.equal(answer.body.result?.resultType, 'input_required', JSON.stringify(answer.body))
    t.match(answer.body.result?.inputRequests?.confirm?.params?.message, /now jammed/)
    t.equal(unlocks(), 0)
    const replayed = await raw(server, 'ha_call_service', UNLOCK, { requestState: state, inputResponses: YES })
    t.equal(replayed.body.error?.code, -32602, 'the first state stays spent')
    await setSeen(t, server, LOCK, 'locked')
  })

  t.test('a yes after the confirmation expired (injected clock) does not unlock', async t => {
    home.clearServiceCalls()
    const state = await stateFor()
    clock.advance(5 * 60_000 + 1)
    const late = await raw(server, 'ha_call_service', UNLOCK, { requestState: state, inputResponses: YES })
    t.not(late.body.result?.structuredContent?.success, true, JSON.stringify(late.body))
    t.ok(late.body.error?.code === -32602 || late.body.result?.isError === true, 'refused with a clear code')
    t.equal(unlocks(), 0)
  })

  t.test('malformed requestState, inputResponses and _meta: clear codes, no 500, nothing runs', async t => {
    home.clearServiceCalls()
    const badStates: unknown[] = [42, { a: 1 }, ['x'], '', '.', 'a.b.c', 'x'.repeat(100_000), null]
    for (const bad of badStates) {
      const res = await raw(server, 'ha_call_service', UNLOCK, { requestState: bad, inputResponses: YES })
      t.ok(res.status < 500, `requestState ${JSON.stringify(bad)?.slice(0, 20)}: status ${res.status}`)
      t.not(res.body.result?.structuredContent?.success, true)
    }
    const badAnswers: unknown[] = [{ confirm: 'yes' }, { confirm: { action: 'accept' } }, { confirm: { action: 'accept', content: { confirm: 'true' } } }, [], 'yes', {}]
    for (const bad of badAnswers) {
      const state = await stateFor()
      const res = await raw(server, 'ha_call_service', UNLOCK, { requestState: state, inputResponses: bad })
      t.ok(res.status < 500, `inputResponses ${JSON.stringify(bad)}: status ${res.status}`)
      t.not(res.body.result?.structuredContent?.success, true, `inputResponses ${JSON.stringify(bad)} is not a yes`)
    }
    const badMetas: unknown[] = [
      { ...ASKABLE, 'io.modelcontextprotocol/clientCapabilities': null },
      { ...ASKABLE, 'io.modelcontextprotocol/clientCapabilities': 'form' },
      { ...ASKABLE, 'io.modelcontextprotocol/clientCapabilities': { elicitation: null } },
      { ...ASKABLE, 'io.modelcontextprotocol/clientCapabilities': { elicitation: 'form' } },
      { ...ASKABLE, 'io.modelcontextprotocol/protocolVersion': 20260728 },
      { ...ASKABLE, 'io.modelcontextprotocol/clientInfo': 'raw' },
      'not-an-object',
      [ASKABLE]
    ]
    for (const meta of badMetas) {
      const res = await raw(server, 'ha_call_service', UNLOCK, {}, meta)
      t.ok(res.status < 500, `_meta ${JSON.stringify(meta).slice(0, 60)}: status ${res.status}`)
      t.not(res.body.result?.structuredContent?.success, true)
    }
    t.equal(unlocks(), 0)
    await stillServes()
  })

  t.test('a body just under the 1 MB limit is served; one over it is 413; the process goes on', async t => {
    const big = 'a'.repeat(1024 * 1024 - 2048)
    const under = await raw(server, 'ha_search_entities', { query: big.slice(0, 200), padding: big })
    t.ok(under.status < 500, `near the limit: ${under.status}`)
    const over = await raw(server, 'ha_search_entities', { query: 'x', padding: `${big}${'b'.repeat(8192)}` })
    t.equal(over.status, 413)
    await stillServes()
  })
})

// More attacks on the rounds (src/mcp/runtime/confirm-rounds.ts): a yes shown for one door used for
// another, a state carried into a 2025 request, a huge answer, and one identity flooding the pending
// rounds of everyone.
t.test('red team: a confirmation carried across doors and rounds', async t => {
  t.test('confirmation rounds: crossed calls, eras and identities', async t => {
    const home = await startHome(t)
    const server = await startServer(t, { home, options: { allow_write: true, confirm_domains: ['lock', 'light'] } })
    const lights = home.entityIds().filter(id => id.startsWith('light.')).slice(0, 2) as [string, string]
    const lock = home.entityIds().find(id => id.startsWith('lock.')) as string
    const turnOn = (id: string): object => ({ domain: 'light', service: 'turn_on', target: { entity_id: id } })
    const unlock = { domain: 'lock', service: 'unlock', target: { entity_id: lock } }
    const calls = (service: string): string[] => home.serviceCalls.filter(call => call.service === service).flatMap(call => [call.target?.entity_id ?? call.service_data.entity_id].flat().map(String))
    const call = async (token: string, args: object, extra: Record<string, unknown> = {}): Promise<any> => await rawCall(server, args, extra, token)
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
      const res = await rpc(server, { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'ha_call_service', arguments: unlock, requestState: state, inputResponses: YES } }, { authorization: `Bearer ${TEST_TOKEN}` })
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
        const res = await modern(server, TEST_TOKEN, 'tools/call', { name: 'ha_call_service', arguments: unlock, requestState: state, inputResponses }, ASKABLE)
        t.ok(res.status < 500, `status ${res.status}`)
        t.not(res.body.result?.structuredContent?.success, true)
      }
      t.same(calls('unlock'), [], 'nothing unlocked')
      const after = await modern(server, TEST_TOKEN, 'tools/call', { name: 'ha_search_entities', arguments: { query: 'kitchen' } })
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
})

// Confirmations as multi-round-trip results for 2026-07-28 clients: the write completes inside the
// same tool call (input_required, then the client's retry with the answer), with no confirm token
// for the model to carry; the state is sealed, bound to the identity and the call, single use.
import t from 'tap'
import { createModernConfirmations } from '../../src/mcp/runtime/confirm-rounds.ts'
import { callTool, eventually, startHome, startServer, TEST_TOKEN, type TestServer } from '../helper.ts'
import { connectModern, type ElicitationAnswer, metaFor, modern } from '../modern.ts'

const UNLOCK = { domain: 'lock', service: 'unlock', target: { entity_id: 'lock.front_door_lock' } }

/** A raw 2026-07-28 tools/call, for the rounds a well-behaved client never sends. */
async function rawCall (server: TestServer, args: Record<string, unknown>, extra: Record<string, unknown> = {}, token = TEST_TOKEN): Promise<any> {
  return (await modern(server.url, token, 'tools/call', { name: 'ha_call_service', arguments: args, ...extra }, metaFor({ elicitation: { form: {} } }))).body
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
    home.setState(lock, 'locked')
    await eventually(() => server.app.services.ha.states.get(lock)?.state === 'locked')
    const first = await rawCall(server, UNLOCK)
    t.equal(first.result.resultType, 'input_required')
    home.setState(lock, 'jammed')
    await eventually(() => server.app.services.ha.states.get(lock)?.state === 'jammed')
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
    home.setState(lock, 'locked')
    await eventually(() => server.app.services.ha.states.get(lock)?.state === 'locked')
    const big = { ...UNLOCK, data: { code: '"'.repeat(30_000) } }
    const first = await rawCall(server, big)
    const firstBytes = Buffer.byteLength(JSON.stringify(first))
    t.equal(first.result?.resultType, 'input_required', JSON.stringify(first).slice(0, 300))
    t.ok(firstBytes <= 15_000, `the question's answer is ${firstBytes} bytes`)
    const message: string = first.result.inputRequests.confirm.params.message
    t.match(message, /^Confirm this action\? lock\.unlock on .*lock\.front_door_lock/, 'the call and its target come first, whole')
    t.match(message, /not shown/, 'the question says it was shortened')
    home.setState(lock, 'jammed')
    await eventually(() => server.app.services.ha.states.get(lock)?.state === 'jammed')
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

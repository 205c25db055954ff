// Attacks on the 2026-07-28 confirmation rounds (input_required + requestState) and on /mcp's
// request handling, against the demo home: each one must leave the house untouched and answer with
// a clear JSON-RPC code, and the process must keep answering afterwards.
import t from 'tap'
import { callTool, connectClient, eventually, fakeClock, rpc, startHome, startServer, TEST_TOKEN, type TestServer } from '../helper.ts'

const MODERN = '2026-07-28'
const LOCK = 'lock.front_door_lock'
const UNLOCK = { domain: 'lock', service: 'unlock', target: { entity_id: LOCK } }
const YES = { confirm: { action: 'accept', content: { confirm: true } } }
const NO = { confirm: { action: 'decline' } }
const META = {
  'io.modelcontextprotocol/protocolVersion': MODERN,
  'io.modelcontextprotocol/clientCapabilities': { elicitation: { form: {} } },
  'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' }
}

async function raw (server: TestServer, name: string, args: unknown, extra: Record<string, unknown> = {}, meta: unknown = META): Promise<{ status: number, body: any }> {
  const res = await rpc(server.url, { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args, ...extra, _meta: meta } }, {
    authorization: `Bearer ${TEST_TOKEN}`, 'mcp-protocol-version': MODERN, 'mcp-method': 'tools/call', 'mcp-name': name
  })
  const text = await res.text()
  let body: any
  try { body = JSON.parse(text) } catch { body = text }
  return { status: res.status, body }
}

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
    home.setState(LOCK, 'locked')
    await eventually(() => server.app.services.ha.states.get(LOCK)?.state === 'locked')
  })

  t.test('the house changes between the question and the yes: asked again, not an unlock', async t => {
    home.clearServiceCalls()
    const state = await stateFor()
    home.setState(LOCK, 'jammed')
    await eventually(() => server.app.services.ha.states.get(LOCK)?.state === 'jammed')
    const answer = await raw(server, 'ha_call_service', UNLOCK, { requestState: state, inputResponses: YES })
    t.equal(answer.body.result?.resultType, 'input_required', JSON.stringify(answer.body))
    t.match(answer.body.result?.inputRequests?.confirm?.params?.message, /now jammed/)
    t.equal(unlocks(), 0)
    const replayed = await raw(server, 'ha_call_service', UNLOCK, { requestState: state, inputResponses: YES })
    t.equal(replayed.body.error?.code, -32602, 'the first state stays spent')
    home.setState(LOCK, 'locked')
    await eventually(() => server.app.services.ha.states.get(LOCK)?.state === 'locked')
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
      { ...META, 'io.modelcontextprotocol/clientCapabilities': null },
      { ...META, 'io.modelcontextprotocol/clientCapabilities': 'form' },
      { ...META, 'io.modelcontextprotocol/clientCapabilities': { elicitation: null } },
      { ...META, 'io.modelcontextprotocol/clientCapabilities': { elicitation: 'form' } },
      { ...META, 'io.modelcontextprotocol/protocolVersion': 20260728 },
      { ...META, 'io.modelcontextprotocol/clientInfo': 'raw' },
      'not-an-object',
      [META]
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

import t from 'tap'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { ElicitRequestSchema, type ElicitRequest, type ElicitResult } from '@modelcontextprotocol/sdk/types.js'
import { callTool, connectClient, startHome, startServer, type TestServer } from '../helper.ts'

const UNLOCK = { domain: 'lock', service: 'unlock', target: { entity_id: 'lock.front_door_lock' } }

/** A session client that can be asked questions, answering each with `answer`. */
async function askableClient (t: { teardown: (fn: () => unknown) => void }, server: TestServer, answer: (request: ElicitRequest) => ElicitResult): Promise<{ client: Client, asked: ElicitRequest[] }> {
  const client = new Client({ name: 'askable', version: '1.0.0' }, { capabilities: { elicitation: { form: {} } } })
  const asked: ElicitRequest[] = []
  client.setRequestHandler(ElicitRequestSchema, request => {
    asked.push(request)
    return answer(request)
  })
  await client.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${server.token}` } } }))
  t.teardown(() => client.close())
  return { client, asked }
}

t.test('confirmations by elicitation in a session', async t => {
  const home = await startHome(t)
  const server = await startServer(t, { home, options: { enable_sessions: true, allow_write: true } })
  const unlocks = (): number => home.serviceCalls.filter(call => call.domain === 'lock' && call.service === 'unlock').length

  t.test('accept + confirm executes the write in one call', async t => {
    home.clearServiceCalls()
    const { client, asked } = await askableClient(t, server, () => ({ action: 'accept', content: { confirm: true } }))
    const result = await callTool(client, 'ha_call_service', UNLOCK)
    t.notOk(result.isError, result.text)
    t.equal(result.json.success, true, 'done without a confirm token')
    t.equal(unlocks(), 1, 'the unlock reached the house exactly once')
    t.equal(asked.length, 1, 'the human was asked once')
    const params = asked[0]?.params as { message: string, requestedSchema: { properties: Record<string, { type: string }>, required: string[] } }
    t.match(params.message, /lock\.unlock/, 'the question shows the call')
    t.same(Object.keys(params.requestedSchema.properties), ['confirm'])
    t.equal(params.requestedSchema.properties.confirm?.type, 'boolean')
    t.same(params.requestedSchema.required, ['confirm'])
    t.match(server.app.services.policy.audit.recent(1)[0], { outcome: 'confirmation_given', via: 'elicitation' }, 'audited as confirmed by elicitation')
  })

  t.test('a scene holding the lock: the question names the lock, asked at every activation', async t => {
    home.clearServiceCalls()
    const { client, asked } = await askableClient(t, server, () => ({ action: 'decline' }))
    const activate = { domain: 'scene', service: 'turn_on', target: { entity_id: 'scene.welcome_guests' } }
    for (const round of [1, 2]) {
      const result = await callTool(client, 'ha_call_service', activate)
      t.equal(result.code, 'HAMCP_CONFIRMATION_DECLINED', `activation ${round}: asked, and the no refused it`)
    }
    t.equal(asked.length, 2, 'asked each time')
    t.match((asked[0]?.params as { message: string }).message, /lock\.front_door_lock \(through scene\.welcome_guests\)/, 'the question names the lock')
    t.equal(home.serviceCalls.length, 0, 'the scene was not activated')
  })

  for (const [what, answer] of [
    ['decline', { action: 'decline' }],
    ['cancel', { action: 'cancel' }],
    ['accept with confirm false', { action: 'accept', content: { confirm: false } }]
  ] as Array<[string, ElicitResult]>) {
    t.test(`${what} refuses and nothing reaches the house`, async t => {
      home.clearServiceCalls()
      const { client, asked } = await askableClient(t, server, () => answer)
      const result = await callTool(client, 'ha_call_service', UNLOCK)
      t.equal(result.isError, true)
      t.equal(result.code, 'HAMCP_CONFIRMATION_DECLINED')
      t.equal(asked.length, 1)
      t.equal(unlocks(), 0, 'nothing reached the house')
      t.match(server.app.services.policy.audit.recent(1)[0], { outcome: 'refused', reason: 'declined' }, 'the refusal is audited')
    })
  }

  t.test('a client without elicitation gets the confirm-token flow', async t => {
    home.clearServiceCalls()
    const client = await connectClient(t, server)
    t.type((client.transport as StreamableHTTPClientTransport).sessionId, 'string', 'in a session')
    const asked = await callTool(client, 'ha_call_service', UNLOCK)
    t.equal(asked.json.confirmation_required, true)
    t.equal(unlocks(), 0)
    const confirmed = await callTool(client, 'ha_call_service', { ...UNLOCK, confirm_token: asked.json.confirm_token })
    t.equal(confirmed.json.success, true)
    t.equal(unlocks(), 1)
  })

  t.test('a write outside confirm_domains asks nothing', async t => {
    const { client, asked } = await askableClient(t, server, () => ({ action: 'decline' }))
    const result = await callTool(client, 'ha_call_service', { domain: 'light', service: 'turn_on', target: { entity_id: server.app.services.home.entities().find(row => row.domain === 'light')?.entity_id } })
    t.equal(result.json.success, true)
    t.equal(asked.length, 0)
  })

  t.test('a client that declares elicitation but cannot answer falls back to a confirm token', async t => {
    home.clearServiceCalls()
    const { client } = await askableClient(t, server, () => { throw new Error('no UI here') })
    const first = await callTool(client, 'ha_call_service', UNLOCK)
    t.equal(first.json.confirmation_required, true, 'the same call gets a confirm token instead')
    t.equal(unlocks(), 0, 'nothing reached the house yet')
    const confirmed = await callTool(client, 'ha_call_service', { ...UNLOCK, confirm_token: first.json.confirm_token })
    t.equal(confirmed.json.success, true, 'the token confirms it')
    t.equal(unlocks(), 1, 'exactly once')
    const later = await callTool(client, 'ha_call_service', UNLOCK)
    t.equal(later.json.confirmation_required, true, 'later confirmations use tokens without asking again')
  })
})

t.test('confirm_with: owner: a session client\'s yes is not asked for and counts for nothing', async t => {
  const home = await startHome(t)
  const server = await startServer(t, { home, options: { enable_sessions: true, allow_write: true, confirm_with: 'owner' } })
  home.setState('lock.front_door_lock', 'locked')
  const { client, asked } = await askableClient(t, server, () => ({ action: 'accept', content: { confirm: true } }))
  const result = await callTool(client, 'ha_call_service', UNLOCK)
  t.equal(result.json.awaiting_owner, true, result.text)
  t.equal(asked.length, 0, 'the client was not asked: its yes would not be the owner\'s')
  t.equal(home.serviceCalls.filter(call => call.service === 'unlock').length, 0, 'nothing reached the lock')
  t.equal(server.app.services.policy.approvals.waiting(), 1, 'it waits for the owner')
})

// confirm_with: owner (src/policy/approvals.ts): a call that needs a confirmation runs only once the
// owner approves it on the status page or from a phone; nothing the assistant sends is a yes.
import t from 'tap'
import { callTool, caughtUp, connectClient, dropConnections, eventually, fakeClock, rpc, setSeen, startHome, startServer, TEST_TOKEN, type TestServer } from '../helper.ts'
import { startIngress } from '../ingress/_ingress.ts'
import { metaFor, modern } from '../modern.ts'
import type { DemoHome } from '../../demo/index.ts'
import { writeCatalog } from '../write/catalog.ts'
import { INGRESS_PROXY_ADDRESS } from '../../src/hosts.ts'
import { authorizeUrl, codeFor, exchange, openConsent, pkce, postForm, register } from '../oauth/_oauth.ts'
import { ACCESS_TTL_MS } from '../../src/oauth/authorization-server.ts'

const LOCK = 'lock.front_door_lock'
const UNLOCK = { domain: 'lock', service: 'unlock', target: { entity_id: LOCK } }
const UI = { 'x-ha-mcp-ui': '1', 'x-remote-user-id': 'abc123', 'x-remote-user-name': 'alice', 'x-remote-user-display-name': 'Alice' }

const callsTo = (home: DemoHome, name: string): Array<{ service_data: Record<string, unknown> }> =>
  home.serviceCalls.filter(c => `${c.domain}.${c.service}` === name)
const unlocks = (home: DemoHome): number => callsTo(home, 'lock.unlock').length
const auditOf = (server: TestServer, outcome: string): Array<Record<string, unknown>> =>
  server.app.services.policy.audit.recent(200).filter(e => e.outcome === outcome && e.service === 'unlock') as unknown as Array<Record<string, unknown>>

/** The Approve action id the phone notification of the newest approval carries. */
function phoneAction (home: DemoHome, phone: string, which: 'APPROVE' | 'DENY'): string {
  const sent = callsTo(home, `notify.mobile_app_${phone}`).filter(c => Array.isArray((c.service_data.data as { actions?: unknown } | undefined)?.actions))
  const actions = (sent.at(-1)?.service_data.data as { actions: Array<{ action: string }> }).actions
  return actions.find(a => a.action.includes(which))?.action as string
}

t.test('confirm_with: owner', async t => {
  const home = await startHome(t)
  const server = await startServer(t, { home, options: { allow_write: true, confirm_with: 'owner' } })
  const ingress = await startIngress(t, server)
  const client = await connectClient(t, server)
  const approvals = async (): Promise<any[]> => (await ingress.inject({ url: '/api/approvals' })).json().approvals
  const decide = async (id: string, decision: string): Promise<any> => await ingress.inject({ method: 'POST', url: `/api/approvals/${id}`, headers: UI, payload: { decision } })
  // The add-on sees the lock locked before the next call (its preview is of what it sees), and what the
  // previous test sent has reached the house before it is cleared.
  const fresh = async (): Promise<void> => { home.setState(LOCK, 'locked'); await caughtUp(server); home.clearServiceCalls() }

  t.test('the assistant sending the token straight back executes nothing', async t => {
    await fresh()
    const asked = await callTool(client, 'ha_call_service', UNLOCK)
    t.notOk(asked.isError, asked.text)
    t.equal(asked.json.awaiting_owner, true, asked.text)
    t.notOk(asked.json.confirmation_required, 'not a confirmation the assistant can give')
    const again = await callTool(client, 'ha_call_service', { ...UNLOCK, confirm_token: asked.json.confirm_token })
    t.notOk(again.isError, again.text)
    t.equal(again.json.awaiting_owner, true, 'still waiting for the owner')
    const third = await callTool(client, 'ha_call_service', UNLOCK)
    t.equal(third.json.confirm_token, asked.json.confirm_token, 'asking again waits on the same approval')
    t.equal(unlocks(home), 0, 'nothing reached the lock')
    t.equal(home.getState(LOCK)?.state, 'locked')
    await eventually(() => callsTo(home, 'notify.mobile_app_alice_phone').length > 0, 5000, 'the phone notification')
    const notice = callsTo(home, 'persistent_notification.create')
    t.equal(notice.length, 1, 'one persistent notification')
    t.match(String(notice[0]?.service_data.message), /lock\.unlock/)
    t.notOk(JSON.stringify(asked.json).includes(phoneAction(home, 'alice_phone', 'APPROVE').slice(-32)), 'the assistant never sees the phone\'s action')
    t.equal(auditOf(server, 'confirmation_asked').filter(e => e.reason === 'awaiting_owner').length, 1, 'asked once, audited once')
    const [waiting] = await approvals()
    t.equal(waiting.state, 'waiting')
    t.equal(waiting.call, 'lock.unlock')
    t.match(waiting.preview, LOCK, 'the page shows exactly what will be done')
    t.equal(waiting.asked_by, 'primary token')
    t.equal((await decide(waiting.id, 'deny')).statusCode, 200, 'cleaned up for the next test')
  })

  t.test('approved on the status page, it runs as previewed; the assistant learns the outcome once; the audit says owner_panel', async t => {
    await fresh()
    const asked = await callTool(client, 'ha_call_service', UNLOCK)
    const waiting = (await approvals()).find(a => a.state === 'waiting')
    t.equal((await ingress.inject({ method: 'POST', url: `/api/approvals/${waiting.id}`, payload: { decision: 'approve' } })).statusCode, 403, 'the page\'s header is required')
    const approved = await decide(waiting.id, 'approve')
    t.equal(approved.statusCode, 200, approved.body)
    t.equal(approved.json().approval.state, 'done')
    t.equal(approved.json().approval.via, 'owner_panel')
    t.equal(unlocks(home), 1, 'unlocked once')
    t.equal(home.getState(LOCK)?.state, 'unlocked')
    const given = auditOf(server, 'confirmation_given')[0]
    t.equal(given?.via, 'owner_panel')
    t.equal(given?.decided_by, 'Alice')
    t.equal((await decide(waiting.id, 'approve')).statusCode, 409, 'decided once')
    const created = callsTo(home, 'persistent_notification.create').map(c => c.service_data.notification_id)
    t.same(created, [`ha_mcp_approval_${waiting.id as string}`], 'its notification was shown')
    await caughtUp(server)
    t.ok(callsTo(home, 'persistent_notification.dismiss').some(c => c.service_data.notification_id === created[0]), 'the notification dismissed')
    t.ok(callsTo(home, 'notify.mobile_app_alice_phone').some(c => c.service_data.message === 'clear_notification'), 'the phone notification cleared')
    const outcome = await callTool(client, 'ha_call_service', { ...UNLOCK, confirm_token: asked.json.confirm_token })
    t.notOk(outcome.isError, outcome.text)
    t.equal(outcome.json.success, true, 'the assistant learns it ran')
    t.same(outcome.json.entities, [LOCK])
    const later = await callTool(client, 'ha_call_service', { ...UNLOCK, confirm_token: asked.json.confirm_token })
    t.equal(later.code, 'HAMCP_CONFIRM_TOKEN_INVALID', 'told once')
    t.equal(unlocks(home), 1, 'and nothing ran again')
  })

  t.test('a tap on an administrator\'s phone approves; a tap on a plain user\'s phone does nothing', async t => {
    await fresh()
    const asked = await callTool(client, 'ha_call_service', UNLOCK)
    await eventually(() => callsTo(home, 'notify.mobile_app_bob_phone').length > 0, 5000, 'the phone notifications')
    home.tapPhoneAction('bob_phone', phoneAction(home, 'bob_phone', 'APPROVE'))
    home.tapPhoneAction('alice_phone', 'HA_MCP_APPROVE_' + 'f'.repeat(32))
    const approve = phoneAction(home, 'alice_phone', 'APPROVE')
    home.tapPhoneAction('alice_phone', approve)
    await eventually(async () => (await approvals()).some(a => a.state === 'done' && a.via === 'owner_notification'), 5000, 'the approval from the phone')
    t.equal(unlocks(home), 1, 'unlocked once')
    t.equal(home.getState(LOCK)?.state, 'unlocked')
    const given = auditOf(server, 'confirmation_given')[0]
    t.equal(given?.via, 'owner_notification')
    t.equal(given?.decided_by, 'Alice')
    const outcome = await callTool(client, 'ha_call_service', { ...UNLOCK, confirm_token: asked.json.confirm_token })
    t.equal(outcome.json.success, true, outcome.text)

    await fresh()
    const second = await callTool(client, 'ha_call_service', UNLOCK)
    await eventually(() => callsTo(home, 'notify.mobile_app_bob_phone').length > 0, 5000, 'the phone notifications')
    home.tapPhoneAction('bob_phone', phoneAction(home, 'bob_phone', 'APPROVE'))
    home.tapPhoneAction('alice_phone', phoneAction(home, 'alice_phone', 'DENY'))
    const pending = (await approvals()).find(a => a.state === 'waiting')
    await eventually(async () => (await approvals()).some(a => a.id === pending.id && a.state === 'denied' && a.decided_by === 'Alice'), 5000, 'Alice\'s no')
    const denied = await callTool(client, 'ha_call_service', { ...UNLOCK, confirm_token: second.json.confirm_token })
    t.equal(denied.code, 'HAMCP_CONFIRMATION_DECLINED', 'Bob\'s earlier yes counted for nothing')
    t.equal(unlocks(home), 0)
  })

  t.test('denied on the page: nothing runs, the assistant hears "denied by the owner"', async t => {
    await fresh()
    const asked = await callTool(client, 'ha_call_service', UNLOCK)
    const waiting = (await approvals()).find(a => a.state === 'waiting')
    const denied = await decide(waiting.id, 'deny')
    t.equal(denied.json().approval.state, 'denied')
    const answer = await callTool(client, 'ha_call_service', { ...UNLOCK, confirm_token: asked.json.confirm_token })
    t.equal(answer.code, 'HAMCP_CONFIRMATION_DECLINED', answer.text)
    t.match(answer.text, /owner \(Alice\) denied/)
    t.equal(unlocks(home), 0)
    t.equal(home.getState(LOCK)?.state, 'locked')
    t.ok(auditOf(server, 'refused').some(e => e.reason === 'denied_by_owner' && e.decided_by === 'Alice'))
  })

  t.test('what the owner approved must still hold: a changed house runs nothing', async t => {
    await fresh()
    const asked = await callTool(client, 'ha_call_service', UNLOCK)
    const waiting = (await approvals()).find(a => a.state === 'waiting')
    await setSeen(t, server, LOCK, 'jammed', undefined, 'the add-on sees the jammed lock')
    const approved = await decide(waiting.id, 'approve')
    t.equal(approved.json().approval.state, 'failed')
    t.match(approved.json().approval.error, /HAMCP_CONFLICT/)
    t.equal(unlocks(home), 0, 'nothing reached the lock')
    const answer = await callTool(client, 'ha_call_service', { ...UNLOCK, confirm_token: asked.json.confirm_token })
    t.equal(answer.code, 'HAMCP_CONFLICT', answer.text)
  })

  t.test('another identity cannot see, collect or approve through the MCP side', async t => {
    await fresh()
    const asked = await callTool(client, 'ha_call_service', UNLOCK)
    const { token: other } = await server.app.services.tokens.create({ name: 'kitchen tablet', scopes: ['read', 'write'] })
    const stranger = await connectClient(t, server, other)
    const foreign = await callTool(stranger, 'ha_call_service', { ...UNLOCK, confirm_token: asked.json.confirm_token })
    t.equal(foreign.code, 'HAMCP_CONFIRM_TOKEN_INVALID', foreign.text)
    t.notOk(foreign.text.includes('primary'), 'says nothing of whose it is')
    const tools = await stranger.listTools()
    t.notOk(tools.tools.some(tool => /approv/.test(tool.name)), 'no tool lists or decides approvals')
    const own = await callTool(stranger, 'ha_call_service', UNLOCK)
    t.equal(own.json.awaiting_owner, true)
    t.not(own.json.confirm_token, asked.json.confirm_token, 'its own approval, not the other one')
    t.same((await approvals()).filter(a => a.state === 'waiting').map(a => a.asked_by).sort(), ['kitchen tablet', 'primary token'])
    const mine = await callTool(client, 'ha_call_service', { ...UNLOCK, confirm_token: asked.json.confirm_token })
    t.equal(mine.json.awaiting_owner, true, 'the stranger\'s attempt left the owner\'s approval waiting')
    t.equal(unlocks(home), 0)
    for (const a of await approvals()) if (a.state === 'waiting') await decide(a.id, 'deny')
  })

  t.test('a revoked token\'s waiting call can no longer be approved; its notifications go', async t => {
    await fresh()
    const { token, entry } = await server.app.services.tokens.create({ name: 'old tablet', scopes: ['read', 'write'] })
    const tablet = await connectClient(t, server, token)
    const asked = await callTool(tablet, 'ha_call_service', UNLOCK)
    t.equal(asked.json.awaiting_owner, true, asked.text)
    const waiting = (await approvals()).find(a => a.state === 'waiting' && a.asked_by === 'old tablet')
    t.ok(await server.app.services.tokens.revoke(entry.id))
    const late = await decide(waiting.id, 'approve')
    t.equal(late.statusCode, 409, 'no longer waiting')
    t.equal(late.json().message, 'this approval is no longer waiting: it is revoked')
    t.equal(unlocks(home), 0, 'nothing reached the lock')
    await caughtUp(server)
    t.ok(callsTo(home, 'persistent_notification.dismiss').some(c => c.service_data.notification_id === `ha_mcp_approval_${waiting.id as string}`), 'the notification dismissed')
    t.ok(auditOf(server, 'refused').some(e => e.reason === 'owner_approval_revoked' && e.identity_name === 'old tablet'))
  })

  t.test('a 2026-07-28 client that can be asked gets no round: its yes is not the owner\'s', async t => {
    await fresh()
    const first = await modern(server, TEST_TOKEN, 'tools/call', { name: 'ha_call_service', arguments: UNLOCK }, metaFor({ elicitation: { form: {} } }))
    t.equal(first.body.result?.resultType, 'complete', JSON.stringify(first.body).slice(0, 300))
    t.equal(first.body.result?.structuredContent?.awaiting_owner, true)
    t.equal(unlocks(home), 0)
    for (const a of await approvals()) if (a.state === 'waiting') await decide(a.id, 'deny')
  })

  t.test('the notifications name the call and what it reaches, never its data (an alarm code)', async t => {
    await fresh()
    const alarm = home.entityIds().find(id => id.startsWith('alarm_control_panel.')) as string
    const asked = await callTool(client, 'ha_call_service', { domain: 'alarm_control_panel', service: 'alarm_disarm', target: { entity_id: alarm }, data: { code: '480913' } })
    t.equal(asked.json.awaiting_owner, true, asked.text)
    await eventually(() => callsTo(home, 'notify.mobile_app_alice_phone').length > 0, 5000, 'the phone notification')
    const sent = JSON.stringify([...callsTo(home, 'persistent_notification.create'), ...callsTo(home, 'notify.mobile_app_alice_phone'), ...callsTo(home, 'notify.mobile_app_bob_phone')])
    t.match(sent, `alarm_control_panel.alarm_disarm on ${alarm}`)
    t.notOk(sent.includes('480913'), 'the code stays out of Home Assistant\'s notifications and phone pushes')
    const [waiting] = (await approvals()).filter(a => a.state === 'waiting')
    t.match(waiting.preview, '480913', 'the panel shows exactly what will be done')
    await decide(waiting.id, 'deny')
  })

  t.test('a client cannot flood the owner: at most 5 waiting per client', async t => {
    await fresh()
    const lights = home.entityIds().filter(id => id.startsWith('lock.'))
    const answers = []
    for (let i = 0; i < 6; i++) answers.push(await callTool(client, 'ha_call_service', { domain: 'lock', service: 'lock', target: { entity_id: lights[i % lights.length] }, data: { code: String(i) } }))
    t.same(answers.slice(0, 5).map(a => a.json?.awaiting_owner), [true, true, true, true, true])
    t.equal(answers[5]?.code, 'HAMCP_LIMIT_REACHED', answers[5]?.text)
    t.equal(callsTo(home, 'persistent_notification.create').length, 5, 'five notifications, not six')
    for (const a of await approvals()) if (a.state === 'waiting') await decide(a.id, 'deny')
  })
})

t.test('confirm_with: owner: an approval nobody decides expires; its notifications go, and the assistant hears it', async t => {
  const home = await startHome(t)
  const clock = fakeClock()
  const server = await startServer(t, { home, options: { allow_write: true, confirm_with: 'owner' }, app: { policy: { now: clock.now, schedule: clock.schedule } } })
  const ingress = await startIngress(t, server)
  const client = await connectClient(t, server)
  home.setState(LOCK, 'locked')
  await caughtUp(server)
  const asked = await callTool(client, 'ha_call_service', UNLOCK)
  t.equal(asked.json.awaiting_owner, true, asked.text)
  const [waiting] = (await ingress.inject({ url: '/api/approvals' })).json().approvals
  clock.advance(10 * 60_000)
  await caughtUp(server)
  t.ok(callsTo(home, 'persistent_notification.dismiss').some(c => c.service_data.notification_id === `ha_mcp_approval_${waiting.id as string}`), 'the notification dismissed')
  const late = await ingress.inject({ method: 'POST', url: `/api/approvals/${waiting.id as string}`, headers: UI, payload: { decision: 'approve' } })
  t.equal(late.statusCode, 409, 'too late to approve')
  const answer = await callTool(client, 'ha_call_service', { ...UNLOCK, confirm_token: asked.json.confirm_token })
  t.equal(answer.code, 'HAMCP_CONFIRM_TOKEN_INVALID', answer.text)
  t.match(answer.text, /did not approve/)
  t.equal(unlocks(home), 0)
  t.ok(auditOf(server, 'refused').some(e => e.reason === 'owner_approval_expired'))
})

t.test('confirm_with: assistant (the default) keeps the token flow, audited via token', async t => {
  const home = await startHome(t)
  const server = await startServer(t, { home, options: { allow_write: true } })
  const client = await connectClient(t, server)
  home.setState(LOCK, 'locked')
  await caughtUp(server)
  const asked = await callTool(client, 'ha_call_service', UNLOCK)
  t.equal(asked.json.confirmation_required, true)
  await callTool(client, 'ha_call_service', { ...UNLOCK, confirm_token: asked.json.confirm_token })
  t.equal(unlocks(home), 1)
  t.equal(auditOf(server, 'confirmation_given')[0]?.via, 'token')
  t.equal(callsTo(home, 'persistent_notification.create').length, 0, 'no owner notification')
})

t.test('red team: an approval that acts on something else', async t => {
  /**
   * Attack pass on `confirm_with: owner`, by someone who did not write it: make the owner's
   * Approve act on something else than what the page showed. Judged by what reached the demo house.
   */

  const LOCK = 'lock.front_door_lock'
  const OTHER_LOCK = 'lock.office_front_door_lock'
  const UI = { 'x-ha-mcp-ui': '1', 'x-remote-user-id': 'abc123', 'x-remote-user-name': 'alice', 'x-remote-user-display-name': 'Alice' }
  const unlocks = (home: DemoHome): number => home.serviceCalls.filter(c => c.domain === 'lock' && c.service === 'unlock').length

  t.test('confirm_with: owner, attacked', async t => {
    const home = await startHome(t)
    const server = await startServer(t, { home, options: { allow_write: true, confirm_with: 'owner' }, app: { catalog: await writeCatalog() } })
    const ingress = await startIngress(t, server)
    const client = await connectClient(t, server)
    const waitingApproval = async (): Promise<any> => (await ingress.inject({ url: '/api/approvals' })).json().approvals.find((a: any) => a.state === 'waiting')
    const decide = async (id: string, decision: string): Promise<any> => await ingress.inject({ method: 'POST', url: `/api/approvals/${id}`, headers: UI, payload: { decision } })

    t.test('a lock added to the group after the owner was asked: the approval runs nothing', async t => {
      home.setState(LOCK, 'locked')
      await caughtUp(server)
      home.setState(OTHER_LOCK, 'locked')
      const call = { domain: 'lock', service: 'unlock', target: { entity_id: 'group.doors' } }
      const asked = await callTool(client, 'ha_call_service', call)
      t.equal(asked.json?.awaiting_owner, true, asked.text)
      const waiting = await waitingApproval()
      t.notMatch(waiting.preview, OTHER_LOCK, 'the page did not show the office lock')
      const group = home.getState('group.doors')
      const members = group?.attributes.entity_id as string[]
      home.setState('group.doors', group?.state ?? 'locked', { ...group?.attributes, entity_id: [...members, OTHER_LOCK] })
      await caughtUp(server)
      t.ok((server.app.services.ha.states.get('group.doors')?.attributes.entity_id as string[]).includes(OTHER_LOCK), 'the add-on sees the grown group')
      home.clearServiceCalls()
      const approved = await decide(waiting.id, 'approve')
      t.equal(approved.json().approval.state, 'failed', JSON.stringify(approved.json()))
      t.equal(unlocks(home), 0, 'nothing reached a lock')
      t.equal(home.getState(OTHER_LOCK)?.state, 'locked', 'the office lock the owner never saw stayed locked')
      home.setState('group.doors', group?.state ?? 'locked', { ...group?.attributes, entity_id: members })
    })

    t.test('an event a script fires in the owner\'s name is not a tap on the owner\'s phone', async t => {
      home.setState(LOCK, 'locked')
      await caughtUp(server)
      home.clearServiceCalls()
      const asked = await callTool(client, 'ha_call_service', { domain: 'lock', service: 'unlock', target: { entity_id: LOCK } })
      t.equal(asked.json?.awaiting_owner, true, asked.text)
      const withActions = (): typeof home.serviceCalls => home.serviceCalls.filter(c => c.domain === 'notify' && c.service === 'mobile_app_alice_phone' && Array.isArray((c.service_data.data as { actions?: unknown } | undefined)?.actions))
      await eventually(() => withActions().length > 0, 5000, 'the phone notification')
      // The Approve action travels in that notify call: anything that can watch call_service events (an
      // automation's trace, a script's wait_for_trigger) learns it. A script run as the owner's user fires
      // the event with it: origin LOCAL (homeassistant/helpers/script.py, _async_event_step), where a tap
      // arrives through the mobile app's webhook, origin REMOTE (mobile_app/webhook.py).
      const sent = withActions().at(-1)
      const approve = ((sent?.service_data.data as { actions: Array<{ action: string }> }).actions.find(a => a.action.includes('APPROVE')))?.action as string
      home.house.fire('mobile_app_notification_action', { action: approve }, home.house.newContext(home.house.userId), undefined, 'LOCAL')
      // The add-on has seen the event once a later command answers (one WebSocket, in order).
      await server.app.services.ha.command({ type: 'ping' })
      await server.app.services.ha.command({ type: 'config/auth/list' })
      await new Promise(resolve => setImmediate(resolve))
      t.equal((await waitingApproval())?.state, 'waiting', 'the approval still waits for the owner')
      t.equal(unlocks(home), 0, 'nothing reached the lock')
      t.equal(home.getState(LOCK)?.state, 'locked')
      home.tapPhoneAction('alice_phone', approve)
      await eventually(() => home.getState(LOCK)?.state === 'unlocked', 5000, 'the real tap to unlock')
      t.pass('a real tap on the phone still approves')
    })

    t.test('two Approves at once run the call once', async t => {
      home.setState(LOCK, 'locked')
      await caughtUp(server)
      const asked = await callTool(client, 'ha_call_service', { domain: 'lock', service: 'unlock', target: { entity_id: LOCK } })
      t.equal(asked.json?.awaiting_owner, true, asked.text)
      const waiting = await waitingApproval()
      home.clearServiceCalls()
      const both = await Promise.all([decide(waiting.id, 'approve'), decide(waiting.id, 'approve'), decide(waiting.id, 'deny')])
      t.same(both.map(r => r.statusCode).sort(), [200, 409, 409], 'one decision counts, the others are told it is no longer waiting')
      t.equal(unlocks(home), 1, 'the lock was unlocked once')
    })
  })
})

// Attacks on confirm_with: owner (src/policy/approvals.ts, approval-notices.ts) from outside: a client
// that words its own notification, a phone tap after Home Assistant reconnected, a flood of approvals.
t.test('red team: approvals attacked from outside', async t => {
  const LOCK = 'lock.front_door_lock'
  const UNLOCK = { domain: 'lock', service: 'unlock', target: { entity_id: LOCK } }

  const callsTo = (home: DemoHome, name: string): Array<{ service_data: Record<string, unknown> }> =>
    home.serviceCalls.filter(c => `${c.domain}.${c.service}` === name)

  /** The Approve action the newest actionable notification of `phone` carries. */
  function approveAction (home: DemoHome, phone: string): string | undefined {
    const sent = callsTo(home, `notify.mobile_app_${phone}`).filter(c => Array.isArray((c.service_data.data as { actions?: unknown } | undefined)?.actions))
    const actions = (sent.at(-1)?.service_data.data as { actions: Array<{ action: string }> } | undefined)?.actions
    return actions?.find(a => a.action.includes('APPROVE'))?.action
  }

  /** An OAuth sign-in of a client that chose its own name, approved with the primary token: its access token. */
  async function signInAs (server: TestServer, clientName: string): Promise<string> {
    const redirectUri = 'http://127.0.0.1:33333/callback'
    const registered = await (await register(server.url, { redirect_uris: [redirectUri], token_endpoint_auth_method: 'none', grant_types: ['authorization_code', 'refresh_token'], client_name: clientName })).json() as { client_id: string }
    const sign = { clientId: registered.client_id, redirectUri, pkce: pkce() }
    const page = await openConsent(authorizeUrl(server.url, sign))
    if (!page.requestId) throw new Error(`no consent page: ${page.status}`)
    const decided = await postForm(`${server.url}/oauth/authorize`, { request: page.requestId, api_token: TEST_TOKEN, action: 'allow', scope: ['read', 'write'] })
    const code = new URL(decided.headers.get('location') ?? '').searchParams.get('code') ?? ''
    const tokens = await (await postForm(`${server.url}/oauth/token`, { grant_type: 'authorization_code', code, redirect_uri: redirectUri, code_verifier: sign.pkce.verifier, client_id: sign.clientId })).json() as { access_token: string }
    return tokens.access_token
  }

  t.test('a client cannot word the owner\'s notification: its name is text, not markdown', async t => {
    const home = await startHome(t)
    const server = await startServer(t, { home, options: { allow_write: true, confirm_with: 'owner' } })
    home.setState(LOCK, 'locked')
    await caughtUp(server)
    // Home Assistant renders a persistent notification's message as markdown (frontend ha-markdown): a link
    // or an image there is the client's, shown to every user as the add-on's words.
    const token = await signInAs(server, 'Door check [Approve here](http://192.0.2.7/approve) ![](http://192.0.2.7/pixel.png) <a href="http://192.0.2.7">x</a>')
    const client = await connectClient(t, server, token)
    const asked = await callTool(client, 'ha_call_service', UNLOCK)
    t.equal(asked.json.awaiting_owner, true, asked.text)
    await caughtUp(server)
    const [notice] = callsTo(home, 'persistent_notification.create')
    const message = String(notice?.service_data.message)
    t.match(message, /Door check/, 'the notification names the client')
    t.notMatch(message, /(^|[^\\])\[Approve here\]\(/, 'no link of the client\'s in the notification')
    t.notMatch(message, /(^|[^\\])!\[\]\(/, 'no image of the client\'s in the notification')
    t.notMatch(message, /(^|[^\\])<a /, 'no HTML of the client\'s in the notification')
    t.equal(unlocks(home), 0)
  })

  t.test('a phone\'s tap still approves after Home Assistant\'s connection dropped and came back', async t => {
    const home = await startHome(t)
    const server = await startServer(t, { home, options: { allow_write: true, confirm_with: 'owner' } })
    const ingress = await startIngress(t, server)
    const client = await connectClient(t, server)
    await server.app.services.home.ready()
    home.setState(LOCK, 'locked')
    await caughtUp(server)
    const { ha } = server.app.services
    await dropConnections(home, ha)
    const asked = await callTool(client, 'ha_call_service', UNLOCK)
    t.equal(asked.json.awaiting_owner, true, asked.text)
    await eventually(() => approveAction(home, 'alice_phone') !== undefined, 5000, 'the phone notification')
    home.tapPhoneAction('alice_phone', approveAction(home, 'alice_phone') as string)
    await eventually(async () => (await ingress.inject({ url: '/api/approvals' })).json().approvals.some((a: { state: string }) => a.state === 'done'), 5000, 'the approval from the phone')
    t.equal(unlocks(home), 1, 'unlocked once, on the owner\'s tap')
  })

  const unlocks = (home: DemoHome): number => callsTo(home, 'lock.unlock').length

  t.test('in the add-on, the approvals API answers the ingress proxy alone; the MCP port has none', async t => {
    const home = await startHome(t)
    const server = await startServer(t, { home, options: { allow_write: true, confirm_with: 'owner' }, env: { SUPERVISOR_TOKEN: 'supervisor-token-for-tests', SUPERVISOR_URL: home.supervisorUrl } })
    const ingress = await startIngress(t, server)
    const client = await connectClient(t, server)
    home.setState(LOCK, 'locked')
    await caughtUp(server)
    const asked = await callTool(client, 'ha_call_service', UNLOCK)
    t.equal(asked.json.awaiting_owner, true, asked.text)
    const [waiting] = (await ingress.inject({ url: '/api/approvals', remoteAddress: INGRESS_PROXY_ADDRESS })).json().approvals
    const headers = { 'x-ha-mcp-ui': '1', 'x-remote-user-id': 'abc123', 'x-remote-user-name': 'mallory' }
    // The LAN, another add-on on the Supervisor's network, and loopback inside the container.
    for (const remoteAddress of ['192.168.1.50', '172.30.33.5', '127.0.0.1']) {
      t.equal((await ingress.inject({ url: '/api/approvals', remoteAddress })).statusCode, 403, `${remoteAddress} cannot list`)
      const approve = await ingress.inject({ method: 'POST', url: `/api/approvals/${waiting.id as string}`, remoteAddress, headers, payload: { decision: 'approve' } })
      t.equal(approve.json().error?.code ?? approve.json().code, 'HAMCP_INGRESS_ONLY', `${remoteAddress} cannot approve`)
    }
    // A cross-site form from the owner's own browser: text/plain, no custom header.
    const form = await ingress.inject({ method: 'POST', url: `/api/approvals/${waiting.id as string}`, remoteAddress: INGRESS_PROXY_ADDRESS, headers: { 'content-type': 'text/plain' }, payload: '{"decision":"approve"}' })
    t.not(form.statusCode, 200, 'a cross-site form cannot approve')
    for (const path of ['/api/approvals', `/api/approvals/${waiting.id as string}`]) {
      const direct = await fetch(`${server.url}${path}`, { method: path === '/api/approvals' ? 'GET' : 'POST', headers: { authorization: `Bearer ${TEST_TOKEN}`, 'content-type': 'application/json', 'x-ha-mcp-ui': '1' }, body: path === '/api/approvals' ? undefined : '{"decision":"approve"}' })
      t.equal(direct.status, 404, `the MCP port has no ${path}`)
    }
    t.equal(unlocks(home), 0, 'nothing reached the lock')
    t.equal((await ingress.inject({ url: '/api/approvals', remoteAddress: INGRESS_PROXY_ADDRESS })).json().approvals[0].state, 'waiting', 'still waiting for the owner')
  })

  t.test('a sign-in that expired cannot have its waiting unlock approved, not even before the minute\'s sweep', async t => {
    const home = await startHome(t)
    const clock = fakeClock(Date.parse('2026-12-01T12:00:00Z'))
    const server = await startServer(t, { home, options: { allow_write: true, confirm_with: 'owner' }, app: { clock } })
    const ingress = await startIngress(t, server)
    home.setState(LOCK, 'locked')
    await caughtUp(server)
    // Off the sweep's minute: the access token expires 30 s after one.
    clock.advance(30_000)
    // Registered for authorization_code only: no refresh token, the sign-in ends with its access token.
    const code = await codeFor(server.url, TEST_TOKEN, { grantTypes: ['authorization_code'] })
    const { access_token: token } = await (await exchange(server.url, code)).json() as { access_token: string }
    const client = await connectClient(t, server, token)
    clock.advance(ACCESS_TTL_MS - 10_000)
    const asked = await callTool(client, 'ha_call_service', UNLOCK)
    t.equal(asked.json.awaiting_owner, true, asked.text)
    clock.advance(20_000)
    t.equal((await rpc(server, { jsonrpc: '2.0', id: 1, method: 'tools/list' }, { authorization: `Bearer ${token}` })).status, 401, 'the credential is dead')
    const [waiting] = (await ingress.inject({ url: '/api/approvals' })).json().approvals
    const late = await ingress.inject({ method: 'POST', url: `/api/approvals/${waiting.id as string}`, headers: { 'x-ha-mcp-ui': '1', 'x-remote-user-name': 'alice' }, payload: { decision: 'approve' } })
    t.equal(late.statusCode, 409, late.body)
    t.equal(late.json().message, 'this approval is no longer waiting: it is revoked')
    t.equal(unlocks(home), 0, 'nothing reached the lock')
    server.app.services.backoff.succeed('127.0.0.1')
  })

  t.test('clients that each stay under 5 waiting approvals, together', async t => {
    const home = await startHome(t)
    const server = await startServer(t, { home, options: { allow_write: true, confirm_with: 'owner' } })
    const locks = home.entityIds().filter(id => id.startsWith('lock.'))
    // Twenty credentials (named tokens here; sign-ins approved with the primary token do the same), each
    // asking five different unlocks, the per-identity cap.
    for (let i = 0; i < 20; i++) {
      const { token } = await server.app.services.tokens.create({ name: `flood ${i}`, scopes: ['read', 'write'] })
      const flood = await connectClient(t, server, token)
      for (let j = 0; j < 5; j++) await callTool(flood, 'ha_call_service', { domain: 'lock', service: 'unlock', target: { entity_id: locks[j % locks.length] }, data: { code: `${i}-${j}` } })
      await flood.close()
    }
    const { token } = await server.app.services.tokens.create({ name: 'kitchen tablet', scopes: ['read', 'write'] })
    const kitchen = await connectClient(t, server, token)
    const asked = await callTool(kitchen, 'ha_call_service', UNLOCK)
    t.test('a client refused because the owner\'s list is full is told so, not that it asked too much itself', async t => {
      if (asked.code !== 'HAMCP_LIMIT_REACHED') return t.pass('not refused')
      t.notMatch(asked.text, /calls of this client already wait/, asked.text)
      t.match(asked.text, /100 calls wait for the owner/)
    })
    t.test('cannot lock the owner\'s other clients out', { todo: 'the store holds 100 approvals in all and refuses every identity once 100 wait (HAMCP_LIMIT_REACHED): twenty sign-ins, each made with the one primary token, fill it for ten minutes and put 100 notifications on every phone. Needs a cap per person or per root credential (a grant\'s approved_by), not only per identity' }, async t => {
      t.equal(asked.json?.awaiting_owner, true, `the owner's own client can still ask: ${asked.text.slice(0, 200)}`)
      t.ok(callsTo(home, 'persistent_notification.create').length <= 20, 'the owner is not buried under a hundred notifications')
    })
  })
})

import t from 'tap'
import { callTool, connectClient, eventually, startHome, startServer } from '../helper.ts'
import { startIngress } from '../ingress/_ingress.ts'
import { writeCatalog } from '../write/catalog.ts'
import type { DemoHome } from '../../demo/index.ts'

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
    home.setState(OTHER_LOCK, 'locked')
    const call = { domain: 'lock', service: 'unlock', target: { entity_id: 'group.doors' } }
    const asked = await callTool(client, 'ha_call_service', call)
    t.equal(asked.json?.awaiting_owner, true, asked.text)
    const waiting = await waitingApproval()
    t.notMatch(waiting.preview, OTHER_LOCK, 'the page did not show the office lock')
    const group = home.getState('group.doors')
    const members = group?.attributes.entity_id as string[]
    home.setState('group.doors', group?.state ?? 'locked', { ...group?.attributes, entity_id: [...members, OTHER_LOCK] })
    await eventually(() => (server.app.services.ha.states.get('group.doors')?.attributes.entity_id as string[]).includes(OTHER_LOCK), 5000, 'the add-on to see the grown group')
    home.clearServiceCalls()
    const approved = await decide(waiting.id, 'approve')
    t.equal(approved.json().approval.state, 'failed', JSON.stringify(approved.json()))
    t.equal(unlocks(home), 0, 'nothing reached a lock')
    t.equal(home.getState(OTHER_LOCK)?.state, 'locked', 'the office lock the owner never saw stayed locked')
    home.setState('group.doors', group?.state ?? 'locked', { ...group?.attributes, entity_id: members })
  })

  t.test('an event a script fires in the owner\'s name is not a tap on the owner\'s phone', async t => {
    home.setState(LOCK, 'locked')
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
    const asked = await callTool(client, 'ha_call_service', { domain: 'lock', service: 'unlock', target: { entity_id: LOCK } })
    t.equal(asked.json?.awaiting_owner, true, asked.text)
    const waiting = await waitingApproval()
    home.clearServiceCalls()
    const both = await Promise.all([decide(waiting.id, 'approve'), decide(waiting.id, 'approve'), decide(waiting.id, 'deny')])
    t.same(both.map(r => r.statusCode).sort(), [200, 409, 409], 'one decision counts, the others are told it is no longer waiting')
    t.equal(unlocks(home), 1, 'the lock was unlocked once')
  })
})

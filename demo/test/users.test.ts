// People and phones (demo/users.ts): config/auth/list as config/auth.py answers it, and a tap on a
// mobile app notification's action as mobile_app's fire_event webhook fires it.
import t from 'tap'
import { startDemoHome } from '../index.ts'
import { RawClient } from './fixtures/ws-client.ts'

t.test('config/auth/list and the mobile app\'s notification action', async t => {
  const home = await startDemoHome({ token: 'tok' })
  t.teardown(() => home.close())
  const c = await RawClient.open(t, home)
  const users = await c.ok({ type: 'config/auth/list' }) as Array<Record<string, unknown>>
  t.same(users.map(u => [u.name, (u.group_ids as string[]).includes('system-admin'), u.system_generated]), [['Alice', true, false], ['Bob', false, false], ['Supervisor', true, true]])
  t.same(Object.keys(users[0] ?? {}).sort(), ['credentials', 'group_ids', 'id', 'is_active', 'is_owner', 'local_only', 'name', 'system_generated', 'username'])
  t.equal((await c.command({ type: 'config/auth/list', extra: 1 })).success, false, 'no other key')

  const sub = await c.subscribe({ type: 'subscribe_events', event_type: 'mobile_app_notification_action' })
  home.tapPhoneAction('bob_phone', 'SOME_ACTION')
  const event = await c.nextEvent(sub)
  t.same(event.data, { action: 'SOME_ACTION' })
  t.equal(event.origin, 'REMOTE', 'fired from the phone\'s webhook')
  t.equal((event.context as { user_id: string }).user_id, users[1]?.id, 'in the context of the user who registered the phone')
  t.throws(() => { home.tapPhoneAction('carol_phone', 'X') }, /no mobile app phone/)
})

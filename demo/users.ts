import type { House } from './house.ts'
import type { CommandTable } from './ws/protocol.ts'

/**
 * The people who sign in to the demo home, as Home Assistant's `config/auth/list` lists them
 * (homeassistant/components/config/auth.py, `websocket_list` and `_user_info`, admin only): Alice the
 * owner (an admin), Bob (a plain user) and the Supervisor's system user. An admin is a user in the
 * `system-admin` group (homeassistant/auth/const.py, GROUP_ID_ADMIN).
 */
export const BOB_USER_ID = 'b0b5e7a1c2d34e5f8a9b0c1d2e3f4a5b'
export const SUPERVISOR_USER_ID = '5c0e9f1d2a3b4c5d6e7f8091a2b3c4d5'

export function demoUsers (ownerUserId: string): Array<Record<string, unknown>> {
  const user = (id: string, name: string, username: string | null, groups: string[], extra: Record<string, unknown> = {}): Record<string, unknown> => ({
    id,
    username,
    name,
    is_owner: false,
    is_active: true,
    local_only: false,
    system_generated: false,
    group_ids: groups,
    credentials: username === null ? [] : [{ type: 'homeassistant' }],
    ...extra
  })
  return [
    user(ownerUserId, 'Alice', 'alice', ['system-admin'], { is_owner: true }),
    user(BOB_USER_ID, 'Bob', 'bob', ['system-users']),
    user(SUPERVISOR_USER_ID, 'Supervisor', null, ['system-admin'], { system_generated: true })
  ]
}

/** Which user registered each phone of the mobile app (the config entry's `user_id`): its notify service is `notify.mobile_app_<phone>`. */
export function phoneOwner (house: House, phone: string): string | undefined {
  if (phone === 'alice_phone') return house.userId
  if (phone === 'bob_phone') return BOB_USER_ID
  return undefined
}

/**
 * A tap on an action button of a mobile app notification: the app posts a `fire_event` webhook and Home
 * Assistant fires `mobile_app_notification_action` with the app's data, origin REMOTE, in the context of
 * the user who registered the phone (homeassistant/components/mobile_app/webhook.py `webhook_fire_event`,
 * helpers.py `registration_context`).
 */
export function tapPhoneAction (house: House, phone: string, action: string, extra: Record<string, unknown> = {}): void {
  const userId = phoneOwner(house, phone)
  if (userId === undefined) throw new Error(`no mobile app phone named ${phone}`)
  house.fire('mobile_app_notification_action', { action, ...extra }, house.newContext(userId), undefined, 'REMOTE')
}

export const userCommands: CommandTable = {
  'config/auth/list': { keys: {}, handle: ctx => demoUsers(ctx.rt.house.userId) }
}

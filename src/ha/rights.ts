import { HomeAssistantError, UserError } from '../errors.ts'

/** What a token without administrator rights cannot do, said in the log, the self test and refused answers. */
export const NOT_ADMIN_EFFECT = 'Home Assistant refuses it automation and script configs, traces, the system log, dashboard saves and every registry or helper change. Use a long-lived access token made by an administrator (their Profile > Security).'

/** Home Assistant's answer to a command its user may not send: `unauthorized` (core websocket_api/decorators.py `require_admin`). */
export function isRightsRefusal (err: unknown): boolean {
  return err instanceof HomeAssistantError && err.haCode === 'unauthorized'
}

/**
 * The answer for a refusal for lack of rights: in development mode the cause is HA_TOKEN's user; in the
 * add-on the Supervisor's proxy is an administrator, so the refusal is Home Assistant's own limit.
 */
export function notPermitted (what: string, mode: string, admin: boolean | null): UserError {
  if (mode === 'dev') {
    const who = admin === false ? 'HA_TOKEN belongs to a user who is not an administrator' : 'HA_TOKEN\'s user may not do this'
    return new UserError('HAMCP_NOT_PERMITTED', `Home Assistant refused ${what}: ${who}.`, NOT_ADMIN_EFFECT)
  }
  return new UserError('HAMCP_NOT_PERMITTED', `Home Assistant refused ${what} for the add-on's user.`, 'Home Assistant reserves this to its own users; do it in Home Assistant.')
}

import { HomeAssistantError, UserError } from '../../src/errors.ts'
import type { HomeAssistant } from '../../src/ha/index.ts'

/**
 * What the Supervisor lets this add-on do. config.yaml declares `hassio_role: backup`, and the
 * Supervisor's api/middleware/security.py gives that role the `/.+/info` paths and `/backups*` only (the
 * `/addons/self/*`, `/info` and `/discovery` paths every add-on may use aside). The add-on keeps to it on
 * purpose (docs/security.md): `manager` would also open host reboots, OS updates, other add-ons'
 * start/stop/uninstall and mount changes to anyone holding an MCP token.
 */
export const SHIPPED_ROLE = 'backup'

/** When /backups is refused the install predates the role: said by ha_manage_config kind backup, ha_get_system and ha_get_self_test. */
export const ROLE_HINT = 'The add-on needs hassio_role: backup in its config.yaml (the published add-on has it); update or reinstall it.'

/** Whether a Supervisor call failed because the add-on's role does not reach the path (403, never read from the text). */
export function isRoleRefusal (err: unknown): boolean {
  return err instanceof HomeAssistantError && err.upstreamStatus === 403
}

/** The documented limitation a tool answers when what it was asked needs a role the add-on does not ask for. */
export function roleLimit (what: string, role: 'manager'): UserError {
  return new UserError('HAMCP_NOT_PERMITTED', `${what} needs the Supervisor's "${role}" role; this add-on holds "${SHIPPED_ROLE}" on purpose, so Home Assistant's Supervisor refuses it.`, 'See it in Home Assistant instead (Settings > System). docs/security.md explains what the add-on may reach and why.')
}

/** This add-on's own slug (the Supervisor's /addons/self/info), or undefined outside add-on mode. */
export async function ownAddonSlug (ha: HomeAssistant): Promise<string | undefined> {
  if (!ha.supervisor.available) return undefined
  const info = await ha.supervisor.call<{ slug?: unknown }>('GET', '/addons/self/info')
  return typeof info.slug === 'string' ? info.slug : undefined
}

/** Stopping this add-on ends the call asking it and every client's connection: refused, by ha_manage_addon and ha_call_service alike. */
export function ownStopRefusal (name: string): UserError {
  return new UserError('HAMCP_NOT_SUPPORTED', `${name} is this MCP server's own add-on: stopping it would end this call and every client's connection.`, 'The owner stops it from its page in Home Assistant.')
}

import { UserError } from '../../src/errors.ts'
import type { HomeAssistant } from '../../src/ha/index.ts'
import { isRoleRefusal, roleLimit } from '../_shared/supervisor-role.ts'

export const NOT_AN_ADDON_HINT = 'This needs the Supervisor API: run the server as a Home Assistant add-on (or set SUPERVISOR_URL and SUPERVISOR_TOKEN).'

/**
 * A Supervisor read with a clear error outside add-on mode and when the Supervisor refuses the add-on's
 * role: `needs` says which role the path asks for (`manager`: a documented limit; `any`, a `/.+/info`
 * path every add-on with hassio_api may read: a refusal means an old install).
 */
export async function supervisorGet<T> (ha: HomeAssistant, path: string, what: string, needs: 'manager' | 'any' = 'any'): Promise<T> {
  if (!ha.supervisor.available) throw new UserError('HAMCP_NOT_SUPPORTED', `${what} is only available when running as a Home Assistant add-on.`, NOT_AN_ADDON_HINT)
  try {
    return await ha.supervisor.call<T>('GET', path)
  } catch (err) {
    if (!isRoleRefusal(err)) throw err
    if (needs === 'manager') throw roleLimit(what, 'manager')
    // Every add-on with hassio_api may read /.+/info: refused, the install predates hassio_api.
    throw new UserError('HAMCP_NOT_PERMITTED', `The Supervisor refused ${what} for this add-on.`, 'The add-on needs hassio_api: true in its config.yaml (the published add-on has it); update or reinstall it.')
  }
}

export function ageDays (iso: unknown, now: number): number | null {
  const at = typeof iso === 'string' ? Date.parse(iso) : NaN
  return Number.isNaN(at) ? null : Math.round((now - at) / 864_000) / 100
}

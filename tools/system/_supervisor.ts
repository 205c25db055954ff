import { UserError } from '../../src/errors.ts'
import type { HomeAssistant } from '../../src/ha/index.ts'

export const NOT_AN_ADDON_HINT = 'This needs the Supervisor API: run the server as a Home Assistant add-on (or set SUPERVISOR_URL and SUPERVISOR_TOKEN).'

/** A Supervisor call with a clear error outside add-on mode; a 403 is returned as `null` (role too small). */
export async function supervisorGet<T> (ha: HomeAssistant, path: string, what: string): Promise<T | null> {
  if (!ha.supervisor.available) throw new UserError('HAMCP_NOT_SUPPORTED', `${what} is only available when running as a Home Assistant add-on.`, NOT_AN_ADDON_HINT)
  try {
    return await ha.supervisor.call<T>('GET', path)
  } catch (err) {
    if (/HTTP 403/.test((err as Error).message)) return null
    throw err
  }
}

export function ageDays (iso: unknown, now: number): number | null {
  const at = typeof iso === 'string' ? Date.parse(iso) : NaN
  return Number.isNaN(at) ? null : Math.round((now - at) / 864_000) / 100
}

import { HaError } from './errors.ts'
import { sendJson } from './http-util.ts'
import type { House } from './house.ts'
import type { Route } from './rest.ts'
import type { ServiceCall, ServiceTable } from './services/registry.ts'

/**
 * Home Assistant's configuration check and what rests on it, for the demo house. The check itself is
 * helpers/check_config.py `async_check_ha_config_file`: its errors and warnings as text, none when the
 * YAML is fine. The demo's YAML is fine unless a test seeds an error (`DemoHome.setConfigCheck`).
 */
interface CoreConfig {
  errors: string | null
  warnings: string | null
  /** Set by demo/index.ts: stops and starts the house as a restart does. */
  restart: () => void
}

const cores = new WeakMap<House, CoreConfig>()

export function coreConfigOf (house: House): CoreConfig {
  let core = cores.get(house)
  if (core === undefined) cores.set(house, (core = { errors: null, warnings: null, restart: () => {} }))
  return core
}

/**
 * components/homeassistant/__init__.py `async_handle_core_service` (check_config, restart) and
 * `async_handle_reload_all` run the same check first and refuse with HomeAssistantError when it finds
 * errors. (Core also shows a persistent notification, `homeassistant.check_config`; the demo does not.)
 */
function refuseInvalid (house: House, refusal: (errors: string) => string): void {
  const { errors } = coreConfigOf(house)
  if (errors !== null) throw new HaError('home_assistant_error', refusal(errors))
}

/** homeassistant.check_config: the check, and nothing else when it passes. */
export function checkConfigService (call: ServiceCall): void {
  refuseInvalid(call.house, errors => `The system cannot check_config because the configuration is not valid: ${errors}`)
}

/**
 * homeassistant.restart: after the check, the stop handler is awaited inside the service call, so Core
 * goes down before it answers (under the Supervisor, hassio asks the Supervisor to restart Core, which
 * stops its container): the caller's connection closes with the call unanswered, refused until Core is
 * up again. That lost connection is success to the frontend (its src/state/connection-mixin.ts,
 * `serviceCallWillDisconnect`).
 */
export function restartService (call: ServiceCall): void {
  refuseInvalid(call.house, errors => `The system cannot restart because the configuration is not valid: ${errors}`)
  coreConfigOf(call.house).restart()
}

/**
 * homeassistant.reload_all: after the check, every domain's `reload` but notify's, then
 * homeassistant.reload_core_config, frontend.reload_themes and homeassistant.reload_custom_templates
 * where the demo has them, all in the caller's context.
 */
export function reloadAllService (tables: () => ServiceTable) {
  return async (call: ServiceCall): Promise<void> => {
    refuseInvalid(call.house, errors => `Cannot quick reload all YAML configurations because the configuration is not valid: ${errors}`)
    const table = tables()
    const calls = [
      ...Object.keys(table).filter(domain => domain !== 'notify' && table[domain]?.reload !== undefined).map(domain => [domain, 'reload'] as const),
      ...([['homeassistant', 'reload_core_config'], ['frontend', 'reload_themes'], ['homeassistant', 'reload_custom_templates']] as const).filter(([domain, service]) => table[domain]?.[service] !== undefined)
    ]
    await Promise.all(calls.map(async ([domain, service]) => await call.house.invoke({ domain, service, via: 'ws', context: call.context, internal: true })))
  }
}

/** components/config/core.py CheckConfigView: POST, admin only (demo/admin-only.ts), `{result, errors, warnings}`. */
export const coreConfigRoutes: Route[] = [{
  method: 'POST',
  pattern: /^\/api\/config\/core\/check_config$/,
  handle: r => {
    const { errors, warnings } = coreConfigOf(r.rt.house)
    sendJson(r.res, 200, { result: errors === null ? 'valid' : 'invalid', errors, warnings })
  }
}]

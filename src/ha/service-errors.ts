import { UserError } from '../errors.ts'

/**
 * Home Assistant's answers to call_service that say the caller got the call wrong, read by HA's error
 * code (websocket_api/commands.py handle_call_service), never by its wording: vol.Invalid is
 * `invalid_format`, a ServiceValidationError `service_validation_error`, an unknown service `not_found`.
 * Anything else (home_assistant_error, unknown_error, timeout...) stays Home Assistant's failure.
 */
export function callerErrorOf (err: unknown, service: string): UserError | undefined {
  const raw = err as { haCode?: unknown, haMessage?: unknown } | null
  const code = raw?.haCode
  const said = typeof raw?.haMessage === 'string' ? raw.haMessage.slice(0, 300) : ''
  if (code === 'invalid_format' || code === 'service_validation_error') {
    return new UserError('HAMCP_INVALID_ARGUMENT', `Home Assistant refused the arguments of ${service}${said ? `: ${said}` : ''}.`, `ha_list_services (domain ${service.slice(0, service.indexOf('.'))}) shows the fields and values ${service} takes.`)
  }
  if (code === 'not_found') {
    return new UserError('HAMCP_NOT_FOUND', `Home Assistant has no service ${service}.`, `ha_list_services lists the services of this home (domain ${service.slice(0, service.indexOf('.'))}).`)
  }
  return undefined
}

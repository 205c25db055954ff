/**
 * What Home Assistant refuses a user who is not an administrator (the demo's `admin: false` switch,
 * for the token of HA_URL/HA_TOKEN; the Supervisor's proxy talks to Core as an administrator).
 * WebSocket: commands decorated `@websocket_api.require_admin` answer `unauthorized` "Unauthorized"
 * (core websocket_api/decorators.py; the registries' config/*.py create, update and delete, helpers'
 * collection writes in helpers/collection.py, lovelace/websocket.py save, trace/websocket_api.py,
 * system_log, search, blueprint/websocket_api.py, config/auth.py, config/config_entries.py disable, update,
 * ignore_flow and flow/progress, frontend/storage.py set, energy/websocket_api.py save_prefs).
 * REST: views with `@require_admin` (core http/decorators.py) answer 401: config/view.py for every
 * method, GET included, and api/__init__.py APITemplateView.
 */
const ADMIN_COMMANDS = [
  /^config\/(area|floor|label|category)_registry\/(create|update|delete)$/,
  /^config\/category_registry\/list$/,
  /^config\/(device|entity)_registry\/(update|remove|remove_config_entry)$/,
  /^homeassistant\/expose_entity$/,
  /^(zone|input_boolean|input_number|input_text|input_select|input_datetime|input_button|counter|timer|schedule)\/(create|update|delete)$/,
  /^search\/related$/,
  /^lovelace\/(config\/save|config\/delete|dashboards\/(create|update|delete))$/,
  /^blueprint\/(list|import|save|delete)$/,
  /^trace\/(list|get|contexts)$/,
  /^system_log\/(list|clear)$/,
  /^config\/auth\/list$/,
  /^config_entries\/(disable|update|ignore_flow|flow\/progress)$/,
  /^frontend\/set_system_data$/,
  /^energy\/save_prefs$/
]

const ADMIN_REST = [/^\/api\/config\//, /^\/api\/template$/]

export const adminOnlyCommand = (type: string): boolean => ADMIN_COMMANDS.some(pattern => pattern.test(type))
export const adminOnlyPath = (path: string): boolean => ADMIN_REST.some(pattern => pattern.test(path))

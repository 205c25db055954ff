/**
 * The broadest valid request of every tool, on a demo home: what the heaviest question a model could
 * ask looks like. Shared by `npm run bench` (heavy reads, their time and peak memory) and the tests
 * that hold every tool to its time budget and the process to staying alive
 * (test/system/call-budget.test.ts, test/system/build.test.ts).
 */

export type Args = Record<string, unknown>

/** The heaviest valid request of each tool a model could send; tools not named here get required-only arguments. */
export function broadestArguments (ids: string[], areas: string[] = ['living_room', 'kitchen', 'bedroom', 'office', 'garage', 'hallway', 'bathroom', 'garden']): Record<string, Args> {
  const of = (domain: string, n = 1): string[] => ids.filter(id => id.startsWith(`${domain}.`)).slice(0, n)
  const first = (domain: string): string => of(domain)[0] ?? `${domain}.missing`
  const sensors = ids.filter(id => /^sensor\..*(temperature|power|energy)/.test(id))
  // The home's own area ids: ha_call_service refuses an unknown one before the call.
  const everyArea = areas
  return {
    ha_list_entities: { limit: 200 },
    ha_search_entities: { query: 'light', limit: 50 },
    ha_list_devices: { limit: 200 },
    ha_list_automations: { limit: 200, include_config: true },
    ha_list_scripts: { limit: 200 },
    ha_list_blueprints: { limit: 50 },
    ha_list_services: {},
    ha_list_areas: {},
    ha_list_floors: {},
    ha_list_labels: {},
    ha_list_dashboards: {},
    ha_get_entity: { entity_id: first('climate') },
    ha_get_history: { entity_id: sensors.slice(0, 5), hours: 168 },
    ha_get_logbook: { hours: 168 },
    ha_get_statistics: { statistic_id: sensors.slice(0, 10), period: '5minute', hours: 8760 },
    ha_get_calendar: { hours: 720 },
    ha_get_presence: { hours: 168 },
    ha_get_health: { battery_threshold: 99, stale_days: 1 },
    ha_get_energy: { period: 'month', compare: true },
    ha_get_forecast: { type: 'hourly' },
    ha_get_todo_list: {},
    ha_get_addons: {},
    ha_get_self_test: {},
    ha_get_system: { section: 'error_log' },
    ha_explain_event: { entity_id: first('light') },
    ha_get_automation: { entity_id: first('automation') },
    ha_get_automation_trace: { entity_id: first('automation') },
    ha_get_camera_snapshot: { entity_id: first('camera') },
    // One pass over every state: the demo renders it like Home Assistant would.
    ha_render_template: { template: '{% for s in states %}{{ s.entity_id }}={{ s.state }};{% endfor %}' },
    ha_call_service: { domain: 'light', service: 'turn_on', target: { area_id: everyArea, entity_id: of('light', 100) }, dry_run: true },
    ha_snapshot_scene: { name: 'Everything', entities: of('light', 50), dry_run: true },
    ha_create_automation: { alias: 'Budget', triggers: [{ trigger: 'state', entity_id: of('binary_sensor', 100) }], actions: [{ action: 'light.turn_on', target: { entity_id: of('light', 100) } }], dry_run: true },
    ha_create_script: { alias: 'Budget', sequence: [{ action: 'light.turn_on', target: { entity_id: of('light', 100) } }], dry_run: true }
  }
}

/**
 * Further heavy reads beyond one per tool: other sections and scopes that read a lot. Each is
 * [label, tool, arguments]; the label names the scenario in the bench's output.
 */
export function extraHeavyReads (ids: string[]): Array<[string, string, Args]> {
  const lights = ids.filter(id => id.startsWith('light.'))
  return [
    ['ha_get_logbook area (7 d)', 'ha_get_logbook', { area: 'living_room', hours: 168 }],
    ['ha_get_logbook one light (7 d)', 'ha_get_logbook', { entity_id: lights[0] ?? 'light.missing', hours: 168 }],
    ['ha_get_history 5 lights (7 d)', 'ha_get_history', { entity_id: lights.slice(0, 5), hours: 168 }],
    ['ha_get_statistics 10 sensors, hour (1 y)', 'ha_get_statistics', { statistic_id: ids.filter(id => /^sensor\..*(temperature|power|energy)/.test(id)).slice(0, 10), period: 'hour', hours: 8760 }],
    ['ha_render_template all attributes', 'ha_render_template', { template: '{% for s in states %}{{ s.entity_id }} {{ s.attributes }};{% endfor %}' }]
  ]
}

/** Required-only arguments from the listed schema, with real ids where a field names an entity. */
export function requiredArguments (schema: Record<string, unknown>, ids: string[]): Args {
  const properties = (schema.properties ?? {}) as Record<string, Record<string, unknown>>
  const required = Array.isArray(schema.required) ? schema.required.map(String) : []
  const args: Args = {}
  for (const key of required) {
    const property = properties[key] ?? {}
    if (Array.isArray(property.enum)) args[key] = property.enum[0]
    else if (key.includes('entity')) args[key] = ids.find(id => id.startsWith('light.'))
    else if (property.type === 'boolean') args[key] = false
    else if (property.type === 'integer') args[key] = 1
    else if (property.type === 'array') args[key] = []
    else if (property.type === 'object') args[key] = {}
    else args[key] = 'x'
  }
  if ('dry_run' in properties) args.dry_run = true
  return args
}

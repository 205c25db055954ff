import type { DemoEntry } from './config-entries.ts'
import { sel, type FormField } from './flow-schema.ts'
import { setUpEntities, type HelperEntity } from './helper-entities.ts'
import { groupState, templateState, thresholdState, utilityMeterState } from './helper-platforms.ts'
import type { House } from './house.ts'
import { SchemaFlowError, type StepContext, type StepTable } from './schema-flow.ts'

/**
 * The config and options flows of Home Assistant's helper integrations, one row per integration:
 * each step's fields with core's names, required flags, defaults and selectors, the flow's own
 * validation, the entry's title, and the entities the entry sets up. Each row cites the
 * homeassistant/components/<domain>/config_flow.py it follows; demo/schema-flow.ts walks the steps
 * as helpers/schema_config_entry_flow.py does.
 */
export interface HelperFlow {
  config: StepTable
  options?: StepTable
  title: (options: Record<string, unknown>) => string
  setupEntities: (house: House, entry: DemoEntry) => void
  onRemove?: (house: House, entry: DemoEntry) => void
}

type Options = Record<string, unknown>

const req = (name: string, selector: FormField['selector'], extra: Partial<FormField> = {}): FormField => ({ name, selector, required: true, ...extra })
const opt = (name: string, selector: FormField['selector'], extra: Partial<FormField> = {}): FormField => ({ name, selector, optional: true, ...extra })
const NAME = req('name', sel.text())
const nameOf = (options: Options): string => String(options.name ?? '')
const numberBox = sel.number({ mode: 'box', step: 'any' })

/** A single entity named after the entry's name, of one domain, its state from the options. */
const oneEntity = (platform: string, domainOf: (o: Options) => string, compute: (house: House, o: Options) => ReturnType<HelperEntity['compute']>) =>
  (house: House, entry: DemoEntry): void => {
    setUpEntities(house, entry, platform, [{ domain: domainOf(entry.options), name: entry.title, compute: h => compute(h, entry.options) }])
  }

/** Fields of one step shown in both flows: the config flow's adds `name` first. */
const withName = (fields: FormField[]): FormField[] => [NAME, ...fields]

/** An options flow whose first step moves to the step named by an option (template_type, group_type). */
const byType = (key: string, steps: Record<string, FormField[] | ((ctx: StepContext) => FormField[])>, validate?: (type: string) => (input: Options) => Options): StepTable => ({
  init: { next: (options: Options) => String(options[key]) },
  ...Object.fromEntries(Object.entries(steps).map(([type, schema]) => [type, { schema, preview: key === 'template_type' ? 'template' : 'group', ...(validate === undefined ? {} : { validate: validate(type) }) }]))
})

// template/config_flow.py (generate_schema, TEMPLATE_TYPES, validate_user_input adds template_type).
const TEMPLATE_TYPES = ['alarm_control_panel', 'binary_sensor', 'button', 'cover', 'event', 'fan', 'image', 'light', 'lock', 'number', 'select', 'sensor', 'switch', 'update', 'vacuum', 'weather']
const BINARY_SENSOR_CLASSES = ['battery', 'battery_charging', 'carbon_monoxide', 'cold', 'connectivity', 'door', 'garage_door', 'gas', 'heat', 'light', 'lock', 'moisture', 'motion', 'moving', 'occupancy', 'opening', 'plug', 'power', 'presence', 'problem', 'running', 'safety', 'smoke', 'sound', 'tamper', 'update', 'vibration', 'window']
const SENSOR_CLASSES = ['absolute_humidity', 'apparent_power', 'aqi', 'area', 'atmospheric_pressure', 'battery', 'blood_glucose_concentration', 'carbon_dioxide', 'carbon_monoxide', 'conductivity', 'current', 'data_rate', 'data_size', 'date', 'distance', 'duration', 'energy', 'energy_distance', 'energy_storage', 'frequency', 'gas', 'humidity', 'illuminance', 'irradiance', 'moisture', 'monetary', 'nitrogen_dioxide', 'nitrogen_monoxide', 'nitrous_oxide', 'ozone', 'ph', 'pm1', 'pm10', 'pm25', 'power', 'power_factor', 'precipitation', 'precipitation_intensity', 'pressure', 'reactive_energy', 'reactive_power', 'signal_strength', 'sound_pressure', 'speed', 'sulphur_dioxide', 'temperature', 'timestamp', 'volatile_organic_compounds', 'volatile_organic_compounds_parts', 'voltage', 'volume', 'volume_flow_rate', 'volume_storage', 'water', 'weight', 'wind_direction', 'wind_speed']
/** Core lists every unit of every sensor device class; the field takes any text (custom_value), so a sample stands for them. */
const SENSOR_UNITS = ['%', '\u00b0C', '\u00b0F', 'K', 'W', 'kW', 'Wh', 'kWh', 'V', 'A', 'Hz', 'lx', 'hPa', 'Pa', 'bar', 'ppm', '\u00b5g/m\u00b3', 'm\u00b3', 'L', 'km/h', 'm/s', 'mm', 'cm', 'm', 'km', 'g', 'kg', 's', 'min', 'h', 'd', 'dB', 'dBm', 'MB', 'GB', 'Mbit/s', 'mm/h', '\u00b0']
const classes = (options: string[], translationKey: string): FormField['selector'] => sel.select(options, { mode: 'dropdown', translation_key: translationKey, sort: true })
const STATE = req('state', sel.template())

function templateFields (type: string, flow: 'config' | 'options'): FormField[] {
  const config = flow === 'config'
  const deviceClass = (list: string[], key: string): FormField[] => config ? [opt('device_class', classes(list, key))] : []
  const byPlatform: Record<string, FormField[]> = {
    alarm_control_panel: [opt('value_template', sel.template()), ...['disarm', 'arm_away', 'arm_custom_bypass', 'arm_home', 'arm_night', 'arm_vacation', 'trigger'].map(a => opt(a, sel.action())), opt('code_arm_required', sel.boolean(), { default: true }), opt('code_format', sel.select(['no_code', 'number', 'text'], { mode: 'dropdown', translation_key: 'alarm_control_panel_code_format' }), { default: 'number' })],
    binary_sensor: [STATE, ...deviceClass(BINARY_SENSOR_CLASSES, 'binary_sensor_device_class'), opt('auto_off', sel.text()), opt('delay_off', sel.text()), opt('delay_on', sel.text())],
    button: [opt('press', sel.action()), ...deviceClass(['identify', 'restart', 'update'], 'button_device_class')],
    cover: [STATE, opt('open_cover', sel.action()), opt('close_cover', sel.action()), opt('stop_cover', sel.action()), opt('position', sel.template()), opt('set_cover_position', sel.action()), ...deviceClass(['awning', 'blind', 'curtain', 'damper', 'door', 'garage', 'gate', 'shade', 'shutter', 'window'], 'cover_device_class')],
    event: [req('event_type', sel.template()), req('event_types', sel.template()), ...deviceClass(['doorbell', 'button', 'motion'], 'event_device_class')],
    fan: [STATE, req('turn_on', sel.action()), req('turn_off', sel.action()), opt('percentage', sel.template()), opt('set_percentage', sel.action()), opt('speed_count', sel.number({ min: 1, max: 100, step: 1, mode: 'box' }))],
    image: [req('url', sel.template()), opt('verify_ssl', sel.boolean(), { default: true })],
    light: [STATE, req('turn_on', sel.action()), req('turn_off', sel.action()), opt('level', sel.template()), opt('set_level', sel.action()), opt('hs', sel.template()), opt('set_hs', sel.action()), opt('temperature', sel.template()), opt('set_temperature', sel.action())],
    lock: [STATE, req('lock', sel.action()), req('unlock', sel.action()), opt('code_format', sel.template()), opt('open', sel.action())],
    number: [STATE, req('min', sel.number({ mode: 'box' }), { default: 0.0 }), req('max', sel.number({ mode: 'box' }), { default: 100.0 }), req('step', sel.number({ mode: 'box' }), { default: 1.0 }), opt('unit_of_measurement', sel.text({ type: 'text', multiline: false })), req('set_value', sel.action())],
    select: [STATE, req('options', sel.template()), opt('select_option', sel.action())],
    sensor: [STATE, opt('unit_of_measurement', sel.select(SENSOR_UNITS, { mode: 'dropdown', translation_key: 'sensor_unit_of_measurement', custom_value: true, sort: true })), opt('device_class', classes(SENSOR_CLASSES, 'sensor_device_class')), opt('state_class', classes(['measurement', 'measurement_angle', 'total', 'total_increasing'], 'sensor_state_class'))],
    switch: [opt('value_template', sel.template()), opt('turn_on', sel.action()), opt('turn_off', sel.action())],
    update: [...['installed_version', 'latest_version'].map(k => opt(k, sel.template())), opt('install', sel.action()), ...['in_progress', 'release_summary', 'release_url', 'title', 'update_percentage'].map(k => opt(k, sel.template())), opt('backup', sel.boolean()), opt('specific_version', sel.boolean()), ...deviceClass(['firmware'], 'update_device_class')],
    vacuum: [STATE, req('start', sel.action()), opt('fan_speed', sel.template()), opt('fan_speeds', sel.select([], { multiple: true, custom_value: true, mode: 'dropdown' })), ...['set_fan_speed', 'stop', 'pause', 'return_to_base', 'clean_spot', 'locate'].map(a => opt(a, sel.action()))],
    weather: [req('condition', sel.template()), req('humidity', sel.template()), req('temperature', sel.template()), opt('temperature_unit', sel.select(['\u00b0C', '\u00b0F', 'K'], { mode: 'dropdown', sort: true })), opt('forecast_daily', sel.template()), opt('forecast_hourly', sel.template())]
  }
  const fields = [...(byPlatform[type] ?? []), opt('device_id', sel.device()), opt('advanced_options', undefined, { section: { fields: [opt('availability', sel.template())], collapsed: true } })]
  return config ? withName(fields) : fields
}

const setTemplateType = (type: string) => (input: Options): Options => ({ template_type: type, ...input })

const template: HelperFlow = {
  config: {
    user: { menu: TEMPLATE_TYPES },
    ...Object.fromEntries(TEMPLATE_TYPES.map(type => [type, { schema: templateFields(type, 'config'), validate: setTemplateType(type), ...(type === 'button' ? {} : { preview: 'template' }) }]))
  },
  options: byType('template_type', Object.fromEntries(TEMPLATE_TYPES.map(type => [type, templateFields(type, 'options')])), setTemplateType),
  title: nameOf,
  setupEntities: oneEntity('template', o => String(o.template_type), (house, o) => templateState(house, String(o.template_type), o))
}

// group/config_flow.py (GROUP_TYPES, basic_group_config_schema, the options schemas without own entities).
const GROUP_TYPES = ['binary_sensor', 'button', 'cover', 'event', 'fan', 'light', 'lock', 'media_player', 'notify', 'sensor', 'siren', 'switch']
const STATISTICS = ['last', 'max', 'mean', 'median', 'min', 'product', 'range', 'stdev', 'sum']
const memberDomains = (type: string): string | string[] => type === 'sensor' ? ['sensor', 'number', 'input_number'] : type
const HIDE_MEMBERS = req('hide_members', sel.boolean(), { default: false })

function groupConfigFields (type: string): FormField[] {
  const fields = [NAME, req('entities', sel.entity(memberDomains(type), true)), HIDE_MEMBERS]
  if (type === 'binary_sensor') fields.push(req('all', sel.boolean(), { default: false }))
  if (type === 'sensor') fields.push(req('type', sel.select(STATISTICS, { translation_key: 'type' })))
  return fields
}

/** entity_selector_without_own_entities: the options form cannot add the group to itself. */
const groupOptionsFields = (type: string) => (ctx: StepContext): FormField[] => {
  const own = [...ctx.house.entities.values()].filter(e => e.config_entry_id === ctx.entryId).map(e => e.entity_id)
  const fields = [req('entities', sel.entity(memberDomains(type), true, { exclude_entities: own })), HIDE_MEMBERS]
  if (type === 'binary_sensor') fields.push(req('all', sel.boolean(), { default: false }))
  if (type === 'light' || type === 'switch') fields.push(req('all', sel.boolean(), { default: false, advanced: true }))
  if (type === 'sensor') fields.push(opt('ignore_non_numeric', sel.boolean(), { default: false }), req('type', sel.select(STATISTICS, { translation_key: 'type' })))
  return fields
}

/** GroupConfigFlowHandler.async_config_flow_finished / async_options_flow_finished / async_remove_entry: members hidden by the integration, or shown again. */
function hideMembers (house: House, members: unknown, hide: boolean): void {
  for (const id of Array.isArray(members) ? members : []) {
    const member = typeof id === 'string' ? house.entities.get(id) : undefined
    if (member === undefined || (member.hidden_by !== null && member.hidden_by !== 'integration')) continue
    const hiddenBy = hide ? 'integration' : null
    if (member.hidden_by === hiddenBy) continue
    member.hidden_by = hiddenBy
    house.fire('entity_registry_updated', { action: 'update', entity_id: member.entity_id, changes: { hidden_by: hide ? null : 'integration' } })
  }
}

const setGroupType = (type: string) => (input: Options): Options => ({ group_type: type, ...input })

const group: HelperFlow = {
  config: {
    user: { menu: GROUP_TYPES },
    ...Object.fromEntries(GROUP_TYPES.map(type => [type, { schema: groupConfigFields(type), validate: setGroupType(type), preview: 'group' }]))
  },
  options: byType('group_type', Object.fromEntries(GROUP_TYPES.filter(t => t !== 'siren').map(type => [type, groupOptionsFields(type)]))),
  title: nameOf,
  setupEntities: (house, entry) => {
    hideMembers(house, entry.options.entities, entry.options.hide_members === true)
    oneEntity('group', o => String(o.group_type), (h, o) => groupState(h, String(o.group_type), o))(house, entry)
  },
  onRemove: (house, entry) => { if (entry.options.hide_members === true) hideMembers(house, entry.options.entities, false) }
}

// utility_meter/config_flow.py (METER_TYPES, _validate_config: tariffs must be unique).
const METER_TYPES = ['none', 'quarter-hourly', 'hourly', 'daily', 'weekly', 'monthly', 'bimonthly', 'quarterly', 'yearly']

const utilityMeter: HelperFlow = {
  config: {
    user: {
      schema: [
        NAME,
        req('source', sel.entity('sensor')),
        req('cycle', sel.select(METER_TYPES, { translation_key: 'cycle' })),
        req('offset', sel.number({ min: 0, max: 28, mode: 'box', unit_of_measurement: 'days' }), { default: 0 }),
        req('tariffs', sel.select([], { custom_value: true, multiple: true }), { default: [] }),
        req('net_consumption', sel.boolean(), { default: false }),
        req('delta_values', sel.boolean(), { default: false }),
        req('periodically_resetting', sel.boolean(), { default: true }),
        opt('always_available', sel.boolean(), { default: false })
      ],
      validate: input => {
        const tariffs = input.tariffs as unknown[]
        if (new Set(tariffs).size !== tariffs.length) throw new SchemaFlowError('tariffs_not_unique')
        return input
      }
    }
  },
  options: {
    init: { schema: [req('source', sel.entity('sensor')), req('periodically_resetting', sel.boolean()), opt('always_available', sel.boolean(), { default: false })] }
  },
  title: nameOf,
  // utility_meter/__init__.py async_setup_entry: one sensor, or a select of the tariffs and a sensor per tariff.
  setupEntities: (house, entry) => {
    const name = entry.title
    const tariffs = Array.isArray(entry.options.tariffs) ? entry.options.tariffs.map(String) : []
    const entities: HelperEntity[] = tariffs.length === 0
      ? [{ domain: 'sensor', name, compute: h => utilityMeterState(h, entry.options) }]
      : [
          { domain: 'select', name, compute: () => ({ state: tariffs[0] as string, attributes: { options: tariffs } }) },
          ...tariffs.map(tariff => ({ domain: 'sensor', key: tariff, name: `${name} ${tariff}`, compute: (h: House) => utilityMeterState(h, entry.options, tariff) }))
        ]
    setUpEntities(house, entry, 'utility_meter', entities)
  }
}

// threshold/config_flow.py (_validate_mode: a lower or an upper limit, the missing one saved as None).
const THRESHOLD_FIELDS: FormField[] = [
  req('hysteresis', numberBox, { default: 0.0 }),
  opt('lower', numberBox),
  opt('upper', numberBox),
  req('entity_id', sel.entity('sensor'))
]
const thresholdMode = (input: Options): Options => {
  if (!('lower' in input) && !('upper' in input)) throw new SchemaFlowError('need_lower_upper')
  return { lower: null, upper: null, ...input }
}

const threshold: HelperFlow = {
  config: { user: { schema: withName(THRESHOLD_FIELDS), validate: thresholdMode, preview: 'threshold' } },
  options: { init: { schema: THRESHOLD_FIELDS, validate: thresholdMode, preview: 'threshold' } },
  title: nameOf,
  setupEntities: oneEntity('threshold', () => 'binary_sensor', thresholdState)
}

export const HELPER_FLOWS: Record<string, HelperFlow> = {
  template,
  group,
  utility_meter: utilityMeter,
  threshold
}

export const helperFlowOf = (handler: string): HelperFlow | undefined => Object.hasOwn(HELPER_FLOWS, handler) ? HELPER_FLOWS[handler] : undefined

import { opt, req, sel, type FormField } from './flow-schema.ts'
import { BINARY_SENSOR_CLASSES, byType, classes, hideEntities, NAME, nameOf, oneEntity, SENSOR_CLASSES, SENSOR_UNITS, withName, type HelperFlow, type Options } from './helper-flow-kit.ts'
import { groupState, randomState, templateState } from './helper-platforms.ts'
import type { StepContext } from './schema-flow.ts'

/**
 * The rows of the helper integrations whose config flow starts with a menu of entity types:
 * template, group and random. Each cites the config_flow.py of core it follows.
 */

// template/config_flow.py (generate_schema, TEMPLATE_TYPES, validate_user_input adds template_type).
const TEMPLATE_TYPES = ['alarm_control_panel', 'binary_sensor', 'button', 'cover', 'event', 'fan', 'image', 'light', 'lock', 'number', 'select', 'sensor', 'switch', 'update', 'vacuum', 'weather']
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

export const template: HelperFlow = {
  config: {
    user: { menu: TEMPLATE_TYPES },
    ...Object.fromEntries(TEMPLATE_TYPES.map(type => [type, { schema: templateFields(type, 'config'), validate: setTemplateType(type), ...(type === 'button' ? {} : { preview: 'template' }) }]))
  },
  options: byType('template_type', Object.fromEntries(TEMPLATE_TYPES.map(type => [type, templateFields(type, 'options')])), setTemplateType, 'template'),
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
const hideMembers = (house: Parameters<typeof hideEntities>[0], members: unknown, hide: boolean): void => { hideEntities(house, Array.isArray(members) ? members : [], hide) }

const setGroupType = (type: string) => (input: Options): Options => ({ group_type: type, ...input })

export const group: HelperFlow = {
  config: {
    user: { menu: GROUP_TYPES },
    ...Object.fromEntries(GROUP_TYPES.map(type => [type, { schema: groupConfigFields(type), validate: setGroupType(type), preview: 'group' }]))
  },
  options: byType('group_type', Object.fromEntries(GROUP_TYPES.filter(t => t !== 'siren').map(type => [type, groupOptionsFields(type)])), undefined, 'group'),
  title: nameOf,
  setupEntities: (house, entry) => {
    hideMembers(house, entry.options.entities, entry.options.hide_members === true)
    oneEntity('group', o => String(o.group_type), (h, o) => groupState(h, String(o.group_type), o))(house, entry)
  },
  onRemove: (house, entry) => { if (entry.options.hide_members === true) hideMembers(house, entry.options.entities, false) }
}

// random/config_flow.py (_generate_schema, RANDOM_TYPES, validate_user_input adds entity_type).
const RANDOM_TYPES = ['binary_sensor', 'sensor']

function randomFields (type: string, flow: 'config' | 'options'): FormField[] {
  const fields: FormField[] = []
  if (flow === 'config') {
    fields.push(NAME)
    if (type === 'binary_sensor') fields.push(opt('device_class', sel.select(BINARY_SENSOR_CLASSES, { sort: true, mode: 'dropdown', translation_key: 'binary_sensor_device_class' })))
  }
  if (type === 'sensor') {
    // minimum and maximum are cv.positive_int, not selectors (random/sensor.py DEFAULT_MIN 0, DEFAULT_MAX 20).
    fields.push(
      { name: 'minimum', type: 'integer', valueMin: 0, optional: true, default: 0 },
      { name: 'maximum', type: 'integer', valueMin: 0, optional: true, default: 20 },
      opt('device_class', sel.select(SENSOR_CLASSES, { sort: true, mode: 'dropdown', translation_key: 'sensor_device_class' })),
      opt('unit_of_measurement', sel.select(SENSOR_UNITS, { sort: true, mode: 'dropdown', translation_key: 'sensor_unit_of_measurement', custom_value: true }))
    )
  }
  return fields
}

const setEntityType = (type: string) => (input: Options): Options => ({ entity_type: type, ...input })

export const random: HelperFlow = {
  config: {
    user: { menu: RANDOM_TYPES },
    ...Object.fromEntries(RANDOM_TYPES.map(type => [type, { schema: randomFields(type, 'config'), validate: setEntityType(type) }]))
  },
  options: byType('entity_type', Object.fromEntries(RANDOM_TYPES.map(type => [type, randomFields(type, 'options')])), setEntityType),
  title: nameOf,
  setupEntities: oneEntity('random', o => String(o.entity_type), (_house, o) => randomState(String(o.entity_type), o))
}

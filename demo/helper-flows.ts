import { opt, req, sel, type FormField } from './flow-schema.ts'
import { abortEntriesMatch, hideEntities, NAME, nameOf, numberBox, oneEntity, withName, type HelperFlow, type Options } from './helper-flow-kit.ts'
import { group, random, template } from './helper-flows-menu.ts'
import { setUpEntities, type HelperEntity } from './helper-entities.ts'
import { derivativeState, filterState, historyStatsState, integrationState, minMaxState, statisticsState, switchAsXState, thresholdState, todState, trendState, utilityMeterState } from './helper-platforms.ts'
import type { House } from './house.ts'
import { SchemaFlowError, type StepContext } from './schema-flow.ts'

/**
 * The config and options flows of Home Assistant's helper integrations, one row per integration:
 * each step's fields with core's names, required flags, defaults and selectors, the flow's own
 * validation, the entry's title, and the entities the entry sets up. Each row cites the
 * homeassistant/components/<domain>/config_flow.py it follows; the rows whose flow starts with a
 * menu (template, group, random) are in demo/helper-flows-menu.ts; demo/schema-flow.ts walks the
 * steps as helpers/schema_config_entry_flow.py does.
 */

export type { HelperFlow } from './helper-flow-kit.ts'

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

// derivative/config_flow.py (UNIT_PREFIXES, TIME_UNITS; the options are the config minus name and source).
const TIME_UNITS = ['s', 'min', 'h', 'd']
const prefixes = (values: string[], labels: string[]): Array<{ value: string, label: string }> => values.map((value, i) => ({ value, label: `${value} (${labels[i] as string})` }))
const DERIVATIVE_OPTIONS: FormField[] = [
  req('round', sel.number({ min: 0, max: 6, mode: 'box', unit_of_measurement: 'decimals' }), { default: 2 }),
  req('time_window', sel.duration()),
  opt('unit_prefix', sel.select(prefixes(['n', '\u00b5', 'm', 'k', 'M', 'G', 'T', 'P'], ['nano', 'micro', 'milli', 'kilo', 'mega', 'giga', 'tera', 'peta']))),
  req('unit_time', sel.select(TIME_UNITS, { translation_key: 'time_unit' }), { default: 'h' })
]
const NUMERIC_SOURCES = ['counter', 'input_number', 'sensor']

const derivative: HelperFlow = {
  config: { user: { schema: [NAME, req('source', sel.entity(NUMERIC_SOURCES)), ...DERIVATIVE_OPTIONS] } },
  options: { init: { schema: DERIVATIVE_OPTIONS } },
  title: nameOf,
  setupEntities: oneEntity('derivative', () => 'sensor', derivativeState)
}

// min_max/config_flow.py (_STATISTIC_MEASURES; the title is the name, or "" without one).
const MIN_MAX_TYPES = [['min', 'Minimum'], ['max', 'Maximum'], ['mean', 'Arithmetic mean'], ['median', 'Median'], ['last', 'Most recently updated'], ['range', 'Statistical range'], ['sum', 'Sum']].map(([value, label]) => ({ value: value as string, label: label as string }))
const MIN_MAX_OPTIONS: FormField[] = [
  req('entity_ids', sel.entity(['sensor', 'number', 'input_number'], true)),
  req('type', sel.select(MIN_MAX_TYPES)),
  req('round_digits', sel.number({ min: 0, max: 6, mode: 'box' }), { default: 2 })
]

const minMax: HelperFlow = {
  config: { user: { schema: withName(MIN_MAX_OPTIONS) } },
  options: { init: { schema: MIN_MAX_OPTIONS } },
  title: nameOf,
  setupEntities: oneEntity('min_max', () => 'sensor', minMaxState)
}

// integration/config_flow.py (_get_options_dict; the options flow offers only sources with the current source's unit,
// entity_selector_compatible). max_sub_interval is the released field (a duration, no negative).
const INTEGRATION_SOURCES = ['counter', 'input_number', 'sensor']
const integrationFields = (ctx: StepContext): FormField[] => {
  const current = typeof ctx.options.source === 'string' ? ctx.house.states.get(ctx.options.source)?.attributes.unit_of_measurement : undefined
  const compatible = [...ctx.house.states.values()].filter(s => INTEGRATION_SOURCES.includes(s.entity_id.split('.')[0] as string) && s.attributes.unit_of_measurement === current).map(s => s.entity_id)
  return [
    req('source', ctx.entryId === undefined ? sel.entity(INTEGRATION_SOURCES) : sel.entity(undefined, false, { include_entities: compatible })),
    req('method', sel.select(['trapezoidal', 'left', 'right'], { translation_key: 'method' }), { default: 'trapezoidal' }),
    opt('round', sel.number({ min: 0, max: 6, mode: 'box' })),
    opt('max_sub_interval', sel.duration({ allow_negative: false }))
  ]
}

const integration: HelperFlow = {
  config: {
    user: {
      schema: ctx => [
        NAME,
        opt('unit_prefix', sel.select(prefixes(['k', 'M', 'G', 'T'], ['kilo', 'mega', 'giga', 'tera']), { mode: 'dropdown' })),
        req('unit_time', sel.select(TIME_UNITS, { mode: 'dropdown', translation_key: 'unit_time' }), { default: 'h' }),
        ...integrationFields(ctx)
      ]
    }
  },
  options: { init: { schema: integrationFields } },
  title: nameOf,
  setupEntities: oneEntity('integration', () => 'sensor', integrationState)
}

// statistics/config_flow.py (three steps: source, characteristic by source kind, then the sampling options;
// validate_options, _async_abort_entries_match) and sensor.py (STATS_NUMERIC_SUPPORT, STATS_BINARY_SUPPORT).
const STATS_NUMERIC = ['average_linear', 'average_step', 'average_timeless', 'change', 'change_sample', 'change_second', 'count', 'datetime_newest', 'datetime_oldest', 'datetime_value_max', 'datetime_value_min', 'distance_95_percent_of_values', 'distance_99_percent_of_values', 'distance_absolute', 'mean', 'mean_circular', 'median', 'noisiness', 'percentile', 'standard_deviation', 'sum', 'sum_differences', 'sum_differences_nonnegative', 'total', 'value_max', 'value_min', 'variance']
const STATS_BINARY = ['average_step', 'average_timeless', 'count', 'count_off', 'count_on', 'datetime_newest', 'datetime_oldest', 'mean']
const STATISTICS_OPTIONS: FormField[] = [
  opt('sampling_size', sel.number({ min: 0, step: 1, mode: 'box' })),
  opt('max_age', sel.duration({ enable_day: false, allow_negative: false })),
  opt('keep_last_sample', sel.boolean(), { default: false }),
  opt('percentile', sel.number({ min: 1, max: 99, step: 1, mode: 'box' }), { default: 50 }),
  opt('precision', sel.number({ min: 0, step: 1, mode: 'box' }), { default: 2 })
]
const statisticsOptions = (input: Options, ctx: StepContext): Options => {
  if (input.sampling_size === undefined && input.max_age === undefined) throw new SchemaFlowError('missing_max_age_or_sampling_size')
  if (input.keep_last_sample === true && input.max_age === undefined) throw new SchemaFlowError('missing_keep_last_sample')
  abortEntriesMatch(ctx, { ...ctx.options, ...input })
  return input
}

const statistics: HelperFlow = {
  config: {
    user: { schema: [req('name', sel.text(), { default: 'Statistical characteristic' }), req('entity_id', sel.entity(['binary_sensor', 'sensor']))], next: 'state_characteristic' },
    state_characteristic: {
      schema: ctx => [req('state_characteristic', sel.select(String(ctx.options.entity_id).startsWith('binary_sensor.') ? STATS_BINARY : STATS_NUMERIC, { translation_key: 'state_characteristic', sort: true, mode: 'dropdown' }))],
      next: 'options'
    },
    options: { schema: STATISTICS_OPTIONS, validate: statisticsOptions, preview: 'statistics' }
  },
  options: { init: { schema: STATISTICS_OPTIONS, validate: statisticsOptions, preview: 'statistics' } },
  title: nameOf,
  setupEntities: oneEntity('statistics', () => 'sensor', statisticsState)
}

// trend/config_flow.py (a second step with the source shown read-only; the options flow adds the sampling fields).
const trendBase = (ctx: StepContext): FormField[] => [
  opt('entity_id', sel.entity(undefined, false, { read_only: true })),
  opt('attribute', sel.attribute(ctx.options.entity_id)),
  opt('invert', sel.boolean(), { default: false })
]

const trend: HelperFlow = {
  config: {
    user: { schema: [NAME, req('entity_id', sel.entity('sensor'))], next: 'settings' },
    settings: { schema: trendBase }
  },
  options: {
    init: {
      schema: ctx => [
        ...trendBase(ctx),
        opt('max_samples', sel.number({ min: 2, mode: 'box' }), { default: 2 }),
        opt('min_samples', sel.number({ min: 2, mode: 'box' }), { default: 2 }),
        opt('min_gradient', sel.number({ step: 'any', mode: 'box' }), { default: 0.0 }),
        opt('sample_duration', sel.number({ min: 0, mode: 'box', unit_of_measurement: 's' }), { default: 0 })
      ]
    }
  },
  title: nameOf,
  setupEntities: oneEntity('trend', () => 'binary_sensor', trendState)
}

// filter/config_flow.py (FILTERS, get_options_schema per filter, validate_options: integers, _async_abort_entries_match) and const.py.
const FILTERS = ['lowpass', 'outlier', 'range', 'throttle', 'time_simple_moving_average', 'time_throttle']
const count = (min = 0): FormField['selector'] => sel.number({ min, step: 1, mode: 'box' })
const filterFields = (ctx: StepContext): FormField[] => {
  const window = (): FormField => opt('window_size', count(), { default: 1 })
  const timeWindow = (): FormField => req('window_size', sel.duration({ enable_day: false, allow_negative: false }))
  const byFilter: Record<string, FormField[]> = {
    outlier: [window(), opt('radius', count(), { default: 2.0 })],
    lowpass: [window(), opt('time_constant', count(), { default: 10 })],
    range: [opt('lower_bound', count()), opt('upper_bound', count())],
    time_simple_moving_average: [opt('type', sel.select(['last'], { mode: 'dropdown', translation_key: 'type' }), { default: 'last' }), timeWindow()],
    throttle: [window()],
    time_throttle: [timeWindow()]
  }
  return [...(byFilter[String(ctx.options.filter)] ?? []), opt('precision', count(), { default: 2 })]
}
const filterOptions = (input: Options, ctx: StepContext): Options => {
  const out = { ...input }
  for (const key of ['time_constant', 'precision']) if (typeof out[key] === 'number') out[key] = Math.trunc(out[key])
  if (typeof out.window_size === 'number') out.window_size = Math.trunc(out.window_size)
  abortEntriesMatch(ctx, { ...ctx.options, ...out })
  return out
}

const filter: HelperFlow = {
  config: {
    user: { schema: [req('name', sel.text(), { default: 'Filtered sensor' }), req('entity_id', sel.entity(['sensor'])), req('filter', sel.select(FILTERS, { mode: 'dropdown', translation_key: 'filter' }))], next: 'options' },
    options: { schema: filterFields, validate: filterOptions }
  },
  options: { init: { schema: filterFields, validate: filterOptions } },
  title: nameOf,
  setupEntities: oneEntity('filter', () => 'sensor', filterState)
}

// tod/config_flow.py (after and before times; the options flow takes both again).
const TOD_OPTIONS: FormField[] = [req('after_time', sel.time()), req('before_time', sel.time())]

const tod: HelperFlow = {
  config: { user: { schema: withName(TOD_OPTIONS) } },
  options: { init: { schema: TOD_OPTIONS } },
  title: nameOf,
  setupEntities: oneEntity('tod', () => 'binary_sensor', todState)
}

/** schema_config_entry_flow.py wrapped_entity_config_entry_title: the registry name, the original name, the state's name, the object id. */
function wrappedEntityTitle (house: House, entityId: string): string {
  const registered = house.entities.get(entityId)
  const objectId = entityId.split('.')[1] ?? entityId
  if (registered !== undefined) return registered.name ?? registered.original_name ?? objectId
  const name = house.states.get(entityId)?.attributes.friendly_name
  return typeof name === 'string' ? name : objectId
}

// switch_as_x/config_flow.py (the title is the wrapped switch's name, which the flow hides; the options flow
// takes only invert) and __init__.py (async_remove_entry shows the switch again).
const switchAsX: HelperFlow = {
  config: {
    user: {
      schema: [
        req('entity_id', sel.entity('switch')),
        opt('invert', sel.boolean(), { default: false }),
        req('target_domain', sel.select(['cover', 'fan', 'light', 'lock', 'siren', 'valve'], { translation_key: 'target_domain' }))
      ]
    }
  },
  options: { init: { schema: [req('invert', sel.boolean())] } },
  title: (options, house) => wrappedEntityTitle(house, String(options.entity_id)),
  setupEntities: (house, entry) => {
    hideEntities(house, entry.options.entity_id, true)
    oneEntity('switch_as_x', o => String(o.target_domain), switchAsXState)(house, entry)
    // switch_as_x/entity.py async_added_to_hass: the wrapper's registry entry names the switch it wraps
    // (async_update_entity_options with async_generate_entity_options: entity_id, invert).
    for (const entity of house.entities.values()) {
      if (entity.config_entry_id === entry.entry_id) entity.options = { ...entity.options, switch_as_x: { entity_id: entry.options.entity_id, invert: entry.options.invert === true } }
    }
  },
  onRemove: (house, entry) => { hideEntities(house, entry.options.entity_id, false) }
}

// history_stats/config_flow.py (three steps: source and type, the states to count, the period; exactly two of
// start, end and duration, validate_options, _async_abort_entries_match) and const.py.
const historyStatsFields = (ctx: StepContext): FormField[] => [
  opt('entity_id', sel.entity(undefined, false, { read_only: true })),
  opt('state', sel.state({ multiple: true, entity_id: ctx.options.entity_id, read_only: true })),
  opt('type', sel.select(['time', 'ratio', 'count'], { mode: 'dropdown', translation_key: 'type', read_only: true })),
  opt('start', sel.template()),
  opt('end', sel.template()),
  opt('duration', sel.duration({ enable_day: true, allow_negative: false })),
  ...(ctx.options.type === 'ratio' ? [] : [req('state_class', sel.select(['measurement', 'total_increasing'], { translation_key: 'state_class', mode: 'dropdown' }), { default: 'measurement' })])
]
const historyStatsOptions = (input: Options, ctx: StepContext): Options => {
  if (['start', 'end', 'duration'].filter(key => key in input).length !== 2) throw new SchemaFlowError('only_two_keys_allowed')
  abortEntriesMatch(ctx, { ...ctx.options, ...input })
  return input
}

const historyStats: HelperFlow = {
  config: {
    user: { schema: [req('name', sel.text(), { default: 'unnamed statistics' }), req('entity_id', sel.entity()), req('type', sel.select(['time', 'ratio', 'count'], { mode: 'dropdown', translation_key: 'type' }), { default: 'time' })], next: 'state' },
    state: { schema: ctx => [opt('entity_id', sel.entity(undefined, false, { read_only: true })), req('state', sel.state({ multiple: true, entity_id: ctx.options.entity_id }))], next: 'options' },
    options: { schema: historyStatsFields, validate: historyStatsOptions, preview: 'history_stats' }
  },
  options: { init: { schema: historyStatsFields, validate: historyStatsOptions, preview: 'history_stats' } },
  title: nameOf,
  setupEntities: oneEntity('history_stats', () => 'sensor', historyStatsState)
}

export const HELPER_FLOWS: Record<string, HelperFlow> = {
  template,
  group,
  random,
  utility_meter: utilityMeter,
  threshold,
  derivative,
  min_max: minMax,
  integration,
  statistics,
  trend,
  filter,
  tod,
  switch_as_x: switchAsX,
  history_stats: historyStats
}

export const helperFlowOf = (handler: string): HelperFlow | undefined => Object.hasOwn(HELPER_FLOWS, handler) ? HELPER_FLOWS[handler] : undefined

import { parseTemplate, TemplateError } from './template/parse.ts'
import { ENTITY_ID, isRecord } from './util.ts'

/**
 * A flow step's form as voluptuous holds it and as the REST views write it: the fields, their
 * selectors and the check of a step's input. Held to core's data_entry_flow.py
 * (FlowHandler.add_suggested_values_to_schema, FlowManager._async_configure -> InvalidData),
 * helpers/data_entry_flow.py (voluptuous_serialize.convert with cv.custom_serializer) and
 * helpers/selector.py (each selector's CONFIG_SCHEMA defaults and its __call__ check).
 */

/** A selector as serialized: `{entity: {domain: 'sensor', multiple: false}}`, one key. */
export type Selector = Record<string, Record<string, unknown>>

export interface FormField {
  name: string
  /** A plain voluptuous type (older integrations such as Hue's options flow). */
  type?: 'boolean' | 'string' | 'integer'
  selector?: Selector
  /** A data_entry_flow `section`: nested fields, sent as one object under this field's name. */
  section?: { fields: FormField[], collapsed: boolean }
  /** vol.Required; otherwise vol.Optional. */
  required?: boolean
  optional?: boolean
  default?: unknown
  /** description {"advanced": True}: shown (and required) only with show_advanced_options. */
  advanced?: boolean
  /** The least an `integer` field takes (cv.positive_int: vol.Range(min=0), serialized as valueMin). */
  valueMin?: number
}

/** vol.Required(name) with a selector. */
export const req = (name: string, selector: FormField['selector'], extra: Partial<FormField> = {}): FormField => ({ name, selector, required: true, ...extra })
/** vol.Optional(name) with a selector. */
export const opt = (name: string, selector: FormField['selector'], extra: Partial<FormField> = {}): FormField => ({ name, selector, optional: true, ...extra })

/**
 * InvalidData.schema_errors (data_entry_flow.py _map_error_to_schema_errors): a field's message under
 * its name; an error whose path is not a field of the form (an extra key) or is nested (inside a
 * section) goes, with its path, into the list under `base`.
 */
export type FieldErrors = Record<string, string | string[]>

const pathOf = (path: string[]): string => `data${path.map(p => `['${p}']`).join('')}`

// Selector builders with the defaults their CONFIG_SCHEMA adds (helpers/selector.py).
export const sel = {
  text: (config: Record<string, unknown> = {}): Selector => ({ text: { multiline: false, multiple: false, ...config } }),
  // The entity filter's domain is kept as a list (vol.All(cv.ensure_list, [str])).
  entity: (domain?: string | string[], multiple = false, extra: Record<string, unknown> = {}): Selector =>
    ({ entity: { ...(domain === undefined ? {} : { domain: ([] as string[]).concat(domain) }), multiple, ...extra } }),
  number: (config: Record<string, unknown> = {}): Selector => ({ number: { step: 1, mode: 'slider', ...config } }),
  boolean: (): Selector => ({ boolean: {} }),
  select: (options: Array<string | { value: string, label: string }>, config: Record<string, unknown> = {}): Selector =>
    ({ select: { options, multiple: false, custom_value: false, sort: false, ...config } }),
  template: (): Selector => ({ template: {} }),
  action: (): Selector => ({ action: {} }),
  duration: (config: Record<string, unknown> = {}): Selector => ({ duration: config }),
  time: (): Selector => ({ time: {} }),
  device: (config: Record<string, unknown> = {}): Selector => ({ device: { multiple: false, ...config } }),
  attribute: (entityId: unknown): Selector => ({ attribute: { entity_id: entityId } }),
  state: (config: Record<string, unknown>): Selector => ({ state: { multiple: false, ...config } })
}

/** Fields as voluptuous_serialize writes them, with `suggested_value`s (data_entry_flow.py add_suggested_values_to_schema). */
export function serializeFields (fields: FormField[], suggested: Record<string, unknown> = {}, showAdvanced = false): Array<Record<string, unknown>> {
  const out: Array<Record<string, unknown>> = []
  for (const f of fields) {
    if (f.advanced === true && !showAdvanced) continue
    const value: Record<string, unknown> = f.section !== undefined
      ? { type: 'expandable', schema: serializeFields(f.section.fields, isRecord(suggested[f.name]) ? suggested[f.name] as Record<string, unknown> : {}, showAdvanced), expanded: !f.section.collapsed }
      : f.selector !== undefined ? { selector: f.selector } : { type: f.type ?? 'string', ...(f.valueMin === undefined ? {} : { valueMin: f.valueMin }) }
    value.name = f.name
    if (f.section === undefined && suggested[f.name] !== undefined) value.description = { suggested_value: suggested[f.name] }
    else if (f.advanced === true) value.description = { advanced: true }
    value[f.required === true ? 'required' : 'optional'] = true
    if (f.default !== undefined) value.default = f.default
    out.push(value)
  }
  return out
}

/**
 * vol.Schema(fields)(input): the input with defaults filled and values coerced, or every field's
 * error (voluptuous collects them all in a MultipleInvalid). An advanced field not shown is not part
 * of the form (add_suggested_values_to_schema leaves it out); demo/schema-flow.ts fills it.
 */
export function validateForm (fields: FormField[], input: Record<string, unknown>, showAdvanced = false): { values: Record<string, unknown> } | { errors: FieldErrors } {
  const errors: FieldErrors = {}
  const base: string[] = []
  const unplaced = (message: string, path: string[]): void => { base.push(`${message} @ ${pathOf(path)}`); errors.base = base }
  const values: Record<string, unknown> = {}
  const shown = fields.filter(f => f.advanced !== true || showAdvanced)
  for (const key of Object.keys(input)) if (!shown.some(f => f.name === key)) unplaced('extra keys not allowed', [key])
  for (const field of shown) {
    const value = input[field.name]
    if (value === undefined) {
      if (field.default !== undefined) values[field.name] = field.default
      else if (field.required === true) errors[field.name] = 'required key not provided'
      continue
    }
    const checked = checkValue(field, value)
    if ('nested' in checked) for (const [message, path] of checked.nested) unplaced(message, [field.name, ...path])
    else if ('error' in checked) errors[field.name] = checked.error
    else values[field.name] = checked.value
  }
  return Object.keys(errors).length > 0 ? { errors } : { values }
}

type Checked = { value: unknown } | { error: string } | { nested: Array<[string, string[]]> }

function checkValue (field: FormField, value: unknown): Checked {
  if (field.section !== undefined) {
    if (!isRecord(value)) return { error: 'expected a dictionary' }
    const nested: Array<[string, string[]]> = []
    for (const key of Object.keys(value)) if (!field.section.fields.some(f => f.name === key)) nested.push(['extra keys not allowed', [key]])
    const values: Record<string, unknown> = {}
    for (const inner of field.section.fields) {
      if (value[inner.name] === undefined) {
        if (inner.default !== undefined) values[inner.name] = inner.default
        else if (inner.required === true) nested.push(['required key not provided', [inner.name]])
        continue
      }
      const checked = checkValue(inner, value[inner.name])
      if ('error' in checked) nested.push([checked.error, [inner.name]])
      else if ('value' in checked) values[inner.name] = checked.value
    }
    return nested.length > 0 ? { nested } : { value: values }
  }
  if (field.selector !== undefined) {
    const [kind, config] = Object.entries(field.selector)[0] as [string, Record<string, unknown>]
    try { return { value: SELECTORS[kind]?.(value, config) ?? value } } catch (err) {
      if (err instanceof Invalid) return { error: err.message }
      throw err
    }
  }
  const ok = field.type === 'boolean' ? typeof value === 'boolean' : field.type === 'integer' ? Number.isInteger(value) : typeof value === 'string'
  if (!ok) return { error: `expected ${field.type === 'boolean' ? 'bool' : field.type === 'integer' ? 'int' : 'str'}` }
  if (field.valueMin !== undefined && (value as number) < field.valueMin) return { error: `value must be at least ${field.valueMin}` }
  return { value }
}

class Invalid extends Error {}

/** Python's repr of a list of strings, as voluptuous writes it into messages. */
export const pyList = (items: unknown[]): string => `[${items.map(i => `'${String(i)}'`).join(', ')}]`

/** vol.Coerce(float) keeps a float: Python writes 3 as 3.0. */
const pyFloat = (n: number): string => Number.isInteger(n) ? `${n}.0` : String(n)

/** vol.Schema(str), what the text, device, attribute and state selectors check: a string, nothing else. */
function str (value: unknown): string {
  if (typeof value !== 'string') throw new Invalid('expected str')
  return value
}

function each (config: Record<string, unknown>, value: unknown, one: (v: unknown) => unknown): unknown {
  if (config.multiple !== true) return one(value)
  if (!Array.isArray(value)) throw new Invalid('Value should be a list')
  return value.map(one)
}

/** Each selector's __call__ (helpers/selector.py): the value it keeps, or voluptuous.Invalid. */
const SELECTORS: Record<string, (value: unknown, config: Record<string, unknown>) => unknown> = {
  text: (value, config) => each(config, value, str),
  boolean: value => pythonTruth(value),
  template: value => {
    // cv.template, then Template.ensure_valid: a syntax error is "invalid template (TemplateSyntaxError: ...)".
    if (value === null) throw new Invalid('template value is None')
    if (typeof value === 'object') throw new Invalid('template value should be a string')
    const text = String(value)
    try { parseTemplate(text) } catch (err) {
      if (err instanceof TemplateError) throw new Invalid(`invalid template (${err.message})`)
      throw err
    }
    return text
  },
  number: (value, config) => {
    const number = typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' && !Number.isNaN(Number(value)) ? Number(value) : typeof value === 'boolean' ? Number(value) : undefined
    if (number === undefined) throw new Invalid('expected float')
    if (typeof config.min === 'number' && number < config.min) throw new Invalid(`Value ${pyFloat(number)} is too small`)
    if (typeof config.max === 'number' && number > config.max) throw new Invalid(`Value ${pyFloat(number)} is too large`)
    return number
  },
  entity: (value, config) => each(config, value, v => {
    const id = typeof v === 'string' ? v : String(v)
    if (!ENTITY_ID.test(id) && !/^[0-9a-f]{32}$/.test(id)) throw new Invalid(`Entity ${id} is neither a valid entity ID nor a valid UUID`)
    const domains = config.domain === undefined ? [] : ([] as unknown[]).concat(config.domain)
    const domain = id.split('.')[0] as string
    if (ENTITY_ID.test(id) && domains.length > 0 && !domains.includes(domain)) throw new Invalid(`Entity ${id} belongs to domain ${domain}, expected ${pyList(domains)}`)
    if (Array.isArray(config.include_entities) && !config.include_entities.includes(id)) throw new Invalid(`value must be one of ${pyList([...config.include_entities].sort())}`)
    if (Array.isArray(config.exclude_entities) && config.exclude_entities.includes(id)) throw new Invalid(`value must not be one of ${pyList([...config.exclude_entities].sort())}`)
    return id
  }),
  select: (value, config) => each(config, value, v => {
    const text = str(v)
    if (config.custom_value === true) return text
    const allowed = (config.options as Array<string | { value: string }>).map(o => typeof o === 'string' ? o : o.value)
    if (!allowed.includes(text)) throw new Invalid(`value must be one of ${pyList([...allowed].sort())}`)
    return text
  }),
  action: value => {
    if (!isRecord(value) && !(Array.isArray(value) && value.every(isRecord))) throw new Invalid('expected a dictionary')
    return value
  },
  duration: value => {
    // cv.time_period_dict: days, hours, minutes, seconds, milliseconds; at least one.
    if (!isRecord(value)) throw new Invalid('expected a dictionary')
    const keys = ['days', 'hours', 'minutes', 'seconds', 'milliseconds']
    for (const [key, v] of Object.entries(value)) {
      if (!keys.includes(key)) throw new Invalid(`extra keys not allowed @ data['${key}']`)
      if (typeof v !== 'number') throw new Invalid(`expected float @ data['${key}']`)
    }
    if (!keys.some(k => k in value)) throw new Invalid(`must contain at least one of ${keys.join(', ')}.`)
    return value
  },
  time: value => {
    if (typeof value !== 'string' || !/^([01]?\d|2[0-3]):[0-5]\d(:[0-5]\d)?$/.test(value)) throw new Invalid(`Invalid time specified: ${String(value)}`)
    return value
  },
  device: (value, config) => each(config, value, str),
  attribute: value => str(value),
  state: (value, config) => each(config, value, str)
}

/** vol.Coerce(bool): Python's truth of the value (the boolean selector takes anything). */
function pythonTruth (value: unknown): boolean {
  if (Array.isArray(value)) return value.length > 0
  if (isRecord(value)) return Object.keys(value).length > 0
  return Boolean(value)
}

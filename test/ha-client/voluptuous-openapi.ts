/**
 * A model of how Home Assistant's MCP client treats a tool's `inputSchema`, for tests only.
 *
 * Home Assistant (homeassistant/components/mcp/coordinator.py) passes every tool's inputSchema to
 * voluptuous-openapi's `convert_to_voluptuous`; one exception fails the whole tool-list update, so the
 * user gets no tools at all. The voluptuous schema it returns then validates every argument object the
 * model sends (homeassistant/helpers/llm.py, `tool.parameters(tool_input.tool_args)`) before the call
 * reaches us: what it refuses never arrives. This file follows the library's rules in their order
 * (read from voluptuous_openapi/__init__.py and its tests), written from scratch in TypeScript:
 * `convertToVoluptuous` throws where the library raises, and the returned function answers what
 * voluptuous would say about a JSON value (undefined when valid).
 */

export type HaValidator = (value: unknown) => string | undefined

export class ConversionError extends Error {}

import { isRecord } from '../../src/shape.ts'

type Schema = Record<string, unknown>

/** The keywords the converter refuses outright (OPENAPI_UNSUPPORTED_KEYWORDS). */
export const UNSUPPORTED_KEYWORDS = ['allOf', 'multipleOf', 'uniqueItems'] as const

/** Python's str/int/float/bool isinstance checks on a JSON value (a JS number with no fraction came in as a Python int). */
const PY_TYPES: Record<string, (v: unknown) => boolean> = {
  string: v => typeof v === 'string',
  // bool is a subclass of int in Python.
  integer: v => (typeof v === 'number' && Number.isInteger(v)) || typeof v === 'boolean',
  // json.loads gives an int for `24` and isinstance(24, float) is False: whole numbers are refused.
  number: v => typeof v === 'number' && !Number.isInteger(v),
  boolean: v => typeof v === 'boolean'
}
const PY_NAMES: Record<string, string> = { string: 'str', integer: 'int', number: 'float', boolean: 'bool' }

/** Escapes Python's `re` knows; any other backslash-letter is "bad escape" there (JS accepts \c, \k, \p, ...). */
const PY_ESCAPE_LETTERS = new Set('aAbBdDfnNrsStuUvwWxZ0123456789')

/** Why Python's re.compile would refuse a JavaScript pattern, or undefined. Covers the constructs the two dialects disagree on. */
export function pythonRegexProblem (pattern: string): string | undefined {
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]
    if (c === '\\') {
      const next = pattern[i + 1] ?? ''
      if (next === 'u' && pattern[i + 2] === '{') return 'uses \\u{...}, unknown to Python'
      if (/[A-Za-z]/.test(next) && !PY_ESCAPE_LETTERS.has(next)) return `uses \\${next}, a bad escape in Python`
      i++
      continue
    }
    if (c === '(' && pattern.startsWith('(?<', i) && !pattern.startsWith('(?<=', i) && !pattern.startsWith('(?<!', i)) {
      return 'uses a (?<name>...) group; Python spells it (?P<name>...)'
    }
  }
  try {
    // eslint-disable-next-line no-new
    new RegExp(pattern)
  } catch (err) {
    return (err as Error).message
  }
  return undefined
}

/** vol.Datetime(): datetime.strptime(value, '%Y-%m-%dT%H:%M:%S.%fZ'). */
function isStrictDatetime (value: string): boolean {
  const m = /^(\d{4})-(\d{1,2})-(\d{1,2})T(\d{1,2}):(\d{1,2}):(\d{1,2})\.\d{1,6}Z$/.exec(value)
  if (m === null) return false
  const [, y, mo, d, h, mi, s] = m.map(Number) as [number, number, number, number, number, number, number]
  const days = new Date(Date.UTC(y, mo, 0)).getUTCDate()
  return mo >= 1 && mo <= 12 && d >= 1 && d <= days && h <= 23 && mi <= 59 && s <= 61
}

function resolveRef (ref: string, root: Schema): unknown {
  if (!ref.startsWith('#')) throw new ConversionError(`External/relative $ref not supported: ${ref}`)
  if (ref === '#') return root
  const parts = ref.slice(1).split('/')
  if (parts[0] === '') parts.shift()
  let current: unknown = root
  for (const raw of parts) {
    const part = raw.replace(/~1/g, '/').replace(/~0/g, '~')
    if (isRecord(current) && part in current) current = current[part]
    else if (Array.isArray(current) && /^\d+$/.test(part) && Number(part) < current.length) current = current[Number(part)]
    else throw new ConversionError(`Could not resolve ref ${ref} at key ${part}`)
  }
  return current
}

const anyOf = (validators: Array<HaValidator | null>): HaValidator => value => {
  const errors: string[] = []
  for (const validator of validators) {
    if (validator === null) {
      if (value === null) return undefined
      errors.push('not None')
      continue
    }
    const problem = validator(value)
    if (problem === undefined) return undefined
    errors.push(problem)
  }
  return `no alternative matched (${errors.join('; ') || 'none given'})`
}

const withNullable = (schema: Schema, validator: HaValidator): HaValidator =>
  schema.nullable === true ? anyOf([validator, null]) : validator

/** Python's `==` on JSON values for vol.In: 1 == 1.0 == True. */
function pyEquals (a: unknown, b: unknown): boolean {
  const num = (v: unknown): unknown => typeof v === 'boolean' ? Number(v) : v
  if (typeof num(a) === 'number' && typeof num(b) === 'number') return num(a) === num(b)
  return JSON.stringify(a) === JSON.stringify(b)
}

function scalar (schema: Schema, type: string): HaValidator {
  const isType = PY_TYPES[type] as (v: unknown) => boolean
  const expected = `expected ${PY_NAMES[type] ?? type}`
  if (type === 'string') {
    const pattern = schema.pattern
    if (pattern !== undefined && pattern !== null) {
      if (typeof pattern !== 'string') throw new ConversionError('pattern must be a string')
      const problem = pythonRegexProblem(pattern)
      if (problem !== undefined) throw new ConversionError(`re.compile fails: ${problem}`)
      // vol.Match uses re.match: anchored at the start only.
      const re = new RegExp(`^(?:${pattern})`)
      return withNullable(schema, v => typeof v === 'string' && re.test(v) ? undefined : 'does not match regular expression')
    }
    if (schema.format === 'date-time') {
      return withNullable(schema, v => typeof v === 'string' && isStrictDatetime(v) ? undefined : 'value does not match expected format %Y-%m-%dT%H:%M:%S.%fZ')
    }
    const min = schema.minLength as number | undefined | null
    const max = schema.maxLength as number | undefined | null
    return withNullable(schema, v => {
      if (!isType(v)) return expected
      const length = [...(v as string)].length
      if (min !== undefined && min !== null && length < min) return `length of value must be at least ${min}`
      if (max !== undefined && max !== null && length > max) return `length of value must be at most ${max}`
      return undefined
    })
  }
  if (type === 'integer' || type === 'number') {
    const min = schema.minimum as number | undefined | null
    const max = schema.maximum as number | undefined | null
    return withNullable(schema, v => {
      if (!isType(v)) return expected
      const n = Number(v)
      if (min !== undefined && min !== null && n < min) return `value must be at least ${min}`
      if (max !== undefined && max !== null && n > max) return `value must be at most ${max}`
      return undefined
    })
  }
  return withNullable(schema, v => isType(v) ? undefined : expected)
}

function object (schema: Schema, root: Schema): HaValidator {
  const properties = schema.properties ?? {}
  if (!isRecord(properties)) throw new ConversionError('properties must be a dictionary')
  const required = new Set(Array.isArray(schema.required) ? schema.required.map(String) : [])
  const fields = Object.entries(properties).map(([key, sub]) => ({ key, required: required.has(key), validate: convertToVoluptuous(sub, root) }))
  // anyOf: [{required: [...]}, ...] on an object: at least one of those keys.
  const oneOfKeys = Array.isArray(schema.anyOf) ? schema.anyOf.flatMap(s => isRecord(s) && Array.isArray(s.required) ? s.required.map(String) : []) : []
  const extra = schema.additionalProperties
  const extraValidator = isRecord(extra) ? convertToVoluptuous(extra, root) : undefined
  return withNullable(schema, value => {
    if (!isRecord(value)) return 'expected a dictionary'
    for (const field of fields) {
      if (!(field.key in value)) {
        if (field.required) return `required key not provided @ data['${field.key}']`
        continue
      }
      const problem = field.validate(value[field.key])
      if (problem !== undefined) return `${problem} for dictionary value @ data['${field.key}']`
    }
    if (oneOfKeys.length > 0 && !oneOfKeys.some(k => k in value)) return `required key not provided @ data[${oneOfKeys.join(' or ')}]`
    const known = new Set([...fields.map(f => f.key), ...oneOfKeys])
    for (const key of Object.keys(value)) {
      if (known.has(key)) continue
      if (extra === true) continue
      if (extraValidator === undefined) return `extra keys not allowed @ data['${key}']`
      const problem = extraValidator(value[key])
      if (problem !== undefined) return `${problem} for dictionary value @ data['${key}']`
    }
    return undefined
  })
}

function array (schema: Schema, root: Schema): HaValidator {
  if (!('items' in schema)) throw new ConversionError("KeyError: 'items'")
  const item = convertToVoluptuous(schema.items, root)
  const min = schema.minItems as number | undefined | null
  const max = schema.maxItems as number | undefined | null
  return withNullable(schema, value => {
    if (!Array.isArray(value)) return 'expected list'
    if (min !== undefined && min !== null && value.length < min) return `length of value must be at least ${min}`
    if (max !== undefined && max !== null && value.length > max) return `length of value must be at most ${max}`
    for (const [i, element] of value.entries()) {
      const problem = item(element)
      if (problem !== undefined) return `${problem} @ data[${i}]`
    }
    return undefined
  })
}

/** convert_to_voluptuous: throws ConversionError where the library raises. */
export function convertToVoluptuous (schema: unknown, rootSchema?: Schema): HaValidator {
  if (!isRecord(schema)) throw new ConversionError('Invalid schema, expected a dictionary')
  const root = rootSchema ?? schema

  if ('$ref' in schema) {
    // Resolved lazily, on first validation: a bad reference fails the call, not the listing.
    const ref = String(schema.$ref)
    let compiled: HaValidator | undefined
    return value => {
      compiled ??= convertToVoluptuous(resolveRef(ref, root), root)
      return compiled(value)
    }
  }

  const enumValues = schema.enum
  if (enumValues !== undefined && enumValues !== null) {
    if (!Array.isArray(enumValues)) throw new ConversionError('Invalid schema, enum should be a list')
    const inEnum: HaValidator = v => enumValues.some(e => pyEquals(e, v)) ? undefined : 'value must be one of the enum'
    return withNullable(schema, inEnum)
  }

  for (const keyword of UNSUPPORTED_KEYWORDS) {
    if (keyword in schema) throw new ConversionError(`${keyword} is not supported`)
  }

  if (schema.oneOf !== undefined && schema.oneOf !== null) {
    if (!Array.isArray(schema.oneOf)) throw new ConversionError('Invalid schema, oneOf should be a list')
    return anyOf(schema.oneOf.map(sub => convertToVoluptuous(sub, root)))
  }

  if (schema.anyOf !== undefined && schema.anyOf !== null) {
    const branches = schema.anyOf
    if (!Array.isArray(branches)) throw new ConversionError('Invalid schema, anyOf should be a list')
    // s.keys() on a non-dict raises AttributeError.
    if (branches.some(b => !isRecord(b))) throw new ConversionError("'anyOf' item has no attribute 'keys'")
    const requiredOnly = branches.every(b => isRecord(b) && Object.keys(b).length === 1 && Array.isArray(b.required))
    if (!(requiredOnly && schema.type === 'object')) return anyOf(branches.map(sub => convertToVoluptuous(sub, root)))
  }

  const type = schema.type
  if (type === undefined || type === null) throw new ConversionError('Invalid schema, missing type')
  if (type === 'null') return v => v === null ? undefined : 'not a valid value'

  if (Array.isArray(type)) {
    if (type.length === 0) throw new ConversionError('Invalid schema, type array cannot be empty')
    return anyOf(type.map(t => t === 'null' ? null : convertToVoluptuous({ ...schema, type: t }, root)))
  }
  if (typeof type !== 'string') throw new ConversionError(`TypeError: unhashable type ${JSON.stringify(type)}`)
  if (type in PY_TYPES) return scalar(schema, type)
  if (type === 'object') return object(schema, root)
  if (type === 'array') return array(schema, root)
  throw new ConversionError(`Unable to convert schema: ${JSON.stringify(schema)}`)
}

/** The converter's verdict on a whole inputSchema: undefined when it converts, else the reason. */
export function conversionProblem (schema: unknown): string | undefined {
  try {
    convertToVoluptuous(schema)
    return undefined
  } catch (err) {
    if (err instanceof ConversionError) return err.message
    throw err
  }
}

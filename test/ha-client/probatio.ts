/**
 * A model of probatio's OpenAPI codec, for tests only: what Home Assistant Core 2026.9+ does with a
 * tool's `inputSchema`.
 *
 * Core builds a validator with `probatio.from_openapi(inputSchema)` (an exception fails the tool-list
 * update), validates every argument object with it before the call reaches us (extra keys refused,
 * defaults filled in), and writes the schema back with `probatio.to_openapi(schema)` (OpenAPI 3.0, no
 * custom serializer for our types) before a conversation turn reaches the model. That output is what
 * the model reads, and the Anthropic API checks it as JSON Schema draft 2020-12.
 *
 * Read from frenck/probatio (src/probatio/codecs/jsonschema.py `_decode` and its helpers,
 * probatio's src/probatio/codecs/openapi.py `to_openapi`), written from scratch in TypeScript, rule by rule in the
 * library's order. `fromOpenapi` builds a tree of the probatio validators the decoder builds; `toOpenapi`
 * renders such a tree the way the encoder does; `validate` answers what the validator would say about a
 * JSON value. A keyword whose decoding is not modelled throws `NotModelled`, so a tool schema that
 * starts using one makes the tests fail loudly instead of passing on a guess.
 *
 * The load-bearing finding: the decoder turns `integer`/`number` into a private callable
 * (`_JsonNumberType`) that the encoder does not know, so it renders as `{}`, which a property then
 * fills with `type: string` (no bound) or `type: number` (a bound present). An integer field without a
 * bound reaches the model as a string field.
 */

type Json = null | boolean | number | string | Json[] | { [key: string]: Json }
import { isRecord } from '../../src/shape.ts'

type Schema = Record<string, unknown>

export class SchemaError extends Error { override name = 'SchemaError' }
export class NotModelled extends Error { override name = 'NotModelled' }

/** One key of a mapping: `Required(name)` / `Optional(name, default=..., description=...)`. */
export interface Key { name: string, required: boolean, default?: { value: unknown }, description?: string }

/** The probatio validators the decoder builds (and the Python types a hand-built schema uses). */
export type PNode =
  | { k: 'object' } // the `object` type: anything
  | { k: 'type', t: 'str' | 'bool' | 'dict' | 'list' | 'int' | 'float' }
  | { k: 'none' } // a bare None in a schema (an Any branch from a type list)
  | { k: 'literal', value: unknown } // Literal(value)
  | { k: 'scalar', value: string | number | boolean } // a bare literal: validates by equality
  | { k: 'jsonNumber', integer: boolean } // _JsonNumberType
  | { k: 'opaque', name: string, accepts: (value: unknown) => boolean } // a callable the encoder renders as {}
  | { k: 'in', values: unknown[] }
  | { k: 'equal', value: unknown }
  | { k: 'all', parts: PNode[] }
  | { k: 'any', branches: PNode[] }
  | { k: 'someOf', branches: PNode[], min: number, max: number }
  | { k: 'maybe', inner: PNode }
  | { k: 'range', min?: number, max?: number, minIncluded: boolean, maxIncluded: boolean }
  | { k: 'length', min?: number, max?: number }
  | { k: 'match', pattern: string }
  | { k: 'mapping', keys: Array<{ key: Key, value: PNode }>, extraKey?: PNode }
  | { k: 'schema', inner: PNode, extra: 'prevent' | 'allow' }
  | { k: 'seq', items: PNode[] }

const ANY: PNode = { k: 'object' }
const IN_NONE: PNode = { k: 'in', values: [] }

// ---------------------------------------------------------------------------------------------------
// from_openapi

/** _UNSUPPORTED_KEYWORDS: restrictive keywords the decoder refuses rather than ignore. */
const UNSUPPORTED = ['if', 'propertyNames', 'patternProperties', 'dependentSchemas', 'dependencies', 'unevaluatedProperties', 'unevaluatedItems', '$dynamicRef', '$recursiveRef']
const NUMERIC_BOUNDS = ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum']
const OBJECT_KEYWORDS = ['properties', 'required', 'additionalProperties', 'minProperties', 'maxProperties', 'dependentRequired']
const ARRAY_KEYWORDS = ['items', 'prefixItems', 'minItems', 'maxItems']
const MAX_DEPTH = 100

interface Ctx { root: Schema, depth: number }

/** from_openapi: the JSON Schema decoder plus OpenAPI 3.0 `nullable`. Throws SchemaError where probatio does. */
export function fromOpenapi (schema: unknown): PNode {
  if (!isRecord(schema)) throw new SchemaError('could not decode the schema; it is malformed')
  const node = fromNode(schema, { root: schema, depth: 0 })
  // _decode: `node if isinstance(node, Schema) else Schema(node)`, default extra PREVENT_EXTRA.
  return node.k === 'schema' ? node : { k: 'schema', inner: node, extra: 'prevent' }
}

function fromNode (node: unknown, ctx: Ctx): PNode {
  ctx.depth++
  try {
    if (ctx.depth > MAX_DEPTH) throw new SchemaError(`JSON Schema nests deeper than ${MAX_DEPTH} levels`)
    return buildNode(node, ctx)
  } finally {
    ctx.depth--
  }
}

function buildNode (node: unknown, ctx: Ctx): PNode {
  if (typeof node === 'boolean') return node ? ANY : IN_NONE
  if (!isRecord(node)) throw new SchemaError('JSON Schema node must be an object or boolean')
  const refused = UNSUPPORTED.filter(keyword => keyword in node)
  if (refused.length > 0) throw new SchemaError(`JSON Schema keyword(s) not supported: ${refused.sort().join(', ')}`)
  const facets = collectFacets(node, ctx)
  let result: PNode = facets.length === 0 ? ANY : facets.length === 1 ? facets[0] as PNode : { k: 'all', parts: facets }
  if (node.nullable === true) result = { k: 'maybe', inner: result }
  return result
}

function collectFacets (node: Schema, ctx: Ctx): PNode[] {
  const facets: PNode[] = []
  if ('$ref' in node) throw new NotModelled('$ref')
  if ('const' in node) facets.push(fromConst(node.const))
  else if ('enum' in node) facets.push(fromEnum(node.enum))
  if ('not' in node) {
    const inner = fromNode(node.not, ctx)
    facets.push({ k: 'opaque', name: 'Not', accepts: v => validate(inner, v) !== undefined })
  }
  if ('allOf' in node) facets.push({ k: 'all', parts: combinator(node.allOf, 'allOf', ctx) })
  if ('anyOf' in node) facets.push({ k: 'any', branches: combinator(node.anyOf, 'anyOf', ctx) })
  if ('oneOf' in node) facets.push({ k: 'someOf', branches: combinator(node.oneOf, 'oneOf', ctx), min: 1, max: 1 })
  const typed = 'type' in node ? fromTyped(node, ctx) : combineConstraints(node, ctx)
  if (typed !== undefined) facets.push(typed)
  return facets
}

function combinator (subschemas: unknown, keyword: string, ctx: Ctx): PNode[] {
  if (!Array.isArray(subschemas)) throw new SchemaError(`JSON Schema '${keyword}' must be an array`)
  return subschemas.map(sub => fromNode(sub, ctx))
}

/** _needs_json_equality: a number or boolean anywhere in the value. */
function needsJsonEquality (value: unknown): boolean {
  if (typeof value === 'boolean' || typeof value === 'number') return true
  if (Array.isArray(value)) return value.some(needsJsonEquality)
  if (isRecord(value)) return Object.values(value).some(needsJsonEquality)
  return false
}

/** _json_equal: a boolean is never equal to a number; numbers compare across int/float. */
function jsonEqual (a: unknown, b: unknown): boolean {
  if (typeof a === 'boolean' || typeof b === 'boolean') return a === b
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((item, i) => jsonEqual(item, b[i]))
  if (isRecord(a) && isRecord(b)) {
    const keys = Object.keys(a)
    return keys.length === Object.keys(b).length && keys.every(key => key in b && jsonEqual(a[key], b[key]))
  }
  return a === b
}

/** Python `==` on JSON values: True == 1 == 1.0. */
function pyEqual (a: unknown, b: unknown): boolean {
  const num = (v: unknown): unknown => typeof v === 'boolean' ? Number(v) : v
  if (typeof num(a) === 'number' && typeof num(b) === 'number') return num(a) === num(b)
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((item, i) => pyEqual(item, b[i]))
  if (isRecord(a) && isRecord(b)) {
    const keys = Object.keys(a)
    return keys.length === Object.keys(b).length && keys.every(key => key in b && pyEqual(a[key], b[key]))
  }
  return a === b
}

function fromConst (value: unknown): PNode {
  if (needsJsonEquality(value)) return { k: 'opaque', name: 'JsonConst', accepts: v => jsonEqual(v, value) }
  if (Array.isArray(value) || isRecord(value)) return { k: 'equal', value }
  if (value === null) return { k: 'none' }
  return { k: 'scalar', value: value as string }
}

function fromEnum (values: unknown): PNode {
  if (!Array.isArray(values)) throw new SchemaError("JSON Schema 'enum' must be an array")
  if (values.some(needsJsonEquality)) return { k: 'opaque', name: 'JsonEnum', accepts: v => values.some(member => jsonEqual(v, member)) }
  return { k: 'in', values: [...values] }
}

function fromTyped (node: Schema, ctx: Ctx): PNode {
  const type = node.type
  if (Array.isArray(type)) {
    if (type.some(name => typeof name !== 'string')) throw new SchemaError("JSON Schema 'type' array entries must be strings")
    return { k: 'any', branches: type.map(name => name === 'null' ? { k: 'none' } : fromTyped({ ...node, type: name }, ctx)) }
  }
  if (typeof type !== 'string') throw new SchemaError("JSON Schema 'type' must be a string or array")
  switch (type) {
    case 'boolean': return { k: 'type', t: 'bool' }
    case 'null': return { k: 'literal', value: null }
    case 'object': return fromObject(node, ctx)
    case 'array': return fromArray(node, ctx)
    case 'string': return fromString(node)
    case 'integer':
    case 'number': return withConstraints({ k: 'jsonNumber', integer: type === 'integer' }, numberConstraints(node))
    default: throw new SchemaError(`JSON Schema 'type' is not a recognized type name: ${type}`)
  }
}

function withConstraints (base: PNode, constraints: PNode[]): PNode {
  return constraints.length === 0 ? base : { k: 'all', parts: [base, ...constraints] }
}

function numeric (node: Schema, key: string): number | undefined {
  const value = node[key]
  if (value === undefined || value === null) return undefined
  if (typeof value !== 'number') throw new SchemaError(`JSON Schema '${key}' must be a number`)
  return value
}

function itemCount (node: Schema, key: string): number | undefined {
  const value = node[key]
  if (value === undefined || value === null) return undefined
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) throw new SchemaError(`JSON Schema '${key}' must be a non-negative integer`)
  return value
}

function numberConstraints (node: Schema): PNode[] {
  const constraints: PNode[] = []
  if (NUMERIC_BOUNDS.some(key => key in node)) constraints.push(fromRange(node))
  if ('multipleOf' in node) throw new NotModelled('multipleOf')
  return constraints
}

/** _resolve_bound: the Draft-4 boolean form and the 2020-12 numeric form; the tighter bound wins. */
function resolveBound (node: Schema, inclusiveKey: string, exclusiveKey: string): [number | undefined, boolean] {
  const inclusive = numeric(node, inclusiveKey)
  const rawExclusive = node[exclusiveKey]
  if (typeof rawExclusive === 'boolean') {
    if (inclusive === undefined) throw new SchemaError(`JSON Schema boolean '${exclusiveKey}' (Draft 4 form) requires '${inclusiveKey}' beside it`)
    return [inclusive, !rawExclusive]
  }
  const exclusive = numeric(node, exclusiveKey)
  if (exclusive === undefined) return [inclusive, true]
  if (inclusive === undefined) return [exclusive, false]
  if (inclusiveKey === 'minimum') return exclusive >= inclusive ? [exclusive, false] : [inclusive, true]
  return exclusive <= inclusive ? [exclusive, false] : [inclusive, true]
}

function fromRange (node: Schema): PNode {
  const [min, minIncluded] = resolveBound(node, 'minimum', 'exclusiveMinimum')
  const [max, maxIncluded] = resolveBound(node, 'maximum', 'exclusiveMaximum')
  return { k: 'range', ...(min === undefined ? {} : { min }), ...(max === undefined ? {} : { max }), minIncluded, maxIncluded }
}

function lengthNode (node: Schema, minKey: string, maxKey: string): PNode {
  const min = itemCount(node, minKey)
  const max = itemCount(node, maxKey)
  return { k: 'length', ...(min === undefined ? {} : { min }), ...(max === undefined ? {} : { max }) }
}

/** RFC 3339 as `datetime.fromisoformat` reads it after probatio's `Z` fix-up, the date/time separator checked first. */
const ISO_DATETIME = /^\d{4}-\d{2}-\d{2}[Tt]\d{2}(:\d{2}(:\d{2}([.,]\d+)?)?)?([Zz]|[+-]\d{2}(:?\d{2})?)?$/

function fromString (node: Schema): PNode {
  const format = node.format
  let base: PNode = { k: 'type', t: 'str' }
  if (format === 'date-time') base = { k: 'opaque', name: 'JsonDateTime', accepts: v => typeof v === 'string' && ISO_DATETIME.test(v) }
  else if (typeof format === 'string' && ['email', 'uri', 'url', 'date', 'time', 'ipv4', 'ipv6', 'uuid', 'hostname', 'byte'].includes(format)) throw new NotModelled(`format ${format}`)
  if (node.contentEncoding === 'base64') throw new NotModelled('contentEncoding')
  const constraints: PNode[] = []
  if ('minLength' in node || 'maxLength' in node) constraints.push(lengthNode(node, 'minLength', 'maxLength'))
  if ('pattern' in node) {
    if (typeof node.pattern !== 'string') throw new SchemaError("JSON Schema 'pattern' must be a string")
    constraints.push({ k: 'match', pattern: node.pattern })
  }
  return withConstraints(base, constraints)
}

/** _combine_constraints: a node without `type` still constrains through its keywords. */
function combineConstraints (node: Schema, ctx: Ctx): PNode | undefined {
  const constraints: PNode[] = []
  const hasArray = ARRAY_KEYWORDS.some(key => key in node)
  if (NUMERIC_BOUNDS.some(key => key in node)) constraints.push(fromRange(node))
  if ('multipleOf' in node) throw new NotModelled('multipleOf')
  if ('minLength' in node || 'maxLength' in node) constraints.push(lengthNode(node, 'minLength', 'maxLength'))
  if ('pattern' in node) constraints.push({ k: 'match', pattern: String(node.pattern) })
  if (node.uniqueItems === true || 'contains' in node) throw new NotModelled('uniqueItems/contains')
  if (OBJECT_KEYWORDS.some(key => key in node)) {
    const object = fromObject(node, ctx)
    constraints.push({ k: 'opaque', name: 'WhenType(dict)', accepts: v => !isRecord(v) || validate(object, v) === undefined })
  }
  if (hasArray) {
    const array = fromArray(node, ctx)
    constraints.push({ k: 'opaque', name: 'WhenType(list)', accepts: v => !Array.isArray(v) || validate(array, v) === undefined })
  }
  if (constraints.length === 0) return undefined
  return constraints.length === 1 ? constraints[0] : { k: 'all', parts: constraints }
}

function fromObject (node: Schema, ctx: Ctx): PNode {
  const properties = node.properties ?? {}
  if (!isRecord(properties)) throw new SchemaError("JSON Schema 'properties' must be an object")
  const requiredRaw = node.required ?? []
  if (!Array.isArray(requiredRaw)) throw new SchemaError("JSON Schema 'required' must be an array")
  if (!requiredRaw.every(entry => typeof entry === 'string')) throw new SchemaError("JSON Schema 'required' must contain only property names (strings)")
  const required = new Set(requiredRaw as string[])
  const keys: Array<{ key: Key, value: PNode }> = []
  for (const [name, sub] of Object.entries(properties)) {
    if (sub === false) throw new NotModelled('a property schema false (Forbidden)')
    keys.push({ key: fromKey(name, sub, required.has(name)), value: fromNode(sub, ctx) })
  }
  const additional = node.additionalProperties
  const additionalSchema = isRecord(additional) ? fromNode(additional, ctx) : undefined
  for (const name of [...required].filter(name => !(name in properties)).sort()) {
    keys.push({ key: { name, required: true }, value: additionalSchema ?? ANY })
  }
  if ('dependentRequired' in node) throw new NotModelled('dependentRequired')
  const mapping: PNode = { k: 'mapping', keys, ...(additionalSchema ? { extraKey: additionalSchema } : {}) }
  // _object_base
  let base: PNode
  if (additional === true) base = { k: 'schema', inner: mapping, extra: 'allow' }
  else if (!('properties' in node) && additional === undefined) base = keys.length > 0 || additionalSchema ? { k: 'schema', inner: mapping, extra: 'allow' } : { k: 'type', t: 'dict' }
  else base = mapping
  if ('minProperties' in node || 'maxProperties' in node) return { k: 'all', parts: [base, lengthNode(node, 'minProperties', 'maxProperties')] }
  return base
}

/** _from_key: a required property drops its default (a default never satisfies `required`). */
function fromKey (name: string, sub: unknown, required: boolean): Key {
  const description = isRecord(sub) && typeof sub.description === 'string' ? sub.description : undefined
  if (isRecord(sub) && sub.writeOnly === true) throw new NotModelled('writeOnly (Secret)')
  const key: Key = { name, required, ...(description === undefined ? {} : { description }) }
  if (!required && isRecord(sub) && 'default' in sub) key.default = { value: sub.default }
  return key
}

function fromArray (node: Schema, ctx: Ctx): PNode {
  if ('prefixItems' in node) throw new NotModelled('prefixItems')
  let items: unknown = node.items
  if (items === true) items = undefined
  else if (items !== undefined && items !== false && !isRecord(items)) throw new SchemaError("JSON Schema array 'items' must be an object; the positional list form is not supported")
  const bounded = 'minItems' in node || 'maxItems' in node
  if (node.uniqueItems === true || 'contains' in node) throw new NotModelled('uniqueItems/contains')
  let sequence: PNode
  if (items === false) sequence = { k: 'seq', items: [] }
  else if (items === undefined) {
    if (!bounded) return { k: 'type', t: 'list' }
    sequence = { k: 'seq', items: [ANY] }
  } else if (Object.keys(items as Schema).length === 1 && 'anyOf' in (items as Schema)) {
    sequence = { k: 'seq', items: combinator((items as Schema).anyOf, 'anyOf', ctx) }
  } else {
    sequence = { k: 'seq', items: [fromNode(items, ctx)] }
  }
  return bounded ? { k: 'all', parts: [sequence, lengthNode(node, 'minItems', 'maxItems')] } : sequence
}

// ---------------------------------------------------------------------------------------------------
// Validation: what `Schema(node)(value)` says, undefined when it accepts.

export function validate (node: PNode, value: unknown): string | undefined {
  switch (node.k) {
    case 'object': return undefined
    case 'type': {
      const ok = {
        str: typeof value === 'string',
        bool: typeof value === 'boolean',
        dict: isRecord(value),
        list: Array.isArray(value),
        // Python's int accepts True (bool subclasses int); float honours the numeric tower (ADR-017).
        int: (typeof value === 'number' && Number.isInteger(value)) || typeof value === 'boolean',
        float: typeof value === 'number'
      }[node.t]
      return ok ? undefined : `expected ${node.t}`
    }
    case 'none': return value === null ? undefined : 'expected None'
    case 'literal':
    case 'scalar': return pyEqual(value, node.value) ? undefined : `not equal to ${JSON.stringify(node.value)}`
    case 'jsonNumber': {
      const ok = typeof value === 'number' && (!node.integer || Number.isInteger(value))
      return ok ? undefined : `expected ${node.integer ? 'integer' : 'number'}`
    }
    case 'opaque': return node.accepts(value) ? undefined : `${node.name} refused the value`
    case 'in': return node.values.some(member => pyEqual(member, value)) ? undefined : 'value must be one of the enum'
    case 'equal': return pyEqual(node.value, value) ? undefined : 'not equal'
    case 'all': {
      for (const part of node.parts) {
        const problem = validate(part, value)
        if (problem !== undefined) return problem
      }
      return undefined
    }
    case 'any': {
      const problems = node.branches.map(branch => validate(branch, value))
      return problems.includes(undefined) ? undefined : `no alternative matched (${problems.join('; ')})`
    }
    case 'someOf': {
      const passed = node.branches.filter(branch => validate(branch, value) === undefined).length
      return passed >= node.min && passed <= node.max ? undefined : `${passed} branches matched`
    }
    case 'maybe': return value === null ? undefined : validate(node.inner, value)
    case 'range': {
      if (typeof value !== 'number' && typeof value !== 'boolean') return 'not comparable'
      const n = Number(value)
      if (node.min !== undefined && (node.minIncluded ? n < node.min : n <= node.min)) return `value must be at least ${node.min}`
      if (node.max !== undefined && (node.maxIncluded ? n > node.max : n >= node.max)) return `value must be at most ${node.max}`
      return undefined
    }
    case 'length': {
      const length = typeof value === 'string' ? [...value].length : Array.isArray(value) ? value.length : isRecord(value) ? Object.keys(value).length : undefined
      if (length === undefined) return 'has no length'
      if (node.min !== undefined && length < node.min) return `length of value must be at least ${node.min}`
      if (node.max !== undefined && length > node.max) return `length of value must be at most ${node.max}`
      return undefined
    }
    case 'match': return typeof value === 'string' && new RegExp(node.pattern).test(value) ? undefined : 'does not match regular expression'
    case 'schema': return validateMapping(node.inner, value, node.extra)
    case 'mapping': return validateMapping(node, value, 'prevent')
    case 'seq': {
      if (!Array.isArray(value)) return 'expected a list'
      for (const [i, element] of value.entries()) {
        if (!node.items.some(item => validate(item, element) === undefined)) return `item ${i} matches no element schema`
      }
      return undefined
    }
  }
}

function validateMapping (node: PNode, value: unknown, extra: 'prevent' | 'allow'): string | undefined {
  if (node.k !== 'mapping') return validate(node, value)
  if (!isRecord(value)) return 'expected a dictionary'
  for (const { key, value: schema } of node.keys) {
    if (!(key.name in value)) {
      if (key.required) return `required key not provided @ ${key.name}`
      continue
    }
    const problem = validate(schema, value[key.name])
    if (problem !== undefined) return `${problem} @ ${key.name}`
  }
  const declared = new Set(node.keys.map(({ key }) => key.name))
  for (const name of Object.keys(value)) {
    if (declared.has(name)) continue
    if (node.extraKey !== undefined) {
      const problem = validate(node.extraKey, value[name])
      if (problem !== undefined) return `${problem} @ ${name}`
    } else if (extra === 'prevent') {
      return `extra keys not allowed @ ${name}`
    }
  }
  return undefined
}

// ---------------------------------------------------------------------------------------------------
// to_openapi (OpenAPI 3.0, the default; no custom serializer, not strict)

const OPENAPI_TYPES: Record<string, string> = { bool: 'boolean', int: 'integer', float: 'number', str: 'string' }
const OPEN_OBJECT = (): Schema => ({ type: 'object', additionalProperties: true })
const COMBINATORS = ['anyOf', 'oneOf', 'allOf']

/** Python dict equality over JSON-like values (1 == 1.0 == True, key order ignored). */
const same = (a: unknown, b: unknown): boolean => pyEqual(a, b)

export function toOpenapi (node: PNode): Schema {
  return admitNull(oa(node)) as Schema
}

/** _admit_null: a nullable enum gets null as a member, a nullable combinator a null branch. */
function admitNull (node: unknown): unknown {
  if (Array.isArray(node)) return node.map(admitNull)
  if (!isRecord(node)) return node
  const result: Schema = Object.fromEntries(Object.entries(node).map(([key, value]) => [key, admitNull(value)]))
  if (result.nullable === true) {
    if (Array.isArray(result.enum) && !result.enum.includes(null)) result.enum = [...result.enum, null]
    const combinator = COMBINATORS.find(key => key in result)
    if (combinator !== undefined) {
      result[combinator] = [...(result[combinator] as unknown[]), oaNull()]
      delete result.nullable
    }
  }
  return result
}

/** _ensure_default: a value with no type gets `number` when it carries a bound, else `string`. */
function ensureDefault (value: Schema): Schema {
  if ('$ref' in value) return value
  if (['type', 'anyOf', 'oneOf', 'allOf', 'not'].every(key => !(key in value))) {
    value.type = NUMERIC_BOUNDS.some(key => key in value) ? 'number' : 'string'
  }
  return value
}

const oaNull = (): Schema => ({ type: 'object', nullable: true, description: 'Must be null' })

function oa (node: PNode): Schema {
  // Unwrap every Schema layer: the innermost one decides the extra policy.
  let closed = true
  let additional: unknown
  while (node.k === 'schema') {
    closed = node.extra !== 'allow'
    additional = node.extra === 'allow' ? true : undefined
    node = node.inner
  }
  switch (node.k) {
    case 'mapping': return oaMapping(node, additional, closed)
    case 'seq': return oaSequence(node.items)
    case 'all': return oaAll(node.parts)
    case 'range': return oaRange(node)
    case 'length': return { ...(node.min === undefined ? {} : { minLength: node.min }), ...(node.max === undefined ? {} : { maxLength: node.max }) }
    case 'match': return { pattern: node.pattern }
    case 'literal': return oaEnum([node.value])
    case 'equal': return oaEnum([node.value])
    case 'in': return oaEnum(node.values)
    case 'maybe': return oaAny([{ k: 'none' }, node.inner])
    case 'any': return oaAny(node.branches)
    case 'someOf': {
      const branches = node.branches.map(oa)
      if (node.min === 1 && node.max === 1) return { oneOf: branches }
      if (node.min === 1 && node.max === branches.length) return { anyOf: branches }
      if (node.min === branches.length && node.max === branches.length) return { allOf: branches }
      return {}
    }
    case 'scalar': return { type: OPENAPI_TYPES[typeof node.value === 'string' ? 'str' : typeof node.value === 'boolean' ? 'bool' : Number.isInteger(node.value) ? 'int' : 'float'], enum: [node.value] }
    case 'none': return oaNull()
    case 'type': {
      if (node.t === 'dict') return OPEN_OBJECT()
      if (node.t === 'list') return { type: 'array', items: ensureDefault({}) }
      return { type: OPENAPI_TYPES[node.t] as string }
    }
    case 'object': return OPEN_OBJECT()
    // A callable instance whose __call__ takes `value: Any`: _oa_callable finds no usable hint, an open schema.
    case 'jsonNumber':
    case 'opaque': return {}
  }
}

function oaMapping (node: Extract<PNode, { k: 'mapping' }>, additionalIn: unknown, closed: boolean): Schema {
  const properties: Record<string, Schema> = {}
  const required: string[] = []
  let additional = additionalIn
  const entries: Array<{ key?: Key, value: PNode }> = [...node.keys]
  if (node.extraKey !== undefined) entries.push({ value: node.extraKey })
  for (const { key, value } of entries) {
    let pval = oa(value)
    if (key?.description !== undefined) pval.description = key.description
    if (key?.default !== undefined) pval.default = key.default.value
    if (key?.required === true) required.push(key.name)
    pval = ensureDefault(pval)
    if (key !== undefined) properties[key.name] = pval
    // _absorb_extra: the `str` key's value becomes additionalProperties.
    else additional = same(pval, OPEN_OBJECT()) ? true : additional === undefined ? pval : additional
  }
  const result: Schema = { type: 'object' }
  const hasProperties = Object.keys(properties).length > 0
  if (hasProperties || additional === undefined || additional === false) {
    result.properties = properties
    if (required.length > 0) result.required = required
  }
  if (additional !== undefined && additional !== false) result.additionalProperties = additional
  else if (closed) result.additionalProperties = false
  return result
}

function oaSequence (elements: PNode[]): Schema {
  const items = elements.map(item => ensureDefault(oa(item)))
  if (items.length === 1) return { type: 'array', items: items[0] }
  if (items.length === 0) return { type: 'array', maxItems: 0 }
  return { type: 'array', items: { anyOf: items } }
}

function oaAll (parts: PNode[]): Schema {
  let merged: Schema = {}
  const allOf: Schema[] = []
  let fallback = false
  for (const validator of parts) {
    const part = oa(validator)
    if (Object.keys(part).length === 0 || allOf.some(seen => same(seen, part)) || same(part, OPEN_OBJECT())) continue
    if (Object.keys(part).some(key => key in merged && !same(part[key], merged[key]))) fallback = true
    allOf.push(part)
    if (!fallback) merged = { ...merged, ...part }
  }
  if (fallback) return { allOf }
  return ensureDefault(retargetLength(merged))
}

function retargetLength (merged: Schema): Schema {
  const keys = merged.type === 'array' ? ['minItems', 'maxItems'] : merged.type === 'object' ? ['minProperties', 'maxProperties'] : undefined
  if (keys === undefined) return merged
  const [minKey, maxKey] = keys as [string, string]
  if ('minLength' in merged) { merged[minKey] = merged.minLength; delete merged.minLength }
  if ('maxLength' in merged) { merged[maxKey] = merged.maxLength; delete merged.maxLength }
  return merged
}

/** _oa_range on 3.0: an exclusive bound is the Draft-4 boolean beside the inclusive keyword. */
function oaRange (node: Extract<PNode, { k: 'range' }>): Schema {
  const result: Schema = {}
  if (node.min !== undefined) Object.assign(result, node.minIncluded ? { minimum: node.min } : { minimum: node.min, exclusiveMinimum: true })
  if (node.max !== undefined) Object.assign(result, node.maxIncluded ? { maximum: node.max } : { maximum: node.max, exclusiveMaximum: true })
  return result
}

function pyTypeName (value: unknown): string {
  if (typeof value === 'string') return 'str'
  if (typeof value === 'boolean') return 'bool'
  if (typeof value === 'number') return Number.isInteger(value) ? 'int' : 'float'
  return Array.isArray(value) ? 'list' : 'dict'
}

function oaEnum (values: unknown[]): Schema {
  let hasNull = false
  const cleaned: unknown[] = []
  for (const value of values) {
    if (value === null) { hasNull = true; continue }
    if (!cleaned.some(seen => same(seen, value))) cleaned.push(value)
  }
  const memberTypes = new Set(cleaned.map(pyTypeName))
  const result: Schema = {}
  if (memberTypes.size === 1) result.type = OPENAPI_TYPES[pyTypeName(cleaned[0])] ?? 'string'
  result.enum = hasNull ? [...cleaned, null] : cleaned
  if (hasNull) result.nullable = true
  return result
}

/** _oa_any on 3.0: a bare None branch becomes `nullable`; branches flattened, de-duplicated, enums merged. */
function oaAny (validatorsIn: PNode[]): Schema {
  let nullable = false
  let validators = validatorsIn
  if (validators.some(v => v.k === 'none')) {
    validators = validators.filter(v => v.k !== 'none')
    nullable = true
  }
  if (validators.length === 0) return oaNull()
  if (validators.length === 1) {
    const result = oa(validators[0] as PNode)
    if (nullable) result.nullable = true
    return result
  }
  const flattened: Schema[] = []
  for (const item of validators.map(oa)) {
    if (Array.isArray(item.anyOf) && item.anyOf.length > 0) {
      flattened.push(...(item.anyOf as Schema[]))
      nullable = nullable || Boolean(item.nullable)
    } else {
      flattened.push(item)
    }
  }
  return collapseAny(dedupAny(flattened), nullable)
}

function dedupAny (items: Schema[]): Schema[] {
  const out: Schema[] = []
  const indexOf = (probe: Schema): number => out.findIndex(seen => same(seen, probe))
  for (const item of items) {
    if (indexOf(item) >= 0) continue
    const probe: Schema = { ...item }
    if (item.nullable) {
      delete probe.nullable
      const at = indexOf(probe)
      if (at >= 0) { (out[at] as Schema).nullable = true; continue }
    }
    probe.nullable = true
    if (indexOf(probe) >= 0) continue
    const twin = Array.isArray(item.enum) && item.enum.length > 0
      ? out.find(candidate => Array.isArray(candidate.enum) && candidate.enum.length > 0 && candidate.type === item.type)
      : undefined
    if (twin !== undefined) {
      if (item.nullable) twin.nullable = true
      // Python's list(set(...)): the order is the set's, so tests compare enums as sets.
      const combined = [...(twin.enum as unknown[]), ...(item.enum as unknown[])]
      twin.enum = combined.filter((value, i) => combined.findIndex(other => same(other, value)) === i)
      continue
    }
    out.push(item)
  }
  return out
}

function collapseAny (anyOfIn: Schema[], nullableIn: boolean): Schema {
  let anyOf = anyOfIn
  let nullable = nullableIn
  const nullCount = anyOf.filter(item => item.nullable === true).length
  if (nullable || nullCount > 1) {
    nullable = true
    anyOf = anyOf.map(item => Object.fromEntries(Object.entries(item).filter(([key]) => key !== 'nullable')))
  }
  const result: Schema = anyOf.length === 1 ? anyOf[0] as Schema : { anyOf }
  if (nullable) result.nullable = true
  return result
}

export type { Json }

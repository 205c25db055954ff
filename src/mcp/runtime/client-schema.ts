/**
 * What a client reads of a tool's input schema. zod writes JSON Schema for validation; clients read
 * it to build their own function declarations, and several refuse or misread parts of it (Gemini's
 * type lists, Home Assistant's voluptuous-openapi on open records and on `number`). This module
 * rewrites each schema once, at load, into the compact portable form every client accepts, without
 * changing what the server accepts: the zod schema still checks every call (src/mcp/runtime/arguments.ts).
 */
import { isRecord } from '../../shape.ts'

const SAFE_INT = Number.MAX_SAFE_INTEGER
/** Length caps up to this are abuse guards (ids, names, tokens): no real value comes near them. */
const GUARD_LENGTH = 255
/** Item caps from this up are abuse guards (a hundred ids in one call): the handler's error names the cap. */
const GUARD_ITEMS = 100

/** zod's rendering of a record of unknowns: every JSON object key is a string, any value is the default. */
function isOpenRecordKey (key: string, value: unknown): boolean {
  if (key === 'propertyNames') return JSON.stringify(value) === '{"type":"string"}'
  return key === 'items' && JSON.stringify(value) === '{}'
}

/**
 * Home Assistant's MCP client (voluptuous-openapi, Core up to 2026.8) reads an object without
 * `additionalProperties: true` as refusing every key it does not list: an open record says so.
 */
function forHomeAssistant (key: string, value: unknown): unknown {
  if (key === 'additionalProperties' && JSON.stringify(value) === '{}') return true
  return value
}

/**
 * Shrinks a JSON Schema for the tools/list answer without changing what a client may send: zod's
 * safe-integer bounds and open-record keywords say nothing, and regex patterns and guard-sized length
 * caps stay enforced server-side (the description gives an example instead). Every byte here is paid
 * by the model on every conversation. The result is the portable subset (see `portable`), and what
 * Home Assistant's converters need spelled out stays (test/ha-client/tool-schemas.test.ts holds every
 * tool to the subset and to both converters).
 */
export function compactSchema (node: unknown): unknown {
  if (Array.isArray(node)) return node.map(compactSchema)
  if (node === null || typeof node !== 'object') return node
  const out: Record<string, unknown> = {}
  for (const [key, raw] of Object.entries(node)) {
    if (key === '$schema' || key === 'pattern' || key === 'minLength' || isOpenRecordKey(key, raw)) continue
    if (key === 'maxLength' && typeof raw === 'number' && raw <= GUARD_LENGTH) continue
    if (key === 'maxItems' && typeof raw === 'number' && raw >= GUARD_ITEMS) continue
    if ((key === 'maximum' && raw === SAFE_INT) || (key === 'minimum' && raw === -SAFE_INT)) continue
    // An absent flag reads as false anyway; true defaults (skip_condition) stay.
    if (key === 'default' && raw === false && (node as { type?: unknown }).type === 'boolean') continue
    if (key === 'default' || key === 'enum' || key === 'const' || key === 'examples') { out[key] = raw; continue }
    const value = forHomeAssistant(key, raw)
    if (key === 'properties') out[key] = Object.fromEntries(Object.entries(value as Record<string, unknown>).map(([k, v]) => [k, withoutEcho(k, compactSchema(v))]))
    else if (key === '$defs') out[key] = Object.fromEntries(Object.entries(value as Record<string, unknown>).map(([k, v]) => [k, compactSchema(v)]))
    else out[key] = compactSchema(value)
  }
  return portable(out)
}

/** Letters only, lower-cased: "Triggers." and `triggers`, "Helper type" and `helper_type` read the same. */
function letters (text: string): string {
  return text.toLowerCase().replace(/[^\p{L}\p{N}]/gu, '')
}

/** A field description that only repeats the field's name (or its plural) tells the model nothing it does not already read. */
function withoutEcho (name: string, schema: unknown): unknown {
  if (schema === null || typeof schema !== 'object' || Array.isArray(schema)) return schema
  const { description, ...rest } = schema as Record<string, unknown>
  if (typeof description !== 'string') return schema
  const [said, field] = [letters(description), letters(name)]
  return said === field || said === `${field}s` || `${said}s` === field ? rest : schema
}

/**
 * When a field accepts several types, the one it advertises: the widest form the handler reads (a list
 * over a single id, an object over its string shorthand, a name over an index). The handler still takes
 * every form (src/mcp/runtime/arguments.ts and the tool's own union), so a model that sends the narrower one
 * is not refused; the advertised form is the one every client can express.
 */
const TYPE_PREFERENCE = ['array', 'object', 'string', 'number', 'integer', 'boolean']

type JsonSchema = Record<string, unknown>
const singleTyped = (branch: unknown): branch is JsonSchema & { type: string } =>
  typeof branch === 'object' && branch !== null && typeof (branch as { type?: unknown }).type === 'string'

/**
 * The portable subset every client accepts: one `type` per schema, no type lists, no `type` beside
 * `anyOf`. Gemini's function declarations (Gemini CLI, Copilot CLI) refuse a type list or a union of
 * item types and then disable every tool. So a nullable field is its one type with `nullable: true`
 * (the OpenAPI keyword Gemini, voluptuous-openapi and probatio read; null still clears where the handler
 * says so), a union advertises one branch, and a `number` is `anyOf` number or integer: Home Assistant's
 * voluptuous-openapi reads `number` as Python's float, which refuses the whole numbers json.loads hands
 * over as ints (`"hours": 24`), and probatio renders the pair back as `number`.
 */
function portable (schema: JsonSchema): JsonSchema {
  let node = schema
  const branches = node.anyOf
  if (Array.isArray(branches) && !('type' in node) && branches.every(singleTyped)) {
    const { anyOf: _, ...outer } = node
    const real = branches.filter(branch => branch.type !== 'null')
    const chosen = pick(real, outer.default)
    if (chosen !== undefined) {
      node = { ...chosen, ...outer }
      if (real.length < branches.length) node.nullable = true
      if ('default' in node && !matchesType(node.default, node.type as string)) delete node.default
    }
  }
  if (Array.isArray(node.type)) {
    // zod writes a nullable primitive as a type list; its keywords bind that one primitive type.
    const real = (node.type as string[]).filter(type => type !== 'null')
    if (real.length === 1) node = { ...node, type: real[0], ...(real.length < node.type.length ? { nullable: true } : {}) }
  }
  if (node.type === 'number') {
    const { type: _, ...rest } = node
    return { anyOf: [{ type: 'number' }, { type: 'integer' }], ...rest }
  }
  return node
}

/** The branch to advertise: the one its default belongs to, else by TYPE_PREFERENCE. */
function pick (branches: Array<JsonSchema & { type: string }>, fallback: unknown): (JsonSchema & { type: string }) | undefined {
  const byDefault = fallback === undefined ? undefined : branches.find(branch => matchesType(fallback, branch.type))
  if (byDefault !== undefined) return byDefault
  return [...branches].sort((a, b) => TYPE_PREFERENCE.indexOf(a.type) - TYPE_PREFERENCE.indexOf(b.type))[0]
}

function matchesType (value: unknown, type: string): boolean {
  switch (type) {
    case 'array': return Array.isArray(value)
    case 'object': return isRecord(value)
    case 'integer': return Number.isInteger(value)
    case 'number': return typeof value === 'number'
    case 'string': return typeof value === 'string'
    case 'boolean': return typeof value === 'boolean'
    default: return false
  }
}

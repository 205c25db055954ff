import type { z } from 'zod'
import { isRecord } from '../../shape.ts'

/**
 * Tool arguments read the way models send them. The schemas advertise one portable type per field
 * (src/mcp/runtime/client-schema.ts), and models are sloppy with two of them: a number comes as a numeric string
 * (`"limit": "5"`), and one id comes bare where a list is declared. Both are read as meant, once, here,
 * for every tool; anything else is refused with an error that says the form the field expects.
 */

/** A number written as a string: "5", "-2", "0.5", " 24 ". Not "", "5 lights", "0x10" or "1e3". */
const NUMERIC = /^\s*-?(?:\d+(?:\.\d+)?|\.\d+)\s*$/

type Issue = z.core.$ZodIssue
type Path = PropertyKey[]

/** An object or a list: what an issue's path walks through (a list's items by index). */
const isContainer = (value: unknown): value is Record<PropertyKey, unknown> => isRecord(value) || Array.isArray(value)

/** The value a sloppy model meant, or undefined when the value is wrong in some other way. */
function meant (value: unknown, expected: string): unknown {
  if (expected === 'number' && typeof value === 'string' && NUMERIC.test(value)) return Number(value)
  if (expected === 'array' && value !== undefined && value !== null && !Array.isArray(value)) return [value]
  return undefined
}

function valueAt (root: unknown, path: Path): unknown {
  let current = root
  for (const segment of path) {
    if (!isContainer(current)) return undefined
    current = current[segment as keyof typeof current]
  }
  return current
}

/** A copy of `args` with every loosely sent value read as meant, or undefined when there is none. */
function withMeantValues (args: unknown, issues: readonly Issue[]): unknown {
  const fixes = issues.flatMap(issue => {
    if (issue.code !== 'invalid_type' || issue.path.length === 0) return []
    const value = meant(valueAt(args, issue.path), issue.expected)
    return value === undefined ? [] : [{ path: issue.path, value }]
  })
  if (fixes.length === 0) return undefined
  // Arguments arrived as JSON: a structured clone is a faithful copy, and the caller's object stays as sent.
  const copy = structuredClone(args)
  for (const { path, value } of fixes) {
    const parent = valueAt(copy, path.slice(0, -1))
    if (isContainer(parent)) parent[path[path.length - 1] as PropertyKey] = value
  }
  return copy
}

/**
 * `schema.safeParse(args)`, reading a numeric string as its number and a bare value as a list of one
 * wherever the schema declares a number or a list. A few rounds, since a list of one may then hold a
 * numeric string. `args` is what was parsed last, which the issues of a failure refer to.
 */
export function parseArguments<T extends z.ZodObject> (schema: T, sentArgs: unknown): { parsed: ReturnType<T['safeParse']>, args: unknown } {
  let args = sentArgs
  let parsed = schema.safeParse(args)
  for (let round = 0; !parsed.success && round < 3; round++) {
    const next = withMeantValues(args, parsed.error.issues)
    if (next === undefined) break
    args = next
    parsed = schema.safeParse(args)
  }
  return { parsed: parsed as ReturnType<T['safeParse']>, args }
}

type JsonSchema = Record<string, unknown>
const isSchema = (value: unknown): value is JsonSchema => isRecord(value)

/** The advertised schema of the field at `path`, as the model read it in tools/list. */
function schemaAt (schema: unknown, path: Path): JsonSchema | undefined {
  let current: unknown = schema
  for (const segment of path) {
    if (!isSchema(current)) return undefined
    current = typeof segment === 'number' ? current.items : isSchema(current.properties) ? current.properties[String(segment)] : undefined
  }
  return isSchema(current) ? current : undefined
}

function range (schema: JsonSchema): string {
  const { minimum: min, maximum: max } = schema
  if (typeof min === 'number' && typeof max === 'number') return ` from ${min} to ${max}`
  if (typeof min === 'number') return ` of at least ${min}`
  if (typeof max === 'number') return ` of at most ${max}`
  return ''
}

/** The expected form in words: "an integer from 1 to 200, e.g. 50", "a list of strings", "one of "a", "b"". */
export function expectedForm (schema: JsonSchema): string {
  const orNull = schema.nullable === true ? ', or null' : ''
  if (Array.isArray(schema.enum)) return `one of ${schema.enum.map(value => JSON.stringify(value)).join(', ')}${orNull}`
  const types = Array.isArray(schema.anyOf) ? schema.anyOf.map(branch => isSchema(branch) ? branch.type : undefined) : [schema.type]
  const example = typeof schema.default === 'number' ? schema.default : typeof schema.minimum === 'number' ? Math.max(schema.minimum, 1) : 5
  if (types.includes('number')) return `a number${range(schema)}, e.g. ${example}${orNull}`
  switch (types[0]) {
    case 'integer': return `an integer${range(schema)}, e.g. ${example}${orNull}`
    case 'string': return `a string${orNull}`
    case 'boolean': return `true or false${orNull}`
    case 'object': return `an object${orNull}`
    case 'array': {
      const items = isSchema(schema.items) ? schema.items : undefined
      const of = items?.type === 'string' && items.enum === undefined ? ' of strings' : items !== undefined ? ` (each ${expectedForm(items)})` : ''
      return `a list${of}${orNull}`
    }
    default: return 'a JSON value'
  }
}

/** What was sent, shortly: `"lots"`, `an object`, `nothing`. */
function sent (value: unknown): string {
  if (value === undefined) return 'nothing'
  if (Array.isArray(value)) return 'a list'
  if (isRecord(value)) return 'an object'
  const text = JSON.stringify(value)
  return text.length > 40 ? `${text.slice(0, 37)}...` : text
}

/** Each problem with its field, saying the expected form where the value had the wrong shape. */
export function describeIssues (issues: readonly Issue[], listed: JsonSchema, args: unknown): string {
  return issues.slice(0, 5).map(issue => {
    const where = issue.path.length ? issue.path.map(String).join('.') : 'arguments'
    const field = issue.code === 'invalid_type' || issue.code === 'invalid_union' ? schemaAt(listed, issue.path) : undefined
    if (field === undefined) return `${where}: ${issue.message}`
    return `${where}: expected ${expectedForm(field)} (got ${sent(valueAt(args, issue.path))})`
  }).join('; ')
}

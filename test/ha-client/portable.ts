/**
 * The portable subset of JSON Schema every MCP client we name accepts, for tests only.
 *
 * Gemini's function declarations (Gemini CLI, Copilot CLI, Home Assistant's Google conversation
 * agent) take an OpenAPI-style Schema: one `type` per schema, `nullable` for null, `anyOf` without a
 * `type` beside it, no `$ref`/`$defs`, no `oneOf`/`allOf`/`not`, arrays whose `items` are one type, and
 * string enums. A type list or a union of item types is answered with a 400 that disables every tool.
 * The rules below are that subset; they are also what Home Assistant's two converters and the
 * JSON-Schema clients read the same way.
 */

import { isRecord } from '../../src/shape.ts'

const TYPES = new Set(['string', 'number', 'integer', 'boolean', 'object', 'array'])
const FORBIDDEN = ['$ref', '$defs', 'definitions', 'oneOf', 'allOf', 'not', 'const', 'if', 'then', 'else', 'prefixItems', 'patternProperties', 'dependentRequired', 'dependentSchemas']

/** Every way `schema` leaves the portable subset, each with its path; empty when it is portable. */
export function portableProblems (schema: unknown): string[] {
  const problems: string[] = []
  if (!isRecord(schema) || schema.type !== 'object') problems.push('top level: type must be "object"')
  check(schema, '#', problems)
  return problems
}

function check (schema: unknown, path: string, out: string[]): void {
  if (!isRecord(schema)) { out.push(`${path}: not a schema object`); return }
  for (const key of FORBIDDEN) if (key in schema) out.push(`${path}: ${key}`)
  const { type, anyOf } = schema
  if (anyOf !== undefined) {
    if ('type' in schema) out.push(`${path}: type beside anyOf`)
    if (!Array.isArray(anyOf) || anyOf.length === 0) out.push(`${path}: anyOf must be a non-empty list`)
    else anyOf.forEach((branch, i) => { check(branch, `${path}/anyOf/${i}`, out) })
  } else if (typeof type !== 'string' || !TYPES.has(type)) {
    out.push(`${path}: type must be one of ${[...TYPES].join(', ')}, got ${JSON.stringify(type)}`)
  }
  if ('nullable' in schema && schema.nullable !== true) out.push(`${path}: nullable is only ever true`)
  if (schema.enum !== undefined) {
    if (!Array.isArray(schema.enum) || !schema.enum.every(value => typeof value === 'string')) out.push(`${path}: enum of strings only`)
    if (type !== 'string') out.push(`${path}: an enum is a string`)
  }
  if (type === 'array') {
    const items = schema.items
    if (!isRecord(items)) out.push(`${path}: array without an items schema`)
    else if (typeof items.type !== 'string') out.push(`${path}/items: items of one type`)
    if (isRecord(items)) check(items, `${path}/items`, out)
  } else if ('items' in schema) {
    out.push(`${path}: items on a non-array`)
  }
  if (isRecord(schema.properties)) {
    if (type !== 'object') out.push(`${path}: properties on a non-object`)
    for (const [name, sub] of Object.entries(schema.properties)) check(sub, `${path}/properties/${name}`, out)
  }
  if ('additionalProperties' in schema && typeof schema.additionalProperties !== 'boolean') out.push(`${path}: additionalProperties is true or false`)
  if (Array.isArray(schema.required) && isRecord(schema.properties)) {
    for (const name of schema.required) if (!(String(name) in schema.properties)) out.push(`${path}: required "${String(name)}" is not a property`)
  }
}

import { z } from 'zod'
import { UserError } from '../errors.ts'

/**
 * Checks every id a write names and bounds the free-form objects it carries, before any rule runs, so
 * that garbage never reaches Home Assistant and no input can exhaust the stack of a later walk.
 */

export const ID_MAX_LENGTH = 255
/** Deepest nesting a free-form object (service data, variables, config blocks) may have. */
export const MAX_DEPTH = 32
/** Most values (objects, arrays, scalars) a free-form object may hold. */
export const MAX_NODES = 10_000

// C0/C1 controls (NUL and ESC included), bidi and zero-width format marks, BOM, lone surrogates.
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/
const FORMAT = /[\u061c\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u206f\ufeff]/
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/

/** The character rules every id and every name obeys, and a length bound: what is wrong, if anything. */
function textProblem (value: unknown, max: number): string | undefined {
  if (typeof value !== 'string') return `must be a string, got ${value === null ? 'null' : Array.isArray(value) ? 'a list' : typeof value}`
  if (value.trim() === '') return 'is empty'
  if (value.length > max) return `is ${value.length} characters long (at most ${max})`
  if (CONTROL.test(value)) return 'contains a control character (NUL, escape...)'
  if (LONE_SURROGATE.test(value)) return 'contains a lone surrogate (broken UTF-16)'
  if (FORMAT.test(value)) return 'contains an invisible formatting mark (bidi or zero-width)'
  return undefined
}

/** What is wrong with an id string, if anything. */
export function idProblem (value: unknown): string | undefined {
  return textProblem(value, ID_MAX_LENGTH)
}

/** Longest free-text name the add-on writes (Home Assistant's registries take 255 too). */
export const NAME_MAX_LENGTH = 255

/**
 * What is wrong with a free-text name the add-on writes (area, floor, label, zone, helper, scene,
 * entity, device names, aliases, to-do items...), if anything: the id checks' character rules and a
 * length bound.
 */
export function nameProblem (value: unknown, max: number = NAME_MAX_LENGTH): string | undefined {
  return textProblem(value, max)
}

export function assertName (value: unknown, field: string, max: number = NAME_MAX_LENGTH): string {
  const problem = nameProblem(value, max)
  if (problem !== undefined) throw new UserError('HAMCP_INVALID_ARGUMENT', `Invalid ${field}: ${problem}.`, 'Names are plain text: letters, digits, spaces and punctuation, no control or invisible characters.')
  return value as string
}

/**
 * The `title` and `name` strings anywhere in a free-form config (a dashboard view or card): names an
 * owner will read in Home Assistant, so they take the name rule too. Returns the first problem, with its path.
 */
export function titlesProblem (config: unknown, path = 'config'): string | undefined {
  const stack: Array<[unknown, string]> = [[config, path]]
  while (stack.length > 0) {
    const [value, at] = stack.pop() as [unknown, string]
    if (Array.isArray(value)) value.forEach((item, i) => stack.push([item, `${at}[${i}]`]))
    else if (value !== null && typeof value === 'object') {
      for (const [key, item] of Object.entries(value)) {
        if ((key === 'title' || key === 'name') && typeof item === 'string') {
          const problem = nameProblem(item)
          if (problem !== undefined) return `${at}.${key}: ${problem}`
        } else stack.push([item, `${at}.${key}`])
      }
    }
  }
  return undefined
}

/** A tool argument holding a name: trimmed, then the name rules (as a schema issue, so the answer names the field). */
export const nameArg = (max: number = NAME_MAX_LENGTH) => z.string().trim().min(1).max(max).superRefine(nameIssue(max))

/** The name rules as a schema refinement, for fields where an empty string means "the default name". */
export function nameIssue (max: number = NAME_MAX_LENGTH): (value: string, ctx: z.RefinementCtx) => void {
  return (value, ctx) => {
    const problem = value === '' ? undefined : nameProblem(value, max)
    if (problem !== undefined) ctx.addIssue({ code: 'custom', message: problem })
  }
}

/** A Supervisor add-on slug: lower-case letters, digits, `_` and `-`, as the Supervisor makes them. */
export const ADDON_SLUG = /^[a-z0-9][a-z0-9_-]{0,63}$/

export function addonSlugProblem (value: unknown): string | undefined {
  if (typeof value !== 'string') return `must be a string, got ${value === null ? 'null' : typeof value}`
  if (!ADDON_SLUG.test(value)) return `"${value.slice(0, 40)}" is not an add-on slug (lower-case letters, digits, _ and -, e.g. core_mosquitto)`
  return undefined
}

export const BACKUP_NAME_MAX_LENGTH = 100

/** A backup name: a name that is no path (no / or \\, no .., not starting with a dot). */
export function backupNameProblem (value: unknown): string | undefined {
  const problem = nameProblem(value, BACKUP_NAME_MAX_LENGTH)
  if (problem !== undefined) return problem
  const name = value as string
  if (/[/\\]/.test(name) || name.includes('..') || name.trim().startsWith('.')) return 'looks like a path (no /, \\, .. or leading dot in a backup name)'
  return undefined
}

export function invalidId (field: string, problem: string): UserError {
  return new UserError('HAMCP_INVALID_ARGUMENT', `Invalid ${field}: ${problem}.`, 'Pass ids as Home Assistant shows them (ha_search_entities, ha_list_areas, ha_list_devices find them).')
}

export function assertId (value: unknown, field: string): string {
  const problem = idProblem(value)
  if (problem !== undefined) throw invalidId(field, problem)
  return value as string
}

export interface Complexity { depth: number, nodes: number }

/** Depth and size of a JSON-like value, measured without recursion; stops counting past the limits. */
export function complexity (value: unknown, limits: Complexity = { depth: MAX_DEPTH, nodes: MAX_NODES }): Complexity {
  let nodes = 0
  let depth = 0
  const stack: Array<[unknown, number]> = [[value, 1]]
  while (stack.length > 0) {
    const [item, level] = stack.pop() as [unknown, number]
    nodes++
    if (level > depth) depth = level
    if (depth > limits.depth || nodes > limits.nodes) break
    if (item !== null && typeof item === 'object') {
      for (const child of Array.isArray(item) ? item : Object.values(item)) stack.push([child, level + 1])
    }
  }
  return { depth, nodes }
}

/** Why a free-form value is too complex to accept, if it is. */
export function complexityProblem (value: unknown, limits: Complexity = { depth: MAX_DEPTH, nodes: MAX_NODES }): string | undefined {
  const { depth, nodes } = complexity(value, limits)
  if (depth > limits.depth) return `is nested too deep (more than ${limits.depth} levels)`
  if (nodes > limits.nodes) return `is too large (more than ${limits.nodes} values)`
  return undefined
}

/** The guard's own bound, a little looser than the schemas' since tools wrap what they were given. */
export const GUARD_LIMITS: Complexity = { depth: MAX_DEPTH + 8, nodes: MAX_NODES * 2 }

/**
 * The most a write's `data` may hold, as UTF-8 JSON: service data, script variables, a config or a card.
 * Everything a write carries is kept while it waits for a confirmation and shown in its preview; an
 * automation or a notification is a few KB, and 64 KB leaves room for the largest dashboard card.
 */
export const MAX_DATA_BYTES = 64 * 1024

/** Refuses a write's free-form object that is too deep, has too many values, or is over MAX_DATA_BYTES. */
export function assertBounded (value: unknown, field: string, limits: Complexity = GUARD_LIMITS): void {
  const problem = complexityProblem(value, limits)
  if (problem !== undefined) throw new UserError('HAMCP_TOO_LARGE', `${field} ${problem}.`, 'Send a flatter, smaller object; Home Assistant services never need this much.')
  const bytes = value === undefined ? 0 : Buffer.byteLength(JSON.stringify(value) ?? '', 'utf8')
  if (bytes > MAX_DATA_BYTES) {
    throw new UserError('HAMCP_TOO_LARGE', `${field} is ${bytes} bytes of JSON, over the ${MAX_DATA_BYTES / 1024} KB a write may carry.`, 'Send less: Home Assistant services, scripts and configs never need this much; split a large config into smaller changes.')
  }
}

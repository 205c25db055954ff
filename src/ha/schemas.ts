import { z } from 'zod'
import { HaBadPayloadError } from '../errors.ts'
import { isRecord } from '../shape.ts'

/**
 * Loose schemas for what Home Assistant sends: they insist on the fields we use and let everything
 * else through, so a newer HA adding keys never breaks us, and a broken payload gives a precise error.
 */
const nullableString = z.string().nullish().transform(v => v ?? null)
const stringList = z.array(z.string()).nullish().transform(v => v ?? [])
/** An entity's Assist names: `null` in the list stands for the entity's own name (core 2026.4+). */
const aliasList = z.array(z.string().nullable()).nullish().transform(v => v ?? [])

export const contextSchema = z.looseObject({ id: z.string(), parent_id: nullableString, user_id: nullableString })

export const stateSchema = z.looseObject({
  entity_id: z.string(),
  state: z.string(),
  attributes: z.record(z.string(), z.unknown()),
  last_changed: z.string(),
  last_updated: z.string(),
  context: contextSchema.optional()
})
export type HassState = z.infer<typeof stateSchema>

/** Fields Home Assistant sends as a string, as null or not at all: each reads as a string or null. */
function nullables<const K extends string> (...keys: K[]): Record<K, typeof nullableString> {
  return Object.fromEntries(keys.map(key => [key, nullableString])) as Record<K, typeof nullableString>
}

export const areaSchema = z.looseObject({
  area_id: z.string(),
  name: z.string(),
  aliases: stringList,
  labels: stringList,
  ...nullables('floor_id', 'icon')
})
export type AreaEntry = z.infer<typeof areaSchema>

export const floorSchema = z.looseObject({
  floor_id: z.string(),
  name: z.string(),
  level: z.number().nullish().transform(v => v ?? null),
  aliases: stringList,
  ...nullables('icon')
})
export type FloorEntry = z.infer<typeof floorSchema>

export const labelSchema = z.looseObject({ label_id: z.string(), name: z.string(), ...nullables('color', 'icon', 'description') })
export type LabelEntry = z.infer<typeof labelSchema>

// Devices and entity registry entries are the two big lists (thousands on a large home): unknown keys
// are dropped rather than kept, which halves the registry's memory on a 10,000-entity home.
export const deviceSchema = z.object({
  id: z.string(),
  labels: stringList,
  /** The integrations' config entries the device belongs to: what an integration's disable or delete takes with it. */
  config_entries: stringList,
  ...nullables('name', 'name_by_user', 'area_id', 'manufacturer', 'model', 'via_device_id', 'parent_device_id', 'disabled_by', 'entry_type')
})
export type DeviceEntry = z.infer<typeof deviceSchema>

export const entityEntrySchema = z.object({
  entity_id: z.string(),
  labels: stringList,
  aliases: aliasList,
  ...nullables('unique_id', 'name', 'original_name', 'area_id', 'device_id', 'disabled_by', 'hidden_by', 'entity_category', 'platform', 'config_entry_id'),
  categories: z.record(z.string(), z.string().nullable()).nullish()
})
export type EntityEntry = z.infer<typeof entityEntrySchema>

/** Validates `value` and names the first unexpected thing precisely when it does not fit. */
export function parsePayload<T> (schema: z.ZodType<T>, value: unknown, what: string): T {
  const result = schema.safeParse(value)
  if (result.success) return result.data
  const issue = result.error.issues[0]
  const where = issue?.path.length ? issue.path.join('.') : 'the answer'
  throw new HaBadPayloadError(what, `${where}: ${issue?.message ?? 'invalid'}`, result.error)
}

/** Like parsePayload for arrays, but drops (and counts) broken items instead of failing the whole list. */
export function parseList<T> (schema: z.ZodType<T>, value: unknown, what: string): { items: T[], dropped: number } {
  if (!Array.isArray(value)) throw new HaBadPayloadError(what, `expected a list, got ${value === null ? 'null' : typeof value}`)
  const items: T[] = []
  let dropped = 0
  for (const entry of value) {
    const parsed = schema.safeParse(entry)
    if (parsed.success) items.push(parsed.data)
    else dropped++
  }
  return { items, dropped }
}

/**
 * subscribe_entities frames are checked by hand rather than with zod: the first one holds every
 * entity of the home, and a zod parse would copy all of it (tens of MB on a big home) just to look.
 * Returns where a frame is malformed, or undefined when it can be applied.
 */
export function entitiesMessageProblem (message: unknown): string | undefined {
  if (!isRecord(message)) return 'the message is not an object'
  if (message.a !== undefined) {
    if (!isRecord(message.a)) return 'a: not an object'
    for (const [id, state] of Object.entries(message.a)) {
      const problem = compressedProblem(state, true)
      if (problem) return `a.${id}.${problem}`
    }
  }
  if (message.c !== undefined) {
    if (!isRecord(message.c)) return 'c: not an object'
    for (const [id, diff] of Object.entries(message.c)) {
      if (!isRecord(diff)) return `c.${id}: not an object`
      const problem = diff['+'] === undefined ? undefined : compressedProblem(diff['+'], false)
      if (problem) return `c.${id}.+.${problem}`
      const removed = diff['-']
      if (removed !== undefined && (!isRecord(removed) || (removed.a !== undefined && !isStringList(removed.a)))) return `c.${id}.-: not a list of attribute names`
    }
  }
  if (message.r !== undefined && !isStringList(message.r)) return 'r: not a list of entity ids'
  return undefined
}

function isStringList (value: unknown): boolean {
  return Array.isArray(value) && value.every(item => typeof item === 'string')
}

function compressedProblem (state: unknown, full: boolean): string | undefined {
  if (!isRecord(state)) return 'not an object'
  if (full || state.s !== undefined) {
    if (!['string', 'number', 'boolean'].includes(typeof state.s)) return 's: missing or not a value'
  }
  if (state.a !== undefined && !isRecord(state.a)) return 'a: not an object'
  if (state.c !== undefined && typeof state.c !== 'string' && !isRecord(state.c)) return 'c: not a context'
  for (const key of ['lc', 'lu'] as const) {
    if (state[key] !== undefined && typeof state[key] !== 'number') return `${key}: not a number`
  }
  return undefined
}

import { z } from 'zod'
import { HA_BAD_PAYLOAD } from '../errors.ts'

/**
 * Loose schemas for what Home Assistant sends: they insist on the fields we use and let everything
 * else through, so a newer HA adding keys never breaks us, and a broken payload gives a precise error.
 */
const nullableString = z.string().nullish().transform(v => v ?? null)
const stringList = z.array(z.string()).nullish().transform(v => v ?? [])

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

export const areaSchema = z.looseObject({
  area_id: z.string(),
  name: z.string(),
  floor_id: nullableString,
  aliases: stringList,
  labels: stringList,
  icon: nullableString
})
export type AreaEntry = z.infer<typeof areaSchema>

export const floorSchema = z.looseObject({
  floor_id: z.string(),
  name: z.string(),
  level: z.number().nullish().transform(v => v ?? null),
  aliases: stringList,
  icon: nullableString
})
export type FloorEntry = z.infer<typeof floorSchema>

export const labelSchema = z.looseObject({
  label_id: z.string(),
  name: z.string(),
  color: nullableString,
  icon: nullableString,
  description: nullableString
})
export type LabelEntry = z.infer<typeof labelSchema>

// Devices and entity registry entries are the two big lists (thousands on a large home): unknown keys
// are dropped rather than kept, which halves the registry's memory on a 10,000-entity home.
export const deviceSchema = z.object({
  id: z.string(),
  name: nullableString,
  name_by_user: nullableString,
  area_id: nullableString,
  manufacturer: nullableString,
  model: nullableString,
  via_device_id: nullableString,
  parent_device_id: nullableString,
  labels: stringList,
  disabled_by: nullableString,
  entry_type: nullableString
})
export type DeviceEntry = z.infer<typeof deviceSchema>

export const entityEntrySchema = z.object({
  entity_id: z.string(),
  unique_id: nullableString,
  name: nullableString,
  original_name: nullableString,
  area_id: nullableString,
  device_id: nullableString,
  labels: stringList,
  aliases: stringList,
  disabled_by: nullableString,
  hidden_by: nullableString,
  entity_category: nullableString,
  platform: nullableString,
  categories: z.record(z.string(), z.string().nullable()).nullish()
})
export type EntityEntry = z.infer<typeof entityEntrySchema>

/** Validates `value` and names the first unexpected thing precisely when it does not fit. */
export function parsePayload<T> (schema: z.ZodType<T>, value: unknown, what: string): T {
  const result = schema.safeParse(value)
  if (result.success) return result.data
  const issue = result.error.issues[0]
  const where = issue?.path.length ? issue.path.join('.') : 'the answer'
  throw new HA_BAD_PAYLOAD(what, `${where}: ${issue?.message ?? 'invalid'}`)
}

/** Like parsePayload for arrays, but drops (and counts) broken items instead of failing the whole list. */
export function parseList<T> (schema: z.ZodType<T>, value: unknown, what: string): { items: T[], dropped: number } {
  if (!Array.isArray(value)) throw new HA_BAD_PAYLOAD(what, `expected a list, got ${value === null ? 'null' : typeof value}`)
  const items: T[] = []
  let dropped = 0
  for (const entry of value) {
    const parsed = schema.safeParse(entry)
    if (parsed.success) items.push(parsed.data)
    else dropped++
  }
  return { items, dropped }
}

/** subscribe_entities messages (compressed): checked loosely so a malformed frame is reported, not applied. */
const compressedContext = z.union([z.string(), z.looseObject({ id: z.string().optional(), parent_id: z.string().nullish(), user_id: z.string().nullish() })])
const compressedState = z.looseObject({
  s: z.union([z.string(), z.number(), z.boolean()]),
  a: z.record(z.string(), z.unknown()).optional(),
  c: compressedContext.optional(),
  lc: z.number().optional(),
  lu: z.number().optional()
})
export const entitiesMessageSchema = z.looseObject({
  a: z.record(z.string(), compressedState).optional(),
  c: z.record(z.string(), z.looseObject({
    '+': compressedState.partial().optional(),
    '-': z.looseObject({ a: z.array(z.string()).optional() }).optional()
  })).optional(),
  r: z.array(z.string()).optional()
})

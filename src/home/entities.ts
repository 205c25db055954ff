import { UserError } from '../errors.ts'

/**
 * What an entity id is, in one place: `domain.object_id`, lower-case letters, digits and underscores
 * (Home Assistant's own rule). Callers that accept any case lower-case first.
 */
const PART = '[a-z0-9_]+'
/** The pattern's source, for a larger expression that contains an entity id. */
export const ENTITY_ID_SOURCE = `${PART}\\.${PART}`
export const ENTITY_ID = new RegExp(`^${ENTITY_ID_SOURCE}$`)

/**
 * Entity ids inside free text (messages, templates, trigger descriptions, JSON); use with replace/match.
 * Never right after a backslash, so the tail of a JSON escape (`\u00e9t.x`) is not taken for an id.
 */
export const ENTITY_ID_IN_TEXT = new RegExp(`(?<![\\w\\\\])${ENTITY_ID_SOURCE}\\b`, 'g')

/** A domain or a service name on its own: `light`, `turn_on`. */
export const SLUG = new RegExp(`^${PART}$`)

/** A long-term statistic: an entity's (`sensor.energy`) or an integration's own (`sensor:energy`). */
export const STATISTIC_ID = new RegExp(`^${PART}[.:]${PART}$`)

/** The ids of one domain: `^light\.[a-z0-9_]+$`. */
export function domainEntityPattern (domain: string): RegExp {
  return new RegExp(`^${domain}\\.${PART}$`)
}

export function isEntityId (value: unknown): value is string {
  return typeof value === 'string' && ENTITY_ID.test(value)
}

/** The part before the first dot: `light` for `light.kitchen`, the whole text when there is no dot. */
export function domainOf (entityId: string): string {
  const dot = entityId.indexOf('.')
  return dot === -1 ? entityId : entityId.slice(0, dot)
}

/** What tools need to know about one entity, joined from its state and the registries. */
export interface EntityRow {
  entity_id: string
  domain: string
  name: string
  state: string
  area_id: string | null
  area: string | null
  floor_id: string | null
  floor: string | null
  labels: string[]
  aliases: string[]
  /** The registry's aliases hold `null`: the entity's own name is also a voice name (core 2026.4+). */
  name_is_alias?: boolean
  device_id: string | null
  hidden: boolean
  entity_category: string | null
  /** Folded text every search token is matched against. */
  haystack: string
  /** Folded name, for ranking. */
  foldedName: string
}

/** What the require functions look an id up in: the HomeView, which answers only for visible entities. */
interface Lookup { entity: (entityId: string) => EntityRow | undefined }

const NOT_FOUND_HINT = 'Use ha_search_entities to find the right entity_id.'

/** The visible row for an id, or a not-found error that never reveals hidden entities. */
export function requireEntity (home: Lookup, entityId: string): EntityRow {
  const row = home.entity(entityId)
  if (!row) throw new UserError('HAMCP_ENTITY_NOT_FOUND', `Entity ${entityId} not found.`, NOT_FOUND_HINT)
  return row
}

/** One id or a list: duplicates dropped, ids that are unknown or hidden refused (all named at once). */
export function requireEntities (home: Lookup, value: string | string[]): string[] {
  const ids = [...new Set(Array.isArray(value) ? value : [value])]
  const missing = ids.filter(id => !home.entity(id))
  if (missing.length) throw new UserError('HAMCP_ENTITY_NOT_FOUND', `Entity ${missing.join(', ')} not found.`, NOT_FOUND_HINT)
  return ids
}

/** Refuses an id of another domain than the tool works on, saying what it wanted; returns the domain. */
export function requireDomain (entityId: string, domains: readonly string[], what: string, hint = `Use an entity of: ${domains.join(', ')}.`): string {
  const domain = domainOf(entityId)
  if (!domains.includes(domain)) throw new UserError('HAMCP_WRONG_DOMAIN', `${entityId} is not ${what}.`, hint)
  return domain
}

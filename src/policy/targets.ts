import { domainOf, ENTITY_ID } from '../home/entities.ts'
import { isTemplate } from './config-calls.ts'
import { assertId, idProblem, invalidId } from './input-checks.ts'
import type { ServiceTarget, WriteRequest } from './types.ts'

/**
 * Entity fields read exactly as Home Assistant reads them (cv.comp_entity_ids for entity_id, cv.ensure_list
 * for the others), once, before any rule runs: what the rules check is then what goes on the wire.
 */

/** Target fields that reach entities through the registries rather than naming them. */
export const INDIRECT_TARGET_FIELDS = ['device_id', 'area_id', 'floor_id', 'label_id'] as const
export const TARGET_FIELDS = ['entity_id', ...INDIRECT_TARGET_FIELDS] as const
const INDIRECT_FIELDS: readonly string[] = INDIRECT_TARGET_FIELDS
/** Keys under which Home Assistant services take entity ids besides `entity_id` itself. */
const ENTITY_LIST_KEYS = new Set(['entities', 'snapshot_entities'])

/** `all` and `none` reach entities by rule, like an area: they are indirect targets. */
export type EntityIds = string[] | 'all' | 'none'

function entityIdOf (raw: unknown, field: string): string {
  const id = assertId(raw, field).trim().toLowerCase()
  if (!ENTITY_ID.test(id)) throw invalidId(field, `"${id.slice(0, 80)}" is not an entity id (domain.object_id, e.g. light.kitchen)`)
  return id
}

/**
 * An entity_id field as cv.comp_entity_ids reads it: `all`/`none` in any case, else a string split on
 * commas, or a list; every id trimmed, lower-cased and validated (one bad id refuses the call, as in HA).
 */
export function readEntityIds (value: unknown, field: string): EntityIds {
  if (value === undefined || value === null) return []
  if (typeof value === 'string') {
    const word = value.trim().toLowerCase()
    if (word === 'all' || word === 'none') return word
    return [...new Set(value.split(',').map(part => entityIdOf(part, field)))]
  }
  if (Array.isArray(value)) return [...new Set(value.map(item => entityIdOf(item, field)))]
  throw invalidId(field, `must be an entity id, a comma-separated string of them, a list, "all" or "none"; got ${typeof value}`)
}

/** device_id, area_id, floor_id, label_id: `none` or one-or-many ids, never split (cv.ensure_list). */
export function readIndirectIds (value: unknown, field: string): string[] | 'none' {
  if (value === undefined || value === null) return []
  if (typeof value === 'string' && value.trim().toLowerCase() === 'none') return 'none'
  const list = Array.isArray(value) ? value : [value]
  return [...new Set(list.map(item => assertId(item, field).trim()))]
}

/** Reads one target-like object (a call's target, or the entity fields of its data) into its wire form. */
function readTargetFields (source: Record<string, unknown>, prefix: string, into: CallTargets): ServiceTarget {
  const out: ServiceTarget = {}
  for (const key of TARGET_FIELDS) {
    if (!(key in source)) continue
    const field = `${prefix}.${key}`
    const value = key === 'entity_id' ? readEntityIds(source[key], field) : readIndirectIds(source[key], field)
    if (Array.isArray(value) && value.length === 0) continue
    out[key] = value
    if (key === 'entity_id') {
      if (Array.isArray(value)) for (const id of value) into.entities.add(id)
      else into.indirect.add(`entity_id: ${value}`)
    } else {
      into.indirect.add(value === 'none' ? `${key}: none` : key)
    }
  }
  return out
}

/** Every entity id a nested value names: `*entity_id` keys at any depth, and scene-style entity lists. */
function scanNested (value: unknown, path: string, into: CallTargets): void {
  if (value === null || typeof value !== 'object') return
  if (Array.isArray(value)) {
    value.forEach((item, i) => { scanNested(item, `${path}[${i}]`, into) })
    return
  }
  for (const [key, inner] of Object.entries(value as Record<string, unknown>)) {
    const field = `${path}.${key}`
    if (key === 'entity_id' || key.endsWith('_entity_id') || (ENTITY_LIST_KEYS.has(key) && (typeof inner === 'string' || Array.isArray(inner)))) {
      collectLoose(inner, field, into)
    } else if (ENTITY_LIST_KEYS.has(key) && inner !== null && typeof inner === 'object') {
      for (const id of Object.keys(inner)) collectLoose(id, field, into)
    } else if (INDIRECT_FIELDS.includes(key) && inner !== undefined && inner !== null && !(Array.isArray(inner) && inner.length === 0)) {
      for (const item of Array.isArray(inner) ? inner : [inner]) {
        const problem = idProblem(item)
        if (problem !== undefined) throw invalidId(field, problem)
      }
      into.indirect.add(key)
    }
    scanNested(inner, field, into)
  }
}

/**
 * Ids in fields Home Assistant may read as entity ids but whose schema we do not know: garbage is refused,
 * comma strings are split, `all` counts as an indirect target; other strings are left to the service.
 */
function collectLoose (value: unknown, field: string, into: CallTargets): void {
  for (const item of Array.isArray(value) ? value : [value]) {
    if (typeof item !== 'string') continue
    if (isTemplate(item)) { into.indirect.add('a template'); continue }
    const problem = idProblem(item)
    if (problem !== undefined) throw invalidId(field, problem)
    for (const part of item.split(',')) {
      const id = part.trim().toLowerCase()
      if (id === 'all') into.indirect.add('entity_id: all')
      else if (ENTITY_ID.test(id)) into.entities.add(id)
    }
  }
}

export interface CallTargets {
  /** The target as it goes on the wire: entity_id split and lower-cased, empty fields dropped. */
  target: ServiceTarget | undefined
  /** The data as it goes on the wire, its top-level entity fields read the same way. */
  data: Record<string, unknown> | undefined
  /** Where the call aims, target over data as Home Assistant merges them, for expansion. */
  aim: ServiceTarget | undefined
  /** Every entity the write names explicitly, in target, data and config. */
  entities: Set<string>
  /** Indirect targeting the write uses: area_id, device_id, floor_id, label_id, entity_id: all/none. */
  indirect: Set<string>
}

/** Reads a write's target and data once; throws a UserError naming the first bad field. */
export function readCall (request: Pick<WriteRequest, 'target' | 'data' | 'config'>): CallTargets {
  const into: CallTargets = { target: undefined, data: undefined, aim: undefined, entities: new Set(), indirect: new Set() }
  const target = request.target ? readTargetFields(request.target as Record<string, unknown>, 'target', into) : {}
  let data = request.data
  let fromData: ServiceTarget = {}
  if (data) {
    fromData = readTargetFields(data, 'data', into)
    data = { ...data }
    for (const key of TARGET_FIELDS) {
      if (key in data) {
        if (fromData[key] === undefined) delete data[key]
        else data[key] = fromData[key]
      }
    }
    for (const [key, value] of Object.entries(data)) {
      if (!(TARGET_FIELDS as readonly string[]).includes(key)) scanNested({ [key]: value }, 'data', into)
    }
  }
  for (const id of request.config?.entities ?? []) {
    const clean = id.trim().toLowerCase()
    if (clean !== '') into.entities.add(clean)
  }
  into.target = Object.keys(target).length > 0 ? target : undefined
  into.data = data
  const aim = { ...fromData, ...target }
  into.aim = Object.keys(aim).length > 0 ? aim : undefined
  return into
}

/** What expansion needs from the house: the registries and the entity ids that have a state. */
export interface HouseIndex {
  entityIds: () => Iterable<string>
  registry: () => Promise<RegistryIndex | undefined>
}

export interface RegistryIndex {
  entities: Map<string, { entity_id: string, device_id?: string | null, labels?: string[] }>
  entityArea: (entityId: string) => string | null | undefined
  entityFloor: (entityId: string) => string | null | undefined
}

const list = (value: string | string[] | undefined): string[] => value === undefined || value === 'none' ? [] : Array.isArray(value) ? value : [value]

/**
 * Entities an indirect target reaches, limited to the service's domain unless it is the generic
 * `homeassistant` one (which dispatches to every domain); undefined when the registries are not known yet.
 */
export async function expandTarget (house: HouseIndex, target: ServiceTarget, domain: string): Promise<string[] | undefined> {
  const anyDomain = domain === 'homeassistant'
  const inDomain = (id: string): boolean => anyDomain || domainOf(id) === domain
  const out = new Set<string>()
  if (target.entity_id === 'all') for (const id of house.entityIds()) if (inDomain(id)) out.add(id)
  const areas = new Set(list(target.area_id))
  const devices = new Set(list(target.device_id))
  const floors = new Set(list(target.floor_id))
  const labels = new Set(list(target.label_id))
  if (areas.size + devices.size + floors.size + labels.size > 0) {
    const registry = await house.registry()
    if (!registry) return undefined
    for (const entry of registry.entities.values()) {
      if (!inDomain(entry.entity_id)) continue
      const area = registry.entityArea(entry.entity_id)
      const floor = registry.entityFloor(entry.entity_id)
      if ((area && areas.has(area)) || (entry.device_id && devices.has(entry.device_id)) || (floor && floors.has(floor)) || (entry.labels ?? []).some(l => labels.has(l))) {
        out.add(entry.entity_id)
      }
    }
  }
  return [...out].sort()
}

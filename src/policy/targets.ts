import { deviceAreaIn, UNKNOWN_DEVICE_HINT } from '../ha/registries.ts'
import { domainOf, ENTITY_ID } from '../home/entities.ts'
import { isTemplate } from './config-calls.ts'
import { assertId, idProblem, invalidId } from './input-checks.ts'
import type { ServiceTarget } from './types.ts'

/**
 * Entity fields read exactly as Home Assistant reads them (cv.comp_entity_ids for entity_id, cv.ensure_list
 * for the others), once, before any rule runs: what the rules check is then what goes on the wire.
 */

/** Target fields that reach entities through the registries rather than naming them. */
export const INDIRECT_TARGET_FIELDS = ['device_id', 'area_id', 'floor_id', 'label_id'] as const
export const TARGET_FIELDS = ['entity_id', ...INDIRECT_TARGET_FIELDS] as const
const INDIRECT_FIELDS: readonly string[] = INDIRECT_TARGET_FIELDS
/**
 * Keys under which Home Assistant services take entity ids besides `entity_id` itself: group.set
 * (entities, add_entities, remove_entities), scene.create and scene.apply (entities, snapshot_entities),
 * media_player.join (group_members), as homeassistant/components/{group,scene,media_player}/services.yaml
 * declare them.
 */
const ENTITY_LIST_KEYS = new Set(['entities', 'add_entities', 'remove_entities', 'snapshot_entities', 'group_members'])

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
export function readCall (request: { target?: ServiceTarget | undefined, data?: Record<string, unknown> | undefined, entities?: readonly string[] | undefined }): CallTargets {
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
  for (const id of request.entities ?? []) {
    const clean = id.trim().toLowerCase()
    if (clean !== '') into.entities.add(clean)
  }
  into.target = Object.keys(target).length > 0 ? target : undefined
  into.data = data
  const aim = { ...fromData, ...target }
  into.aim = Object.keys(aim).length > 0 ? aim : undefined
  return into
}

/** The registries as target resolution reads them; a RegistrySnapshot fits. */
export interface MembershipRegistry {
  areas: ReadonlyMap<string, { area_id: string, name: string, floor_id?: string | null, labels?: readonly string[], aliases?: readonly string[] }>
  floors: ReadonlyMap<string, { floor_id: string, name: string, aliases?: readonly string[] }>
  labels: ReadonlyMap<string, { label_id: string, name: string }>
  devices: ReadonlyMap<string, { id: string, name?: string | null, name_by_user?: string | null, area_id?: string | null, labels?: readonly string[], parent_device_id?: string | null }>
  entities: ReadonlyMap<string, { entity_id: string, device_id?: string | null, area_id?: string | null, labels?: readonly string[], hidden_by?: string | null, entity_category?: string | null }>
}

/** Ids of an indirect selection (target fields other than entity_id). */
export interface Selection { device_id?: readonly string[], area_id?: readonly string[], floor_id?: readonly string[], label_id?: readonly string[] }

/**
 * Effective membership, the one function every rule reads it through: the entities an area, device,
 * floor or label selection reaches, as Home Assistant's target resolution finds them
 * (homeassistant/helpers/target.py, async_extract_referenced_entity_ids). A device reaches its entities
 * and its child devices' ones; an area its devices' entities that have no area of their own (a child
 * device without an area is in its parent's, never a hub's through via_device_id), and the entities set to it; a floor its areas; a label the entities, devices and areas carrying it.
 * `primaryOnly` (service calls) leaves out hidden and config/diagnostic entities as Home Assistant does
 * when it expands a target; deletes read every member (`primaryOnly: false`).
 */
export function effectiveMembers (registry: MembershipRegistry, selection: Selection, { primaryOnly }: { primaryOnly: boolean }): Set<string> {
  const out = new Set<string>()
  const devices = new Set<string>()
  const areas = new Set<string>(selection.area_id ?? [])
  let children: Map<string, string[]> | undefined
  const addDevice = (id: string): void => {
    devices.add(id)
    if (!children) {
      children = new Map()
      for (const device of registry.devices.values()) if (device.parent_device_id) children.set(device.parent_device_id, [...(children.get(device.parent_device_id) ?? []), device.id])
    }
    for (const child of children.get(id) ?? []) devices.add(child)
  }
  for (const id of selection.device_id ?? []) addDevice(id)
  const labels = new Set(selection.label_id ?? [])
  if (labels.size > 0) {
    for (const entry of registry.entities.values()) {
      if ((entry.labels ?? []).some(l => labels.has(l)) && (!primaryOnly || !entry.hidden_by)) out.add(entry.entity_id)
    }
    for (const device of registry.devices.values()) if ((device.labels ?? []).some(l => labels.has(l))) addDevice(device.id)
    for (const area of registry.areas.values()) if ((area.labels ?? []).some(l => labels.has(l))) areas.add(area.area_id)
  }
  const floors = new Set(selection.floor_id ?? [])
  if (floors.size > 0) for (const area of registry.areas.values()) if (area.floor_id && floors.has(area.floor_id)) areas.add(area.area_id)
  if (devices.size === 0 && areas.size === 0) return out
  const areaDevices = new Set<string>()
  for (const device of registry.devices.values()) {
    const area = deviceAreaIn(registry.devices, device.id)
    if (area !== null && areas.has(area)) areaDevices.add(device.id)
  }
  for (const entry of registry.entities.values()) {
    if (primaryOnly && (entry.hidden_by || entry.entity_category)) continue
    const device = entry.device_id ?? undefined
    if ((device !== undefined && devices.has(device)) || (entry.area_id && areas.has(entry.area_id)) || (!entry.area_id && device !== undefined && areaDevices.has(device))) out.add(entry.entity_id)
  }
  return out
}

/** The area an entity sits in by effective membership: its own, else its device's (`deviceAreaIn`). */
export function effectiveArea (registry: MembershipRegistry, entityId: string): string | null {
  const entry = registry.entities.get(entityId)
  if (!entry) return null
  if (entry.area_id) return entry.area_id
  return deviceAreaIn(registry.devices, entry.device_id)
}

/** What expansion needs from the house: the registries and the entity ids that have a state. */
export interface HouseIndex {
  entityIds: () => Iterable<string>
  registry: () => Promise<MembershipRegistry | undefined>
  /** The state of an entity (old-style groups list their members in `attributes.entity_id`). */
  state?: (entityId: string) => { state: string, attributes: Record<string, unknown> } | undefined
  /** Which entity domains a service acts on: a list, 'any', 'none' (not an entity service), or undefined when unknown. */
  serviceDomains?: (domain: string, service: string) => Promise<string[] | 'any' | 'none' | undefined>
  /** The stored config of a script or automation entity, undefined when Home Assistant gives none. */
  runConfig?: (entityId: string) => Promise<Record<string, unknown> | undefined>
  /** What a UI-made switch_as_x or template entity acts on (src/policy/wrappers.ts), undefined for any other entity. */
  wrapper?: WrapperOf
}

export type ServiceDescriptions = Record<string, Record<string, { target?: { entity?: unknown } } | undefined> | undefined>

/**
 * The entity domains a service acts on, from its get_services description: the domains its target's
 * entity filters name, 'any' for a target without a domain filter, 'none' for a service without a
 * target (not an entity service), undefined for a service the descriptions do not know.
 */
export function serviceDomainsOf (all: ServiceDescriptions, domain: string, service: string): string[] | 'any' | 'none' | undefined {
  const description = all[domain]?.[service]
  if (description === undefined) return undefined
  if (description.target === undefined || description.target === null) return 'none'
  const filters = description.target.entity
  const entries = Array.isArray(filters) ? filters : filters === undefined || filters === null ? [] : [filters]
  const domains = new Set<string>()
  for (const entry of entries) {
    const named = (entry as { domain?: unknown } | null)?.domain
    if (named === undefined || named === null) return 'any'
    for (const d of Array.isArray(named) ? named : [named]) if (typeof d === 'string') domains.add(d)
  }
  return domains.size === 0 ? 'any' : [...domains]
}

const list = (value: string | string[] | undefined): string[] => value === undefined || value === 'none' ? [] : Array.isArray(value) ? value : [value]

/** Names compared the way people type them: case, accents, spaces and punctuation ignored. */
export function nameKey (name: string): string {
  return name.normalize('NFKD').replace(/[\u0300-\u036f]/g, '').toLowerCase().replace(/[^a-z0-9]+/g, '')
}

type IndirectField = typeof INDIRECT_TARGET_FIELDS[number]
const FIELD_WHAT: Record<IndirectField, string> = { device_id: 'device', area_id: 'area', floor_id: 'floor', label_id: 'label' }

/** Registry items of one field with their names, for ids and for the suggestion when a name was passed. */
function namedItems (registry: MembershipRegistry, field: IndirectField): Array<{ id: string, names: string[] }> {
  switch (field) {
    case 'area_id': return [...registry.areas.values()].map(a => ({ id: a.area_id, names: [a.name, ...(a.aliases ?? [])] }))
    case 'floor_id': return [...registry.floors.values()].map(f => ({ id: f.floor_id, names: [f.name, ...(f.aliases ?? [])] }))
    case 'label_id': return [...registry.labels.values()].map(l => ({ id: l.label_id, names: [l.name] }))
    case 'device_id': return [...registry.devices.values()].map(d => ({ id: d.id, names: [d.name_by_user ?? '', d.name ?? ''].filter(n => n !== '') }))
  }
}

export interface TargetProblem {
  code: 'HAMCP_ENTITY_NOT_FOUND' | 'HAMCP_NOT_FOUND' | 'HAMCP_WRONG_DOMAIN'
  message: string
  hint: string
}

export interface Resolution {
  /** Every entity the call acts on: named ones (groups expanded) and those indirect targets reach, in the service's domains. */
  reached: string[]
  /** False when the registries could not be read: indirect targets were not resolved. */
  complete: boolean
  problem?: TargetProblem
}

/**
 * Resolves a call's target before it is sent, so that nothing "succeeds" on a target that does not exist:
 * every named entity must have a state, every device, area, floor and label id must be in its registry
 * (a name where an id belongs is answered with the id), and an entity service must reach at least one
 * entity of the domains it acts on (from its get_services description).
 */
export async function resolveTarget (house: HouseIndex, aim: ServiceTarget, domain: string, service: string): Promise<Resolution> {
  const known = new Set(house.entityIds())
  const domains = (await house.serviceDomains?.(domain, service).catch(() => undefined)) ?? (domain === 'homeassistant' ? 'any' : [domain])
  const inDomain = (id: string): boolean => domains === 'any' || domains === 'none' || domains.includes(domainOf(id))
  const reached = new Set<string>()
  const named = Array.isArray(aim.entity_id) ? aim.entity_id : []
  for (const id of named) {
    if (!known.has(id)) return { reached: [], complete: true, problem: { code: 'HAMCP_ENTITY_NOT_FOUND', message: `No entity ${id} in this home.`, hint: entityHint(id, known) } }
    // An old-style group stands for its members (group.expand_entity_ids), unless the service acts on groups.
    const members = domainOf(id) === 'group' && !inDomain(id) ? house.state?.(id)?.attributes.entity_id : undefined
    if (!Array.isArray(members)) reached.add(id)
    else for (const member of members) if (typeof member === 'string') reached.add(member)
  }
  if (aim.entity_id === 'all') for (const id of known) reached.add(id)
  const selection: Selection = { device_id: list(aim.device_id), area_id: list(aim.area_id), floor_id: list(aim.floor_id), label_id: list(aim.label_id) }
  const indirect = INDIRECT_TARGET_FIELDS.some(field => (selection[field]?.length ?? 0) > 0)
  let complete = true
  if (indirect) {
    const registry = await house.registry()
    if (!registry) complete = false
    else {
      for (const field of INDIRECT_TARGET_FIELDS) {
        const items = namedItems(registry, field)
        const ids = new Set(items.map(item => item.id))
        for (const id of selection[field] ?? []) {
          if (ids.has(id)) continue
          const key = nameKey(id)
          const match = items.find(item => item.names.some(name => nameKey(name) === key)) ?? items.find(item => nameKey(item.id) === key)
          const what = FIELD_WHAT[field]
          return {
            reached: [],
            complete: true,
            problem: {
              code: 'HAMCP_NOT_FOUND',
              message: `No ${what} with ${field} "${id}".`,
              hint: match ? `Did you mean ${field} "${match.id}"${match.names[0] ? ` (named "${match.names[0]}")` : ''}? Targets take ids, not names.` : what === 'device' ? UNKNOWN_DEVICE_HINT : `List them with ha_list_${what}s; targets take ids, not names.`
            }
          }
        }
      }
      for (const id of effectiveMembers(registry, selection, { primaryOnly: true })) if (known.has(id)) reached.add(id)
    }
  }
  const out = [...reached].filter(inDomain).sort()
  if (domains !== 'none' && complete && out.length === 0 && (named.length > 0 || indirect || aim.entity_id === 'all')) {
    const what = domains === 'any' ? 'entity' : `${domains.join(' or ')} entity`
    const hadOthers = reached.size > 0
    return {
      reached: [],
      complete,
      problem: {
        code: named.length > 0 && !indirect ? 'HAMCP_WRONG_DOMAIN' : 'HAMCP_ENTITY_NOT_FOUND',
        message: `${domain}.${service} acts on ${what === 'entity' ? 'entities' : `${domains === 'any' ? '' : domains.join(' and ')} entities`}, and the target reaches no ${what}${hadOthers ? ` (it reaches ${[...reached].sort().slice(0, 5).join(', ')}${reached.size > 5 ? ', ...' : ''})` : ''}.`,
        hint: hadOthers ? `Use a service of the entities' own domain (e.g. ${domainOf([...reached][0] as string)}.${service}), or target ${domains === 'any' ? 'entities' : `${domains.join(' or ')} entities`}.` : `Nothing there for ${domain}.${service}; ha_search_entities finds ${domains === 'any' ? 'entities' : `${domains.join(' or ')} entities`}.`
      }
    }
  }
  return { reached: out, complete }
}

function entityHint (id: string, known: Set<string>): string {
  const object = id.slice(id.indexOf('.') + 1)
  const domain = domainOf(id)
  const close = [...known].filter(other => domainOf(other) === domain && (other.includes(object) || object.includes(other.slice(other.indexOf('.') + 1)))).slice(0, 3)
  return close.length > 0 ? `Did you mean ${close.join(', ')}?` : 'ha_search_entities finds entity ids by name, area or domain.'
}

/** What a wrapper does, as Home Assistant gives it; undefined fields could not be read. */
export type Wrapper =
  | { kind: 'switch_as_x', wraps: string | undefined }
  | { kind: 'template', options: Record<string, unknown> | undefined }

/** The wrapper an entity is, undefined when it is none (not a config-entry switch_as_x or template entity). */
export type WrapperOf = (entityId: string) => Promise<Wrapper | undefined>

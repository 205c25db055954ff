import { isEntityId } from '../home/entities.ts'
import type { ServiceTarget, WriteRequest } from './types.ts'

/** Keys under which Home Assistant services take entity ids besides `entity_id` itself. */
const ENTITY_KEYS = new Set(['entities', 'snapshot_entities'])
const INDIRECT_KEYS = ['area_id', 'device_id', 'floor_id', 'label_id'] as const

function asList (value: unknown): unknown[] {
  return Array.isArray(value) ? value : value === undefined || value === null ? [] : [value]
}

function addIds (into: Set<string>, value: unknown): void {
  for (const item of asList(value)) {
    if (typeof item === 'string' && item.trim() !== '') into.add(item.trim().toLowerCase())
  }
}

/** Every entity id a value names: `*entity_id` keys at any depth, and scene-style `entities`/`snapshot_entities`. */
function scan (value: unknown, into: Set<string>, indirect: Set<string>, depth: number): void {
  if (depth > 12 || value === null || typeof value !== 'object') return
  if (Array.isArray(value)) {
    for (const item of value) scan(item, into, indirect, depth + 1)
    return
  }
  for (const [key, inner] of Object.entries(value as Record<string, unknown>)) {
    if (key === 'entity_id' || key.endsWith('_entity_id')) {
      addIds(into, inner)
    } else if (ENTITY_KEYS.has(key)) {
      if (inner !== null && typeof inner === 'object' && !Array.isArray(inner)) {
        for (const id of Object.keys(inner)) if (isEntityId(id.toLowerCase())) into.add(id.toLowerCase())
      } else {
        addIds(into, inner)
      }
    } else if ((INDIRECT_KEYS as readonly string[]).includes(key)) {
      if (asList(inner).length > 0) indirect.add(key)
    }
    scan(inner, into, indirect, depth + 1)
  }
}

export interface RequestTargets {
  /** Every entity the write names, in target, data and config. */
  entities: string[]
  /** Which indirect targeting keys (area_id, device_id...) the write uses. */
  indirect: string[]
}

export function requestTargets (request: Pick<WriteRequest, 'target' | 'data' | 'config'>): RequestTargets {
  const entities = new Set<string>()
  const indirect = new Set<string>()
  scan(request.target ?? {}, entities, indirect, 0)
  scan(request.data ?? {}, entities, indirect, 0)
  addIds(entities, request.config?.entities)
  return { entities: [...entities].sort(), indirect: [...indirect].sort() }
}

/** A target with every field trimmed to a list, empty fields dropped: what goes on the wire. */
export function normaliseTarget (target: ServiceTarget | undefined): ServiceTarget | undefined {
  if (!target) return undefined
  const out: ServiceTarget = {}
  for (const [key, value] of Object.entries(target) as Array<[keyof ServiceTarget, unknown]>) {
    const list = asList(value).filter((v): v is string => typeof v === 'string' && v.trim() !== '').map(v => v.trim())
    if (list.length > 0) out[key] = list
  }
  return Object.keys(out).length > 0 ? out : undefined
}

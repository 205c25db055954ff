import { UserError } from '../../src/errors.ts'
import type { HomeAssistant } from '../../src/ha/index.ts'
import type { EntityRow } from '../../src/home/catalog.ts'
import type { HomeView } from '../../src/home/view.ts'
import { requireEntity } from '../_shared/entities.ts'

export type ConfigDomain = 'automation' | 'script'

export interface StoredConfig {
  source: 'ui' | 'yaml'
  config: Record<string, unknown> | null
}

const CONCURRENCY = 8

/** The key HA stores a UI config under: the automation's `id` attribute, or the script's object id. */
export function configKey (home: HomeView, domain: ConfigDomain, entityId: string): string | undefined {
  if (domain === 'script') return entityId.slice('script.'.length)
  const id = home.state(entityId)?.attributes.id
  return typeof id === 'string' || typeof id === 'number' ? String(id) : undefined
}

/**
 * Reads a UI-managed config through REST. A 404 means the item exists only in YAML (packages,
 * automations without an id, scripts.yaml entries written by hand).
 */
export async function storedConfig (ha: HomeAssistant, domain: ConfigDomain, key: string | undefined): Promise<StoredConfig> {
  if (key === undefined) return { source: 'yaml', config: null }
  const result = await ha.rest.request('GET', `/api/config/${domain}/config/${encodeURIComponent(key)}`)
  if (result.status === 404 || result.status === 400) return { source: 'yaml', config: null }
  if (result.status < 200 || result.status >= 300) return { source: 'yaml', config: null }
  try {
    const parsed = JSON.parse(result.body.toString('utf8')) as unknown
    return parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed)
      ? { source: 'ui', config: parsed as Record<string, unknown> }
      : { source: 'yaml', config: null }
  } catch {
    return { source: 'yaml', config: null }
  }
}

/** Runs `fn` over `items` with a small concurrency bound, keeping the order. */
export async function mapBounded<T, U> (items: readonly T[], fn: (item: T) => Promise<U>): Promise<U[]> {
  const out = new Array<U>(items.length)
  let next = 0
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const index = next++
      out[index] = await fn(items[index] as T)
    }
  }
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, items.length) }, worker))
  return out
}

const ENTITY_ID_IN_TEXT = /\b[a-z0-9_]+\.[a-z0-9_]+\b/g

/**
 * filter_reads for configs: hidden entity ids are dropped from lists and masked in values and
 * templates, so an automation that touches a hidden entity is shown without naming it.
 */
export function hideEntities (home: HomeView, value: unknown): unknown {
  if (!home.visibility.active) return value
  const walk = (node: unknown): unknown => {
    if (typeof node === 'string') {
      if (!home.visible(node)) return '[hidden]'
      return node.replace(ENTITY_ID_IN_TEXT, match => home.visible(match) ? match : '[hidden]')
    }
    if (Array.isArray(node)) return node.filter(item => typeof item !== 'string' || home.visible(item)).map(walk)
    if (node !== null && typeof node === 'object') {
      return Object.fromEntries(Object.entries(node).map(([key, item]) => [key, walk(item)]))
    }
    return node
  }
  return walk(value)
}

/** The visible row of an automation or script, refusing ids of the other domain. */
export function requireItem (home: HomeView, domain: ConfigDomain | ConfigDomain[], entityId: string): EntityRow {
  const domains = Array.isArray(domain) ? domain : [domain]
  if (!domains.some(d => entityId.startsWith(`${d}.`))) {
    throw new UserError(`${entityId} is not ${domains.map(d => `a ${d}`).join(' or ')}.`, `Pass an id like ${domains[0]}.my_${domains[0]}; list them with ha_list_${domains[0]}s.`)
  }
  return requireEntity(home, entityId)
}

/** ISO time or null, as automations and scripts expose last_triggered. */
export function lastTriggered (home: HomeView, entityId: string): string | null {
  const value = home.state(entityId)?.attributes.last_triggered
  return typeof value === 'string' ? value : null
}

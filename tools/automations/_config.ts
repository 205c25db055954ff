import { UserError } from '../../src/errors.ts'
import type { HomeAssistant } from '../../src/ha/index.ts'
import type { EntityRow } from '../../src/home/catalog.ts'
import type { HomeView } from '../../src/home/view.ts'
import { requireEntity } from '../_shared/entities.ts'

export { hideEntities } from '../_shared/hide.ts'

export type ConfigDomain = 'automation' | 'script'

export interface StoredConfig {
  source: 'ui' | 'yaml'
  config: Record<string, unknown> | null
}

const CONCURRENCY = 8
/** ui vs yaml rarely changes; remembering it keeps list pages from costing one HTTP call per item. */
const SOURCE_TTL_MS = 60_000
const knownSources = new Map<string, { source: StoredConfig['source'], at: number }>()

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
  const { stored, definitive } = await fetchConfig(ha, domain, key)
  if (knownSources.size > 5000) knownSources.clear()
  if (definitive) knownSources.set(`${ha.rest.baseUrl}|${domain}|${key}`, { source: stored.source, at: Date.now() })
  return stored
}

/** Where an item's config lives, from a recent lookup when there is one. */
export async function configSource (ha: HomeAssistant, domain: ConfigDomain, key: string | undefined): Promise<StoredConfig['source']> {
  if (key === undefined) return 'yaml'
  const known = knownSources.get(`${ha.rest.baseUrl}|${domain}|${key}`)
  if (known && Date.now() - known.at < SOURCE_TTL_MS) return known.source
  return (await storedConfig(ha, domain, key)).source
}

/** `definitive` is false for failures (HA busy, proxy errors) that say nothing about where the config lives. */
async function fetchConfig (ha: HomeAssistant, domain: ConfigDomain, key: string): Promise<{ stored: StoredConfig, definitive: boolean }> {
  const yaml: StoredConfig = { source: 'yaml', config: null }
  const result = await ha.rest.request('GET', `/api/config/${domain}/config/${encodeURIComponent(key)}`)
  if (result.status === 404 || result.status === 400) return { stored: yaml, definitive: true }
  if (result.status < 200 || result.status >= 300) return { stored: yaml, definitive: false }
  try {
    const parsed = JSON.parse(result.body.toString('utf8')) as unknown
    const ok = parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed)
    return { stored: ok ? { source: 'ui', config: parsed as Record<string, unknown> } : yaml, definitive: ok }
  } catch {
    return { stored: yaml, definitive: false }
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

/** The visible row of an automation or script, refusing ids of the other domain. */
export function requireItem (home: HomeView, domain: ConfigDomain | ConfigDomain[], entityId: string): EntityRow {
  const domains = Array.isArray(domain) ? domain : [domain]
  if (!domains.some(d => entityId.startsWith(`${d}.`))) {
    throw new UserError('HAMCP_WRONG_DOMAIN', `${entityId} is not ${domains.map(d => `a ${d}`).join(' or ')}.`, `Pass an id like ${domains[0]}.my_${domains[0]}; list them with ha_list_${domains[0]}s.`)
  }
  return requireEntity(home, entityId)
}

/** ISO time or null, as automations and scripts expose last_triggered. */
export function lastTriggered (home: HomeView, entityId: string): string | null {
  const value = home.state(entityId)?.attributes.last_triggered
  return typeof value === 'string' ? value : null
}

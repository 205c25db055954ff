import { realClock } from '../clock.ts'
import { LRUCache } from 'lru-cache'
import { isUserError, UserError } from '../errors.ts'
import { notPermitted } from '../ha/rights.ts'
import type { HomeAssistant } from '../ha/index.ts'
import type { RegistrySnapshot } from '../ha/registries.ts'
import type { HassState } from '../ha/schemas.ts'
import { isRecord } from '../shape.ts'

/**
 * The one reader of UI-managed automation and script configs (automations.yaml, scripts.yaml) through
 * Home Assistant's config REST API, for the read tools and the config-writing tools alike.
 */
export type ConfigKind = 'automation' | 'script'
export type ConfigRecord = Record<string, unknown>

export interface StoredConfig {
  source: 'ui' | 'yaml'
  config: ConfigRecord | null
}

export interface ConfigReaderDeps {
  ha: HomeAssistant
  now?: () => number
}

/** ui vs yaml rarely changes; remembering it keeps list pages from costing one HTTP call per item. */
const SOURCE_TTL_MS = 60_000
const SOURCES_KEPT = 5000

export const configPath = (kind: ConfigKind | 'scene', key: string): string => `/api/config/${kind}/config/${encodeURIComponent(key)}`

/** Home Assistant's own message in a REST error body, or the start of the body. */
export function restMessage (body: Buffer): string {
  const text = body.toString('utf8')
  try {
    const parsed = JSON.parse(text) as { message?: unknown }
    if (typeof parsed.message === 'string') return parsed.message
  } catch {}
  return text.slice(0, 300) || 'no message'
}

/**
 * The key Home Assistant stores a UI config under: an automation's `id` attribute; a script's key,
 * which is its registry unique_id (the object id when the registry has no entry). Undefined when the
 * item has none (a YAML automation without an id).
 */
export function configKey (kind: ConfigKind, entityId: string, state: HassState | undefined, registries: RegistrySnapshot | undefined): string | undefined {
  if (kind === 'script') {
    const uniqueId = (registries?.entities.get(entityId) as { unique_id?: unknown } | undefined)?.unique_id
    return typeof uniqueId === 'string' && uniqueId !== '' ? uniqueId : entityId.slice('script.'.length)
  }
  const id = state?.attributes.id
  return (typeof id === 'string' && id !== '') || typeof id === 'number' ? String(id) : undefined
}

export class ConfigReader {
  readonly #ha: HomeAssistant
  readonly #sources: LRUCache<string, StoredConfig['source']>

  constructor (deps: ConfigReaderDeps) {
    this.#ha = deps.ha
    const now = deps.now ?? realClock.now
    // ttlResolution 0: every lookup asks the (possibly injected) clock, no timer caches it.
    this.#sources = new LRUCache({ max: SOURCES_KEPT, ttl: SOURCE_TTL_MS, ttlResolution: 0, perf: { now } })
  }

  /** The stored config, or undefined when Home Assistant has none under that key (YAML-only or new). */
  async read (kind: ConfigKind, key: string): Promise<ConfigRecord | undefined> {
    const answer = await this.#ha.rest.request('GET', configPath(kind, key))
    if (answer.status === 404 || answer.status === 400) return this.#remember(kind, key, undefined)
    // config/view.py is `@require_admin` for every method: a non-admin token is refused, not told "no config".
    if (answer.status === 401 || answer.status === 403) throw notPermitted(`the ${kind} config view`, this.#ha.mode, this.#ha.status().admin)
    if (answer.status !== 200) throw new UserError('HAMCP_UNAVAILABLE', `Home Assistant could not read ${kind} ${key}: ${restMessage(answer.body)}`)
    let parsed: unknown
    try {
      parsed = JSON.parse(answer.body.toString('utf8'))
    } catch {
      throw new UserError('HAMCP_UNAVAILABLE', `Home Assistant answered the ${kind} ${key} with something that is not JSON.`)
    }
    return this.#remember(kind, key, isRecord(parsed) ? parsed as ConfigRecord : undefined)
  }

  /** For reads: where the config lives and what it is; a failure to answer reads as "yaml", never throws. */
  async stored (kind: ConfigKind, key: string | undefined): Promise<StoredConfig> {
    if (key === undefined) return { source: 'yaml', config: null }
    const config = await this.read(kind, key).catch((err: unknown) => {
      if (isUserError(err) && err.code === 'HAMCP_NOT_PERMITTED') throw err
      return undefined
    })
    return config === undefined ? { source: 'yaml', config: null } : { source: 'ui', config }
  }

  /** Where an item's config lives, from a lookup of the last minute when there is one. */
  async source (kind: ConfigKind, key: string | undefined): Promise<StoredConfig['source']> {
    if (key === undefined) return 'yaml'
    return this.#sources.get(`${kind}|${key}`) ?? (await this.stored(kind, key)).source
  }

  /** Only definitive answers are remembered: a busy Home Assistant says nothing about where a config lives. */
  #remember (kind: ConfigKind, key: string, config: ConfigRecord | undefined): ConfigRecord | undefined {
    this.#sources.set(`${kind}|${key}`, config === undefined ? 'yaml' : 'ui')
    return config
  }
}

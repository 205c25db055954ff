import type { Options } from '../options.ts'
import { matchesAny } from '../policy/globs.ts'
import type { EntityCatalog } from './catalog.ts'

/**
 * filter_reads as one rule: with it on, an entity matching entity_denylist does not exist for any
 * read. Everything that reads goes through `visible()`, and every answer passes `scrub()` as a last
 * net for ids and names that reached it inside free text from Home Assistant.
 */
export class Visibility {
  readonly active: boolean
  #denylist: string[]
  #cache = new Map<string, boolean>()
  #scrubVersion = -1
  #terms: string[] = []

  constructor (options: Pick<Options, 'filter_reads' | 'entity_denylist'>) {
    this.#denylist = options.entity_denylist
    this.active = options.filter_reads && options.entity_denylist.length > 0
  }

  visible (entityId: string): boolean {
    if (!this.active) return true
    let result = this.#cache.get(entityId)
    if (result === undefined) {
      result = !matchesAny(this.#denylist, entityId)
      if (this.#cache.size > 50_000) this.#cache.clear()
      this.#cache.set(entityId, result)
    }
    return result
  }

  /** Replaces the ids and names of hidden entities in a serialized answer. */
  scrub (text: string, catalog: EntityCatalog): string {
    if (!this.active) return text
    if (this.#scrubVersion !== catalog.version) {
      const terms = new Set<string>()
      for (const row of catalog.all()) {
        if (this.visible(row.entity_id)) continue
        terms.add(row.entity_id)
        if (row.name.length >= 4 && row.name !== row.entity_id) terms.add(row.name)
        for (const alias of row.aliases) if (alias.length >= 4) terms.add(alias)
      }
      // Longest first so "Front Door Lock" is replaced before "Front Door".
      this.#terms = [...terms].sort((a, b) => b.length - a.length)
      this.#scrubVersion = catalog.version
    }
    let out = text
    for (const term of this.#terms) {
      if (out.includes(term)) out = out.split(term).join('[hidden]')
      const escaped = JSON.stringify(term).slice(1, -1)
      if (escaped !== term && out.includes(escaped)) out = out.split(escaped).join('[hidden]')
    }
    return out
  }
}

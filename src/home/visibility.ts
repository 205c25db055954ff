import { LRUCache } from 'lru-cache'
import type { Options } from '../options.ts'
import { matchesAny } from '../globs.ts'
import type { EntityCatalog } from './catalog.ts'
import { ENTITY_ID_IN_TEXT } from './entities.ts'

/** What stands where a hidden entity's id or name was. */
export const HIDDEN = '[hidden]'

/**
 * filter_reads as one rule: with it on, an entity matching entity_denylist does not exist for any
 * read. Everything that reads goes through `visible()`, and every answer passes `scrub()` as a last
 * net for ids and names that reached it inside free text from Home Assistant.
 */
export class Visibility {
  readonly active: boolean
  #denylist: string[]
  /**
   * Each id's answer, only with filter_reads on (a 50,000-entry LRU preallocates its slots: 1.4 MB
   * of heap held for nothing on the common setup).
   */
  #cache: LRUCache<string, boolean> | undefined
  #scrubVersion = -1
  #terms: string[] = []

  constructor (options: Pick<Options, 'filter_reads' | 'entity_denylist'>) {
    this.#denylist = options.entity_denylist
    this.active = options.filter_reads && options.entity_denylist.length > 0
    if (this.active) this.#cache = new LRUCache<string, boolean>({ max: 50_000 })
  }

  visible (entityId: string): boolean {
    const cache = this.#cache
    if (cache === undefined) return true
    let result = cache.get(entityId)
    if (result === undefined) {
      result = !matchesAny(this.#denylist, entityId)
      cache.set(entityId, result)
    }
    return result
  }

  /**
   * The one text scrubber: replaces the ids, names and aliases of hidden entities the catalogue knows,
   * and any other id-shaped word the denylist hides (an entity Home Assistant mentions but no longer
   * lists). `keep` are texts left as they are: the ids a caller sent, so "Entity light.x not found"
   * reads the same whether light.x is hidden or missing, or the scrub itself would reveal what exists.
   */
  scrub (text: string, catalog: EntityCatalog, keep: Iterable<string> = []): string {
    if (!this.active) return text
    const marks = [...new Set(keep)].filter(kept => kept !== '' && text.includes(kept))
      .sort((a, b) => b.length - a.length).map((kept, i) => [kept, `\u0000${i}\u0000`] as const)
    let out = text
    for (const [kept, mark] of marks) out = out.split(kept).join(mark)
    out = this.#scrubTerms(out, catalog).replace(ENTITY_ID_IN_TEXT, id => this.visible(id) ? id : HIDDEN)
    for (const [kept, mark] of marks) out = out.split(mark).join(kept)
    return out
  }

  #scrubTerms (text: string, catalog: EntityCatalog): string {
    // Keyed on the searchable text: names and aliases do not change with states.
    if (this.#scrubVersion !== catalog.textVersion) {
      const terms = new Set<string>()
      for (const row of catalog.all()) {
        if (this.visible(row.entity_id)) continue
        terms.add(row.entity_id)
        if (row.name.length >= 4 && row.name !== row.entity_id) terms.add(row.name)
        for (const alias of row.aliases) if (alias.length >= 4) terms.add(alias)
      }
      // Longest first so "Front Door Lock" is replaced before "Front Door".
      this.#terms = [...terms].sort((a, b) => b.length - a.length)
      this.#scrubVersion = catalog.textVersion
    }
    let out = text
    for (const term of this.#terms) {
      if (out.includes(term)) out = out.split(term).join(HIDDEN)
      const escaped = JSON.stringify(term).slice(1, -1)
      if (escaped !== term && out.includes(escaped)) out = out.split(escaped).join(HIDDEN)
    }
    return out
  }
}

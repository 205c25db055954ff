import type { HomeAssistant } from '../ha/index.ts'
import type { RegistrySnapshot } from '../ha/registries.ts'
import type { HassState } from '../ha/schemas.ts'
import { SearchIndex } from './search.ts'
import { domainOf, type EntityRow } from './entities.ts'
import { fold } from './text.ts'

const MAX_CACHED_DOMAINS = 64

/**
 * The entity catalogue: one row per entity, rebuilt when the registries change and patched entity by
 * entity from the live state feed, so a lookup or search never joins anything per call.
 */
export class EntityCatalog {
  #ha: HomeAssistant
  #rows = new Map<string, EntityRow>()
  #snapshot: RegistrySnapshot | undefined
  #list: EntityRow[] | undefined
  /** Each asked-for domain's run of #list, cut once per list rather than once per call. */
  #domains = new Map<string, EntityRow[]>()
  #index: SearchIndex | undefined
  /** Bumped on any change; `textVersion` only when some entity's searchable text changed. */
  version = 0
  textVersion = 0

  constructor (ha: HomeAssistant) {
    this.#ha = ha
    ha.states.onChange(({ entityId, newState }) => {
      if (!this.#snapshot) return
      const previous = this.#rows.get(entityId)
      if (newState) {
        const row = this.#row(newState, this.#snapshot)
        this.#rows.set(entityId, row)
        if (previous?.haystack !== row.haystack) this.#textChanged()
        // A state change keeps the order: patch the sorted list in place instead of re-sorting it.
        if (previous && this.#list) this.#patchList(row)
        else this.#list = undefined
      } else {
        this.#rows.delete(entityId)
        this.#textChanged()
        this.#list = undefined
      }
      this.version++
    })
  }

  /** Brings the rows up to date with the current registry snapshot (fetched or refreshed if needed). */
  async sync (): Promise<void> {
    if (!this.syncNow()) this.#apply(await this.#ha.registries.snapshot())
  }

  /**
   * `sync()` without waiting, when the registry snapshot is at hand (the common case: a read then
   * costs no promise); false when it must be fetched, and only `sync()` can do that.
   */
  syncNow (): boolean {
    const snapshot = this.#ha.registries.current()
    if (snapshot === undefined) return false
    this.#apply(snapshot)
    return true
  }

  #apply (snapshot: RegistrySnapshot): void {
    if (snapshot === this.#snapshot && this.#rows.size === this.#ha.states.size) return
    this.#snapshot = snapshot
    this.#rows.clear()
    for (const state of this.#ha.states.values()) this.#rows.set(state.entity_id, this.#row(state, snapshot))
    this.#list = undefined
    this.#textChanged()
    this.version++
  }

  #textChanged (): void {
    this.#index = undefined
    this.textVersion++
  }

  /** The search index, rebuilt only after searchable text changed (not on every state change). */
  searchIndex (): SearchIndex {
    this.#index ??= new SearchIndex(this.all())
    return this.#index
  }

  get registries (): RegistrySnapshot | undefined {
    return this.#snapshot
  }

  get (entityId: string): EntityRow | undefined {
    return this.#rows.get(entityId)
  }

  #patchList (row: EntityRow): void {
    const list = this.#list as EntityRow[]
    const at = lowerBound(list, row.entity_id)
    if (list[at]?.entity_id === row.entity_id) list[at] = row
    else this.#list = undefined
    this.#domains.delete(row.domain)
  }

  /**
   * The rows of one domain: a contiguous run of the id-sorted list, found by binary search and kept
   * until the list or one of the domain's rows changes. Shared: callers must not modify it.
   */
  domain (domain: string): EntityRow[] {
    const list = this.all()
    let rows = this.#domains.get(domain)
    if (rows === undefined) {
      rows = list.slice(lowerBound(list, `${domain}.`), lowerBound(list, `${domain}/`))
      // Domains come from callers' arguments: a bounded cache, whatever they ask for.
      if (this.#domains.size >= MAX_CACHED_DOMAINS) this.#domains.clear()
      this.#domains.set(domain, rows)
    }
    return rows
  }

  /** All rows, sorted by entity_id; re-sorted only when entities come or go. */
  all (): EntityRow[] {
    if (!this.#list) {
      this.#list = [...this.#rows.values()].sort((a, b) => (a.entity_id < b.entity_id ? -1 : 1))
      this.#domains.clear()
    }
    return this.#list
  }

  #row (state: HassState, snapshot: RegistrySnapshot): EntityRow {
    const entityId = state.entity_id
    const entry = snapshot.entities.get(entityId)
    const areaId = snapshot.entityArea(entityId)
    const area = areaId ? snapshot.areas.get(areaId) : undefined
    const floorId = area?.floor_id ?? null
    const floor = floorId ? snapshot.floors.get(floorId) : undefined
    const friendly = state.attributes.friendly_name
    const name = typeof friendly === 'string' && friendly ? friendly : entry?.name ?? entry?.original_name ?? entityId
    const labels = entry?.labels ?? []
    const aliases = (entry?.aliases ?? []).filter((a): a is string => a !== null)
    const labelNames = labels.map(id => snapshot.labels.get(id)?.name ?? id)
    const parts = [
      entityId, entityId.replace(/[._]/g, ' '), name, ...aliases,
      area?.name ?? '', ...(area?.aliases ?? []), floor?.name ?? '', ...labelNames
    ]
    return {
      entity_id: entityId,
      domain: this.#ha.texts.intern(domainOf(entityId)),
      name,
      state: state.state,
      area_id: areaId,
      area: area?.name ?? null,
      floor_id: floorId,
      floor: floor?.name ?? null,
      labels,
      aliases,
      name_is_alias: entry?.aliases.includes(null) ?? false,
      device_id: entry?.device_id ?? null,
      hidden: Boolean(entry?.hidden_by),
      entity_category: entry?.entity_category ?? null,
      haystack: fold(parts.filter(Boolean).join('\n')),
      foldedName: fold(name)
    }
  }
}

/** First index whose entity_id is >= key, in a list sorted by entity_id. */
function lowerBound (list: readonly EntityRow[], key: string): number {
  let low = 0
  let high = list.length
  while (low < high) {
    const mid = (low + high) >> 1
    if ((list[mid] as EntityRow).entity_id < key) low = mid + 1
    else high = mid
  }
  return low
}

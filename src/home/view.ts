import type { HomeAssistant } from '../ha/index.ts'
import type { RegistrySnapshot } from '../ha/registries.ts'
import type { HassState } from '../ha/schemas.ts'
import { HA_NOT_CONNECTED } from '../errors.ts'
import type { EntityCatalog, EntityRow } from './catalog.ts'
import { leadingToken, rankMatches } from './search.ts'
import type { Visibility } from './visibility.ts'

/**
 * The read side of the home as tools see it: served from memory and already filtered by
 * filter_reads. Tools read through this, never through the raw state map.
 */
export class HomeView {
  readonly ha: HomeAssistant
  readonly catalog: EntityCatalog
  readonly visibility: Visibility
  #visibleVersion = -1
  #visible: EntityRow[] = []

  constructor (ha: HomeAssistant, catalog: EntityCatalog, visibility: Visibility) {
    this.ha = ha
    this.catalog = catalog
    this.visibility = visibility
  }

  /** Fails with "not connected" while Home Assistant is away; brings the catalogue up to date. */
  async ready (): Promise<void> {
    if (!this.ha.ready) {
      const reason = this.ha.connection.lastError
      throw new HA_NOT_CONNECTED(reason ? ` (${reason}); it reconnects by itself, try again shortly` : '; it reconnects by itself, try again shortly')
    }
    await this.catalog.sync()
  }

  get registries (): RegistrySnapshot {
    const snapshot = this.catalog.registries
    if (!snapshot) throw new HA_NOT_CONNECTED(': registries not loaded yet')
    return snapshot
  }

  visible (entityId: string): boolean {
    return this.visibility.visible(entityId)
  }

  /** Every visible entity, sorted by id. */
  entities (): EntityRow[] {
    if (!this.visibility.active) return this.catalog.all()
    if (this.#visibleVersion !== this.catalog.version) {
      this.#visible = this.catalog.all().filter(row => this.visibility.visible(row.entity_id))
      this.#visibleVersion = this.catalog.version
    }
    return this.#visible
  }

  /** Visible entities matching every word of `query`, best first (exact id, then name matches). */
  search (query: string): EntityRow[] {
    const lead = leadingToken(query)
    if (!lead) return []
    const rows: EntityRow[] = []
    for (const id of this.catalog.searchIndex().candidates(lead)) {
      const row = this.entity(id)
      if (row) rows.push(row)
    }
    return rankMatches(query, rows)
  }

  entity (entityId: string): EntityRow | undefined {
    return this.visible(entityId) ? this.catalog.get(entityId) : undefined
  }

  state (entityId: string): HassState | undefined {
    return this.visible(entityId) ? this.ha.states.get(entityId) : undefined
  }

  /** Visible entity counts per area, per device, per floor and per label. */
  counts (): { area: Map<string, number>, device: Map<string, number>, floor: Map<string, number>, label: Map<string, number> } {
    const area = new Map<string, number>()
    const device = new Map<string, number>()
    const floor = new Map<string, number>()
    const label = new Map<string, number>()
    const bump = (map: Map<string, number>, key: string | null): void => { if (key) map.set(key, (map.get(key) ?? 0) + 1) }
    for (const row of this.entities()) {
      bump(area, row.area_id)
      bump(device, row.device_id)
      bump(floor, row.floor_id)
      for (const l of row.labels) bump(label, l)
    }
    return { area, device, floor, label }
  }

  /** Serialized answer with hidden entities' ids and names removed (no-op unless filter_reads). */
  scrub (text: string): string {
    return this.visibility.scrub(text, this.catalog)
  }
}

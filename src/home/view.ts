import type { HomeAssistant } from '../ha/index.ts'
import type { RegistrySnapshot } from '../ha/registries.ts'
import type { HassState } from '../ha/schemas.ts'
import { HaNotConnectedError } from '../errors.ts'
import type { EntityCatalog } from './catalog.ts'
import type { EntityRow } from './entities.ts'
import { ConfigReader, configKey, type ConfigKind } from './configs.ts'
import { rankMatches } from './search.ts'
import { tokens } from './text.ts'
import type { Visibility } from './visibility.ts'
import { CameraTokens } from './camera-tokens.ts'

export interface EntityCounts {
  area: Map<string, number>
  device: Map<string, number>
  floor: Map<string, number>
  label: Map<string, number>
}

function * cameraStates (states: Iterable<HassState>): Iterable<HassState> {
  for (const state of states) if (state.entity_id.startsWith('camera.')) yield state
}

/** How long a call waits for the states while connected but before they are in (HA's client allows a call 10 s). */
const STATES_WAIT_MS = 5_000

/**
 * The read side of the home as tools see it: served from memory and already filtered by
 * filter_reads. Tools read through this, never through the raw state map.
 */
export class HomeView {
  readonly ha: HomeAssistant
  readonly catalog: EntityCatalog
  readonly visibility: Visibility
  /** UI-managed automation and script configs, read through Home Assistant's config API. */
  readonly configs: ConfigReader
  #visibleVersion = -1
  #visible: EntityRow[] = []
  #counts: { version: number, counts: EntityCounts } | undefined
  #cameraTokens = new CameraTokens()

  /** `now` is the app's clock (tests inject one); it ages what this view remembers. */
  constructor (ha: HomeAssistant, catalog: EntityCatalog, visibility: Visibility, options: { now?: () => number } = {}) {
    this.ha = ha
    this.catalog = catalog
    this.visibility = visibility
    this.configs = new ConfigReader({ ha, now: options.now })
    // Camera tokens are learnt from the state feed as they change, not looked up by every answer.
    this.#cameraTokens.observe(cameraStates(ha.states.values()))
    ha.states.onChange(({ newState }) => { if (newState?.entity_id.startsWith('camera.') === true) this.#cameraTokens.observe([newState]) })
    // Home Assistant's MCP client opens a new session for every call, with 10 s for all of it: the
    // registries and the catalogue of a big home are built right after (re)connecting, not by the
    // first call.
    ha.onReady(() => {
      // A failure here is not lost: the next read syncs again and reports it to its caller.
      catalog.sync().catch(() => {})
    })
  }

  /**
   * Fails with "not connected" while Home Assistant is away; brings the catalogue up to date. Right
   * after connecting, the registries are read before the states: a call then waits for them.
   */
  async ready (): Promise<void> {
    if (this.readyNow()) return
    if (!this.ha.ready && this.ha.connection.connected) await this.ha.whenReady(STATES_WAIT_MS).catch(() => {})
    if (!this.ha.ready) {
      const reason = this.ha.connection.lastError
      throw new HaNotConnectedError(reason ? ` (${reason}); it reconnects by itself, try again shortly` : '; it reconnects by itself, try again shortly')
    }
    await this.catalog.sync()
  }

  /**
   * Whether `ready()` would succeed at once: connected, with the catalogue brought up to date
   * without waiting. A read from memory then runs without a promise or a timer (src/mcp/runtime/invoke.ts).
   */
  readyNow (): boolean {
    return this.ha.ready && this.catalog.syncNow()
  }

  get registries (): RegistrySnapshot {
    const snapshot = this.catalog.registries
    if (!snapshot) throw new HaNotConnectedError(': registries not loaded yet')
    return snapshot
  }

  visible (entityId: string): boolean {
    return this.visibility.visible(entityId)
  }

  /** Visible entities of one domain, sorted by id. */
  domain (domain: string): EntityRow[] {
    const rows = this.catalog.domain(domain)
    return this.visibility.active ? rows.filter(row => this.visibility.visible(row.entity_id)) : rows
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

  /**
   * Visible entities matching every word of `query`, best first (exact id, then name matches);
   * with `top`, only the best `top` are returned, with the count of every match.
   */
  search (query: string, top = Infinity): { rows: EntityRow[], total: number } {
    const words = tokens(query)
    // The index's own rows: ranking reads only their text, which is still theirs (a change of text
    // rebuilds the index); each ranked row is looked up again for its current state. Not cached: on
    // 10,000 entities a ranking costs 6-40 us (350 us for a word a third of the home matches), and a
    // cache of mostly distinct questions only turned each ranking into old-space garbage.
    const indexed = words.length > 0 ? this.catalog.searchIndex().match(words) : { rows: [], word: undefined }
    const candidates = this.visibility.active ? indexed.rows.filter(row => this.visibility.visible(row.entity_id)) : indexed.rows
    const ranked = rankMatches(query, candidates, top, indexed.word)
    const rows: EntityRow[] = []
    for (const { entity_id: id } of ranked.rows) {
      const row = this.catalog.get(id)
      if (row) rows.push(row)
    }
    return { rows, total: ranked.total }
  }

  /** The key a visible automation's or script's UI config is stored under (src/home/configs.ts). */
  configKey (kind: ConfigKind, entityId: string): string | undefined {
    return configKey(kind, entityId, this.state(entityId), this.catalog.registries)
  }

  entity (entityId: string): EntityRow | undefined {
    return this.visible(entityId) ? this.catalog.get(entityId) : undefined
  }

  state (entityId: string): HassState | undefined {
    return this.visible(entityId) ? this.ha.states.get(entityId) : undefined
  }

  /**
   * Visible entity counts per area, per device, per floor and per label. They change only when
   * entities come or go or move (registry changes), never with states, so they are cached until then.
   */
  counts (): EntityCounts {
    if (this.#counts?.version === this.catalog.textVersion) return this.#counts.counts
    const counts: EntityCounts = { area: new Map(), device: new Map(), floor: new Map(), label: new Map() }
    const bump = (map: Map<string, number>, key: string | null): void => { if (key) map.set(key, (map.get(key) ?? 0) + 1) }
    for (const row of this.entities()) {
      bump(counts.area, row.area_id)
      bump(counts.device, row.device_id)
      bump(counts.floor, row.floor_id)
      for (const label of row.labels) bump(counts.label, label)
    }
    this.#counts = { version: this.catalog.textVersion, counts }
    return counts
  }

  /** A text with hidden entities' ids and names removed but for `keep` (filter_reads), and camera tokens redacted. */
  scrub (text: string, keep?: Iterable<string>): string {
    return this.#cameraTokens.scrub(this.visibility.scrub(text, this.catalog, keep))
  }
}

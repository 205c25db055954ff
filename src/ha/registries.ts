import { realClock } from '../clock.ts'
import { InternTable } from '../intern.ts'
import {
  areaSchema, deviceSchema, entityEntrySchema, floorSchema, labelSchema, parseList,
  type AreaEntry, type DeviceEntry, type EntityEntry, type FloorEntry, type LabelEntry
} from './schemas.ts'
import type { z } from 'zod'

export type RegistryKind = 'area' | 'floor' | 'label' | 'device' | 'entity'
export const REGISTRY_KINDS: RegistryKind[] = ['area', 'floor', 'label', 'device', 'entity']

interface DeviceLink { area_id?: string | null, parent_device_id?: string | null }

/**
 * The one rule for a device's area: its own, else, for a child device (Home Assistant 2026.9+,
 * `parent_device_id`; homeassistant/helpers/device_registry.py and helpers/target.py), its parent's.
 * Nothing is ever inherited through `via_device_id`: a Zigbee or Z-Wave device behind a hub without an
 * area of its own is in no area, and Home Assistant's area targets do not reach it.
 */
export function deviceAreaIn (devices: ReadonlyMap<string, DeviceLink>, deviceId: string | null | undefined): string | null {
  let id = deviceId
  // Bounded: a parent chain is one level deep in practice; a loop in bad data must not hang a read.
  for (let depth = 0; id && depth < 5; depth++) {
    const device = devices.get(id)
    if (!device) return null
    if (device.area_id) return device.area_id
    id = device.parent_device_id
  }
  return null
}

/**
 * What to say about a device id the registry does not hold. Home Assistant 2026.8 split every device
 * several config entries shared into one device per entry with new ids (core helpers/device_registry.py);
 * the old id is listed nowhere, so the add-on cannot check it against the entity lists and refuses it,
 * while Home Assistant would still resolve it to the new devices.
 */
export const UNKNOWN_DEVICE_HINT = 'An id from before Home Assistant 2026.8 may name a device split into one device per integration (same name, area and labels): ha_list_devices gives the ids that replaced it.'

/** Every registry at one moment, with the lookups tools need. Immutable once built. */
export class RegistrySnapshot {
  readonly areas: Map<string, AreaEntry>
  readonly floors: Map<string, FloorEntry>
  readonly labels: Map<string, LabelEntry>
  readonly devices: Map<string, DeviceEntry>
  readonly entities: Map<string, EntityEntry>
  readonly builtAt: number
  #entityArea = new Map<string, string | null>()

  constructor (lists: { area: AreaEntry[], floor: FloorEntry[], label: LabelEntry[], device: DeviceEntry[], entity: EntityEntry[] }, builtAt: number) {
    this.areas = new Map(lists.area.map(a => [a.area_id, a]))
    this.floors = new Map(lists.floor.map(f => [f.floor_id, f]))
    this.labels = new Map(lists.label.map(l => [l.label_id, l]))
    this.devices = new Map(lists.device.map(d => [d.id, d]))
    this.entities = new Map(lists.entity.map(e => [e.entity_id, e]))
    this.builtAt = builtAt
  }

  /** A device's area by effective membership (`deviceAreaIn`). */
  deviceArea (deviceId: string | null | undefined): string | null {
    return deviceAreaIn(this.devices, deviceId)
  }

  /** An entity's area is its own, else its device's (a child device's own, else its parent's). */
  entityArea (entityId: string): string | null {
    const cached = this.#entityArea.get(entityId)
    if (cached !== undefined) return cached
    const entry = this.entities.get(entityId)
    const area = entry?.area_id ?? this.deviceArea(entry?.device_id) ?? null
    this.#entityArea.set(entityId, area)
    return area
  }

  entityFloor (entityId: string): string | null {
    const area = this.entityArea(entityId)
    return area ? this.areas.get(area)?.floor_id ?? null : null
  }

  deviceName (device: DeviceEntry): string {
    return device.name_by_user ?? device.name ?? device.id
  }
}

const ALIAS_CHUNK = 500
/** Past this many entity changes before the next read, the entity registry is read whole again. */
const MAX_ENTITY_CHANGES = 200

type Command = (message: { type: string, [key: string]: unknown }) => Promise<unknown>
interface Warn { warning: (obj: object, msg: string) => void }

const SOURCES: Record<RegistryKind, { type: string, schema: z.ZodType<unknown> }> = {
  area: { type: 'config/area_registry/list', schema: areaSchema },
  floor: { type: 'config/floor_registry/list', schema: floorSchema },
  label: { type: 'config/label_registry/list', schema: labelSchema },
  device: { type: 'config/device_registry/list', schema: deviceSchema },
  entity: { type: 'config/entity_registry/list', schema: entityEntrySchema }
}

/**
 * Registry caches: fetched once, shared while in flight, refreshed when Home Assistant says a registry
 * changed, with a TTL as a safety net (a stale snapshot is served while a fresh one is fetched).
 */
export class Registries {
  #command: Command
  #log: Warn
  #ttlMs: number
  #now: () => number
  /** Where the repeated texts of registry entries are kept once (src/intern.ts). */
  #texts: InternTable
  #lists = new Map<RegistryKind, { items: unknown[], fetchedAt: number }>()
  #inflight = new Map<RegistryKind, Promise<unknown[]>>()
  #snapshot: RegistrySnapshot | undefined
  #snapshotPromise: Promise<RegistrySnapshot> | undefined
  #generation = 0
  #aliasesSupported = true
  /** Entity ids changed since the entity list was read, to read again one by one (entity_registry_updated). */
  #entityChanges = new Set<string>()

  constructor (command: Command, log: Warn, options: { ttlMs?: number, now?: () => number, texts?: InternTable } = {}) {
    this.#command = command
    this.#log = log
    // A safety net only (the `<kind>_registry_updated` events and reconnects invalidate): on a big
    // home a refresh is seconds of CPU and the add-on's memory peak (every registry read whole), so rare.
    this.#ttlMs = options.ttlMs ?? 600_000
    this.#now = options.now ?? realClock.now
    this.#texts = options.texts ?? new InternTable()
  }

  /** Called on `<kind>_registry_updated`: the next read fetches that registry again. */
  invalidate (kind?: RegistryKind): void {
    if (kind) this.#lists.delete(kind)
    else this.#lists.clear()
    if (kind === undefined || kind === 'entity') this.#entityChanges.clear()
    this.#snapshot = undefined
    this.#generation++
  }

  /**
   * Called on `entity_registry_updated` with the event's data: only the entries it names are read
   * again (`config/entity_registry/get`), not the whole registry, whose one answer is megabytes on a
   * big home and was the add-on's memory peak on every change (~+37 MB on 10,000 entities). Anything
   * unexpected, or too many changes at once, reads it whole.
   */
  entityChanged (data: unknown): void {
    const { entity_id: entityId, old_entity_id: oldId } = (data ?? {}) as { entity_id?: unknown, old_entity_id?: unknown }
    if (typeof entityId !== 'string' || !this.#lists.has('entity') || this.#entityChanges.size >= MAX_ENTITY_CHANGES) {
      this.#entityChanges.clear()
      this.invalidate('entity')
      return
    }
    this.#entityChanges.add(entityId)
    if (typeof oldId === 'string') this.#entityChanges.add(oldId)
    this.#snapshot = undefined
    this.#generation++
  }

  /** The last snapshot built, without waiting; undefined before the first fetch. */
  peek (): RegistrySnapshot | undefined {
    return this.#snapshot
  }

  /**
   * The snapshot a read is served from right now, without waiting (a stale one starts its refresh in
   * the background, as `snapshot()` does); undefined when there is none and it must be fetched.
   */
  current (): RegistrySnapshot | undefined {
    const current = this.#snapshot
    if (current && this.#now() - current.builtAt > this.#ttlMs && !this.#snapshotPromise) {
      this.invalidate()
      this.#snapshot = current
      this.#build().catch(() => { /* keep serving the stale snapshot; the next call retries */ })
    }
    return current
  }

  async snapshot (): Promise<RegistrySnapshot> {
    return this.current() ?? await this.#build()
  }

  #build (): Promise<RegistrySnapshot> {
    if (this.#snapshotPromise) return this.#snapshotPromise
    const generation = this.#generation
    const promise = (async () => {
      // One registry at a time: on a big home each answer is megabytes, parsed whole, and fetching
      // them together would hold them all at once (the add-on's memory peak, right after connecting).
      const lists: unknown[][] = []
      for (const kind of REGISTRY_KINDS) lists.push(await this.#list(kind))
      const [area, floor, label, device, entity] = lists
      const snapshot = new RegistrySnapshot({
        area: area as AreaEntry[],
        floor: floor as FloorEntry[],
        label: label as LabelEntry[],
        device: device as DeviceEntry[],
        entity: entity as EntityEntry[]
      }, this.#now())
      if (generation === this.#generation) this.#snapshot = snapshot
      return snapshot
    })()
    this.#snapshotPromise = promise
    const clear = (): void => { if (this.#snapshotPromise === promise) this.#snapshotPromise = undefined }
    promise.then(clear, clear)
    return promise
  }

  /**
   * `config/entity_registry/list` leaves out Assist aliases; they come with the extended entries of
   * `get_entries`, fetched in chunks and reduced to the aliases at once so a big home is never held
   * twice. An older Home Assistant without that command simply gives no aliases.
   */
  async #addAliases (entries: EntityEntry[]): Promise<void> {
    if (!this.#aliasesSupported) return
    for (let start = 0; start < entries.length; start += ALIAS_CHUNK) {
      const chunk = entries.slice(start, start + ALIAS_CHUNK)
      let extended: unknown
      try {
        extended = await this.#command({ type: 'config/entity_registry/get_entries', entity_ids: chunk.map(e => e.entity_id) })
      } catch (err) {
        if ((err as { haCode?: string }).haCode === 'unknown_command') {
          this.#aliasesSupported = false
          this.#log.warning({}, 'this Home Assistant has no config/entity_registry/get_entries: entity aliases are not searchable')
          return
        }
        throw err
      }
      if (extended === null || typeof extended !== 'object') continue
      for (const entry of chunk) {
        const aliases = (extended as Record<string, { aliases?: unknown } | null>)[entry.entity_id]?.aliases
        // A null stands for the entity's own name, also a voice name (core 2026.4+): kept, as HA keeps it.
        if (Array.isArray(aliases)) entry.aliases = aliases.filter((a): a is string | null => a === null || (typeof a === 'string' && a.length > 0))
      }
    }
  }

  /** One registry read whole (the caller shares it while in flight). */
  async #read (kind: RegistryKind): Promise<unknown[]> {
    const { type, schema } = SOURCES[kind]
    const raw = await this.#command({ type })
    const { items, dropped } = parseList(schema, raw, type)
    for (const item of items) this.#texts.internFields(item as object)
    if (dropped > 0) this.#log.warning({ registry: kind, dropped }, 'ignored malformed registry entries')
    if (kind === 'entity') await this.#addAliases(items as EntityEntry[])
    this.#lists.set(kind, { items, fetchedAt: this.#now() })
    return items
  }

  /** The cached entity list with the changed entries read again; undefined when it must be read whole. */
  async #patchedEntities (items: EntityEntry[]): Promise<EntityEntry[] | undefined> {
    const changed = [...this.#entityChanges]
    this.#entityChanges.clear()
    const fresh = new Map<string, EntityEntry | null>()
    for (const entityId of changed) {
      let raw: unknown
      try {
        raw = await this.#command({ type: 'config/entity_registry/get', entity_id: entityId })
      } catch (err) {
        if ((err as { haCode?: string }).haCode === 'not_found') { fresh.set(entityId, null); continue }
        return undefined
      }
      const parsed = entityEntrySchema.safeParse(raw)
      if (!parsed.success) return undefined
      fresh.set(entityId, this.#texts.internFields(parsed.data))
    }
    const patched: EntityEntry[] = []
    for (const entry of items) {
      if (!fresh.has(entry.entity_id)) { patched.push(entry); continue }
      const next = fresh.get(entry.entity_id)
      fresh.delete(entry.entity_id)
      if (next) patched.push(next)
    }
    for (const next of fresh.values()) if (next) patched.push(next)
    return patched
  }

  async #list (kind: RegistryKind): Promise<unknown[]> {
    const cached = this.#lists.get(kind)
    if (cached && kind === 'entity' && this.#entityChanges.size > 0) {
      const pending = this.#inflight.get(kind)
      if (pending) return await pending
      const promise = this.#patchedEntities(cached.items as EntityEntry[]).then(async patched => {
        if (patched === undefined) { this.#lists.delete(kind); return await this.#read(kind) }
        this.#lists.set(kind, { items: patched, fetchedAt: cached.fetchedAt })
        return patched
      })
      this.#inflight.set(kind, promise)
      try {
        return await promise
      } finally {
        this.#inflight.delete(kind)
      }
    }
    if (cached) return cached.items
    return await this.#fetchList(kind)
  }

  async #fetchList (kind: RegistryKind): Promise<unknown[]> {
    const pending = this.#inflight.get(kind)
    if (pending) return await pending
    const promise = this.#read(kind)
    this.#inflight.set(kind, promise)
    try {
      return await promise
    } finally {
      this.#inflight.delete(kind)
    }
  }
}

import { isoToSeconds, nowMs } from './clock.ts'
import type { GeneratedHome } from './generate/home-types.ts'
import type { CallOutcome, CallRequest } from './services/index.ts'
import type { Trace } from './traces.ts'
import type { AreaEntry, DeviceEntry, EntityEntry, FloorEntry, HassContext, HassEvent, HassState, LabelEntry, ServiceCallRecord } from './types.ts'
import { isoTime, ulid } from './util.ts'

export interface BusMessage {
  event: HassEvent
  /** the event serialised once, shared by every subscriber */
  json: () => string
}

type Listener = (message: BusMessage) => void

/** The running home: state machine, registries, event bus and the caches that keep big homes fast. */
export class House {
  readonly home: GeneratedHome
  readonly states = new Map<string, HassState>()
  readonly floors = new Map<string, FloorEntry>()
  readonly areas = new Map<string, AreaEntry>()
  readonly labels = new Map<string, LabelEntry>()
  readonly devices = new Map<string, DeviceEntry>()
  readonly entities = new Map<string, EntityEntry>()
  /** Ids of devices split by Home Assistant 2026.8 (demo/device-split.ts): old id -> the devices it became. */
  readonly compositeDevices = new Map<string, string[]>()
  /** state changes made since start, per entity (history beyond this is computed from the seed) */
  readonly recorded = new Map<string, HassState[]>()
  readonly serviceCalls: ServiceCallRecord[] = []
  /** config writes that reached the home outside service calls (scene configs, calendar events, dashboards, backups) */
  readonly configWrites: string[] = []
  readonly userId: string
  /** stored traces per "domain.item_id", newest last */
  readonly traces = new Map<string, Trace[]>()
  /** logbook rows produced at runtime (automation runs, script runs) */
  readonly logbook: Array<Record<string, unknown>> = []
  /** what started a context (call_service, automation_triggered): the logbook's context_* fields */
  readonly contextOrigins = new Map<string, Record<string, unknown>>()
  /** set by Services: lets automations and scripts call services through the one path */
  invoke: (req: CallRequest) => Promise<CallOutcome> = async () => { throw new Error('services not ready') }
  private readonly listeners = new Set<Listener>()
  private readonly stateJsonCache = new Map<string, string>()
  private allStatesJson: string | null = null

  constructor (home: GeneratedHome) {
    this.home = home
    this.userId = home.ownerUserId
    for (const s of home.states) this.states.set(s.entity_id, s)
    for (const f of home.floors) this.floors.set(f.floor_id, f)
    for (const a of home.areas) this.areas.set(a.area_id, a)
    for (const l of home.labels) this.labels.set(l.label_id, l)
    for (const d of home.devices) this.devices.set(d.id, d)
    for (const e of home.entities) this.entities.set(e.entity_id, e)
  }

  newContext (userId: string | null = null, parentId: string | null = null): HassContext {
    return { id: ulid(Date.now()), parent_id: parentId, user_id: userId }
  }

  subscribe (listener: Listener): () => void {
    this.listeners.add(listener)
    return () => { this.listeners.delete(listener) }
  }

  fire (eventType: string, data: Record<string, unknown>, context: HassContext = this.newContext(), timeFired = isoTime(nowMs()), origin: HassEvent['origin'] = 'LOCAL'): HassEvent {
    const event: HassEvent = { event_type: eventType, data, origin, time_fired: timeFired, context }
    let cached: string | undefined
    const message: BusMessage = { event, json: () => (cached ??= JSON.stringify(event)) }
    for (const listener of [...this.listeners]) listener(message)
    return event
  }

  /**
   * Writes a state like HA's state machine: last_changed moves only when the state string changes,
   * an identical write only bumps last_reported and fires nothing.
   */
  setState (entityId: string, state: string, attributes?: Record<string, unknown>, context?: HassContext): HassState {
    const old = this.states.get(entityId)
    const time = isoTime(nowMs())
    const attrs = attributes ?? old?.attributes ?? {}
    const sameState = old !== undefined && old.state === state
    if (old !== undefined && sameState && sameAttributes(old.attributes, attrs)) {
      const reported = { ...old, last_reported: time }
      this.states.set(entityId, reported)
      this.invalidate(entityId)
      return reported
    }
    const next: HassState = {
      entity_id: entityId,
      state,
      attributes: attrs,
      last_changed: sameState ? old.last_changed : time,
      last_reported: time,
      last_updated: time,
      context: context ?? this.newContext()
    }
    this.states.set(entityId, next)
    this.invalidate(entityId)
    let list = this.recorded.get(entityId)
    if (list === undefined) this.recorded.set(entityId, (list = []))
    list.push(next)
    this.fire('state_changed', { entity_id: entityId, old_state: old ?? null, new_state: next }, next.context, time)
    return next
  }

  /** Patch helper for service behaviours: merge attributes, keep the state unless given. */
  updateState (entityId: string, patch: { state?: string, attributes?: Record<string, unknown> }, context: HassContext): void {
    const old = this.states.get(entityId)
    if (old === undefined) return
    this.setState(entityId, patch.state ?? old.state, patch.attributes === undefined ? old.attributes : { ...old.attributes, ...patch.attributes }, context)
  }

  removeState (entityId: string, context: HassContext = this.newContext()): void {
    const old = this.states.get(entityId)
    if (old === undefined) return
    this.states.delete(entityId)
    this.invalidate(entityId)
    this.fire('state_changed', { entity_id: entityId, old_state: old, new_state: null }, context)
  }

  stateJson (entityId: string): string | undefined {
    let json = this.stateJsonCache.get(entityId)
    if (json === undefined) {
      const state = this.states.get(entityId)
      if (state === undefined) return undefined
      json = JSON.stringify(state)
      this.stateJsonCache.set(entityId, json)
    }
    return json
  }

  /** The get_states array, serialised once and reused until something changes. */
  statesArrayJson (): string {
    if (this.allStatesJson === null) {
      const parts: string[] = []
      for (const id of this.states.keys()) parts.push(this.stateJson(id) as string)
      this.allStatesJson = `[${parts.join(',')}]`
    }
    return this.allStatesJson
  }

  private readonly derived = new Map<string, Map<string, string>>()
  /** Per-entity JSON cache for other views (e.g. the compressed form), dropped when the entity changes. */
  cachedView (view: string, entityId: string, build: () => string): string {
    let cache = this.derived.get(view)
    if (cache === undefined) this.derived.set(view, (cache = new Map()))
    let json = cache.get(entityId)
    if (json === undefined) cache.set(entityId, (json = build()))
    return json
  }

  private invalidate (entityId: string): void {
    this.stateJsonCache.delete(entityId)
    for (const cache of this.derived.values()) cache.delete(entityId)
    this.allStatesJson = null
  }

  /** Area of an entity as HA resolves it: its own, else its device's, else the parent device's. */
  areaOf (entityId: string): string | null {
    const entry = this.entities.get(entityId)
    if (entry === undefined) return null
    if (entry.area_id !== null) return entry.area_id
    return entry.device_id === null ? null : this.deviceArea(entry.device_id)
  }

  /**
   * A device's own area, else a child device's parent's (core 2026.9+, helpers/target.py); never a hub's
   * through via_device_id.
   */
  deviceArea (deviceId: string): string | null {
    const device = this.devices.get(deviceId)
    if (device === undefined) return null
    if (device.area_id !== null) return device.area_id
    return device.parent_device_id === null ? null : this.deviceArea(device.parent_device_id)
  }

  stateSeconds (state: HassState, key: 'last_changed' | 'last_updated'): number {
    return isoToSeconds(state[key])
  }
}

function sameAttributes (a: Record<string, unknown>, b: Record<string, unknown>): boolean {
  if (a === b) return true
  const keys = Object.keys(a)
  if (keys.length !== Object.keys(b).length) return false
  return keys.every(key => JSON.stringify(a[key]) === JSON.stringify(b[key]))
}

import { realClock, type Clock } from '../clock.ts'
import { UserError } from '../errors.ts'
import type { StateChange, StateListener } from '../ha/state-store.ts'
import type { HomeView } from '../home/view.ts'
import { ResourceNotFound } from '../mcp/content/surface.ts'

export const MAX_SUBSCRIPTIONS = 50
export const MIN_NOTIFY_INTERVAL_MS = 1000

export interface SubscriptionDeps {
  home: Pick<HomeView, 'entity' | 'visible' | 'registries'>
  /** The live state feed (`app.ha.states.onChange`). */
  onStateChange: (listener: StateListener) => () => void
  /** Tells the client that a resource changed (`notifications/resources/updated`). */
  notify: (uri: string) => void
  max?: number
  minIntervalMs?: number
  now?: () => number
  /** Runs `fn` after `ms`, returning a cancel function; real time (src/clock.ts) unless a test brings its clock. */
  schedule?: Schedule
}

export type Schedule = Clock['schedule']

type Target = { kind: 'entity' | 'area', id: string }

function parseUri (uri: string): Target {
  const match = /^ha:\/\/(entity|area)\/([^/?#]+)$/.exec(uri)
  if (!match) {
    throw new UserError('HAMCP_NOT_SUPPORTED', `${uri} cannot be subscribed.`, 'Only ha://entity/{entity_id} and ha://area/{area_id} send updates.')
  }
  let id: string
  try {
    id = decodeURIComponent(match[2] as string)
  } catch {
    throw new ResourceNotFound(uri)
  }
  return { kind: match[1] as Target['kind'], id }
}

function sameAttributes (a: Record<string, unknown>, b: Record<string, unknown>): boolean {
  return JSON.stringify(a) === JSON.stringify(b)
}

/**
 * One session's resource subscriptions. A single state listener (attached while anything is
 * subscribed) decides whether what a subscribed resource shows has changed, and signals each URI at
 * most once per `minIntervalMs`: the first change goes out at once, later ones within the interval
 * are folded into one trailing signal. Hidden entities never signal anything.
 */
export class SessionSubscriptions {
  readonly max: number
  readonly #deps: SubscriptionDeps
  readonly #minIntervalMs: number
  readonly #now: () => number
  readonly #schedule: Schedule
  /** key (`entity:<id>` / `area:<id>`) -> the URI as the client subscribed it. */
  readonly #uris = new Map<string, string>()
  readonly #lastSent = new Map<string, number>()
  /** key -> cancels its trailing signal. */
  readonly #pending = new Map<string, () => void>()
  #areaCount = 0
  #detach: (() => void) | undefined
  #closed = false

  constructor (deps: SubscriptionDeps) {
    this.#deps = deps
    this.max = deps.max ?? MAX_SUBSCRIPTIONS
    this.#minIntervalMs = deps.minIntervalMs ?? MIN_NOTIFY_INTERVAL_MS
    this.#now = deps.now ?? realClock.now
    this.#schedule = deps.schedule ?? realClock.schedule
  }

  get size (): number { return this.#uris.size }

  /** Throws ResourceNotFound like resources/read for an unknown or hidden resource, a UserError past the cap. */
  add (uri: string): void {
    const target = parseUri(uri)
    const { home } = this.#deps
    const exists = target.kind === 'entity' ? home.entity(target.id) !== undefined : home.registries.areas.has(target.id)
    if (!exists) throw new ResourceNotFound(uri)
    const key = `${target.kind}:${target.id}`
    if (this.#uris.has(key)) return
    if (this.#uris.size >= this.max) {
      throw new UserError('HAMCP_LIMIT_REACHED', `At most ${this.max} subscriptions per session.`, 'Unsubscribe from a resource you no longer need first.')
    }
    this.#uris.set(key, uri)
    if (target.kind === 'area') this.#areaCount++
    this.#detach ??= this.#deps.onStateChange(change => { this.#onChange(change) })
  }

  remove (uri: string): void {
    const target = parseUri(uri)
    const key = `${target.kind}:${target.id}`
    if (!this.#uris.delete(key)) return
    if (target.kind === 'area') this.#areaCount--
    this.#forget(key)
    if (this.#uris.size === 0) this.#release()
  }

  close (): void {
    this.#closed = true
    for (const key of [...this.#pending.keys()]) this.#forget(key)
    this.#uris.clear()
    this.#areaCount = 0
    this.#release()
  }

  #release (): void {
    this.#detach?.()
    this.#detach = undefined
  }

  #forget (key: string): void {
    this.#pending.get(key)?.()
    this.#pending.delete(key)
    this.#lastSent.delete(key)
  }

  #onChange ({ entityId, oldState, newState }: StateChange): void {
    const entityKey = `entity:${entityId}`
    const watchedEntity = this.#uris.has(entityKey)
    if (!watchedEntity && this.#areaCount === 0) return
    if (!this.#deps.home.visible(entityId)) return
    const stateChanged = oldState?.state !== newState?.state
    if (watchedEntity && (stateChanged || !oldState || !newState || !sameAttributes(oldState.attributes, newState.attributes))) {
      this.#signal(entityKey)
    }
    // An area shows its entities' count and states, not their attributes.
    if (this.#areaCount > 0 && stateChanged) {
      const areaId = this.#deps.home.entity(entityId)?.area_id
      if (areaId && this.#uris.has(`area:${areaId}`)) this.#signal(`area:${areaId}`)
    }
  }

  #signal (key: string): void {
    if (this.#pending.has(key)) return
    const wait = (this.#lastSent.get(key) ?? -Infinity) + this.#minIntervalMs - this.#now()
    if (wait <= 0) {
      this.#send(key)
      return
    }
    this.#pending.set(key, this.#schedule(() => {
      this.#pending.delete(key)
      if (!this.#closed && this.#uris.has(key)) this.#send(key)
    }, wait))
  }

  #send (key: string): void {
    const uri = this.#uris.get(key)
    if (uri === undefined) return
    this.#lastSent.set(key, this.#now())
    this.#deps.notify(uri)
  }
}

export interface LiveFeedDeps {
  home: Pick<HomeView, 'entity' | 'visible'>
  onStateChange: (listener: StateListener) => () => void
  /** Publishes `notifications/resources/updated` for a URI to the listen streams that asked for it. */
  publish: (uri: string) => void
  /** Whether any listen stream is open; nothing is computed while none is. */
  active: () => boolean
  minIntervalMs?: number
  now?: () => number
  schedule?: Schedule
}

/**
 * The live resources for 2026-07-28 `subscriptions/listen` streams: every visible entity change is
 * published as `ha://entity/<id>` (and, for a state change, `ha://area/<area>`); the SDK's listen
 * router delivers each only to the streams that listed that URI. Like a session's subscriptions,
 * each URI is signalled at most once per `minIntervalMs` (the first at once, later ones folded into
 * one trailing signal) and hidden entities never signal anything.
 */
export class LiveFeed {
  readonly #deps: LiveFeedDeps
  readonly #minIntervalMs: number
  readonly #now: () => number
  readonly #schedule: Schedule
  readonly #lastSent = new Map<string, number>()
  readonly #pending = new Map<string, () => void>()
  readonly #detach: () => void

  constructor (deps: LiveFeedDeps) {
    this.#deps = deps
    this.#minIntervalMs = deps.minIntervalMs ?? MIN_NOTIFY_INTERVAL_MS
    this.#now = deps.now ?? realClock.now
    this.#schedule = deps.schedule ?? realClock.schedule
    this.#detach = deps.onStateChange(change => { this.#onChange(change) })
  }

  close (): void {
    this.#detach()
    for (const cancel of this.#pending.values()) cancel()
    this.#pending.clear()
  }

  #onChange ({ entityId, oldState, newState }: StateChange): void {
    if (!this.#deps.active() || !this.#deps.home.visible(entityId)) return
    const stateChanged = oldState?.state !== newState?.state
    if (stateChanged || !oldState || !newState || !sameAttributes(oldState.attributes, newState.attributes)) this.#signal(`ha://entity/${entityId}`)
    const areaId = stateChanged ? this.#deps.home.entity(entityId)?.area_id : undefined
    if (areaId) this.#signal(`ha://area/${areaId}`)
  }

  #signal (uri: string): void {
    if (this.#pending.has(uri)) return
    const wait = (this.#lastSent.get(uri) ?? -Infinity) + this.#minIntervalMs - this.#now()
    if (wait <= 0) {
      this.#send(uri)
      return
    }
    this.#pending.set(uri, this.#schedule(() => {
      this.#pending.delete(uri)
      this.#send(uri)
    }, wait))
  }

  #send (uri: string): void {
    this.#lastSent.set(uri, this.#now())
    // Forget old URIs so the map stays as small as the set of things changing.
    if (this.#lastSent.size > 5000) this.#lastSent.clear()
    this.#deps.publish(uri)
  }
}

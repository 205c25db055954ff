import type { HassState } from './schemas.ts'
import { InternTable } from '../intern.ts'

/** One entity in subscribe_entities' compressed form. */
interface CompressedState {
  s: string
  a?: Record<string, unknown>
  c?: string | { id?: string, parent_id?: string | null, user_id?: string | null }
  lc?: number
  lu?: number
}
interface CompressedDiff { '+'?: Partial<CompressedState>, '-'?: { a?: string[] } }
export interface EntitiesMessage {
  a?: Record<string, CompressedState>
  c?: Record<string, CompressedDiff>
  r?: string[]
}

export interface StateChange {
  entityId: string
  oldState: HassState | undefined
  newState: HassState | undefined
}
export type StateListener = (change: StateChange) => void

function isoFromSeconds (seconds: number): string {
  return new Date(Math.round(seconds * 1000)).toISOString()
}

/**
 * A context as subscribe_entities sends it (core websocket_api/messages.py). In an added state a bare
 * string is an id whose parent and user are null; in a change (`_state_diff`) it means only the id
 * changed, so the parent and user stay as they were; an object carries only the keys that changed.
 */
function contextFrom (c: CompressedState['c'], previous?: HassState['context']): NonNullable<HassState['context']> {
  if (typeof c === 'string') return { id: c, parent_id: previous?.parent_id ?? null, user_id: previous?.user_id ?? null }
  return {
    id: c?.id ?? previous?.id ?? '',
    parent_id: c?.parent_id !== undefined ? c.parent_id : previous?.parent_id ?? null,
    user_id: c?.user_id !== undefined ? c.user_id : previous?.user_id ?? null
  }
}

function expand (entityId: string, compressed: CompressedState, texts: InternTable): HassState {
  const lastChanged = isoFromSeconds(compressed.lc ?? 0)
  return {
    entity_id: entityId,
    state: texts.intern(String(compressed.s)),
    attributes: compressed.a === undefined ? {} : texts.internFields(compressed.a),
    last_changed: lastChanged,
    last_updated: compressed.lu !== undefined ? isoFromSeconds(compressed.lu) : lastChanged,
    context: contextFrom(compressed.c)
  }
}

/**
 * The live state map: every read is served from here. It is fed by `subscribe_entities` and tells
 * listeners about each change, so indexes and subscriptions stay current without rebuilding anything.
 */
export class StateStore {
  #states = new Map<string, HassState>()
  /** Where the repeated texts of states and attributes are kept once (src/intern.ts). */
  readonly #texts: InternTable
  #listeners = new Set<StateListener>()
  #ready = false
  /** Bumped on every change; cheap cache key for anything derived from the whole map. */
  version = 0

  constructor (texts: InternTable = new InternTable()) {
    this.#texts = texts
  }

  get ready (): boolean { return this.#ready }
  get size (): number { return this.#states.size }

  get (entityId: string): HassState | undefined {
    return this.#states.get(entityId)
  }

  has (entityId: string): boolean {
    return this.#states.has(entityId)
  }

  values (): IterableIterator<HassState> {
    return this.#states.values()
  }

  ids (): IterableIterator<string> {
    return this.#states.keys()
  }

  onChange (listener: StateListener): () => void {
    this.#listeners.add(listener)
    return () => { this.#listeners.delete(listener) }
  }

  /** Marks the map stale: the next `a` message is a full snapshot and replaces everything. */
  expectSnapshot (): void {
    this.#ready = false
  }

  apply (message: EntitiesMessage): void {
    if (message.a) {
      if (!this.#ready) this.#replace(message.a)
      else for (const [id, compressed] of Object.entries(message.a)) this.#set(id, expand(id, compressed, this.#texts))
    }
    if (message.c) {
      for (const [id, diff] of Object.entries(message.c)) {
        const previous = this.#states.get(id)
        if (previous) this.#set(id, this.#patch(previous, diff))
      }
    }
    if (message.r) {
      for (const id of message.r) this.#remove(id)
    }
  }

  #replace (snapshot: Record<string, CompressedState>): void {
    const seen = new Set<string>()
    for (const [id, compressed] of Object.entries(snapshot)) {
      seen.add(id)
      const next = expand(id, compressed, this.#texts)
      const previous = this.#states.get(id)
      if (!previous || previous.last_updated !== next.last_updated || previous.state !== next.state) this.#set(id, next)
      else this.#states.set(id, next)
    }
    for (const id of [...this.#states.keys()]) {
      if (!seen.has(id)) this.#remove(id)
    }
    this.#ready = true
    this.version++
  }

  #patch (previous: HassState, diff: CompressedDiff): HassState {
    const plus = diff['+'] ?? {}
    const attributes = { ...previous.attributes, ...(plus.a === undefined ? {} : this.#texts.internFields(plus.a)) }
    for (const key of diff['-']?.a ?? []) delete attributes[key]
    let lastChanged = previous.last_changed
    let lastUpdated = previous.last_updated
    if (plus.lc !== undefined) {
      lastChanged = isoFromSeconds(plus.lc)
      lastUpdated = lastChanged
    } else if (plus.lu !== undefined) {
      lastUpdated = isoFromSeconds(plus.lu)
    }
    return {
      entity_id: previous.entity_id,
      state: plus.s !== undefined ? this.#texts.intern(String(plus.s)) : previous.state,
      attributes,
      last_changed: lastChanged,
      last_updated: lastUpdated,
      context: plus.c !== undefined ? contextFrom(plus.c, previous.context) : previous.context
    }
  }

  #set (id: string, next: HassState): void {
    const oldState = this.#states.get(id)
    this.#states.set(id, next)
    this.version++
    this.#emit({ entityId: id, oldState, newState: next })
  }

  #remove (id: string): void {
    const oldState = this.#states.get(id)
    if (!oldState) return
    this.#states.delete(id)
    this.version++
    this.#emit({ entityId: id, oldState, newState: undefined })
  }

  #emit (change: StateChange): void {
    for (const listener of this.#listeners) {
      try {
        listener(change)
      } catch {
        // A broken listener must not stop the others or the feed.
      }
    }
  }
}

import { isoToSeconds } from './clock.ts'
import type { HistoryProfile } from './generate/profiles.ts'
import type { House } from './house.ts'
import type { HassState } from './types.ts'
import { hashUnit } from './util.ts'

/** One point in an entity's past. */
export interface Point { t: number, s: string, a: Record<string, unknown>, lc: number, ctx?: HassState['context'] }

const DAY = 86_400_000
export const HISTORY_DAYS = 7
export const SAMPLE_MS = 5 * 60_000

/** Deterministic value of a numeric/energy profile at time t (ms); closed forms, so any window is cheap. */
export function profileValue (house: House, entityId: string, profile: HistoryProfile, t: number): number {
  if (profile.kind === 'energy') {
    const hours = (t - house.home.startMs) / 3_600_000
    const wave = 0.8 * 24 / (2 * Math.PI) * (Math.cos(2 * Math.PI * house.home.startMs / DAY) - Math.cos(2 * Math.PI * t / DAY))
    return profile.base + profile.perHour * (hours + wave)
  }
  if (profile.kind !== 'numeric') return 0
  const phase = hashUnit(house.home.seed, entityId, 'phase') * 2 * Math.PI
  const bucket = Math.floor(t / SAMPLE_MS)
  const noise = (hashUnit(house.home.seed, entityId, bucket) - 0.5) * 2 * profile.noise
  let value = profile.base + profile.amplitude * Math.sin(2 * Math.PI * t / DAY + phase) + noise
  if (profile.min !== undefined) value = Math.max(profile.min, value)
  if (profile.max !== undefined) value = Math.min(profile.max, value)
  return value
}

function initialState (house: House, entityId: string): HassState | undefined {
  return house.home.states.find(s => s.entity_id === entityId)
}

const initialCache = new WeakMap<House, Map<string, HassState>>()
function initial (house: House, entityId: string): HassState | undefined {
  let map = initialCache.get(house)
  if (map === undefined) {
    map = new Map(house.home.states.map(s => [s.entity_id, s]))
    initialCache.set(house, map)
  }
  return map.get(entityId) ?? initialState(house, entityId)
}

/** Generated past points in [from, to) before the entity's state at start; nothing is stored. */
function generated (house: House, entityId: string, from: number, to: number): Point[] {
  const first = initial(house, entityId)
  if (first === undefined) return []
  const profile = house.home.profiles.get(entityId) ?? { kind: 'static' }
  const lastChanged = Date.parse(first.last_changed)
  const origin = house.home.startMs - HISTORY_DAYS * DAY
  const end = Math.min(to, lastChanged)
  const start = Math.max(from, origin)
  const out: Point[] = []
  if (first.state === 'unavailable' || first.state === 'unknown' || profile.kind === 'static') return out
  if (profile.kind === 'numeric' || profile.kind === 'energy') {
    const decimals = profile.decimals
    let previous: string | undefined
    for (let t = Math.ceil(start / SAMPLE_MS) * SAMPLE_MS; t < end; t += SAMPLE_MS) {
      const s = profileValue(house, entityId, profile, t).toFixed(decimals)
      if (s === previous) continue
      previous = s
      out.push({ t, s, a: first.attributes, lc: t })
    }
    return out
  }
  if (profile.kind === 'toggle') {
    const length = profile.meanMinutes * 60_000
    for (let k = Math.floor(start / length); k * length < end; k++) {
      const t = k * length + Math.floor(hashUnit(house.home.seed, entityId, 'at', k) * length)
      if (t < start || t >= end) continue
      const s = profile.states[Math.floor(hashUnit(house.home.seed, entityId, 'state', k) * profile.states.length)] as string
      if (out.at(-1)?.s === s) continue
      out.push({ t, s, a: first.attributes, lc: t })
    }
  }
  return out
}

/** The entity's state at `at` (ms), or undefined if it did not exist yet. */
function stateAt (house: House, entityId: string, at: number): Point | undefined {
  const recorded = house.recorded.get(entityId) ?? []
  for (let i = recorded.length - 1; i >= 0; i--) {
    const s = recorded[i] as HassState
    if (Date.parse(s.last_updated) <= at) return toPoint(s)
  }
  const first = initial(house, entityId)
  if (first === undefined) return undefined
  if (Date.parse(first.last_changed) <= at) return toPoint(first)
  const day = generated(house, entityId, at - DAY, at + 1)
  return day.at(-1) ?? (at >= house.home.startMs - HISTORY_DAYS * DAY ? { t: at, s: first.state, a: first.attributes, lc: at } : undefined)
}

function toPoint (s: HassState): Point {
  return { t: Date.parse(s.last_updated), s: s.state, a: s.attributes, lc: Date.parse(s.last_changed), ctx: s.context }
}

/** All points of an entity in [from, to]: generated past, the state at start, then what happened since. */
export function pointsBetween (house: House, entityId: string, from: number, to: number): Point[] {
  const first = initial(house, entityId)
  const out = generated(house, entityId, from, to)
  if (first !== undefined) {
    const lc = Date.parse(first.last_changed)
    if (lc >= from && lc <= to) out.push(toPoint(first))
  }
  for (const s of house.recorded.get(entityId) ?? []) {
    const t = Date.parse(s.last_updated)
    if (t >= from && t <= to) out.push(toPoint(s))
  }
  return out
}

export interface HistoryQuery {
  entityIds: string[]
  from: number
  to: number
  includeStartTimeState: boolean
  minimalResponse: boolean
  noAttributes: boolean
  significantChangesOnly: boolean
}

const NEED_ATTRIBUTES = new Set(['climate', 'humidifier', 'input_datetime', 'water_heater', 'person', 'device_tracker'])

/** history/history_during_period compressed rows: {s, a?, lu, lc?}, lu always, lc only when it differs. */
export function historyDuringPeriod (house: House, q: HistoryQuery): Record<string, Array<Record<string, unknown>>> {
  const result: Record<string, Array<Record<string, unknown>>> = {}
  for (const entityId of q.entityIds) {
    const domain = entityId.split('.')[0] as string
    const points = pointsBetween(house, entityId, q.from, q.to)
    if (q.includeStartTimeState && (points[0] === undefined || points[0].t > q.from)) {
      const at = stateAt(house, entityId, q.from)
      if (at !== undefined) points.unshift({ ...at, t: q.from, lc: q.from })
    }
    const rows: Array<Record<string, unknown>> = []
    let previous: Point | undefined
    for (const p of points) {
      const keepAttributes = NEED_ATTRIBUTES.has(domain)
      if (previous !== undefined && p.s === previous.s && (q.minimalResponse || (q.significantChangesOnly && !keepAttributes))) continue
      const minimal = q.minimalResponse && rows.length > 0 && !keepAttributes
      const row: Record<string, unknown> = { s: p.s }
      if (!q.noAttributes && !minimal) row.a = p.a
      row.lu = Math.round(p.t * 1000) / 1e6
      if (!minimal && p.lc !== p.t) row.lc = Math.round(p.lc * 1000) / 1e6
      rows.push(row)
      previous = p
    }
    if (rows.length > 0) result[entityId] = rows
  }
  return result
}

export function secondsOf (iso: string): number { return isoToSeconds(iso) }

/**
 * What a service call did, read from the states Home Assistant reports after it: each entity the call
 * reached, in the words a person uses ("on, brightness 77 %"), and whether it changed at all.
 */

export interface ReachedState { state: string, attributes: Record<string, unknown>, context?: { id?: string } | null }

export type Schedule = (fn: () => void, ms: number) => () => void

/** How long a write waits for Home Assistant's state changes before answering with what it has. */
export const SETTLE_MS = 1500
/** Most entities a write answer describes one by one. */
export const MAX_DESCRIBED = 25

const realSchedule: Schedule = (fn, ms) => {
  const timer = setTimeout(fn, ms)
  timer.unref()
  return () => { clearTimeout(timer) }
}

const pct = (value: unknown, of: number): string | undefined => typeof value === 'number' && Number.isFinite(value) ? `${Math.round(value / of * 100)} %` : undefined
const num = (value: unknown, unit: string): string | undefined => typeof value === 'number' && Number.isFinite(value) ? `${Math.round(value * 10) / 10}${unit}` : undefined

/** One entity's state in words: the state, then the attributes a person would mention. */
export function describeState (entityId: string, current: ReachedState): string {
  const a = current.attributes
  const domain = entityId.slice(0, entityId.indexOf('.'))
  const parts: Array<string | undefined> = [current.state]
  if (domain === 'light' && current.state === 'on') {
    const brightness = pct(a.brightness, 255)
    if (brightness) parts.push(`brightness ${brightness}`)
    const kelvin = num(a.color_temp_kelvin, ' K')
    if (kelvin && a.color_mode === 'color_temp') parts.push(kelvin)
  }
  if (domain === 'cover' && typeof a.current_position === 'number') parts.push(`position ${a.current_position} %`)
  if (domain === 'fan' && current.state === 'on' && typeof a.percentage === 'number') parts.push(`speed ${a.percentage} %`)
  if (domain === 'media_player' && typeof a.volume_level === 'number') parts.push(`volume ${pct(a.volume_level, 1) as string}`)
  if (domain === 'climate') {
    const target = num(a.temperature, '°')
    if (target) parts.push(`target ${target}`)
    const now = num(a.current_temperature, '°')
    if (now) parts.push(`now ${now}`)
  }
  const unit = typeof a.unit_of_measurement === 'string' ? ` ${a.unit_of_measurement}` : ''
  if (unit && parts.length === 1) parts[0] = `${current.state}${unit}`
  return parts.filter(part => part !== undefined && part !== '').join(', ')
}

export interface SettleDeps {
  state: (entityId: string) => ReachedState | undefined
  /** Calls the listener with the entity id of each state change. */
  changes: (listener: (entityId: string) => void) => () => void
  schedule?: Schedule
  settleMs?: number
}

export interface Settled {
  /** Each described entity's state afterwards, in words. */
  states: Record<string, string>
  /** Entities whose state the call did not touch (no state change carrying its context). */
  unchanged: string[]
}

/**
 * Waits (bounded) until every entity the call reached shows a state written in the call's context, then
 * describes them. An entity already in the asked state gets no new state, so the wait ends at the bound.
 */
export async function settle (deps: SettleDeps, entityIds: readonly string[], contextId: string | undefined): Promise<Settled> {
  const ids = entityIds.slice(0, MAX_DESCRIBED)
  const touched = (id: string): boolean => contextId !== undefined && deps.state(id)?.context?.id === contextId
  const waiting = new Set(ids.filter(id => !touched(id) && deps.state(id) !== undefined))
  if (contextId !== undefined && waiting.size > 0) {
    await new Promise<void>(resolve => {
      let cancel = (): void => {}
      const stop = deps.changes(id => {
        if (waiting.has(id) && touched(id)) waiting.delete(id)
        if (waiting.size === 0) { cancel(); stop(); resolve() }
      })
      cancel = (deps.schedule ?? realSchedule)(() => { stop(); resolve() }, deps.settleMs ?? SETTLE_MS)
    })
  }
  const states: Record<string, string> = {}
  const unchanged: string[] = []
  for (const id of ids) {
    const current = deps.state(id)
    states[id] = current ? describeState(id, current) : 'gone'
    if (!touched(id)) unchanged.push(id)
  }
  return { states, unchanged }
}

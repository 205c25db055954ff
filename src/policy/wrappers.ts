import { isRecord } from '../shape.ts'
import { ENTITY_ID } from '../home/entities.ts'
import type { HouseIndex, WrapperOf } from './targets.ts'
import { walkRuns, type RunReach } from './runs.ts'
import { expandMembers } from './expand.ts'

/**
 * Helpers made in the UI that act on other entities when called, read as indirect targets the way groups
 * and scripts are:
 * - a switch_as_x entity forwards its service calls to the switch it wraps (core switch_as_x/entity.py,
 *   BaseToggleEntity.async_turn_on calls switch.turn_on on it); the wrapper's entity registry entry names
 *   that switch in its options (`options.switch_as_x.entity_id`, entity.py async_generate_entity_options);
 * - a template entity of a config entry runs the actions its options hold (core template/config_flow.py
 *   and each platform: switch.py turn_on/turn_off, button.py press, number.py set_value, select.py
 *   select_option...): every action it holds is walked as a script's sequence is, whichever service starts it.
 */

/** At most this many wrappers are read for one call; more is unknowable. */
export const MAX_WRAPPERS = 20

/** What the wrappers among `ids` reach, each entity with the wrapper it was reached through; wrappers found that way are followed too. */
export async function walkWrappers (house: HouseIndex, wrapperOf: WrapperOf, ids: Iterable<string>): Promise<RunReach> {
  const out: RunReach = { services: new Map(), entities: new Map(), indirect: [], unknowableCalls: [], unknowableTargets: [] }
  const seen = new Set<string>()
  const queue = [...new Set(ids)]
  let read = 0
  for (let i = 0; i < queue.length; i++) {
    const id = queue[i] as string
    if (seen.has(id)) continue
    seen.add(id)
    const wrapper = await wrapperOf(id).catch(() => ({ kind: 'template', options: undefined }) as const)
    if (wrapper === undefined) continue
    if (++read > MAX_WRAPPERS) { out.unknowableCalls.push(`more than ${MAX_WRAPPERS} helpers that act on other entities are reached`); break }
    const reach = (entity: string): void => {
      if (!out.entities.has(entity)) out.entities.set(entity, id)
      queue.push(entity)
      // A group (or scene) it reaches passes the call on to its members, which may be wrappers themselves;
      // the guard expands the members for the entity lists, but only this walk follows a wrapper among them.
      queue.push(...expandMembers(member => house.state?.(member), [entity]).via.keys())
    }
    if (wrapper.kind === 'switch_as_x') {
      const wrapped = wrapper.wraps?.trim().toLowerCase()
      if (wrapped === undefined || !ENTITY_ID.test(wrapped)) out.unknowableCalls.push(`the switch ${id} wraps cannot be read`)
      else reach(wrapped)
      continue
    }
    if (wrapper.options === undefined) { out.unknowableCalls.push(`the actions of the template helper ${id} cannot be read`); continue }
    // Every option holding actions (a list, or one action object); templates and plain values are no action.
    const sequence = Object.values(wrapper.options).filter(v => Array.isArray(v) || isRecord(v))
    // Scripts its actions start are read as any script is.
    const walk = await walkRuns(house, async run => run === id ? { sequence } : await house.runConfig?.(run), [id])
    for (const [service, where] of walk.services) if (!out.services.has(service)) out.services.set(service, where)
    for (const [entity] of walk.entities) reach(entity)
    out.indirect.push(...walk.indirect)
    out.unknowableCalls.push(...walk.unknowableCalls)
    out.unknowableTargets.push(...walk.unknowableTargets)
  }
  return out
}

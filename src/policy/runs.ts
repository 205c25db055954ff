import { domainOf } from '../home/entities.ts'
import { isTemplate, picksByAgent } from './config-calls.ts'
import { readCall, resolveTarget, type HouseIndex } from './targets.ts'

/**
 * What an owner-made script or automation will do when a call starts it, read statically from its stored
 * config before the call is sent: every service its actions call (nested sequences, choose, if, parallel,
 * repeat, and the scripts it starts in turn, to a bounded depth) and every entity those actions reach.
 * What a template decides, and a config Home Assistant will not give (YAML-only, not found), is unknowable.
 */

/** Scripts started from scripts are followed this deep; a deeper chain is unknowable. */
export const MAX_RUN_DEPTH = 5
/** At most this many configs are read for one call. */
const MAX_CONFIGS = 50

export interface RunReach {
  /** Each service called, with the script or automation that calls it. */
  services: Map<string, string>
  /** Each entity reached, with the script or automation that reaches it. */
  entities: Map<string, string>
  /** Targets that reach entities by area, device, floor, label or `all`, where they sit. */
  indirect: string[]
  /** Why what is called cannot be known (a templated action, a config that cannot be read, too deep). */
  unknowableCalls: string[]
  /** Why what is reached cannot be known (a templated target). */
  unknowableTargets: string[]
}

/** Reads the stored config of a script or automation; undefined when Home Assistant gives none. */
export type RunConfig = (entityId: string) => Promise<Record<string, unknown> | undefined>

/** Script and automation entities a call starts: script.turn_on/toggle, script.<id>, automation.trigger, homeassistant.turn_on/toggle. */
export function runsStarted (domain: string, service: string, reached: readonly string[]): string[] {
  if (domain === 'script') {
    if (service === 'turn_on' || service === 'toggle') return reached.filter(id => domainOf(id) === 'script')
    return service === 'turn_off' || service === 'reload' ? [] : [`script.${service}`]
  }
  if (domain === 'automation' && service === 'trigger') return reached.filter(id => domainOf(id) === 'automation')
  if (domain === 'homeassistant' && (service === 'turn_on' || service === 'toggle')) return reached.filter(id => domainOf(id) === 'script')
  return []
}

/** Whether a call can start a script or automation whatever its target: its reach must be known to walk it. */
export function startsRuns (domain: string, service: string): boolean {
  return runsStarted(domain, service, ['script.x', 'automation.x']).length > 0
}

const NESTED_LISTS = ['sequence', 'then', 'else', 'default', 'parallel'] as const

export async function walkRuns (house: HouseIndex, config: RunConfig, starts: readonly string[]): Promise<RunReach> {
  const out: RunReach = { services: new Map(), entities: new Map(), indirect: [], unknowableCalls: [], unknowableTargets: [] }
  const visited = new Set<string>()
  const queue: Array<{ id: string, depth: number }> = starts.map(id => ({ id, depth: 0 }))
  for (let i = 0; i < queue.length; i++) {
    const { id, depth } = queue[i] as { id: string, depth: number }
    if (visited.has(id)) continue
    visited.add(id)
    if (depth > MAX_RUN_DEPTH || visited.size > MAX_CONFIGS) { out.unknowableCalls.push(`${id} is started more than ${MAX_RUN_DEPTH} scripts deep`); continue }
    const stored = await config(id).catch(() => undefined)
    if (stored === undefined) { out.unknowableCalls.push(`${id}'s config cannot be read (YAML-only or not found)`); continue }
    const actions = domainOf(id) === 'automation' ? stored.actions ?? stored.action : stored.sequence
    await walkActions(actions, id, domainOf(id) === 'automation' ? 'actions' : 'sequence', (next: string) => { queue.push({ id: next, depth: depth + 1 }) })
  }
  return out

  async function walkActions (value: unknown, where: string, path: string, start: (id: string) => void): Promise<void> {
    if (Array.isArray(value)) {
      for (const [i, item] of value.entries()) await walkActions(item, where, `${path}[${i}]`, start)
      return
    }
    if (value === null || typeof value !== 'object') return
    const action = value as Record<string, unknown>
    const name = action.action ?? action.service
    if ('service_template' in action || isTemplate(name)) out.unknowableCalls.push(`${where} picks an action with a template (${path})`)
    else if (typeof name === 'string') await serviceAction(action, name.trim().toLowerCase(), where, path, start)
    if ('data_template' in action) out.unknowableTargets.push(`${where} (${path}.data_template)`)
    if (typeof action.scene === 'string') await serviceAction({ target: { entity_id: action.scene } }, 'scene.turn_on', where, path, start)
    // A device action (`device_id`, `domain`, `type`) acts on its entity, or on the device.
    if (typeof action.device_id === 'string' && typeof action.type === 'string' && !('condition' in action)) await collect({ entity_id: action.entity_id, device_id: action.entity_id === undefined ? action.device_id : undefined }, {}, where, path)
    for (const key of NESTED_LISTS) if (key in action) await walkActions(action[key], where, `${path}.${key}`, start)
    // `choose` takes one option as well as a list of them (config_validation.py _SCRIPT_CHOOSE_SCHEMA: ensure_list).
    const options = Array.isArray(action.choose) ? action.choose : action.choose !== null && typeof action.choose === 'object' ? [action.choose] : []
    for (const [i, option] of options.entries()) await walkActions((option as { sequence?: unknown } | null)?.sequence, where, `${path}.choose[${i}]`, start)
    const repeat = action.repeat
    if (repeat !== null && typeof repeat === 'object') await walkActions((repeat as { sequence?: unknown }).sequence, where, `${path}.repeat`, start)
  }

  async function serviceAction (action: Record<string, unknown>, service: string, where: string, path: string, start: (id: string) => void): Promise<void> {
    out.services.set(service, out.services.get(service) ?? where)
    if (picksByAgent(service)) out.unknowableTargets.push(`${where} (${path}: a conversation agent picks the entities from its text)`)
    const [domain = '', name = ''] = service.split('.')
    const reached = await collect(action.target, { ...(typeof action.data === 'object' && action.data !== null ? action.data : {}), ...('entity_id' in action ? { entity_id: action.entity_id } : {}) }, where, path, domain, name)
    for (const id of runsStarted(domain, name, reached)) start(id)
  }

  /** Reads a target and data as a direct call's are read, resolving what they reach; answers the entities reached. */
  async function collect (target: unknown, data: Record<string, unknown>, where: string, path: string, domain?: string, service?: string): Promise<string[]> {
    if (isTemplate(target) || (target !== null && typeof target === 'object' && Object.values(target).some(isTemplate)) || isTemplate(data.entity_id)) {
      out.unknowableTargets.push(`${where} (${path})`)
      return []
    }
    let read
    try {
      read = readCall({ ...(target !== null && typeof target === 'object' ? { target: target as Record<string, unknown> } : {}), data })
    } catch {
      out.unknowableTargets.push(`${where} (${path}: an entity field Home Assistant would refuse)`)
      return []
    }
    for (const id of read.entities) if (!out.entities.has(id)) out.entities.set(id, where)
    for (const how of read.indirect) {
      if (how === 'a template') out.unknowableTargets.push(`${where} (${path})`)
      else out.indirect.push(`${how} in ${where} (${path})`)
    }
    if (read.aim === undefined || domain === undefined || service === undefined) return [...read.entities]
    const resolution = await resolveTarget(house, read.aim, domain, service).catch(() => undefined)
    if (resolution === undefined || !resolution.complete) {
      if (read.indirect.size > 0) out.unknowableTargets.push(`${where} (${path}: its area, device, floor or label targets could not be resolved)`)
      return [...read.entities]
    }
    for (const id of resolution.reached) if (!out.entities.has(id)) out.entities.set(id, where)
    return [...new Set([...read.entities, ...resolution.reached])]
  }
}

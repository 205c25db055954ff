import { HaError } from '../errors.ts'
import type { AutomationDef, SceneDef } from '../generate/home-types.ts'
import { reloadScenes } from '../scene-config.ts'
import type { House } from '../house.ts'
import { STORED_TRACES, type Trace, type TraceStep } from '../traces.ts'
import type { HassContext } from '../types.ts'
import { epochSeconds, isoTime, isRecord, ulid } from '../util.ts'
import { field, svc, type ServiceCall, type ServiceTable } from './registry.ts'

function stateCondition (house: House, condition: unknown): boolean {
  if (!isRecord(condition) || condition.condition !== 'state') return true
  return house.states.get(String(condition.entity_id))?.state === String(condition.state)
}

/** Runs an action list through the service path, recording trace steps; delays are not waited for. */
async function runActions (house: House, actions: unknown[], context: HassContext, steps: Record<string, TraceStep[]>, prefix: string): Promise<string | null> {
  let last: string | null = null
  for (const [index, action] of actions.entries()) {
    const path = `${prefix}/${index}`
    last = path
    const step: TraceStep = { path, timestamp: isoTime(Date.now()) }
    steps[path] = [step]
    if (!isRecord(action) || typeof action.action !== 'string') continue
    const [domain, service] = action.action.split('.') as [string, string]
    const params = { domain, service, service_data: isRecord(action.data) ? action.data : {}, target: isRecord(action.target) ? action.target : {} }
    try {
      await house.invoke({ domain, service, serviceData: params.service_data, target: params.target, via: 'ws', context, internal: true })
      step.result = { params, running_script: false }
    } catch (err) {
      step.error = err instanceof Error ? err.message : String(err)
      throw Object.assign(new Error(step.error), { path })
    }
  }
  return last
}

function storeTrace (house: House, trace: Trace): void {
  const key = `${trace.domain}.${trace.item_id}`
  let list = house.traces.get(key)
  if (list === undefined) house.traces.set(key, (list = []))
  list.push(trace)
  if (list.length > STORED_TRACES) list.shift()
}

export async function runAutomation (house: House, def: AutomationDef, source: string, parent: HassContext | null, skipCondition: boolean): Promise<void> {
  const start = Date.now()
  const context = house.newContext(null, parent?.id ?? null)
  const alias = String(def.config.alias ?? def.entity_id)
  house.fire('automation_triggered', { name: alias, entity_id: def.entity_id, source }, context)
  house.contextOrigins.set(context.id, { context_event_type: 'automation_triggered', context_domain: 'automation', context_entity_id: def.entity_id, context_name: alias, context_message: `triggered by ${source}`, context_source: source })
  house.logbook.push({
    when: epochSeconds(start),
    name: alias,
    message: `triggered by ${source}`,
    source,
    entity_id: def.entity_id,
    domain: 'automation',
    context_id: context.id,
    ...(parent === null ? {} : { context_user_id: parent.user_id })
  })
  house.updateState(def.entity_id, { attributes: { last_triggered: isoTime(start) } }, context)
  const steps: Record<string, TraceStep[]> = { 'trigger/0': [{ path: 'trigger/0', timestamp: isoTime(start), changed_variables: { this: house.states.get(def.entity_id) ?? null, trigger: { id: '0', idx: '0', platform: null, description: source } } }] }
  const trace: Trace = {
    run_id: ulid(start).toLowerCase(),
    domain: 'automation',
    item_id: def.id ?? def.entity_id.slice(11),
    state: 'running',
    script_execution: null,
    last_step: 'trigger/0',
    timestamp: { start: isoTime(start), finish: null },
    trigger: source,
    context,
    config: def.config,
    steps
  }
  storeTrace(house, trace)
  const conditions = Array.isArray(def.config.conditions) ? def.config.conditions : []
  if (!skipCondition) {
    for (const [index, condition] of conditions.entries()) {
      const result = stateCondition(house, condition)
      steps[`condition/${index}`] = [{ path: `condition/${index}`, timestamp: isoTime(Date.now()), result: { result } }]
      trace.last_step = `condition/${index}`
      if (!result) {
        Object.assign(trace, { state: 'stopped', script_execution: 'failed_conditions', timestamp: { start: trace.timestamp.start, finish: isoTime(Date.now()) } })
        return
      }
    }
  }
  try {
    trace.last_step = await runActions(house, Array.isArray(def.config.actions) ? def.config.actions : [], context, steps, 'action') ?? trace.last_step
    trace.script_execution = 'finished'
  } catch (err) {
    trace.script_execution = 'error'
    trace.error = err instanceof Error ? err.message : String(err)
    trace.last_step = (err as { path?: string }).path ?? trace.last_step
  }
  trace.state = 'stopped'
  trace.timestamp.finish = isoTime(Date.now())
}

async function runScript (call: ServiceCall, entityId: string): Promise<unknown> {
  const house = call.house
  const def = house.home.scripts.find(s => s.entity_id === entityId)
  if (def === undefined) return undefined
  const start = Date.now()
  const context = house.newContext(call.context.user_id, call.context.id)
  const steps: Record<string, TraceStep[]> = {}
  const trace: Trace = { run_id: ulid(start).toLowerCase(), domain: 'script', item_id: entityId.slice(7), state: 'running', script_execution: null, last_step: null, timestamp: { start: isoTime(start), finish: null }, context, config: def.config, steps }
  storeTrace(house, trace)
  house.contextOrigins.set(context.id, { context_event_type: 'script_started', context_domain: 'script', context_entity_id: entityId, context_name: String(def.config.alias ?? entityId) })
  house.updateState(entityId, { state: 'on', attributes: { last_triggered: isoTime(start), current: 1 } }, context)
  house.logbook.push({ when: epochSeconds(start), name: String(def.config.alias ?? entityId), message: 'started', entity_id: entityId, domain: 'script', context_id: context.id, context_user_id: call.context.user_id })
  try {
    trace.last_step = await runActions(house, Array.isArray(def.config.sequence) ? def.config.sequence : [], context, steps, 'sequence')
    trace.script_execution = 'finished'
  } catch (err) {
    trace.script_execution = 'error'
    trace.error = err instanceof Error ? err.message : String(err)
  } finally {
    trace.state = 'stopped'
    trace.timestamp.finish = isoTime(Date.now())
    house.updateState(entityId, { state: 'off', attributes: { current: 0 } }, context)
  }
  return {}
}

export function applyScene (house: House, entities: Record<string, unknown>, context: HassContext): void {
  for (const [entityId, wanted] of Object.entries(entities)) {
    if (!house.states.has(entityId)) continue
    const spec = isRecord(wanted) ? wanted : { state: wanted }
    const { state, ...attributes } = spec
    const target = typeof state === 'string' ? state : house.states.get(entityId)?.state ?? 'unknown'
    const attrs = { ...house.states.get(entityId)?.attributes, ...attributes }
    if (target === 'off' && 'brightness' in attrs) attrs.brightness = null
    house.setState(entityId, target, attrs, context)
  }
}

function automationDef (house: House, entityId: string): AutomationDef | undefined {
  return house.home.automations.find(a => a.entity_id === entityId)
}

export function automationServices (house: House): ServiceTable {
  const onOff = (state: string) => (call: ServiceCall, id: string): void => { call.house.updateState(id, { state }, call.context) }
  const scriptTable: ServiceTable['script'] = {
    turn_on: svc('Turn on', 'Runs the sequence of actions defined in a script.', { variables: field('Variables', { object: {} }) }, { targetDomains: ['script'], perEntity: runScript }),
    turn_off: svc('Turn off', 'Stops a running script.', {}, { targetDomains: ['script'], perEntity: onOff('off') }),
    toggle: svc('Toggle', 'Starts a script if it isn’t running, stops it otherwise.', {}, { targetDomains: ['script'], perEntity: runScript }),
    reload: svc('Reload', 'Reloads all the available scripts.', {})
  }
  for (const def of house.home.scripts) {
    const id = def.entity_id
    scriptTable[id.slice(7)] = svc(String(def.config.alias ?? id), String(def.config.description ?? ''), isRecord(def.config.fields) ? def.config.fields : {}, { response: 'optional', run: async call => await runScript(call, id) })
  }
  return {
    automation: {
      turn_on: svc('Turn on', 'Enables an automation.', {}, { targetDomains: ['automation'], perEntity: onOff('on') }),
      turn_off: svc('Turn off', 'Disables an automation.', { stop_actions: field('Stop actions', { boolean: {} }, { default: true }) }, { targetDomains: ['automation'], perEntity: onOff('off') }),
      toggle: svc('Toggle', 'Toggles (enable / disable) an automation.', {}, { targetDomains: ['automation'], perEntity: (call, id, state) => onOff(state.state === 'on' ? 'off' : 'on')(call, id) }),
      trigger: svc('Trigger', 'Triggers the actions of an automation.', { skip_condition: field('Skip conditions', { boolean: {} }, { default: true }) }, {
        targetDomains: ['automation'],
        perEntity: async (call, id) => {
          const def = automationDef(call.house, id)
          if (def !== undefined) await runAutomation(call.house, def, 'action', call.context, call.data.skip_condition !== false)
        }
      }),
      reload: svc('Reload', 'Reloads the automation configuration.', {})
    },
    script: scriptTable,
    scene: {
      turn_on: svc('Activate', 'Activates a scene.', { transition: field('Transition', { number: { min: 0, max: 300 } }) }, {
        targetDomains: ['scene'],
        perEntity: (call, id) => {
          const def = call.house.home.scenes.find(s => s.entity_id === id)
          if (def !== undefined) applyScene(call.house, def.entities, call.context)
          call.house.setState(id, isoTime(Date.now()), call.house.states.get(id)?.attributes, call.context)
        }
      }),
      apply: svc('Apply', 'Activates a scene with configuration.', { entities: field('Entities state', { object: {} }, { required: true }) }, {
        run: call => { applyScene(call.house, isRecord(call.data.entities) ? call.data.entities : {}, call.context) }
      }),
      create: svc('Create', 'Creates a new scene.', { scene_id: field('Scene entity ID', { text: {} }, { required: true }), entities: field('Entities state', { object: {} }), snapshot_entities: field('Entities snapshot', { entity: { multiple: true } }) }, { run: createScene }),
      delete: svc('Delete', 'Deletes a dynamically created scene.', {}, {
        targetDomains: ['scene'],
        perEntity: (call, id) => {
          const index = call.house.home.scenes.findIndex(s => s.entity_id === id && s.id === null)
          if (index < 0) throw new HaError('service_validation_error', `Validation error: The scene ${id} is not created with action scene.create`, { key: 'entity_not_dynamically_created', domain: 'scene', placeholders: { entity_id: id } })
          call.house.home.scenes.splice(index, 1)
          call.house.removeState(id, call.context)
        }
      }),
      reload: svc('Reload', 'Reloads the scenes from the YAML-configuration.', {}, { run: call => { reloadScenes(call.house) } })
    }
  }
}

function createScene (call: ServiceCall): void {
  const sceneId = String(call.data.scene_id ?? '')
  if (!/^[a-z0-9_]+$/.test(sceneId)) throw new HaError('invalid_format', `invalid slug ${sceneId} (try ${sceneId.toLowerCase().replace(/[^a-z0-9]+/g, '_')}) for dictionary value @ data['scene_id']. Got '${sceneId}'`)
  const entities: Record<string, Record<string, unknown>> = {}
  const snapshot = Array.isArray(call.data.snapshot_entities) ? call.data.snapshot_entities : typeof call.data.snapshot_entities === 'string' ? [call.data.snapshot_entities] : []
  for (const id of snapshot) {
    const state = call.house.states.get(String(id))
    if (state === undefined) throw new HaError('home_assistant_error', `Entity ${String(id)} does not exist`)
    entities[state.entity_id] = { state: state.state, ...state.attributes }
  }
  if (isRecord(call.data.entities)) for (const [id, spec] of Object.entries(call.data.entities)) entities[id] = isRecord(spec) ? spec : { state: spec }
  const entityId = `scene.${sceneId}`
  const scenes = call.house.home.scenes
  const existing = scenes.findIndex(s => s.entity_id === entityId)
  const def: SceneDef = { entity_id: entityId, id: null, name: sceneId, entities }
  if (existing >= 0) scenes[existing] = def
  else scenes.push(def)
  call.house.setState(entityId, 'unknown', { entity_id: Object.keys(entities), friendly_name: sceneId }, call.context)
}

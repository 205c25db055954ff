/**
 * The actions inside a config written through the add-on (automations, scripts, scenes, dashboard card
 * actions), so the service denylist applies to them as it does to a direct call. Entity fields inside
 * them (target, data, legacy entity_id, `entity_id: all`) are read by the same scan as service data.
 *
 * What no walk can see: a scene, group or script the owner made in Home Assistant and that a written
 * config only names, a blueprint's own actions, and templates, which Home Assistant renders at run time.
 */
import { ENTITY_ID } from '../home/entities.ts'

/** Keys that name the service an action calls: `action` (2024.8+), legacy `service`, cards' `perform_action`. */
const ACTION_KEYS = ['action', 'service', 'perform_action'] as const
const TEMPLATED_KEYS = ['service_template', 'data_template']
/** A service name is `domain.service`: the entity-id shape (Home Assistant's cv.service). */
const SERVICE = ENTITY_ID
const TEMPLATE = /\{\{|\{%/
/**
 * Services that hand free text to a conversation agent, which picks the entities it acts on among those
 * exposed to Assist (homeassistant/components/conversation/__init__.py, SERVICE_PROCESS): no rule can
 * know from the call which entities a sentence reaches.
 */
const AGENT_SERVICES = new Set(['conversation.process'])

export function picksByAgent (service: string): boolean {
  return AGENT_SERVICES.has(service)
}

export interface ConfigCalls {
  /** domain.service of every action, lower-cased. */
  services: Set<string>
  /** Where a templated action name sits: nothing can check what it will call. */
  templatedServices: Set<string>
  /** Where a templated target sits: nothing can check which entities it will reach. */
  templatedTargets: Set<string>
  /** Where an action hands text to a conversation agent (picksByAgent): which entities it reaches is unknowable too. */
  agentPicked: Set<string>
  /** Entities named by action shorthands (`scene: scene.x`). */
  entities: Set<string>
}

export function isTemplate (value: unknown): boolean {
  return typeof value === 'string' && TEMPLATE.test(value)
}

/** Every service call inside a config, at any depth (nested choose/if/then/else/sequence/parallel/repeat). */
export function configCalls (config: unknown): ConfigCalls {
  const out: ConfigCalls = { services: new Set(), templatedServices: new Set(), templatedTargets: new Set(), agentPicked: new Set(), entities: new Set() }
  const walk = (value: unknown, path: string): void => {
    if (value === null || typeof value !== 'object') return
    if (Array.isArray(value)) {
      value.forEach((item, i) => { walk(item, `${path}[${i}]`) })
      return
    }
    const record = value as Record<string, unknown>
    for (const key of ACTION_KEYS) {
      const name = record[key]
      if (typeof name !== 'string') continue
      if (isTemplate(name)) out.templatedServices.add(`${path}.${key}`)
      else if (SERVICE.test(name.trim().toLowerCase())) {
        out.services.add(name.trim().toLowerCase())
        if (picksByAgent(name.trim().toLowerCase())) out.agentPicked.add(`${path}.${key}`)
      }
    }
    for (const key of TEMPLATED_KEYS) if (key in record) (key === 'service_template' ? out.templatedServices : out.templatedTargets).add(`${path}.${key}`)
    // `- scene: scene.x` is scene.turn_on on that scene.
    if (typeof record.scene === 'string' && record.scene.trim().toLowerCase().startsWith('scene.')) {
      out.services.add('scene.turn_on')
      out.entities.add(record.scene.trim().toLowerCase())
    }
    const target = record.target
    if (isTemplate(target) || (target !== null && typeof target === 'object' && Object.values(target).some(isTemplate))) out.templatedTargets.add(`${path}.target`)
    if (isTemplate(record.entity_id)) out.templatedTargets.add(`${path}.entity_id`)
    for (const [key, child] of Object.entries(record)) walk(child, path === '' ? key : `${path}.${key}`)
  }
  walk(config, '')
  return out
}

import { invalidFormat } from './errors.ts'
import { ENTITY_ID, isRecord } from './util.ts'

const TRIGGERS = new Set(['state', 'numeric_state', 'time', 'time_pattern', 'sun', 'event', 'homeassistant', 'mqtt', 'template', 'webhook', 'zone', 'device', 'calendar', 'tag', 'persistent_notification', 'conversation'])
const CONDITIONS = new Set(['state', 'numeric_state', 'time', 'sun', 'template', 'zone', 'and', 'or', 'not', 'device', 'trigger'])
const ACTION_KEYS = ['action', 'service', 'delay', 'wait_template', 'wait_for_trigger', 'event', 'scene', 'choose', 'if', 'repeat', 'parallel', 'sequence', 'condition', 'variables', 'stop', 'device_id', 'set_conversation_response']

type Result = { valid: boolean, error: string | null }

function list (value: unknown): unknown[] {
  return Array.isArray(value) ? value : [value]
}

function check (items: unknown, one: (item: unknown, index: number) => string | null): Result {
  for (const [index, item] of list(items).entries()) {
    const error = one(item, index)
    if (error !== null) return { valid: false, error }
  }
  return { valid: true, error: null }
}

function trigger (item: unknown): string | null {
  if (!isRecord(item)) return 'Expected a dictionary'
  const kind = item.trigger ?? item.platform
  if (typeof kind !== 'string') return "required key not provided @ data['trigger']"
  if (!TRIGGERS.has(kind)) return `Invalid trigger '${kind}' specified`
  if (kind === 'state' && item.entity_id === undefined) return "required key not provided @ data['entity_id']"
  if (kind === 'time' && item.at === undefined) return "required key not provided @ data['at']"
  return null
}

/**
 * One condition as CONDITION_SCHEMA reads it (core helpers/config_validation.py): a mapping with a known
 * `condition`, or a string only when it is a dynamic template (`dynamic_template_condition_action`:
 * cv.dynamic_template wants `{{`, `{%` or `{#` in it). Compound conditions are read to the bottom.
 */
function condition (item: unknown): string | null {
  if (typeof item === 'string') return /\{\{|\{%|\{#/.test(item) ? null : 'template value does not contain a dynamic template'
  if (!isRecord(item)) return 'Expected a dictionary'
  if (typeof item.condition !== 'string') return "required key not provided @ data['condition']"
  if (!CONDITIONS.has(item.condition)) return `Invalid condition "${item.condition}" specified`
  return item.conditions === undefined ? null : check(item.conditions, condition).error
}

/** Conditions and actions nested in an action (if/then/else, choose, repeat, sequence, parallel, a condition action). */
function nested (item: Record<string, unknown>): string | null {
  const conditions: unknown[] = []
  const actions: unknown[] = []
  if ('condition' in item && !('action' in item)) conditions.push(item)
  if (item.if !== undefined) conditions.push(...list(item.if))
  for (const key of ['then', 'else', 'sequence', 'parallel', 'default']) if (item[key] !== undefined) actions.push(...list(item[key]))
  for (const option of Array.isArray(item.choose) ? item.choose : item.choose === undefined ? [] : [item.choose]) {
    if (!isRecord(option)) return 'Expected a dictionary'
    if (option.conditions !== undefined) conditions.push(...list(option.conditions))
    if (option.sequence !== undefined) actions.push(...list(option.sequence))
  }
  if (isRecord(item.repeat)) {
    for (const key of ['while', 'until']) if (item.repeat[key] !== undefined) conditions.push(...list(item.repeat[key]))
    if (item.repeat.sequence !== undefined) actions.push(...list(item.repeat.sequence))
  }
  return check(conditions, condition).error ?? (actions.length === 0 ? null : check(actions, action).error)
}

function action (item: unknown): string | null {
  if (!isRecord(item)) return 'Expected a dictionary'
  if (!ACTION_KEYS.some(key => key in item)) return `Unable to determine action @ data[0]. Got ${JSON.stringify(item).replace(/"/g, "'")}`
  const name = item.action ?? item.service
  // cv.service lower-cases the name; a dynamic template is accepted and rendered at run time.
  const isTemplate = typeof name === 'string' && /\{\{|\{%/.test(name)
  if (name !== undefined && !isTemplate && (typeof name !== 'string' || !ENTITY_ID.test(name.toLowerCase()))) return `Service ${String(name)} does not match format <domain>.<name> for dictionary value @ data['action']`
  return nested(item)
}

/** validate_config: plural keys (triggers/conditions/actions) like current core; singular accepted as input. */
export function validateConfig (msg: Record<string, unknown>): Record<string, Result> {
  const out: Record<string, Result> = {}
  const triggers = msg.triggers ?? msg.trigger
  const conditions = msg.conditions ?? msg.condition
  const actions = msg.actions ?? msg.action
  if (triggers === undefined && conditions === undefined && actions === undefined) throw invalidFormat('must contain at least one of triggers, conditions, actions.')
  if (triggers !== undefined) out.triggers = check(triggers, trigger)
  if (conditions !== undefined) out.conditions = check(conditions, condition)
  if (actions !== undefined) out.actions = check(actions, action)
  return out
}

/** The check the REST automation config endpoint applies before saving. */
export function automationConfigError (config: Record<string, unknown>): string | null {
  const triggers = config.triggers ?? config.trigger
  const actions = config.actions ?? config.action
  if (triggers === undefined) return "required key not provided @ data['triggers']"
  if (actions === undefined) return "required key not provided @ data['actions']"
  const t = check(triggers, trigger)
  if (!t.valid) return t.error
  const c = config.conditions ?? config.condition
  if (c !== undefined) { const r = check(c, condition); if (!r.valid) return r.error }
  const a = check(actions, action)
  return a.valid ? null : a.error
}

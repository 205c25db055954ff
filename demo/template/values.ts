import type { House } from '../house.ts'
import type { HassState } from '../types.ts'

/** Entities, domains and "everything" a render looked at: render_template's listeners. */
export interface Listeners { all: boolean, domains: Set<string>, entities: Set<string>, time: boolean }

export class StatesRoot {}
export class DomainStates { readonly domain: string; constructor (domain: string) { this.domain = domain } }
export class Namespace { readonly values: Record<string, unknown> = {} }

/** The template view of a state: what `states.light.x` gives in HA. */
export function templateState (s: HassState): Record<string, unknown> {
  const [domain, objectId] = s.entity_id.split('.') as [string, string]
  return {
    entity_id: s.entity_id,
    state: s.state,
    attributes: s.attributes,
    domain,
    object_id: objectId,
    name: typeof s.attributes.friendly_name === 'string' ? s.attributes.friendly_name : objectId.replace(/_/g, ' '),
    last_changed: s.last_changed,
    last_updated: s.last_updated,
    last_reported: s.last_reported,
    context: s.context
  }
}

export interface Scope {
  house: House
  vars: Map<string, unknown>
  listeners: Listeners
  budget: { steps: number }
  /** strict mode (render_template strict: true): an undefined name is an error instead of empty */
  strict: boolean
}

export function statesOf (scope: Scope, domain?: string): Array<Record<string, unknown>> {
  if (domain === undefined) scope.listeners.all = true
  else scope.listeners.domains.add(domain)
  const out: Array<Record<string, unknown>> = []
  for (const [id, s] of scope.house.states) if (domain === undefined || id.startsWith(`${domain}.`)) out.push(templateState(s))
  return out.sort((a, b) => String(a.entity_id).localeCompare(String(b.entity_id)))
}

export function lookupState (scope: Scope, entityId: string): HassState | undefined {
  scope.listeners.entities.add(entityId)
  return scope.house.states.get(entityId.toLowerCase())
}

/** Python's str() of a value, which is what Jinja prints. */
export function pyStr (v: unknown): string {
  if (v === undefined) return ''
  if (typeof v === 'string') return v
  return pyRepr(v)
}

export function pyRepr (v: unknown): string {
  if (v === undefined || v === null) return 'None'
  if (v === true) return 'True'
  if (v === false) return 'False'
  if (typeof v === 'number') return Number.isInteger(v) || !Number.isFinite(v) ? String(v) : String(v)
  if (typeof v === 'string') return `'${v.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`
  if (Array.isArray(v)) return `[${v.map(pyRepr).join(', ')}]`
  if (v instanceof StatesRoot || v instanceof DomainStates) return '<template StateMachine>'
  if (typeof v === 'object') {
    const o = v as Record<string, unknown>
    if (typeof o.entity_id === 'string' && typeof o.state === 'string' && 'attributes' in o) return `<template TemplateState(<state ${o.entity_id}=${o.state}; ...>)>`
    return `{${Object.entries(o).map(([k, x]) => `${pyRepr(k)}: ${pyRepr(x)}`).join(', ')}}`
  }
  return String(v)
}

export function truthy (v: unknown): boolean {
  if (Array.isArray(v)) return v.length > 0
  if (v !== null && typeof v === 'object' && !(v instanceof StatesRoot) && !(v instanceof DomainStates)) return Object.keys(v).length > 0
  return Boolean(v)
}

/** Jinja attribute lookup with dotted paths ("attributes.device_class"). */
export function getPath (v: unknown, path: string): unknown {
  let cur = v
  for (const part of path.split('.')) {
    if (cur === null || cur === undefined || typeof cur !== 'object') return undefined
    cur = (cur as Record<string, unknown>)[part]
  }
  return cur
}

export function toNumber (v: unknown): number {
  if (typeof v === 'number') return v
  if (typeof v === 'boolean') return v ? 1 : 0
  if (typeof v === 'string' && v.trim() !== '' && !Number.isNaN(Number(v))) return Number(v)
  return Number.NaN
}

import type { House } from '../house.ts'
import type { HassContext, HassState } from '../types.ts'

export interface ServiceCall {
  domain: string
  service: string
  data: Record<string, unknown>
  /** entity ids resolved from target + entity_id in data, existing and in the service's domain */
  entityIds: string[]
  context: HassContext
  house: House
  returnResponse: boolean
}

export interface ServiceDef {
  name: string
  description: string
  fields: Record<string, unknown>
  /** domains whose entities this service targets; undefined = not an entity service */
  targetDomains?: string[]
  /** undefined: no response; optional: response on request; only: response required */
  response?: 'optional' | 'only'
  /** per-entity behaviour; its return value is the entity's response */
  perEntity?: (call: ServiceCall, entityId: string, state: HassState) => unknown
  /** domain-level behaviour; its return value is the response */
  run?: (call: ServiceCall) => unknown
}

export type ServiceTable = Record<string, Record<string, ServiceDef>>

export function svc (name: string, description: string, fields: Record<string, unknown>, rest: Omit<ServiceDef, 'name' | 'description' | 'fields'> = {}): ServiceDef {
  return { name, description, fields, ...rest }
}

export function field (name: string, selector: Record<string, unknown>, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { name, description: `${name}.`, selector, ...extra }
}

/** get_services wire shape of one description. */
export function describe (def: ServiceDef): Record<string, unknown> {
  const out: Record<string, unknown> = { name: def.name, description: def.description, fields: def.fields }
  if (def.targetDomains !== undefined) out.target = { entity: [def.targetDomains.length === 0 ? {} : { domain: def.targetDomains }] }
  if (def.response !== undefined) out.response = { optional: def.response === 'optional' }
  return out
}

import { HaError } from '../errors.ts'
import type { House } from '../house.ts'
import type { HassContext } from '../types.ts'
import { asArray, isoTime, isRecord } from '../util.ts'
import { automationServices } from './automation.ts'
import { conversationServices } from './conversation.ts'
import { deviceServices } from './devices.ts'
import { groupServices } from './groups.ts'
import { hassioServices } from './hassio.ts'
import { helperServices } from './helpers.ts'
import { runWrapper } from './wrappers.ts'
import { miscServices } from './misc.ts'
import { describe, type ServiceCall, type ServiceTable } from './registry.ts'
import { toggleServices } from './toggles.ts'
import { updateServices } from './updates.ts'

export interface CallRequest {
  domain: string
  service: string
  serviceData?: Record<string, unknown>
  target?: Record<string, unknown>
  returnResponse?: boolean
  via: 'ws' | 'rest'
  context?: HassContext
  /** made by an automation or script inside the house: not recorded as an incoming call */
  internal?: boolean
}

export interface CallOutcome { context: HassContext, response?: unknown, changed: string[] }

const TARGET_KEYS = ['entity_id', 'device_id', 'area_id', 'floor_id', 'label_id']
const VALID_ENTITY_ID = /^(?!.+__)(?!_)[\da-z_]+(?<!_)\.(?!_)[\da-z_]+(?<!_)$/

/**
 * An entity_id field as HA's cv.comp_entity_ids reads it: "all"/"none" (any case), else a string split on
 * commas with each part stripped, or a list; every id lower-cased and validated (one bad id fails the call).
 */
export function compEntityIds (value: unknown): string[] | 'all' | 'none' {
  if (value === undefined || value === null) return []
  if (typeof value === 'string' && ['all', 'none'].includes(value.toLowerCase())) return value.toLowerCase() as 'all' | 'none'
  const parts = typeof value === 'string' ? value.split(',').map(part => part.trim()) : Array.isArray(value) ? value : [value]
  return parts.map(part => {
    const id = typeof part === 'string' || typeof part === 'number' ? String(part).toLowerCase() : ''
    if (!VALID_ENTITY_ID.test(id)) throw new HaError('invalid_format', `Entity ID ${typeof part === 'string' ? part : JSON.stringify(part)} is an invalid entity ID for dictionary value @ data['entity_id']`)
    return id
  })
}

/** device_id, area_id, floor_id, label_id: "none" or one-or-many strings (cv.ensure_list, no comma split). */
function matchIds (value: unknown): string[] {
  return value === 'none' ? [] : asArray(value)
}

/**
 * homeassistant/helpers/group.py expand_entity_ids: an old-style group (`group.*`, members in its
 * `entity_id` attribute) and an integration group (a light group of the `group` platform) stand for their
 * members, recursively; a group never expands into itself, and each member counts once.
 */
export function expandGroups (h: House, ids: Iterable<string>, seen: Set<string> = new Set()): string[] {
  const out: string[] = []
  for (const id of ids) {
    if (seen.has(id)) continue
    seen.add(id)
    const members = h.states.get(id)?.attributes.entity_id
    const isGroup = id.startsWith('group.') || h.entities.get(id)?.platform === 'group'
    if (isGroup && Array.isArray(members)) out.push(...expandGroups(h, members.filter((m): m is string => typeof m === 'string').map(m => m.toLowerCase()), seen))
    else if (!isGroup) out.push(id)
  }
  return [...new Set(out)]
}

/** Every service of the home, and the one path every call (WS, REST, automations) goes through. */
export class Services {
  readonly table: ServiceTable
  private readonly house: House
  private descriptionsJson: string | null = null

  constructor (house: House) {
    this.house = house
    const table: ServiceTable = {}
    const merge = (part: ServiceTable): void => {
      for (const [domain, services] of Object.entries(part)) table[domain] = { ...table[domain], ...services }
    }
    merge(toggleServices(() => table))
    merge(deviceServices())
    merge(helperServices())
    merge(miscServices())
    merge(conversationServices())
    merge(automationServices(house))
    merge(groupServices())
    merge(updateServices())
    merge(hassioServices())
    this.table = table
    house.invoke = async req => await this.call(req)
  }

  /** get_services payload, serialised once (script.<name> services change it). */
  descriptions (): string {
    if (this.descriptionsJson === null) {
      const out: Record<string, Record<string, unknown>> = {}
      for (const [domain, services] of Object.entries(this.table)) {
        out[domain] = {}
        for (const [name, def] of Object.entries(services)) out[domain][name] = describe(def)
      }
      this.descriptionsJson = JSON.stringify(out)
    }
    return this.descriptionsJson
  }

  invalidate (): void { this.descriptionsJson = null }

  resolveTargets (target: Record<string, unknown>, domains: string[] | undefined): string[] {
    const h = this.house
    const wanted = new Set<string>()
    const ids = compEntityIds(target.entity_id)
    if (ids === 'all') {
      // HA's entity services target every entity of the platforms that registered the service.
      for (const id of h.states.keys()) wanted.add(id)
    } else if (ids !== 'none') {
      for (const id of expandGroups(h, ids)) wanted.add(id)
    }
    // As homeassistant/helpers/target.py (async_extract_referenced_entity_ids, core 2026.9+): a device
    // brings its child devices (dr.async_entries_for_parent_device); a label its entities, devices and
    // areas; a floor its areas; an area its devices, a child device without an area of its own counting in
    // its parent's (never a hub's through via_device_id), whose entities without an area of their own
    // follow, and the entities set to it. Hidden and config/diagnostic entities are left out of expansion.
    const devices = new Set<string>()
    const addDevice = (id: string): void => {
      devices.add(id)
      for (const child of h.devices.values()) if (child.parent_device_id === id) devices.add(child.id)
    }
    // A device id from before the 2026.8 split reaches the devices it became (target.py _resolve_referenced_devices).
    for (const id of matchIds(target.device_id)) for (const device of h.compositeDevices.get(id) ?? [id]) addDevice(device)
    const areas = new Set(matchIds(target.area_id))
    for (const label of matchIds(target.label_id)) {
      for (const entry of h.entities.values()) if (entry.labels.includes(label) && entry.hidden_by === null) wanted.add(entry.entity_id)
      for (const device of h.devices.values()) if (device.labels.includes(label)) addDevice(device.id)
      for (const area of h.areas.values()) if (area.labels.includes(label)) areas.add(area.area_id)
    }
    for (const floor of matchIds(target.floor_id)) for (const area of h.areas.values()) if (area.floor_id === floor) areas.add(area.area_id)
    if (devices.size > 0 || areas.size > 0) {
      const areaDevices = new Set([...h.devices.values()].filter(d => areas.has(h.deviceArea(d.id) ?? '')).map(d => d.id))
      for (const entry of h.entities.values()) {
        if (entry.entity_category !== null || entry.hidden_by !== null) continue
        const device = entry.device_id
        if ((device !== null && devices.has(device)) || (entry.area_id !== null && areas.has(entry.area_id)) || (entry.area_id === null && device !== null && areaDevices.has(device))) wanted.add(entry.entity_id)
      }
    }
    return [...wanted].filter(id => h.states.has(id) && (domains === undefined || domains.length === 0 || domains.includes(id.split('.')[0] as string)))
  }

  async call (req: CallRequest): Promise<CallOutcome> {
    const h = this.house
    const def = this.table[req.domain]?.[req.service]
    if (def === undefined) {
      throw new HaError('not_found', `Service ${req.domain}.${req.service} not found.`, { key: 'service_not_found', domain: 'homeassistant', placeholders: { domain: req.domain, service: req.service } })
    }
    const returnResponse = req.returnResponse === true
    if (returnResponse && def.response === undefined) {
      throw new HaError('service_validation_error', "Validation error: An action which does not return responses can't be called with return_response=True", { key: 'service_does_not_support_response', domain: 'homeassistant', placeholders: { return_response: 'return_response=True' } })
    }
    if (!returnResponse && def.response === 'only') {
      throw new HaError('service_validation_error', 'Validation error: The action requires responses and must be called with return_response=True', { key: 'service_lacks_response_request', domain: 'homeassistant', placeholders: { return_response: 'return_response=True' } })
    }
    const serviceData = req.serviceData ?? {}
    // homeassistant/core.py ServiceRegistry.async_call: `service_data.update(target)`. The two are merged
    // key by key; a key given in both takes the target's value, never the other way round.
    const target: Record<string, unknown> = {}
    const data: Record<string, unknown> = {}
    for (const [key, value] of Object.entries({ ...serviceData, ...(req.target ?? {}) })) {
      if (TARGET_KEYS.includes(key)) target[key] = value
      else data[key] = value
    }
    for (const value of Object.values(target)) {
      if (typeof value === 'string' && value.includes('{{')) throw new HaError('invalid_format', 'Templates are not supported here')
    }
    const context = req.context ?? h.newContext(h.userId)
    if (req.internal !== true) {
      h.serviceCalls.push({
        domain: req.domain,
        service: req.service,
        service_data: serviceData,
        ...(req.target === undefined ? {} : { target: req.target }),
        return_response: returnResponse,
        time: isoTime(Date.now()),
        via: req.via
      })
    }
    if (req.context === undefined) {
      h.contextOrigins.set(context.id, { context_user_id: context.user_id, context_event_type: 'call_service', context_domain: req.domain, context_service: req.service })
    }
    h.fire('call_service', { domain: req.domain, service: req.service, service_data: { ...serviceData, ...(req.target ?? {}) } }, context)
    const changed: string[] = []
    const stop = h.subscribe(m => { if (m.event.event_type === 'state_changed') changed.push(String(m.event.data.entity_id)) })
    try {
      const call: ServiceCall = { domain: req.domain, service: req.service, data, entityIds: [], context, house: h, returnResponse }
      let response: unknown
      if (def.perEntity !== undefined) {
        call.entityIds = this.resolveTargets(target, def.targetDomains)
        if (returnResponse && call.entityIds.length === 0) throw new HaError('home_assistant_error', 'Service call requested response data but did not match any entities')
        const perEntity: Record<string, unknown> = {}
        for (const id of call.entityIds) {
          const state = h.states.get(id)
          if (state === undefined) continue
          if (await runWrapper(h, id, req.service, context)) { perEntity[id] = undefined; continue }
          perEntity[id] = await def.perEntity(call, id, state)
        }
        response = perEntity
        refreshGroups(h, call.entityIds, context)
      } else if (def.run !== undefined) {
        response = await def.run(call)
      }
      const outcome: CallOutcome = { context, changed }
      if (returnResponse) outcome.response = isRecord(response) ? response : (response ?? null)
      return outcome
    } finally {
      stop()
    }
  }
}

/**
 * An integration group's state follows its members (homeassistant/components/group/light.py
 * async_update_group_state: on when any member is on); old-style groups keep theirs in the demo.
 */
function refreshGroups (h: House, changed: string[], context: HassContext): void {
  const touched = new Set(changed)
  for (const entry of h.entities.values()) {
    if (entry.platform !== 'group' || entry.entity_id.startsWith('group.')) continue
    const state = h.states.get(entry.entity_id)
    const members = state?.attributes.entity_id
    if (state === undefined || !Array.isArray(members) || !members.some(m => touched.has(String(m)))) continue
    const on = members.some(m => h.states.get(String(m))?.state === 'on')
    if ((state.state === 'on') !== on) h.updateState(entry.entity_id, { state: on ? 'on' : 'off' }, context)
  }
}

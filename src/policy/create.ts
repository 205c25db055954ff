import { realClock } from '../clock.ts'
import { join } from 'node:path'
import type { HomeAssistant } from '../ha/index.ts'
import { ConfigReader, configKey } from '../home/configs.ts'
import { domainOf } from '../home/entities.ts'
import type { AppLogger } from '../logger.ts'
import type { Options } from '../options.ts'
import { SlidingWindow } from '../sliding-window.ts'
import { isRecord } from '../shape.ts'
import { approvalNotices } from './approval-notices.ts'
import { OwnerApprovals } from './approvals.ts'
import { AuditLog, type AuditLogOptions } from './audit.ts'
import { ConfirmStore } from './confirm.ts'
import { WriteGuard } from './guard.ts'
import { UndoStore } from './undo.ts'
import type { Schedule } from './reached.ts'
import { serviceDomainsOf, type ServiceDescriptions, type Wrapper } from './targets.ts'

export const NOTIFY_PER_MINUTE = 6
export const ANNOUNCE_PER_MINUTE = 3
const SERVICES_TTL_MS = 10 * 60_000
/** What a switch_as_x or template helper acts on is read again after this long (an owner may edit it). */
const WRAPPER_TTL_MS = 30_000
const MAX_CACHED_WRAPPERS = 500

/** The switch a switch_as_x entity wraps, from its registry entry's options (core switch_as_x/entity.py async_generate_entity_options). */
async function wrappedSwitch (ha: HomeAssistant, entityId: string): Promise<string | undefined> {
  const got = await ha.command<{ options?: unknown }>({ type: 'config/entity_registry/get', entity_id: entityId }).catch(() => undefined)
  const own = isRecord(got?.options) ? got.options.switch_as_x : undefined
  return isRecord(own) && typeof own.entity_id === 'string' ? own.entity_id : undefined
}

/**
 * A helper config entry's options, as its options flow shows them (helpers/schema_config_entry_flow.py
 * fills each field's suggested_value from the options, as the frontend's options dialog reads them); the
 * flow is aborted at once. Home Assistant has no other way to read a config entry's options.
 */
async function entryOptions (ha: HomeAssistant, entryId: string): Promise<Record<string, unknown> | undefined> {
  const path = '/api/config/config_entries/options/flow'
  const answer = await ha.rest.request('POST', path, { handler: entryId, show_advanced_options: true }).catch(() => undefined)
  if (answer?.status !== 200) return undefined
  let step: unknown
  try { step = JSON.parse(answer.body.toString('utf8')) } catch { return undefined }
  if (!isRecord(step)) return undefined
  if (typeof step.flow_id === 'string') await ha.rest.request('DELETE', `${path}/${step.flow_id}`).catch(() => undefined)
  if (step.type !== 'form' || !Array.isArray(step.data_schema)) return undefined
  const options: Record<string, unknown> = {}
  for (const field of step.data_schema) {
    if (!isRecord(field) || typeof field.name !== 'string') continue
    const suggested = isRecord(field.description) ? field.description.suggested_value : undefined
    const value = suggested ?? field.default
    if (value !== undefined && value !== null) options[field.name] = value
  }
  return options
}

export interface PolicyOptions {
  /** Test hooks: a fake clock, a short confirmation TTL, a small rotation size, an audit sink. */
  now?: () => number
  /** Timers for the bounded wait on the states a write caused. */
  schedule?: Schedule
  confirmTtlMs?: number
  /** How long an approval waits for the owner (`confirm_with: owner`). */
  approvalTtlMs?: number
  audit?: Omit<AuditLogOptions, 'file'>
}

export interface PolicyDeps extends PolicyOptions {
  ha: HomeAssistant
  /** Read at each write, so a changed option applies at once. */
  options: () => Options
  dataDir: string
  log: AppLogger
}

/** The guarded write path, its audit trail, undo history and per-target write caps. */
export interface PolicyServices {
  guard: WriteGuard
  audit: AuditLog
  undo: UndoStore
  /** Pending confirmations, per identity; the guard's confirm tokens and any other way of asking share it. */
  confirms: ConfirmStore
  /** Calls waiting for the owner's approval (`confirm_with: owner`): the status page lists and decides them. */
  approvals: OwnerApprovals
  /** Per-target write caps: notifications 6/min, announcements 3/min (the HTTP limits are src/request-limits.ts). */
  writeCaps: { notify: SlidingWindow, announce: SlidingWindow }
}

export function createPolicy (deps: PolicyDeps): PolicyServices {
  const { ha } = deps
  const now = deps.now ?? realClock.now
  const audit = new AuditLog({
    file: join(deps.dataDir, 'audit.log'),
    warn: message => { deps.log.warning(message) },
    now,
    ...deps.audit
  })
  const undo = new UndoStore()
  const confirms = new ConfirmStore({ now, ttlMs: deps.confirmTtlMs })
  const approvals = new OwnerApprovals({ now, ...(deps.schedule ? { schedule: deps.schedule } : {}), ...(deps.approvalTtlMs === undefined ? {} : { ttlMs: deps.approvalTtlMs }) })
  approvals.useNotices(approvalNotices({
    command: async message => await ha.command(message),
    subscribe: (message, callback) => { ha.connection.subscribe(message, callback) },
    decide: async (key, decision, via, decidedBy) => await approvals.decide(key, decision, via, decidedBy),
    log: deps.log
  }))
  let services: { at: number, all: ServiceDescriptions } | undefined
  const configs = new ConfigReader({ ha, now })
  const wrappers = new Map<string, { at: number, wrapper: Wrapper }>()
  const guard = new WriteGuard({
    command: async message => await ha.command(message),
    options: deps.options,
    audit,
    confirms,
    approvals,
    undo,
    state: entityId => ha.states.get(entityId),
    changes: listener => ha.states.onChange(change => { listener(change.entityId) }),
    schedule: deps.schedule,
    house: {
      entityIds: () => ha.states.ids(),
      registry: async () => ha.registries.peek() ?? await ha.registries.snapshot().catch(() => undefined),
      state: entityId => ha.states.get(entityId),
      serviceDomains: async (domain, service) => {
        // Descriptions are read once and again when a service is not in them (one registered since).
        const fresh = async (): Promise<ServiceDescriptions> => (services = { at: now(), all: await ha.command<ServiceDescriptions>({ type: 'get_services' }) }).all
        const all = services && now() - services.at < SERVICES_TTL_MS && services.all[domain]?.[service] !== undefined ? services.all : await fresh()
        return serviceDomainsOf(all, domain, service)
      },
      wrapper: async entityId => {
        const registry = ha.registries.peek() ?? await ha.registries.snapshot().catch(() => undefined)
        const entry = registry?.entities.get(entityId)
        const entryId = entry?.config_entry_id
        if (typeof entryId !== 'string' || (entry?.platform !== 'switch_as_x' && entry?.platform !== 'template')) return undefined
        const cached = wrappers.get(entityId)
        if (cached !== undefined && now() - cached.at < WRAPPER_TTL_MS) return cached.wrapper
        const wrapper: Wrapper = entry.platform === 'switch_as_x'
          ? { kind: 'switch_as_x', wraps: await wrappedSwitch(ha, entityId) }
          : { kind: 'template', options: await entryOptions(ha, entryId) }
        if (wrappers.size >= MAX_CACHED_WRAPPERS) wrappers.clear()
        wrappers.set(entityId, { at: now(), wrapper })
        return wrapper
      },
      runConfig: async entityId => {
        const kind = domainOf(entityId)
        if (kind !== 'script' && kind !== 'automation') return undefined
        const key = configKey(kind, entityId, ha.states.get(entityId), ha.registries.peek() ?? await ha.registries.snapshot().catch(() => undefined))
        const stored = key === undefined ? undefined : await configs.read(kind, key)
        if (stored !== undefined) return stored
        // A YAML-defined script or automation has no stored config, yet Home Assistant gives the config
        // it runs by entity (core script/__init__.py and automation/__init__.py websocket_config; the
        // frontend's getScriptStateConfig), so owners' YAML scripts are walked, not refused unread.
        const answer = await ha.command<{ config?: unknown }>(kind === 'script' ? { type: 'script/config', entity_id: entityId } : { type: 'automation/config', entity_id: entityId }).catch(() => undefined)
        const config = answer?.config
        return isRecord(config) ? config : undefined
      }
    },
    now
  })
  return {
    guard,
    audit,
    undo,
    confirms,
    approvals,
    writeCaps: {
      notify: new SlidingWindow(NOTIFY_PER_MINUTE, 60_000, now),
      announce: new SlidingWindow(ANNOUNCE_PER_MINUTE, 60_000, now)
    }
  }
}

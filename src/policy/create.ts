import { join } from 'node:path'
import type { HomeAssistant } from '../ha/index.ts'
import type { RegistrySnapshot } from '../ha/registries.ts'
import type { AppLogger } from '../logger.ts'
import type { Options } from '../options.ts'
import { AuditLog, type AuditLogOptions } from './audit.ts'
import { ConfirmStore } from './confirm.ts'
import { WriteGuard } from './guard.ts'
import { TargetRateLimiter } from './rate-limit.ts'
import { domainOf } from './targets.ts'
import type { ServiceTarget } from './types.ts'
import { UndoStore } from './undo.ts'

export const NOTIFY_PER_MINUTE = 6
export const ANNOUNCE_PER_MINUTE = 3

export interface PolicyOptions {
  /** Test hooks: a fake clock, a short confirmation TTL, a small rotation size, an audit sink. */
  now?: () => number
  confirmTtlMs?: number
  audit?: Omit<AuditLogOptions, 'file'>
}

export interface PolicyDeps extends PolicyOptions {
  ha: HomeAssistant
  /** Read at each write, so a changed option applies at once. */
  options: () => Options
  dataDir: string
  log: AppLogger
}

/** The guarded write path, its audit trail, undo history and per-target rate caps. */
export interface PolicyServices {
  guard: WriteGuard
  audit: AuditLog
  undo: UndoStore
  rateLimits: { notify: TargetRateLimiter, announce: TargetRateLimiter }
}

const list = (value: string | string[] | undefined): string[] => value === undefined ? [] : Array.isArray(value) ? value : [value]

/** Entities an indirect target reaches, limited to the service's domain unless it is a generic one. */
export function expandTarget (snapshot: RegistrySnapshot | undefined, target: ServiceTarget, domain: string): string[] {
  if (!snapshot) return []
  const areas = new Set(list(target.area_id))
  const devices = new Set(list(target.device_id))
  const floors = new Set(list(target.floor_id))
  const labels = new Set(list(target.label_id))
  const anyDomain = domain === 'homeassistant'
  const out: string[] = []
  for (const entry of snapshot.entities.values()) {
    if (!anyDomain && domainOf(entry.entity_id) !== domain) continue
    const area = snapshot.entityArea(entry.entity_id)
    const floor = snapshot.entityFloor(entry.entity_id)
    if ((area && areas.has(area)) || (entry.device_id && devices.has(entry.device_id)) || (floor && floors.has(floor)) || (entry.labels ?? []).some(l => labels.has(l))) {
      out.push(entry.entity_id)
    }
  }
  return out
}

export function createPolicy (deps: PolicyDeps): PolicyServices {
  const { ha } = deps
  const now = deps.now ?? Date.now
  const audit = new AuditLog({
    file: join(deps.dataDir, 'audit.log'),
    warn: message => { deps.log.warning(message) },
    now,
    ...deps.audit
  })
  const undo = new UndoStore()
  const guard = new WriteGuard({
    command: async message => await ha.command(message),
    options: deps.options,
    audit,
    confirms: new ConfirmStore({ now, ttlMs: deps.confirmTtlMs }),
    undo,
    state: entityId => ha.states.get(entityId),
    expandTarget: (target, domain) => expandTarget(ha.registries.peek(), target, domain),
    now
  })
  return {
    guard,
    audit,
    undo,
    rateLimits: {
      notify: new TargetRateLimiter(NOTIFY_PER_MINUTE, 60_000, now),
      announce: new TargetRateLimiter(ANNOUNCE_PER_MINUTE, 60_000, now)
    }
  }
}

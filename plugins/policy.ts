import { join } from 'node:path'
import fp from 'fastify-plugin'
import type { FastifyInstance } from 'fastify'
import type { RegistrySnapshot } from '../src/ha/registries.ts'
import { AuditLog, type AuditLogOptions } from '../src/policy/audit.ts'
import { ConfirmStore } from '../src/policy/confirm.ts'
import { WriteGuard } from '../src/policy/guard.ts'
import { TargetRateLimiter } from '../src/policy/rate-limit.ts'
import { ANNOUNCE_PER_MINUTE, NOTIFY_PER_MINUTE } from '../src/policy/services.ts'
import { domainOf } from '../src/home/entities.ts'
import type { ServiceTarget } from '../src/policy/types.ts'
import { UndoStore } from '../src/policy/undo.ts'

declare module 'fastify' {
  interface FastifyInstance {
    policy: WriteGuard
    audit: AuditLog
    undo: UndoStore
    rateLimits: { notify: TargetRateLimiter, announce: TargetRateLimiter }
  }
}

export interface PolicyPluginOptions {
  /** Test hooks: a fake clock, a short confirmation TTL, a small rotation size, an audit sink. */
  now?: () => number
  confirmTtlMs?: number
  audit?: Omit<AuditLogOptions, 'file'>
}

const list = (value: string | string[] | undefined): string[] => value === undefined ? [] : Array.isArray(value) ? value : [value]

/** Entities an indirect target reaches, limited to the service's domain unless it is a generic one. */
function expandTarget (snapshot: RegistrySnapshot | undefined, target: ServiceTarget, domain: string): string[] {
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

/** The guarded write path, its audit trail, undo history and per-target rate caps. */
async function policyPlugin (fastify: FastifyInstance, opts: PolicyPluginOptions): Promise<void> {
  const { config, ha } = fastify
  const now = opts.now ?? Date.now
  const audit = new AuditLog({
    file: join(config.dataDir, 'audit.log'),
    warn: message => { fastify.log.warning(message) },
    now,
    ...opts.audit
  })
  const undo = new UndoStore()
  const guard = new WriteGuard({
    command: async message => await ha.command(message),
    options: () => config.options,
    audit,
    confirms: new ConfirmStore({ now, ttlMs: opts.confirmTtlMs }),
    undo,
    state: entityId => ha.states.get(entityId),
    expandTarget: (target, domain) => expandTarget(ha.registries.peek(), target, domain),
    now
  })
  fastify.decorate('policy', guard)
  fastify.decorate('audit', audit)
  fastify.decorate('undo', undo)
  fastify.decorate('rateLimits', {
    notify: new TargetRateLimiter(NOTIFY_PER_MINUTE, 60_000, now),
    announce: new TargetRateLimiter(ANNOUNCE_PER_MINUTE, 60_000, now)
  })
  fastify.addHook('onClose', async () => { await audit.flush() })
}

export default fp(policyPlugin, { name: 'policy', dependencies: ['config', 'home-assistant'], fastify: '5.x' })

import { join } from 'node:path'
import fp from 'fastify-plugin'
import type { FastifyInstance } from 'fastify'
import { AuditLog, type AuditLogOptions } from '../src/policy/audit.ts'
import { ConfirmStore } from '../src/policy/confirm.ts'
import { WriteGuard } from '../src/policy/guard.ts'
import { TargetRateLimiter } from '../src/policy/rate-limit.ts'
import { ANNOUNCE_PER_MINUTE, NOTIFY_PER_MINUTE } from '../src/policy/services.ts'
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
    house: {
      entityIds: () => ha.states.ids(),
      registry: async () => ha.registries.peek() ?? await ha.registries.snapshot().catch(() => undefined)
    },
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

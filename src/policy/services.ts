import type { AuditApi, WriteGuardApi, WriteRunContext } from './types.ts'
import type { TargetRateLimiter } from './rate-limit.ts'
import type { UndoStore } from './undo.ts'

/** The policy services tools reach through `ctx.services` (provided by plugins/policy.ts). */
declare module '../mcp/services.ts' {
  interface ToolServices {
    guard?: WriteGuardApi
    audit?: AuditApi
    undo?: UndoStore
    /** Per-target caps: notifications 6/min, announcements 3/min. */
    rateLimits?: { notify: TargetRateLimiter, announce: TargetRateLimiter }
    /** Set by a session whose client supports elicitation: asks the human instead of issuing a token. */
    confirmer?: WriteRunContext['confirmer']
  }
}

export const NOTIFY_PER_MINUTE = 6
export const ANNOUNCE_PER_MINUTE = 3

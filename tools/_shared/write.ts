import { z } from 'zod'
import { isUserError, UserError } from '../../src/errors.ts'
import { requireEntity } from '../../src/home/entities.ts'
import type { ToolCallContext, ToolContext } from '../../src/mcp/runtime/define-tool.ts'
import { writeLabel } from '../../src/policy/guard.ts'
import type { WriteOutcome, WriteRequest } from '../../src/policy/types.ts'

/** Shared by every write tool: the same wording for the guard's two standard arguments. */
export const dryRunArg = () =>
  z.boolean().default(false).describe('Preview only.')

export const confirmTokenArg = () =>
  z.string().trim().max(100).optional().describe('Once the user agreed.')

/**
 * Runs one write through the guarded path with the caller's identity, the session's elicitation (if
 * any), and how the owner's approval re-runs the call (`confirm_with: owner`).
 */
export async function guardedWrite (ctx: Pick<ToolContext, 'services' | 'identity'>, request: WriteRequest): Promise<WriteOutcome> {
  const { guard, confirmer, rerun, ownerGrant } = ctx.services
  return await guard.run(ctx.identity, request, { ...(confirmer ? { confirmer } : {}), ...(rerun ? { rerun } : {}), ...(ownerGrant ? { ownerGrant } : {}) })
}

/** The arguments of a write on one named entity. */
export interface EntityWriteArgs { entity_id: string, dry_run: boolean, confirm_token?: string | undefined }

/** One service call on the one entity a tool names, through the guarded path, answered as `formatOutcome` does. */
export async function callOnEntity (ctx: ToolCallContext, args: EntityWriteArgs, domain: string, service: string, data?: Record<string, unknown>): Promise<Record<string, unknown>> {
  requireEntity(ctx.home, args.entity_id)
  return formatOutcome(await guardedWrite(ctx, {
    kind: 'service',
    tool: ctx.tool,
    domain,
    service,
    target: { entity_id: args.entity_id },
    ...(data ? { data } : {}),
    dryRun: args.dry_run,
    confirmToken: args.confirm_token
  }))
}

/**
 * The answer a model sees: `{success, ...}` when done, `{dry_run, would_call}` for a dry run, or
 * `{confirmation_required, confirm_token, ...}` when a human must agree first, `{awaiting_owner, confirm_token, ...}`
 * while the owner has not approved it (`confirm_with: owner`).
 */
export function formatOutcome (outcome: WriteOutcome, done: (result: unknown) => Record<string, unknown> = serviceResponse): Record<string, unknown> {
  switch (outcome.status) {
    case 'done':
      return { success: true, ...done(outcome.result), ...effectOf(outcome), ...(outcome.undo_available ? { undo_available: true } : {}) }
    case 'dry_run':
      return { dry_run: true, would_call: outcome.would_call, ...(outcome.reaches ? { reaches: outcome.reaches } : {}), ...(outcome.notes ? { notes: outcome.notes } : {}) }
    case 'confirmation_required':
      return {
        confirmation_required: true,
        confirm_token: outcome.confirm_token,
        expires_in_seconds: outcome.expires_in_s,
        preview: outcome.preview,
        how: outcome.how
      }
    case 'awaiting_owner':
      return {
        awaiting_owner: true,
        confirm_token: outcome.confirm_token,
        expires_in_seconds: outcome.expires_in_s,
        preview: outcome.preview,
        how: outcome.how
      }
  }
}

/** What a service call did, as the answer says it: the entities reached, their states, and whether anything changed. */
function effectOf (outcome: Extract<WriteOutcome, { status: 'done' }>): Record<string, unknown> {
  if (outcome.reached === undefined) return {}
  const out: Record<string, unknown> = { entities: outcome.reached }
  if (outcome.states) out.states = outcome.states
  const unchanged = outcome.unchanged ?? []
  if (outcome.states && unchanged.length > 0) {
    out.unchanged = unchanged
    if (unchanged.length >= Object.keys(outcome.states).length) out.note = `Nothing changed: Home Assistant reported no new state for ${unchanged.length === 1 ? unchanged[0] as string : `any of the ${unchanged.length} entities`} (already so, or the device did not answer).`
  }
  return out
}

/** call_service answers `{context, response?}`: only the response is worth showing. */
export function serviceResponse (result: unknown): Record<string, unknown> {
  const response = (result as { response?: unknown } | null)?.response
  return response === undefined || response === null ? {} : { response }
}

/** A write that takes a per-target slot first (notifications, announcements), released if nothing was sent. */
export async function rateLimitedWrite (ctx: Pick<ToolContext, 'services' | 'identity'>, limiter: 'notify' | 'announce', key: string, request: WriteRequest): Promise<WriteOutcome> {
  if (request.dryRun === true) return await guardedWrite(ctx, request)
  const limits = ctx.services.writeCaps
  const slot = limits[limiter].take(key)
  if ('retryAfterS' in slot) {
    ctx.services.audit.record({ tool: request.tool, identity: ctx.identity.id, identity_name: ctx.identity.name, outcome: 'refused', ...writeLabel(request), reason: 'rate_limit' })
    throw new UserError('HAMCP_RATE_LIMITED', `Rate limit: at most ${limits[limiter].limit} per minute for ${key}.`, `Try again in ${slot.retryAfterS} s.`)
  }
  try {
    const outcome = await guardedWrite(ctx, request)
    if (outcome.status !== 'done') slot.release()
    return outcome
  } catch (err) {
    // Refused before anything was sent: the slot is not spent. A failure from Home Assistant still counts.
    if (isUserError(err)) slot.release()
    throw err
  }
}

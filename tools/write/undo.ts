import { z } from 'zod'
import { UserError } from '../../src/errors.ts'
import { defineTool, type ToolCallContext, type ToolContext } from '../../src/mcp/define-tool.ts'
import { changedFacts, type Shown } from '../../src/policy/confirm.ts'
import type { WriteOutcome, WriteRequest } from '../../src/policy/types.ts'
import { createdId, restoreCalls, withCreatedId, type RestoreCommand, type UndoRecord } from '../../src/policy/undo.ts'
import { confirmTokenArg, dryRunArg, formatOutcome, guardedWrite } from '../_shared/write.ts'

interface Guarded { dry_run: boolean, confirm_token?: string | undefined }

/** What changed since the write, as ha_undo reads it now; undefined when the record cannot tell. */
interface Since { now: Shown, changes: string[] }

async function changedSince (record: UndoRecord): Promise<Since | undefined> {
  if (!record.wrote || !record.current) return undefined
  const now = await record.current()
  return { now, changes: changedFacts(record.wrote, now) }
}

/**
 * The undo's guarded request, bound to this record and to what is there now. When something changed
 * since the write, undo would overwrite newer work: the request then always needs the user's yes,
 * with a preview saying what would be lost, and without one the answer is HAMCP_CONFLICT.
 */
async function undoWrite (ctx: ToolContext, record: UndoRecord, since: Since | undefined, request: WriteRequest): Promise<WriteOutcome> {
  const changes = since?.changes ?? []
  const forced = changes.length > 0
    ? { confirmPreview: `Undo of ${record.call} would overwrite what changed in Home Assistant since that write:\n${changes.map(c => `- ${c}`).join('\n')}\nOnly confirm if the user wants the older values back anyway.` }
    : {}
  const outcome = await guardedWrite(ctx, { ...request, asked: { undo: record.call, at: record.at }, ...(since ? { basis: since.now } : {}), ...forced })
  if (changes.length > 0 && outcome.status === 'confirmation_required') {
    throw new UserError(
      'HAMCP_CONFLICT',
      `Changed in Home Assistant since ${record.call}, so undo would overwrite newer work; nothing was written. Changed: ${changes.join('; ')}.`,
      `To put the older values back anyway, show the user what would be lost and, if they agree, call ha_undo again with confirm_token ${outcome.confirm_token} (valid ${outcome.expires_in_s} s).`,
      { changes, preview: outcome.preview, confirm_token: outcome.confirm_token, expires_in_seconds: outcome.expires_in_s }
    )
  }
  return outcome
}

/** A config change is put back like any config write: preview, confirmation, audit line. */
async function revertConfig (ctx: ToolCallContext, record: UndoRecord & { revert: NonNullable<UndoRecord['revert']> }, args: Guarded): Promise<Record<string, unknown>> {
  if (ctx.options.allow_config_write !== true) throw new UserError('HAMCP_NOT_SUPPORTED', `The last write (${record.call}) was a config change; undoing it needs allow_config_write.`, 'Ask the owner to turn allow_config_write on.')
  const { revert } = record
  const since = await changedSince(record)
  const overwrites = since && since.changes.length > 0 ? since.changes : undefined
  const preview = overwrites ? `${revert.preview}\nThis overwrites what changed in Home Assistant since that write:\n${overwrites.map(c => `- ${c}`).join('\n')}` : revert.preview
  const outcome = await undoWrite(ctx, record, since, {
    tool: ctx.tool,
    domain: 'undo',
    service: 'revert',
    data: { call: record.call, at: record.at },
    dryRun: args.dry_run,
    ...(args.confirm_token === undefined ? {} : { confirmToken: args.confirm_token }),
    config: { preview, entities: revert.entities ?? [] },
    undoable: false,
    // Confirmed with the changes shown, the revert may overwrite them.
    execute: async () => await revert.run(overwrites !== undefined)
  })
  if (outcome.status === 'done') ctx.services.undo.forget(ctx.identity.id, record)
  if (outcome.status === 'dry_run') return { dry_run: true, undid: record.call, preview: revert.preview }
  return formatOutcome(outcome, result => ({ undid: record.call, ...(result as Record<string, unknown>) }))
}

export default defineTool({
  name: 'ha_undo',
  title: 'Undo the last write',
  description: 'Revert your last write: states a service call changed, or a scene, event, dashboard or registry edit.',
  kind: 'write',
  alsoKind: 'manage',
  input: z.object({
    dry_run: dryRunArg(),
    confirm_token: confirmTokenArg()
  }),
  async handler (ctx, args) {
    const undo = ctx.services.undo
    const record = undo.last(ctx.identity.id)
    if (!record) throw new UserError('HAMCP_NOT_FOUND', 'Nothing to undo for this client.', 'Undo covers the last allowed write made with this token since the add-on started.')
    if (record.revert) return await revertConfig(ctx, { ...record, revert: record.revert }, args)
    if (record.commands) return await undoCommands(ctx, args, record, record.commands)
    if (ctx.options.allow_write !== true) throw new UserError('HAMCP_NOT_SUPPORTED', `The last write (${record.call}) was a service call; undoing it needs allow_write.`, 'Ask the owner to turn allow_write on.')
    const calls = record.states.flatMap(restoreCalls)
    if (calls.length === 0) {
      undo.forget(ctx.identity.id, record)
      throw new UserError('HAMCP_NOT_SUPPORTED', `The last write (${record.call}) touched nothing that can be restored.`, 'Restore it by hand with ha_call_service.')
    }
    const since = await changedSince(record)
    // One guarded request for the whole restore: audited, checked against the lists, confirmed once if needed.
    const outcome = await undoWrite(ctx, record, since, {
      tool: ctx.tool,
      domain: 'undo',
      service: 'restore',
      target: { entity_id: record.states.map(s => s.entity_id) },
      data: { calls },
      dryRun: args.dry_run,
      confirmToken: args.confirm_token,
      undoable: false,
      execute: async () => {
        for (const call of calls) {
          await ctx.ha.command({ type: 'call_service', domain: call.domain, service: call.service, target: call.target, ...(call.data ? { service_data: call.data } : {}) })
        }
        return calls.length
      }
    })
    if (outcome.status === 'done') undo.forget(ctx.identity.id, record)
    const conflicts = since && since.changes.length > 0 ? { overwrites: since.changes } : {}
    return { ...formatOutcome(outcome, () => ({ restored: record.states.map(s => s.entity_id), undid: record.call, ...conflicts })), ...(outcome.status === 'dry_run' ? conflicts : {}) }
  }
})

/** Registry edits: replay the commands that put the previous values back, as one guarded write. */
async function undoCommands (ctx: ToolCallContext, args: Guarded, record: UndoRecord, commands: RestoreCommand[]): Promise<Record<string, unknown>> {
  const since = await changedSince(record)
  const outcome = await undoWrite(ctx, record, since, {
    tool: ctx.tool,
    domain: 'undo',
    service: 'restore',
    ...(record.entities && record.entities.length > 0 ? { target: { entity_id: record.entities } } : {}),
    // Bound to this very record; the commands themselves name areas and devices as values, not targets.
    data: { undo: record.call, at: record.at, steps: commands.length },
    dryRun: args.dry_run,
    confirmToken: args.confirm_token,
    undoable: false,
    execute: async () => {
      let created: string | undefined
      for (const command of commands) {
        const result = await ctx.ha.command(withCreatedId(command, created))
        if (command.type.endsWith('/create')) created = createdId(result)
      }
      return commands.length
    }
  })
  if (outcome.status === 'done') ctx.services.undo.forget(ctx.identity.id, record)
  const notes = {
    ...(record.unrestorable && record.unrestorable.length > 0 ? { not_restored: record.unrestorable } : {}),
    ...(since && since.changes.length > 0 ? { overwrites: since.changes } : {})
  }
  if (outcome.status === 'dry_run') return { dry_run: true, would_undo: record.call, steps: commands.length, ...notes }
  return { ...formatOutcome(outcome, () => ({ undid: record.call, steps: commands.length, ...notes })) }
}

import { UserError } from '../../src/errors.ts'
import type { ToolContext } from '../../src/mcp/runtime/define-tool.ts'
import { changedSincePreview } from '../../src/policy/confirm.ts'
import type { Revert } from '../../src/policy/undo.ts'
import { formatOutcome, guardedWrite } from './write.ts'

/**
 * The last step every config tool shares: the guarded write with a preview a human reads, a base hash
 * that voids the confirmation when the config changed meanwhile, and an answer carrying the undo YAML.
 */
export interface ConfigWrite {
  tool: string
  /** automation, script or lovelace: what the audit line names. */
  domain: string
  /** create, update, delete, add_card. */
  action: string
  /**
   * An edit no Home Assistant config of an entity's domain holds (the energy settings, a config-flow
   * helper): the Home Assistant request that saves it, which names it in the audit instead of
   * domain.action. No service does it, so service_denylist does not apply.
   */
  operation?: string
  /** What is being changed, for messages: an entity id, a new id, a dashboard. */
  subject: string
  /** Everything the confirmation is bound to (the new config, the id...). */
  payload: Record<string, unknown>
  preview: string
  /** Hash of the config as it is now ('none' when creating). */
  baseHash: string
  entities: string[]
  dryRun: boolean
  confirmToken: string | undefined
  /** Re-reads the current config's hash right before writing. */
  currentHash: () => Promise<string>
  /** The write itself; its answer (ids, previous/deleted YAML) is returned to the caller. */
  execute: () => Promise<Record<string, unknown>>
  /** How ha_undo reverses it, from the write's answer; without it the change is not undoable. */
  revert?: (result: Record<string, unknown>) => Revert | undefined
  /** What a dry run answers once every rule passed, when the tool has more to show than the preview (a flow's form). */
  dryRunAnswer?: () => Promise<Record<string, unknown>>
}

function changedMeanwhile (subject: string): UserError {
  return new UserError(
    'HAMCP_CONFLICT',
    changedSincePreview(subject),
    'Call again without confirm_token to see a fresh preview of the change against the current config.'
  )
}

export async function runConfigWrite (ctx: ToolContext, write: ConfigWrite): Promise<Record<string, unknown>> {
  const outcome = await guardedWrite(ctx, {
    kind: 'config',
    tool: write.tool,
    domain: write.domain,
    action: write.action,
    ...(write.operation === undefined ? {} : { operation: write.operation }),
    data: write.payload,
    dryRun: write.dryRun,
    ...(write.confirmToken === undefined ? {} : { confirmToken: write.confirmToken }),
    confirm: { preview: write.preview, baseHash: write.baseHash, subject: write.subject, entities: write.entities },
    ...(write.revert ? { revert: (result: unknown) => write.revert?.(result as Record<string, unknown>) } : {}),
    execute: async () => {
      // Closes the window between the confirmation and the write.
      if (await write.currentHash() !== write.baseHash) throw changedMeanwhile(write.subject)
      return await write.execute()
    }
  })
  if (outcome.status === 'dry_run') {
    if (write.dryRunAnswer) return { dry_run: true, preview: write.preview, ...await write.dryRunAnswer() }
    return { dry_run: true, valid: true, preview: write.preview, notes: ['Home Assistant accepted the config; the real call needs a confirmation.'] }
  }
  return formatOutcome(outcome, result => result as Record<string, unknown>)
}

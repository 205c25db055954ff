import { UserError } from '../../src/errors.ts'
import type { ToolContext } from '../../src/mcp/define-tool.ts'
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
}

interface Issued { subject: string, baseHash: string, expiresAt: number }

/** Base hash each recently issued token was bound to, only to explain a refusal in plain words. */
const issued = new Map<string, Issued>()
const ISSUED_MAX = 200

function remember (token: string, entry: Issued): void {
  const now = Date.now()
  for (const [key, value] of issued) if (value.expiresAt < now) issued.delete(key)
  issued.set(token, entry)
  while (issued.size > ISSUED_MAX) {
    const oldest = issued.keys().next().value
    if (oldest === undefined) break
    issued.delete(oldest)
  }
}

function changedMeanwhile (subject: string): UserError {
  return new UserError(
    'HAMCP_CONFLICT',
    `${subject} was changed in Home Assistant after the preview was shown, so that confirmation no longer applies; nothing was written.`,
    'Call again without confirm_token to see a fresh preview of the change against the current config.'
  )
}

export async function runConfigWrite (ctx: ToolContext, write: ConfigWrite): Promise<Record<string, unknown>> {
  const before = write.confirmToken === undefined ? undefined : issued.get(write.confirmToken)
  if (write.confirmToken !== undefined) issued.delete(write.confirmToken)
  let outcome
  try {
    outcome = await guardedWrite(ctx, {
      tool: write.tool,
      domain: write.domain,
      service: write.action,
      data: write.payload,
      dryRun: write.dryRun,
      ...(write.confirmToken === undefined ? {} : { confirmToken: write.confirmToken }),
      config: { preview: write.preview, baseHash: write.baseHash, entities: write.entities },
      undoable: false,
      execute: async () => {
        // Closes the window between the confirmation and the write.
        if (await write.currentHash() !== write.baseHash) throw changedMeanwhile(write.subject)
        return await write.execute()
      }
    })
  } catch (err) {
    if (before && before.subject === write.subject && before.baseHash !== write.baseHash) throw changedMeanwhile(write.subject)
    throw err
  }
  if (outcome.status === 'dry_run') {
    return { dry_run: true, valid: true, preview: write.preview, notes: ['Home Assistant accepted the config; the real call needs a confirmation.'] }
  }
  if (outcome.status === 'confirmation_required') {
    remember(outcome.confirm_token, { subject: write.subject, baseHash: write.baseHash, expiresAt: Date.now() + outcome.expires_in_s * 1000 })
  }
  return formatOutcome(outcome, result => result as Record<string, unknown>)
}

import { z } from 'zod'
import { UserError } from '../../src/errors.ts'
import { defineTool } from '../../src/mcp/runtime/define-tool.ts'
import { changedFacts, type Shown } from '../../src/policy/confirm.ts'
import { UNDO_WOULD_OVERWRITE, type UndoRecord } from '../../src/policy/undo.ts'
import { confirmTokenArg, dryRunArg, formatOutcome, guardedWrite } from '../_shared/write.ts'

/** What changed since the write, as ha_undo reads it now; undefined when the record cannot tell. */
interface Since { now: Shown, changes: string[] }

async function changedSince (record: UndoRecord): Promise<Since | undefined> {
  if (!record.wrote || !record.current) return undefined
  const now = await record.current()
  return { now, changes: changedFacts(record.wrote, now) }
}

const NEEDS: Record<UndoRecord['needs'], string> = { allow_write: 'a service call', allow_config_write: 'a config change' }

export default defineTool({
  name: 'ha_undo',
  title: 'Undo the last write',
  description: 'Revert your last write: states a service call changed, or a scene, event, dashboard or registry edit.',
  kind: 'write',
  category: 'services',
  everyday: true,
  keywords: {
    en: 'undo revert roll back take back mistake restore previous oops cancel last change',
    de: 'rückgängig zurücknehmen wiederherstellen fehler letzte änderung zurück',
    fr: 'annuler revenir en arrière rétablir erreur dernière modification',
    es: 'deshacer revertir volver atrás error último cambio restaurar',
    nl: 'ongedaan maken terugdraaien herstellen fout laatste wijziging'
  },
  alsoKind: 'manage',
  input: z.object({
    dry_run: dryRunArg(),
    confirm_token: confirmTokenArg()
  }),
  async handler (ctx, args) {
    const undo = ctx.services.undo
    const record = undo.last(ctx.identity.id)
    if (!record) throw new UserError('HAMCP_NOT_FOUND', 'Nothing to undo for this client.', 'Undo covers the last allowed write made with this token since the add-on started.')
    if (ctx.options[record.needs] !== true) throw new UserError('HAMCP_NOT_SUPPORTED', `The last write (${record.call}) was ${NEEDS[record.needs]}; undoing it needs ${record.needs}.`, `Ask the owner to turn ${record.needs} on.`)
    // What changed since the write is newer work: the undo then needs the user's yes, with a preview
    // saying what would be lost, and without one the answer is HAMCP_CONFLICT.
    const since = await changedSince(record)
    const changes = since?.changes ?? []
    const outcome = await guardedWrite(ctx, {
      kind: 'undo',
      tool: ctx.tool,
      record,
      overwrites: changes,
      // Bound to this very record and to what is there now.
      asked: { undo: record.call, at: record.at },
      ...(since ? { basis: since.now } : {}),
      dryRun: args.dry_run,
      ...(args.confirm_token === undefined ? {} : { confirmToken: args.confirm_token })
    })
    if (changes.length > 0 && outcome.status === 'confirmation_required') {
      throw new UserError(
        'HAMCP_CONFLICT',
        `Changed in Home Assistant since ${record.call}, ${UNDO_WOULD_OVERWRITE} Changed: ${changes.join('; ')}.`,
        `To put the older values back anyway, show the user what would be lost and, if they agree, call ha_undo again with confirm_token ${outcome.confirm_token} (valid ${outcome.expires_in_s} s).`,
        { changes, preview: outcome.preview, confirm_token: outcome.confirm_token, expires_in_seconds: outcome.expires_in_s }
      )
    }
    if (outcome.status === 'done') undo.forget(ctx.identity.id, record)
    const notes = {
      ...(record.unrestorable && record.unrestorable.length > 0 ? { not_restored: record.unrestorable } : {}),
      ...(changes.length > 0 ? { overwrites: changes } : {})
    }
    if (outcome.status === 'dry_run') return { dry_run: true, would_undo: record.call, preview: record.preview, ...(outcome.notes ? { notes: outcome.notes } : {}), ...notes }
    return formatOutcome(outcome, result => ({ undid: record.call, ...(result as Record<string, unknown>), ...notes }))
  }
})

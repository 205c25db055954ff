import { z } from 'zod'
import { defineTool } from '../../src/mcp/runtime/define-tool.ts'
import { entityIdArg } from '../_shared/args.ts'
import { confirmTokenArg, dryRunArg, formatOutcome, guardedWrite } from '../_shared/write.ts'
import { deleteFlowHelper } from './_flow-helpers.ts'
import { fieldsOf, helperOf, helperRevert, storedHelper } from './_helpers.ts'

export default defineTool({
  name: 'ha_delete_helper',
  title: 'Delete a helper',
  description: 'Delete a UI-created helper.',
  kind: 'write',
  category: 'services',
  everyday: false,
  keywords: {
    en: 'delete remove erase helper input boolean counter timer template group utility meter threshold',
    de: 'helfer löschen entfernen vorlage gruppe verbrauchszähler schwellenwert',
    fr: 'supprimer effacer retirer assistant entrée modèle groupe seuil',
    es: 'eliminar borrar quitar ayudante plantilla grupo umbral',
    nl: 'helper hulp verwijderen wissen sjabloon groep verbruiksmeter drempelwaarde'
  },
  input: z.object({
    entity_id: entityIdArg('e.g. input_boolean.guest_mode'),
    dry_run: dryRunArg(),
    confirm_token: confirmTokenArg()
  }),
  async handler (ctx, args) {
    const helper = await helperOf(ctx, args.entity_id)
    if ('flow' in helper) return await deleteFlowHelper(ctx, helper.flow, args)
    const { type, id: uniqueId } = helper.storage
    const stored = await storedHelper(ctx, type, uniqueId)
    const outcome = await guardedWrite(ctx, {
      kind: 'command',
      tool: ctx.tool,
      domain: type,
      service: 'delete',
      target: { entity_id: args.entity_id },
      dryRun: args.dry_run,
      confirmToken: args.confirm_token,
      execute: async () => await ctx.ha.command({ type: `${type}/delete`, [`${type}_id`]: uniqueId }),
      ...(stored === undefined ? {} : { revert: () => helperRevert(ctx, { entityId: args.entity_id, type, id: uniqueId, previous: fieldsOf(stored) }) })
    })
    return formatOutcome(outcome, () => ({ deleted: args.entity_id }))
  }
})

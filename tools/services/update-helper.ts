import { z } from 'zod'
import { UserError } from '../../src/errors.ts'
import { defineTool } from '../../src/mcp/runtime/define-tool.ts'
import { entityIdArg, freeFormArg } from '../_shared/args.ts'
import { canonicalJson, toYaml } from '../_shared/config-yaml.ts'
import { unifiedDiff } from '../_shared/line-diff.ts'
import { confirmTokenArg, dryRunArg, formatOutcome, guardedWrite } from '../_shared/write.ts'
import { updateFlowHelper } from './_flow-helpers.ts'
import { fieldsOf, helperOf, helperRefusal, helperRevert, storedHelper } from './_helpers.ts'

export default defineTool({
  name: 'ha_update_helper',
  title: 'Change a helper',
  description: 'Change a UI helper\'s options (dry run: stored ones).',
  kind: 'write',
  category: 'services',
  everyday: false,
  keywords: {
    en: 'edit change modify update helper input boolean number slider min max options counter timer duration select choices template group add remove members light group utility meter threshold statistics',
    de: 'helfer bearbeiten ändern anpassen eingabe zahl minimum maximum optionen zähler timer dauer auswahl vorlage gruppe verbrauchszähler schwellenwert',
    fr: 'modifier changer assistant entrée nombre minimum maximum options compteur minuteur durée choix modèle groupe seuil',
    es: 'editar cambiar modificar ayudante entrada número mínimo máximo opciones contador temporizador duración plantilla grupo umbral',
    nl: 'helper bewerken wijzigen aanpassen invoer getal minimum maximum opties teller timer duur keuzes sjabloon groep verbruiksmeter drempelwaarde'
  },
  hints: { destructiveHint: false },
  input: z.object({
    entity_id: entityIdArg('e.g. input_number.target'),
    options: freeFormArg().optional().describe('Changed fields, e.g. {"max":30}.'),
    dry_run: dryRunArg(),
    confirm_token: confirmTokenArg()
  }),
  async handler (ctx, args) {
    const helper = await helperOf(ctx, args.entity_id)
    if ('flow' in helper) return await updateFlowHelper(ctx, helper.flow, args.options ?? {}, args)
    const { type, id } = helper.storage
    const stored = await storedHelper(ctx, type, id)
    if (stored === undefined) throw new UserError('HAMCP_NOT_FOUND', `Home Assistant stores no ${type} with id ${id}.`, 'ha_list_entities lists the helpers.')
    const previous = fieldsOf(stored)
    const { type: _type, id: _id, [`${type}_id`]: _own, ...changes } = args.options ?? {}
    const next = { ...previous, ...changes }
    const preview = unifiedDiff(toYaml(previous), toYaml(next), { from: `${args.entity_id} (current)`, to: `${args.entity_id} (proposed)` })
    if (canonicalJson(next) === canonicalJson(previous)) {
      if (args.dry_run) return { dry_run: true, entity_id: args.entity_id, stored: previous }
      throw new UserError('HAMCP_INVALID_ARGUMENT', `Nothing to change: the given options already match ${args.entity_id}.`, `Its stored options: ${JSON.stringify(previous).slice(0, 400)}.`)
    }
    const outcome = await guardedWrite(ctx, {
      kind: 'command',
      tool: ctx.tool,
      domain: type,
      service: 'update',
      target: { entity_id: args.entity_id },
      data: next,
      dryRun: args.dry_run,
      confirmToken: args.confirm_token,
      execute: async () => await ctx.ha.command({ type: `${type}/update`, [`${type}_id`]: id, ...next }).catch(err => helperRefusal(err, type)),
      revert: () => helperRevert(ctx, { entityId: args.entity_id, type, id, written: next, previous })
    })
    if (outcome.status === 'dry_run') return { ...formatOutcome(outcome), preview }
    return formatOutcome(outcome, () => ({ entity_id: args.entity_id, previous }))
  }
})

import { z } from 'zod'
import { freeFormArg } from '../_shared/args.ts'
import { defineTool } from '../../src/mcp/runtime/define-tool.ts'
import { nameArg } from '../../src/policy/input-checks.ts'
import { confirmTokenArg, dryRunArg, formatOutcome, guardedWrite } from '../_shared/write.ts'
import { FLOW_HELPER_TYPES, isFlowHelperType } from '../_shared/config-entries.ts'
import { createFlowHelper, refuseUnusableHelper } from './_flow-helpers.ts'
import { fieldsOf, HELPER_TYPES, helperRefusal, helperRevert, type HelperType } from './_helpers.ts'

export default defineTool({
  name: 'ha_create_helper',
  title: 'Create a helper',
  description: 'Create a UI helper. Config-flow types: dry_run shows their form.',
  kind: 'write',
  category: 'services',
  everyday: false,
  keywords: {
    en: 'new helper add create input boolean toggle number slider text select dropdown counter timer schedule button datetime virtual switch template sensor group utility meter consumption derivative rate min max average threshold limit integral statistics trend random filter smoothing time of day tod switch as light history stats',
    de: 'neuer helfer erstellen anlegen hinzufügen eingabe schalter zahl schieberegler text auswahl zähler timer zeitplan taste datum virtuell template vorlage sensor gruppe verbrauchszähler ableitung durchschnitt schwellenwert schwellenwertsensor grenzwert integral statistik trend zufall filter tageszeit verlaufsstatistik',
    fr: 'nouvel assistant entrée créer ajouter interrupteur booléen nombre curseur texte liste déroulante compteur minuteur planning bouton virtuel template modèle capteur groupe compteur énergie dérivée moyenne seuil intégrale statistiques tendance aléatoire filtre moment de la journée',
    es: 'nuevo ayudante crear añadir entrada interruptor booleano número deslizador texto selección contador temporizador horario botón virtual plantilla sensor grupo contador de consumo derivada media umbral integral estadísticas tendencia aleatorio filtro hora del día',
    nl: 'nieuwe helper hulp maken aanmaken toevoegen invoer schakelaar getal schuifregelaar tekst keuzelijst teller timer schema knop virtueel template sjabloon sensor groep verbruiksmeter afgeleide gemiddelde drempelwaarde integraal statistieken trend willekeurig filter tijd van de dag'
  },
  hints: { destructiveHint: false },
  input: z.object({
    helper_type: z.enum([...HELPER_TYPES, ...FLOW_HELPER_TYPES]).describe('Helper type.'),
    name: nameArg(100).describe('Name.'),
    options: freeFormArg().optional().describe('Fields, e.g. {"min":0,"max":9}; "kind" picks a template, group or random kind.'),
    dry_run: dryRunArg(),
    confirm_token: confirmTokenArg()
  }),
  async handler (ctx, args) {
    refuseUnusableHelper(ctx, args.helper_type, args.name, args.options ?? {})
    if (isFlowHelperType(args.helper_type)) return await createFlowHelper(ctx, { ...args, helper_type: args.helper_type })
    const helperType = args.helper_type as HelperType
    // `type` and `id` would collide with the command's own fields.
    const { type: _type, id: _id, ...options } = args.options ?? {}
    const payload = { ...options, name: args.name }
    const outcome = await guardedWrite(ctx, {
      kind: 'command',
      tool: ctx.tool,
      domain: helperType,
      service: 'create',
      data: payload,
      dryRun: args.dry_run,
      confirmToken: args.confirm_token,
      execute: async () => await ctx.ha.command({ ...payload, type: `${helperType}/create` }).catch(err => helperRefusal(err, helperType)),
      revert: result => {
        const item = result as Record<string, unknown> | undefined
        if (typeof item?.id !== 'string') return undefined
        return helperRevert(ctx, { entityId: `${helperType}.${item.id}`, type: helperType, id: item.id, written: fieldsOf(item) })
      }
    })
    return formatOutcome(outcome, result => ({ helper: result }))
  }
})

import { z } from 'zod'
import { UserError } from '../../src/errors.ts'
import { serviceOwner, serviceRefusal } from '../../src/mcp/runtime/categories.ts'
import { stableJson } from '../../src/policy/confirm.ts'
import { defineTool } from '../../src/mcp/runtime/define-tool.ts'
import { freeFormArg, slugArg } from '../_shared/args.ts'
import { ownAddonSlug, ownStopRefusal } from '../_shared/supervisor-role.ts'
import { confirmTokenArg, dryRunArg, formatOutcome, guardedWrite } from '../_shared/write.ts'

/** Most ids one target field takes, as a list or as a comma-separated string (Home Assistant splits it the same way). */
const MAX_IDS = 100

/** A comma-separated string holding more than MAX_IDS ids is refused exactly like a longer list. */
const idString = () => z.string().superRefine((value, ctx) => {
  let commas = 0
  for (let at = value.indexOf(','); at !== -1 && commas < MAX_IDS; at = value.indexOf(',', at + 1)) commas++
  if (commas >= MAX_IDS) ctx.addIssue({ code: 'too_big', origin: 'array', maximum: MAX_IDS, inclusive: true, input: value, message: `Too big: expected at most ${MAX_IDS} ids, in a list or a comma-separated string` })
})

const ids = () => z.union([idString(), z.array(z.string()).max(MAX_IDS)]).optional()

export default defineTool({
  name: 'ha_call_service',
  title: 'Call a service',
  description: 'Call any service, e.g. light.turn_on; sensitive domains ask for a confirm_token.',
  kind: 'write',
  category: 'services',
  everyday: true,
  essential: true,
  keywords: {
    en: 'turn on off switch toggle set dim brightness color open close lock unlock start stop play pause volume thermostat temperature heat cool fan speed cover blinds run action control device light lamp raise lower set play',
    de: 'einschalten ausschalten anschalten abschalten schalten umschalten dimmen helligkeit farbe öffnen schließen zusperren abschließen aufsperren starten stoppen lautstärke heizung thermostat temperatur rollladen jalousie licht lampe steuern aktion mach an aus abschließen mach schalte öffne schließe fahre hoch runter',
    fr: 'allumer éteindre activer désactiver basculer régler varier luminosité couleur ouvrir fermer verrouiller déverrouiller démarrer arrêter volume thermostat température chauffage volet store lumière lampe contrôler action allume éteins ferme ouvre monte baisse mets',
    es: 'encender apagar prender activar desactivar alternar ajustar atenuar brillo color abrir cerrar bloquear desbloquear iniciar detener volumen termostato temperatura calefacción persiana luz lámpara controlar acción enciende apaga cierra abre sube baja pon',
    nl: 'aanzetten uitzetten inschakelen uitschakelen schakelen dimmen helderheid kleur openen sluiten vergrendelen ontgrendelen starten stoppen volume thermostaat temperatuur verwarming rolluik luik lamp licht bedienen actie zet aan uit op slot doen slot doe zet open sluit omhoog omlaag'
  },
  input: z.object({
    domain: slugArg('domain', 'light'),
    service: slugArg('service', 'turn_on'),
    target: z.object({
      entity_id: ids(),
      device_id: ids(),
      area_id: ids(),
      floor_id: ids(),
      label_id: ids()
    }).optional().describe('Target.'),
    data: freeFormArg().optional().describe('e.g. {"brightness_pct":50}'),
    dry_run: dryRunArg(),
    confirm_token: confirmTokenArg(),
    return_response: z.boolean().default(false).describe('Return response.')
  }),
  async handler (ctx, args) {
    const refusal = serviceRefusal(`${args.domain}.${args.service}`, ctx.identity, ctx.options)
    if (refusal) throw new UserError('HAMCP_DENIED_LEVEL', refusal.message, refusal.hint)
    if (args.domain === 'hassio' && (args.service === 'addon_stop' || args.service === 'app_stop')) {
      const slug = args.data?.addon ?? args.data?.app
      if (typeof slug === 'string' && (slug === 'self' || slug === await ownAddonSlug(ctx.ha))) throw ownStopRefusal(slug)
    }
    const asks = serviceOwner(`${args.domain}.${args.service}`)?.asks
    const outcome = await guardedWrite(ctx, {
      kind: 'service',
      tool: ctx.tool,
      domain: args.domain,
      service: args.service,
      target: args.target,
      data: args.data,
      dryRun: args.dry_run,
      confirmToken: args.confirm_token,
      ...(asks === undefined ? {} : { confirm: `${asks}: ${args.domain}.${args.service}${args.target ? ` on ${stableJson(args.target)}` : ''}${args.data ? ` with ${stableJson(args.data)}` : ''}.` }),
      returnResponse: args.return_response
    })
    return formatOutcome(outcome)
  }
})

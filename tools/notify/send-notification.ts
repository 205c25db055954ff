import { z } from 'zod'
import { freeFormArg } from '../_shared/args.ts'
import { UserError } from '../../src/errors.ts'
import { nameIssue } from '../../src/policy/input-checks.ts'
import { defineTool, type ToolContext } from '../../src/mcp/runtime/define-tool.ts'
import { confirmTokenArg, dryRunArg, formatOutcome, rateLimitedWrite } from '../_shared/write.ts'
import { clip } from '../../src/shape.ts'

const GENERIC_NOTIFY = new Set(['send_message', 'notify', 'persistent_notification'])

/** Legacy notify.<name> services (mobile apps...), beside the generic ones. */
async function legacyServices (ctx: ToolContext): Promise<string[]> {
  const services = await ctx.ha.command<Record<string, Record<string, unknown>>>({ type: 'get_services' })
  return Object.keys(services.notify ?? {}).filter(name => !GENERIC_NOTIFY.has(name)).sort()
}

export default defineTool({
  name: 'ha_send_notification',
  title: 'Send a notification',
  description: 'Send a notification, 6/min per target; no target lists targets.',
  kind: 'write',
  category: 'notify',
  everyday: true,
  keywords: {
    en: 'notify notification send message push phone alert text me remind mobile app',
    de: 'benachrichtigung benachrichtigen nachricht senden schicken push handy telefon hinweis erinnern',
    fr: 'notification notifier envoyer message push téléphone alerte rappeler portable',
    es: 'notificación notificar enviar mensaje push teléfono móvil alerta avisar recordar',
    nl: 'melding notificatie bericht sturen versturen push telefoon mobiel waarschuwing herinneren'
  },
  hints: { destructiveHint: false },
  input: z.object({
    message: z.string().optional().describe('Max 1000 chars.'),
    target: z.string().trim().toLowerCase().optional().describe('notify.* entity or notify service.'),
    title: z.string().superRefine(nameIssue()).optional().describe('Title.'),
    data: freeFormArg().optional().describe('Platform data (notify services).'),
    dry_run: dryRunArg(),
    confirm_token: confirmTokenArg()
  }),
  async handler (ctx, args) {
    if (!args.target) {
      return { entities: ctx.home.domain('notify').map(row => row.entity_id), services: (await legacyServices(ctx)).map(name => `notify.${name}`), note: 'Pass one of these as target.' }
    }
    if (!args.message) throw new UserError('HAMCP_INVALID_ARGUMENT', 'message is required to send a notification.', 'Add the message text.')
    const message = clip(args.message, 1000)
    const asEntity = args.target.startsWith('notify.') && ctx.home.entity(args.target) !== undefined
    let request
    if (asEntity) {
      request = { domain: 'notify', service: 'send_message', target: { entity_id: args.target }, data: { message, ...(args.title ? { title: args.title } : {}) } }
    } else {
      const name = args.target.replace(/^notify\./, '')
      if (!(await legacyServices(ctx)).includes(name)) throw new UserError('HAMCP_NOT_FOUND', `Unknown notification target ${args.target}.`, 'Call ha_send_notification without target to list them.')
      request = { domain: 'notify', service: name, data: { message, ...(args.title ? { title: args.title } : {}), ...(args.data ? { data: args.data } : {}) } }
    }
    const outcome = await rateLimitedWrite(ctx, 'notify', args.target, {
      kind: 'service', tool: ctx.tool, ...request, dryRun: args.dry_run, confirmToken: args.confirm_token, undoable: false
    })
    return formatOutcome(outcome)
  }
})

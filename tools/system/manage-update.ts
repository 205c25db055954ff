import { z } from 'zod'
import { UserError } from '../../src/errors.ts'
import { requireDomain, requireEntity } from '../../src/home/entities.ts'
import { defineTool } from '../../src/mcp/runtime/define-tool.ts'
import { entityIdArg } from '../_shared/args.ts'
import { confirmTokenArg, dryRunArg, formatOutcome, guardedWrite } from '../_shared/write.ts'
import { installUpdate } from './_updates.ts'

export default defineTool({
  name: 'ha_manage_update',
  title: 'Install or skip an update',
  description: 'Install (confirmed, optional backup), skip or un-skip an update; a later call reports install progress.',
  kind: 'manage',
  category: 'system',
  everyday: false,
  keywords: {
    en: 'install update upgrade skip update new version firmware core os install updates backup before',
    de: 'update installieren aktualisieren überspringen neue version firmware installieren sicherung vorher',
    fr: 'installer mise à jour mettre à jour ignorer nouvelle version firmware installer les mises à jour sauvegarde',
    es: 'instalar actualización actualizar omitir nueva versión firmware instalar actualizaciones copia',
    nl: 'update installeren bijwerken overslaan nieuwe versie firmware updates installeren back-up'
  },
  input: z.object({
    action: z.enum(['install', 'skip', 'clear_skipped']).describe('Action.'),
    entity_id: entityIdArg(),
    version: z.string().trim().min(1).max(100).optional().describe('Version.'),
    backup: z.boolean().optional().describe('Backup.'),
    dry_run: dryRunArg(),
    confirm_token: confirmTokenArg()
  }),
  async handler (ctx, args) {
    requireDomain(args.entity_id, ['update'], 'an update')
    requireEntity(ctx.home, args.entity_id)
    if (args.action !== 'install') {
      if (args.version !== undefined || args.backup !== undefined) throw new UserError('HAMCP_INVALID_ARGUMENT', `version and backup go with install, not ${args.action}.`)
      // Each undoes the other (src/policy/undo.ts), as a change ha_manage_update made: allow_config_write.
      return formatOutcome(await guardedWrite(ctx, { kind: 'service', tool: ctx.tool, domain: 'update', service: args.action, target: { entity_id: args.entity_id }, undoNeeds: 'allow_config_write', dryRun: args.dry_run, confirmToken: args.confirm_token }))
    }
    return await installUpdate(ctx, args.entity_id, args)
  }
})

import { z } from 'zod'
import { defineTool } from '../../src/mcp/runtime/define-tool.ts'
import { callOnEntity, confirmTokenArg, dryRunArg } from '../_shared/write.ts'
import { domainEntityArg } from '../_shared/args.ts'

export default defineTool({
  name: 'ha_set_automation',
  title: 'Enable or disable an automation',
  description: 'Enable or disable an automation.',
  kind: 'write',
  category: 'automations',
  everyday: true,
  keywords: {
    en: 'enable disable turn off automation pause deactivate activate switch off automation stop automation',
    de: 'automatisierung aktivieren deaktivieren ausschalten einschalten pausieren abschalten',
    fr: 'activer désactiver automatisation mettre en pause couper',
    es: 'activar desactivar automatización pausar apagar',
    nl: 'automatisering inschakelen uitschakelen pauzeren aanzetten uitzetten deactiveren'
  },
  hints: { idempotentHint: true, destructiveHint: false },
  input: z.object({
    entity_id: domainEntityArg('automation'),
    enabled: z.boolean().describe('Enabled.'),
    dry_run: dryRunArg(),
    confirm_token: confirmTokenArg()
  }),
  async handler (ctx, args) {
    return await callOnEntity(ctx, args, 'automation', args.enabled ? 'turn_on' : 'turn_off')
  }
})

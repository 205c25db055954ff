import { z } from 'zod'
import { freeFormArg } from '../_shared/args.ts'
import { defineTool } from '../../src/mcp/runtime/define-tool.ts'
import { callOnEntity, confirmTokenArg, dryRunArg } from '../_shared/write.ts'
import { domainEntityArg } from '../_shared/args.ts'

export default defineTool({
  name: 'ha_trigger_automation',
  title: 'Trigger an automation',
  description: 'Run an automation\'s actions now.',
  kind: 'write',
  category: 'automations',
  everyday: true,
  keywords: {
    en: 'trigger run automation now fire execute test automation manually start',
    de: 'automatisierung auslösen jetzt ausführen manuell starten testen',
    fr: 'déclencher exécuter automatisation maintenant manuellement lancer tester',
    es: 'disparar ejecutar automatización ahora manualmente lanzar probar',
    nl: 'automatisering triggeren nu uitvoeren handmatig starten testen'
  },
  input: z.object({
    entity_id: domainEntityArg('automation'),
    skip_condition: z.boolean().default(true).describe('Skip condition.'),
    variables: freeFormArg().optional().describe('Variables.'),
    dry_run: dryRunArg(),
    confirm_token: confirmTokenArg()
  }),
  async handler (ctx, args) {
    return await callOnEntity(ctx, args, 'automation', 'trigger', { skip_condition: args.skip_condition, ...(args.variables ? { variables: args.variables } : {}) })
  }
})

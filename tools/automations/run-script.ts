import { z } from 'zod'
import { freeFormArg } from '../_shared/args.ts'
import { defineTool } from '../../src/mcp/runtime/define-tool.ts'
import { callOnEntity, confirmTokenArg, dryRunArg } from '../_shared/write.ts'
import { domainEntityArg } from '../_shared/args.ts'

export default defineTool({
  name: 'ha_run_script',
  title: 'Run a script',
  description: 'Start a script.',
  kind: 'write',
  category: 'automations',
  everyday: true,
  keywords: {
    en: 'run script start execute launch activate routine good night movie mode',
    de: 'skript ausführen starten routine gute nacht aktivieren',
    fr: 'exécuter lancer démarrer script routine bonne nuit activer',
    es: 'ejecutar lanzar iniciar script guion rutina buenas noches activar',
    nl: 'script uitvoeren starten draaien routine welterusten activeren'
  },
  input: z.object({
    entity_id: domainEntityArg('script'),
    variables: freeFormArg().optional().describe('Variables.'),
    dry_run: dryRunArg(),
    confirm_token: confirmTokenArg()
  }),
  async handler (ctx, args) {
    return await callOnEntity(ctx, args, 'script', 'turn_on', args.variables ? { variables: args.variables } : undefined)
  }
})

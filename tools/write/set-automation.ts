import { z } from 'zod'
import { defineTool } from '../../src/mcp/define-tool.ts'
import { entityIdArg } from '../_shared/args.ts'
import { requireEntity } from '../_shared/entities.ts'
import { confirmTokenArg, dryRunArg, formatOutcome, guardedWrite } from '../_shared/write.ts'

export default defineTool({
  name: 'ha_set_automation',
  title: 'Enable or disable an automation',
  description: 'Enable or disable an automation (automation.turn_on / turn_off).',
  kind: 'write',
  hints: { idempotentHint: true, destructiveHint: false },
  input: z.object({
    entity_id: entityIdArg('Automation entity id').refine(id => id.startsWith('automation.'), 'must be an automation.* entity'),
    enabled: z.boolean().describe('true enables, false disables.'),
    dry_run: dryRunArg(),
    confirm_token: confirmTokenArg()
  }),
  async handler (ctx, args) {
    requireEntity(ctx.home, args.entity_id)
    const outcome = await guardedWrite(ctx, {
      tool: 'ha_set_automation',
      domain: 'automation',
      service: args.enabled ? 'turn_on' : 'turn_off',
      target: { entity_id: args.entity_id },
      dryRun: args.dry_run,
      confirmToken: args.confirm_token
    })
    return formatOutcome(outcome)
  }
})

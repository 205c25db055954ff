import { z } from 'zod'
import { defineTool } from '../../src/mcp/define-tool.ts'
import { requireEntity } from '../../src/home/entities.ts'
import { confirmTokenArg, dryRunArg, formatOutcome, guardedWrite } from '../_shared/write.ts'
import { domainEntityArg } from '../_shared/args.ts'

export default defineTool({
  name: 'ha_set_automation',
  title: 'Enable or disable an automation',
  description: 'Enable or disable an automation.',
  kind: 'write',
  hints: { idempotentHint: true, destructiveHint: false },
  input: z.object({
    entity_id: domainEntityArg('automation'),
    enabled: z.boolean().describe('true enables it.'),
    dry_run: dryRunArg(),
    confirm_token: confirmTokenArg()
  }),
  async handler (ctx, args) {
    requireEntity(ctx.home, args.entity_id)
    const outcome = await guardedWrite(ctx, {
      kind: 'service',
      tool: ctx.tool,
      domain: 'automation',
      service: args.enabled ? 'turn_on' : 'turn_off',
      target: { entity_id: args.entity_id },
      dryRun: args.dry_run,
      confirmToken: args.confirm_token
    })
    return formatOutcome(outcome)
  }
})

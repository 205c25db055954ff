import { z } from 'zod'
import { freeFormArg } from '../_shared/args.ts'
import { defineTool } from '../../src/mcp/define-tool.ts'
import { requireEntity } from '../../src/home/entities.ts'
import { confirmTokenArg, dryRunArg, formatOutcome, guardedWrite } from '../_shared/write.ts'
import { domainEntityArg } from '../_shared/args.ts'

export default defineTool({
  name: 'ha_run_script',
  title: 'Run a script',
  description: 'Start a script.',
  kind: 'write',
  input: z.object({
    entity_id: domainEntityArg('script'),
    variables: freeFormArg().optional().describe('Script variables.'),
    dry_run: dryRunArg(),
    confirm_token: confirmTokenArg()
  }),
  async handler (ctx, args) {
    requireEntity(ctx.home, args.entity_id)
    const outcome = await guardedWrite(ctx, {
      kind: 'service',
      tool: ctx.tool,
      domain: 'script',
      service: 'turn_on',
      target: { entity_id: args.entity_id },
      data: args.variables ? { variables: args.variables } : undefined,
      dryRun: args.dry_run,
      confirmToken: args.confirm_token
    })
    return formatOutcome(outcome)
  }
})

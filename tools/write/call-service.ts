import { z } from 'zod'
import { defineTool } from '../../src/mcp/define-tool.ts'
import { freeFormArg, slugArg } from '../_shared/args.ts'
import { confirmTokenArg, dryRunArg, formatOutcome, guardedWrite } from '../_shared/write.ts'

const ids = () => z.union([z.string(), z.array(z.string()).max(100)]).optional()

export default defineTool({
  name: 'ha_call_service',
  title: 'Call a service',
  description: 'Call any service, e.g. light.turn_on; policy-checked, audited; sensitive domains ask for a confirm_token.',
  kind: 'write',
  hints: { openWorldHint: true },
  input: z.object({
    domain: slugArg('domain', 'light'),
    service: slugArg('service', 'turn_on'),
    target: z.object({
      entity_id: ids(),
      device_id: ids(),
      area_id: ids(),
      floor_id: ids(),
      label_id: ids()
    }).optional().describe('Entity, device, area, floor or label ids to act on.'),
    data: freeFormArg().optional().describe('Service data, e.g. {"brightness_pct":50}.'),
    dry_run: dryRunArg(),
    confirm_token: confirmTokenArg(),
    return_response: z.boolean().default(false).describe('Include response data.')
  }),
  async handler (ctx, args) {
    const outcome = await guardedWrite(ctx, {
      kind: 'service',
      tool: ctx.tool,
      domain: args.domain,
      service: args.service,
      target: args.target,
      data: args.data,
      dryRun: args.dry_run,
      confirmToken: args.confirm_token,
      returnResponse: args.return_response
    })
    return formatOutcome(outcome)
  }
})

import { z } from 'zod'
import { UserError } from '../../src/errors.ts'
import { defineTool } from '../../src/mcp/define-tool.ts'
import { entityIdArg } from '../_shared/args.ts'
import { requireDomain, requireEntity } from '../../src/home/entities.ts'
import { confirmTokenArg, dryRunArg, formatOutcome, guardedWrite } from '../_shared/write.ts'
import { HELPER_TYPES } from './_helpers.ts'

export default defineTool({
  name: 'ha_delete_helper',
  title: 'Delete a helper',
  description: 'Delete a UI helper.',
  kind: 'write',
  category: 'services',
  everyday: false,
  input: z.object({
    entity_id: entityIdArg('e.g. input_boolean.guest_mode'),
    dry_run: dryRunArg(),
    confirm_token: confirmTokenArg()
  }),
  async handler (ctx, args) {
    const type = requireDomain(args.entity_id, HELPER_TYPES, 'a helper')
    requireEntity(ctx.home, args.entity_id)
    const entry = await ctx.ha.command<{ unique_id?: string, platform?: string }>({ type: 'config/entity_registry/get', entity_id: args.entity_id })
      .catch(() => undefined)
    if (!entry?.unique_id || entry.platform !== type) {
      throw new UserError('HAMCP_NOT_SUPPORTED', `${args.entity_id} is not a UI-managed helper (it is defined in YAML).`, 'Remove it from the YAML configuration instead.')
    }
    const uniqueId = entry.unique_id
    const outcome = await guardedWrite(ctx, {
      kind: 'command',
      tool: ctx.tool,
      domain: type,
      service: 'delete',
      target: { entity_id: args.entity_id },
      dryRun: args.dry_run,
      confirmToken: args.confirm_token,
      execute: async () => await ctx.ha.command({ type: `${type}/delete`, [`${type}_id`]: uniqueId })
    })
    return formatOutcome(outcome, () => ({ deleted: args.entity_id }))
  }
})

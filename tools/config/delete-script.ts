import { z } from 'zod'
import { defineTool } from '../../src/mcp/define-tool.ts'
import { entityIdArg } from '../_shared/args.ts'
import { deleteFlow } from '../_shared/config-flows.ts'
import { confirmTokenArg, dryRunArg } from '../_shared/write.ts'

export default defineTool({
  name: 'ha_delete_script',
  title: 'Delete script',
  description: 'Delete a UI script once the user confirms its YAML; returns it as deleted_yaml for undo.',
  kind: 'manage',
  input: z.object({
    entity_id: entityIdArg('e.g. script.bedtime'),
    dry_run: dryRunArg(),
    confirm_token: confirmTokenArg()
  }),
  async handler (ctx, args) {
    return await deleteFlow(ctx, 'script', args.entity_id, args)
  }
})

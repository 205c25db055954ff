import { z } from 'zod'
import { defineTool } from '../../src/mcp/define-tool.ts'
import { entityIdArg } from '../_shared/args.ts'
import { aliasArg, blocksArg, blueprintInputsArg, descriptionArg, maxExceededArg, modeArg, traceArg, variablesArg } from '../_shared/config-args.ts'
import { updateFlow } from '../_shared/config-flows.ts'
import { confirmTokenArg, dryRunArg } from '../_shared/write.ts'

export default defineTool({
  name: 'ha_update_automation',
  title: 'Update automation',
  description: 'Change a UI automation: given fields replace the stored ones (null removes a key). Validated by Home Assistant; the user confirms a unified diff. Returns previous_yaml.',
  kind: 'manage',
  input: z.object({
    entity_id: entityIdArg('Automation entity id'),
    alias: aliasArg().optional(),
    description: descriptionArg().nullable().optional(),
    mode: modeArg().optional(),
    triggers: blocksArg('New triggers').min(1).optional(),
    conditions: blocksArg('New conditions').optional(),
    actions: blocksArg('New actions').min(1).optional(),
    variables: variablesArg().nullable().optional(),
    max_exceeded: maxExceededArg().nullable().optional(),
    initial_state: z.boolean().nullable().optional().describe('Enabled state at startup.'),
    trace: traceArg().nullable().optional(),
    inputs: blueprintInputsArg().optional(),
    dry_run: dryRunArg(),
    confirm_token: confirmTokenArg()
  }),
  async handler (ctx, args) {
    const { entity_id: entityId, inputs, dry_run: dryRun, confirm_token: confirmToken, ...changes } = args
    return await updateFlow(ctx, 'ha_update_automation', 'automation', entityId, changes, inputs, { dry_run: dryRun, confirm_token: confirmToken })
  }
})

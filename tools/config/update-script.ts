import { z } from 'zod'
import { defineTool } from '../../src/mcp/define-tool.ts'
import { entityIdArg } from '../_shared/args.ts'
import { aliasArg, blocksArg, blueprintInputsArg, descriptionArg, maxExceededArg, modeArg, traceArg, variablesArg } from '../_shared/config-args.ts'
import { updateFlow } from '../_shared/config-flows.ts'
import { confirmTokenArg, dryRunArg } from '../_shared/write.ts'

export default defineTool({
  name: 'ha_update_script',
  title: 'Update script',
  description: 'Edit a UI script: given fields replace, null removes; HA validates, the user confirms a diff.',
  kind: 'manage',
  input: z.object({
    entity_id: entityIdArg('e.g. script.bedtime'),
    alias: aliasArg().optional(),
    description: descriptionArg().nullable().optional().describe('Description.'),
    mode: modeArg().optional(),
    sequence: blocksArg().min(1).optional().describe('Actions.'),
    variables: variablesArg().nullable().optional().describe('Variables.'),
    max_exceeded: maxExceededArg().nullable().optional().describe('Log level past max runs, e.g. silent.'),
    trace: traceArg().nullable().optional().describe('e.g. {"stored_traces":5}, max 100.'),
    inputs: blueprintInputsArg().optional(),
    dry_run: dryRunArg(),
    confirm_token: confirmTokenArg()
  }),
  async handler (ctx, args) {
    const { entity_id: entityId, inputs, dry_run: dryRun, confirm_token: confirmToken, ...changes } = args
    return await updateFlow(ctx, 'script', entityId, changes, inputs, { dry_run: dryRun, confirm_token: confirmToken })
  }
})

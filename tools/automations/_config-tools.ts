import { z } from 'zod'
import { defineTool, type ToolDefinition } from '../../src/mcp/runtime/define-tool.ts'
import { entityIdArg } from '../_shared/args.ts'
import { aliasArg, blueprintInputsArg, descriptionArg, maxExceededArg, modeArg, traceArg, variablesArg } from '../_shared/config-args.ts'
import { deleteFlow, updateFlow } from '../_shared/config-flows.ts'
import type { ConfigKind } from '../_shared/config-store.ts'
import { confirmTokenArg, dryRunArg } from '../_shared/write.ts'

/**
 * ha_update_automation and ha_update_script, ha_delete_automation and ha_delete_script: one definition
 * each, since the flows are the same but for the kind. Each tool's own file names it and, for an
 * update, gives the blocks that kind has.
 */
interface ConfigToolNames extends Pick<ToolDefinition, 'name' | 'title' | 'description' | 'category' | 'everyday' | 'keywords'> { kind: ConfigKind }

/** A manage tool on one automation or script: its entity id, the given fields, and the guard's two arguments. */
function configTool (tool: ConfigToolNames, fields: z.ZodRawShape, handler: ToolDefinition['handler']): ToolDefinition {
  return defineTool({
    name: tool.name,
    title: tool.title,
    description: tool.description,
    kind: 'manage',
    category: tool.category,
    everyday: tool.everyday,
    keywords: tool.keywords,
    input: z.object({ entity_id: entityIdArg('Entity id.'), ...fields, dry_run: dryRunArg(), confirm_token: confirmTokenArg() }),
    handler
  })
}

type GuardedArgs = { entity_id: string, dry_run: boolean, confirm_token?: string } & Record<string, unknown>

/**
 * An update tool: `blocks` are the kind's own fields after `mode`, `extra` the ones after
 * `max_exceeded`; the order is the order tools/list shows.
 */
export function updateConfigTool (tool: ConfigToolNames, blocks: z.ZodRawShape, extra: z.ZodRawShape = {}): ToolDefinition {
  return configTool(tool, {
    alias: aliasArg().optional(),
    description: descriptionArg().nullable().optional().describe('Description.'),
    mode: modeArg().optional(),
    ...blocks,
    variables: variablesArg().nullable().optional().describe('Variables.'),
    max_exceeded: maxExceededArg().nullable().optional().describe('Max exceeded.'),
    ...extra,
    trace: traceArg().nullable().optional().describe('e.g. {"stored_traces":5}'),
    inputs: blueprintInputsArg().optional()
  }, async (ctx, args) => {
    const { entity_id: entityId, inputs, dry_run: dryRun, confirm_token: confirmToken, ...changes } = args as GuardedArgs & { inputs?: Record<string, unknown> }
    return await updateFlow(ctx, tool.kind, entityId, changes, inputs, { dry_run: dryRun, confirm_token: confirmToken })
  })
}

/** A delete tool: nothing but the entity id and the guard's two arguments. */
export function deleteConfigTool (tool: ConfigToolNames): ToolDefinition {
  return configTool(tool, {}, async (ctx, args) => {
    const { entity_id: entityId, ...guard } = args as GuardedArgs
    return await deleteFlow(ctx, tool.kind, entityId, guard)
  })
}

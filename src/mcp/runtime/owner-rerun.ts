import type { OwnerGrant, RerunFailure } from '../../policy/types.ts'
import type { ToolContext } from './define-tool.ts'
import { invokeTool, type CallReport, type ToolCallResult } from './invoke.ts'
import type { LoadedTool } from './registry.ts'

/**
 * `confirm_with: owner`: the tool context of one MCP tool call, able to run that call again once the
 * owner approves it. The re-run is the same tool with the same arguments (less any confirm_token) for
 * the same identity, carrying the grant: the tool reads the house again and the guard checks every rule
 * and the preview again, so what runs is what the owner saw or nothing (src/policy/guard.ts).
 */
export function withOwnerRerun (ctx: ToolContext, tool: LoadedTool, args: unknown, fresh: () => ToolContext, onCall?: (report: CallReport) => void): ToolContext {
  const { confirm_token: _token, ...asked } = (args !== null && typeof args === 'object' ? args : {}) as Record<string, unknown>
  const rerun = async (grant: OwnerGrant): Promise<RerunFailure | undefined> => {
    const base = fresh()
    return failureOf(await invokeTool(tool, asked, { ...base, services: { ...base.services, ownerGrant: grant } }, onCall))
  }
  return { ...ctx, services: { ...ctx.services, rerun } }
}

function failureOf (result: ToolCallResult): RerunFailure | undefined {
  if (result.isError !== true) return undefined
  const error = (result.structuredContent as { error?: { code?: unknown, message?: unknown, hint?: unknown } } | undefined)?.error
  return {
    code: typeof error?.code === 'string' ? error.code : 'HAMCP_INTERNAL',
    message: typeof error?.message === 'string' ? error.message : 'The approved call failed; the add-on log has the details.',
    ...(typeof error?.hint === 'string' ? { hint: error.hint } : {})
  }
}

import { z } from 'zod'
import { defineTool, type ToolContext, type ToolDefinition } from './define-tool.ts'

export const SEARCH_TOOLS = 'ha_search_tools'
export const CALL_TOOL = 'ha_call_tool'
export const SEARCH_LIMIT_MAX = 10

const NO_KEYWORDS = { en: '', de: '', fr: '', es: '', nl: '' }

/** What ha_search_tools answers with: the tools/list entries of the best matches this caller may call. */
export type SearchTools = (query: string, limit: number, ctx: ToolContext) => Array<Record<string, unknown>>

/**
 * The two tools of the catalogue (tool_list core and search, src/mcp/runtime/registry.ts): listed when some tool
 * the caller may call is not. ha_call_tool's handler never runs: the tools/call handler reads its
 * arguments and runs the named tool in its place, on the one path every call takes (src/mcp/handlers.ts).
 */
export function metaToolDefinitions (search: SearchTools): ToolDefinition[] {
  return [
    defineTool({
      name: SEARCH_TOOLS,
      title: 'Search tools',
      description: 'Find tools not listed here by what the user wants (any language); run one with ha_call_tool.',
      kind: 'read',
      category: 'catalogue',
      everyday: true,
      keywords: NO_KEYWORDS,
      needsHomeAssistant: false,
      input: z.object({
        query: z.string().trim().min(1).max(300).describe('e.g. "install updates".'),
        limit: z.number().int().min(1).max(SEARCH_LIMIT_MAX).default(5).describe('Results.')
      }),
      handler: async (ctx, { query, limit }) => ({ tools: search(query, limit, ctx) })
    }),
    defineTool({
      name: CALL_TOOL,
      title: 'Call a tool',
      description: 'Run a tool ha_search_tools found, exactly as if it were listed.',
      kind: 'read',
      category: 'catalogue',
      everyday: true,
      keywords: NO_KEYWORDS,
      // It runs whatever tool it names, writes included: never announced as read-only.
      hints: { readOnlyHint: false, destructiveHint: true, idempotentHint: false },
      needsHomeAssistant: false,
      input: z.object({
        name: z.string().min(1).max(64).describe('Tool name.'),
        arguments: z.record(z.string(), z.unknown()).default({}).describe('Its arguments.')
      }),
      handler: async () => { throw new Error(`${CALL_TOOL} is dispatched by the tools/call handler`) }
    })
  ] as ToolDefinition[]
}

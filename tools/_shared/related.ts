import type { ToolContext } from '../../src/mcp/runtime/define-tool.ts'

const CONFIG_KINDS = ['automation', 'script', 'scene'] as const

/** Automations, scripts and scenes that name an item, from search/related (empty keys left out). */
export async function relatedConfigs (ctx: ToolContext, itemType: string, itemId: string): Promise<Record<string, string[]>> {
  const related = await ctx.ha.command<Record<string, unknown>>({ type: 'search/related', item_type: itemType, item_id: itemId })
  const out: Record<string, string[]> = {}
  for (const kind of CONFIG_KINDS) {
    const list = related?.[kind]
    if (Array.isArray(list) && list.length > 0) out[`${kind}s`] = list.map(String)
  }
  return out
}

import { levelRank, type Level } from '../auth/identity.ts'
import { levelNeeded } from '../mcp/runtime/categories.ts'
import type { HomeAssistantStatus } from '../ha/index.ts'
import { KIND_GATE, toolEnabled, type ToolKind } from '../mcp/runtime/define-tool.ts'
import type { ToolCatalog } from '../mcp/runtime/registry.ts'
import type { Options } from '../options.ts'
import type { AuditEntry } from '../policy/types.ts'

export interface ToolCount { kind: ToolKind, exposed: number, available: number, gate: string | null, enabled: boolean }

/** Tools registered for the primary token under the current options, per kind. */
export function toolCounts (catalog: ToolCatalog, options: Options): ToolCount[] {
  return (Object.keys(KIND_GATE) as ToolKind[]).map(kind => {
    const ofKind = catalog.tools.filter(t => t.definition.kind === kind)
    const gate = KIND_GATE[kind].option
    return {
      kind,
      exposed: ofKind.filter(t => toolEnabled(t.definition, options)).length,
      available: ofKind.length,
      gate,
      enabled: gate === null || options[gate] === true
    }
  })
}

/** The options as the page shows them: everything but the token, which is never part of this answer. */
export function visibleOptions (options: Options): Record<string, unknown> {
  const { api_token: token, ...rest } = options
  return { ...rest, api_token: token ? 'set in the options' : 'not set (generated token, see Connect)' }
}

export function connectionSummary (status: HomeAssistantStatus, now: number): Record<string, unknown> {
  return {
    state: status.state,
    connected: status.connected,
    ha_version: status.haVersion ?? null,
    mode: status.mode,
    down_for_s: status.connected || status.downSince === null ? null : Math.round((now - status.downSince) / 1000),
    last_error: status.connected ? null : status.lastError ?? null
  }
}

export interface AuditFilter { tool?: string, outcome?: string, limit?: number }

/** The newest audit entries, filtered on the server so the page shows up to `limit` matches. */
export function filterAudit (entries: AuditEntry[], filter: AuditFilter): AuditEntry[] {
  const limit = Math.min(Math.max(filter.limit ?? 50, 1), 50)
  return entries
    .filter(e => !filter.tool || e.tool === filter.tool)
    .filter(e => !filter.outcome || e.outcome === filter.outcome)
    .slice(0, limit)
}

export interface CategoryRow {
  id: string
  tools: number
  /** The tools a level in this category gates, with the level each needs (a multi-kind tool: the kinds filed here). */
  covers: Array<{ tool: string, level: Level, kinds?: string[] }>
  /** The highest level any tool of the category needs. */
  top: Level
  /** The highest level the add-on options let a token use today (the cap). */
  enabled: Level
}

/** The tool categories a named token gets a level for, with the level the options cap each one at. */
export function tokenCategories (catalog: ToolCatalog, options: Options): CategoryRow[] {
  const rows = new Map<string, CategoryRow>()
  const higher = (a: Level, b: Level): Level => levelRank(a) >= levelRank(b) ? a : b
  for (const tool of catalog.tools) {
    const needed = levelNeeded(tool.definition.kind)
    // A multi-kind tool is gated kind by kind: it belongs to the category of each of its kinds.
    const filed = tool.byArgument
      ? Object.entries(tool.byArgument.byValue).reduce((byCategory, [value, category]) => byCategory.set(category, [...(byCategory.get(category) ?? []), value]), new Map<string, string[]>())
      : new Map<string, string[] | undefined>([[tool.category, undefined]])
    for (const [category, kinds] of filed) {
      const row = rows.get(category) ?? { id: category, tools: 0, covers: [], top: 'none', enabled: 'none' }
      row.tools++
      row.covers.push({ tool: tool.definition.name, level: needed, ...(kinds ? { kinds } : {}) })
      row.top = higher(row.top, needed)
      if (toolEnabled(tool.definition, options)) row.enabled = higher(row.enabled, needed)
      rows.set(category, row)
    }
  }
  return [...rows.values()].sort((a, b) => a.id.localeCompare(b.id))
}

import { ALL_LEVELS, type Identity } from '../src/auth/identity.ts'
import type { ToolCatalog } from '../src/mcp/runtime/registry.ts'
import { optionsSchema, type Options } from '../src/options.ts'

/**
 * The tool catalogue's budgets: bytes of the JSON of tools/list's tools array, for the
 * primary token. Held by test/catalog.test.ts and printed by `npm run bench:catalog`.
 */
export const BUDGETS = {
  /** tool_list core with the default options (reads only). */
  coreDefault: 12_600,
  /** tool_list core with every option on. */
  coreAll: 28_000,
  /** tool_list search with every option on. */
  search: 4_000,
  /** tool_list full with every option on, divided by the number of tools listed. */
  fullPerTool: 500
} as const

const PRIMARY: Identity = { id: 'primary', name: 'primary', levels: ALL_LEVELS }
const EVERY_OPTION = { allow_write: true, allow_config_write: true, allow_camera: true, allow_addon_control: true, enable_sessions: true }

export interface CatalogSizes {
  coreDefault: number
  coreAll: number
  search: number
  full: number
  fullTools: number
  fullPerTool: number
  /** Each tool's bytes in full mode, largest first: where a trim pays. */
  largest: Array<{ name: string, bytes: number }>
}

export function catalogSizes (catalog: ToolCatalog): CatalogSizes {
  const listed = (options: Partial<Options>) => catalog.listFor(optionsSchema.parse(options), PRIMARY).tools
  const bytes = (options: Partial<Options>): { size: number, count: number } => {
    const tools = listed(options)
    return { size: Buffer.byteLength(JSON.stringify(tools)), count: tools.length }
  }
  const full = bytes({ ...EVERY_OPTION, tool_list: 'full' })
  const largest = listed({ ...EVERY_OPTION, tool_list: 'full' }).map(tool => ({ name: tool.name, bytes: Buffer.byteLength(JSON.stringify(tool)) })).sort((a, b) => b.bytes - a.bytes)
  return {
    coreDefault: bytes({}).size,
    coreAll: bytes(EVERY_OPTION).size,
    search: bytes({ ...EVERY_OPTION, tool_list: 'search' }).size,
    full: full.size,
    fullTools: full.count,
    fullPerTool: Math.ceil(full.size / full.count),
    largest
  }
}

/** The share of requests whose expected tool is among ha_search_tools' first three, for the primary token with every option on. */
export function searchHitRate (catalog: ToolCatalog, requests: ReadonlyArray<readonly [string, string]>): { hits: number, total: number, misses: Array<{ request: string, expected: string, found: string[] }> } {
  const options = optionsSchema.parse({ ...EVERY_OPTION, tool_list: 'full' })
  const misses: Array<{ request: string, expected: string, found: string[] }> = []
  for (const [request, expected] of requests) {
    const found = catalog.search(request, 3, options, PRIMARY).map(tool => tool.name)
    if (!found.includes(expected)) misses.push({ request, expected, found })
  }
  return { hits: requests.length - misses.length, total: requests.length, misses }
}

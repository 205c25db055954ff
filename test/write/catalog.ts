import { TOOLS_DIR } from '../../app/tools-dir.ts'
import { loadToolCatalog, type ToolCatalog } from '../../src/mcp/runtime/registry.ts'

/** The whole tool catalogue, loaded once per test file: write tests reach tools of several categories. */
let catalog: Promise<ToolCatalog> | undefined
export async function writeCatalog (): Promise<ToolCatalog> {
  catalog ??= loadToolCatalog(TOOLS_DIR)
  return await catalog
}

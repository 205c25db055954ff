import { readdirSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import type { ToolDefinition } from '../../src/mcp/runtime/define-tool.ts'
import { checkDefinition, loadToolCatalog, ToolCatalog, type LoadedTool } from '../../src/mcp/runtime/registry.ts'
import { TOOLS_DIR } from '../../app/tools-dir.ts'

function files (dir: string): string[] {
  return readdirSync(dir).sort().flatMap(name => {
    if (name.startsWith('_') || name.startsWith('.')) return []
    const path = join(dir, name)
    if (statSync(path).isDirectory()) return files(path)
    return /\.ts$/.test(name) && !/\.(d|test)\.ts$/.test(name) ? [path] : []
  })
}

/**
 * The registry's catalogue. While a colleague's tool module is half-written the registry refuses to
 * load at all; then every module that does load is used and the broken ones are reported, so the
 * read sweeps keep covering everything that exists.
 */
export async function sweepCatalog (comment: (text: string) => void): Promise<ToolCatalog> {
  try {
    return await loadToolCatalog(TOOLS_DIR)
  } catch (err) {
    comment(`registry refused to load (${(err as Error).message.split('\n')[0]}); loading module by module`)
  }
  const loaded: LoadedTool[] = []
  for (const file of files(TOOLS_DIR)) {
    try {
      const module = await import(pathToFileURL(file).href) as { default?: ToolDefinition }
      loaded.push(checkDefinition(module.default as ToolDefinition, file))
    } catch (err) {
      comment(`skipped ${file}: ${(err as Error).message.split('\n')[0]}`)
    }
  }
  return new ToolCatalog(loaded)
}

import { fileURLToPath } from 'node:url'
import { loadToolCatalog, ToolCatalog } from '../../src/mcp/registry.ts'

/**
 * The write tools plus the entity tools, loaded on their own so these tests do not depend on other
 * tool groups being complete.
 */
export async function writeCatalog (): Promise<ToolCatalog> {
  const dir = (name: string): string => fileURLToPath(new URL(`../../tools/${name}`, import.meta.url))
  const groups = await Promise.all([loadToolCatalog(dir('write')), loadToolCatalog(dir('entities'))])
  return new ToolCatalog(groups.flatMap(group => group.tools))
}

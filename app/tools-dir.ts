import { fileURLToPath } from 'node:url'

/**
 * Where the tool modules are: tools/ beside app/ (dist/tools beside dist/app once built). The app hands
 * it to the registry (src/mcp/runtime/registry.ts), which knows no path of its own.
 */
export const TOOLS_DIR = fileURLToPath(new URL('../tools/', import.meta.url))

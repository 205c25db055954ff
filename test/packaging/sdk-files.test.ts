// The MCP SDK stays behind a few files in src/mcp/, as src/mcp/handlers.ts says: a new import of it
// elsewhere means that comment, and docs/architecture.md, need a word.
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import t from 'tap'

const ROOT = join(import.meta.dirname, '../..')
const SDK_FILES = ['src/mcp/handlers.ts', 'src/mcp/runtime/confirm-rounds.ts', 'src/mcp/transport/era.ts', 'src/mcp/transport/rpc-error.ts', 'src/mcp/transport/session.ts', 'src/mcp/transport/stateless.ts', 'src/mcp/transport/stream-gate.ts']

t.test('only the files handlers.ts names import the MCP SDK', async t => {
  const importing = ['src', 'plugins', 'routes', 'app', 'tools'].flatMap(dir =>
    readdirSync(join(ROOT, dir), { recursive: true, encoding: 'utf8' })
      .filter(f => f.endsWith('.ts'))
      .map(f => join(dir, f))
      .filter(file => /from '@modelcontextprotocol\//.test(readFileSync(join(ROOT, file), 'utf8'))))
  t.same(importing.sort(), SDK_FILES)
})

import { readFileSync } from 'node:fs'
import t from 'tap'
import { loadToolCatalog } from '../../src/mcp/runtime/registry.ts'
import { renderToolDocs, TOOL_DOCS_PATH } from '../../scripts/tool-docs.ts'
import { TOOLS_DIR } from '../../app/tools-dir.ts'

t.test('docs/reference/tools.md matches the tool modules', async t => {
  const expected = await renderToolDocs()
  let committed = ''
  try { committed = readFileSync(TOOL_DOCS_PATH, 'utf8') } catch {}
  const want = expected.split('\n')
  const have = committed.split('\n')
  const line = want.findIndex((text, i) => text !== have[i])
  const where = line === -1 ? '' : ` (first difference at line ${line + 1}: ${JSON.stringify((want[line] ?? '').slice(0, 80))})`
  t.ok(committed === expected, `${TOOL_DOCS_PATH} is stale${where}: run \`npm run docs:tools\` and commit the result`)
})

t.test('the reference documents every tool with its gate and a parameter table', async t => {
  const text = await renderToolDocs()
  const catalog = await loadToolCatalog(TOOLS_DIR)
  for (const tool of catalog.tools) {
    const start = text.indexOf(`### ${tool.definition.name}\n`)
    t.ok(start >= 0, `${tool.definition.name} has a section`)
    const end = text.indexOf('\n### ', start + 1)
    const section = text.slice(start, end === -1 ? undefined : end)
    t.match(section, tool.definition.kind === 'read' ? 'always available' : /needs `allow_/, `${tool.definition.name} names its gate`)
    for (const field of Object.keys(tool.definition.input.shape)) t.match(section, `| \`${field}\` |`, `${tool.definition.name}.${field} is documented`)
  }
  const history = text.slice(text.indexOf('### ha_get_history'))
  t.match(history, /`hours` \| number 0\.25-168 \| no/, 'numeric ranges come from the schema')
})

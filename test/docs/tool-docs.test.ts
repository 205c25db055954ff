import { readFileSync } from 'node:fs'
import t from 'tap'
import { loadToolCatalog } from '../../src/mcp/registry.ts'
import { renderToolDocs, TOOL_DOCS_PATH } from '../../scripts/tool-docs.ts'

t.test('docs/reference/tools.md matches the tool modules', async t => {
  const expected = await renderToolDocs()
  let committed = ''
  try { committed = readFileSync(TOOL_DOCS_PATH, 'utf8') } catch {}
  t.ok(committed === expected, `${TOOL_DOCS_PATH} is stale: run \`npm run docs:tools\` and commit the result`)
})

t.test('the reference documents every tool with its gate and a parameter table', async t => {
  const text = await renderToolDocs()
  const catalog = await loadToolCatalog()
  for (const tool of catalog.tools) {
    const start = text.indexOf(`### ${tool.definition.name}\n`)
    t.ok(start >= 0, `${tool.definition.name} has a section`)
    const section = text.slice(start, text.indexOf('\n### ', start + 1) >>> 0 || undefined)
    t.match(section, tool.definition.kind === 'read' ? 'always available' : /needs `allow_/, `${tool.definition.name} names its gate`)
    for (const field of Object.keys(tool.definition.input.shape)) t.match(section, `| \`${field}\` |`, `${tool.definition.name}.${field} is documented`)
  }
  const history = text.slice(text.indexOf('### ha_get_history'))
  t.match(history, /`hours` \| number 0\.25-168 \| no/, 'numeric ranges come from the schema')
})

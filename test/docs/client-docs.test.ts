// The client guide shows what the Connect tab and `npm run demo` print (one source:
// src/connect/client-configs.ts), and its links land on a heading.
import { readFileSync } from 'node:fs'
import t from 'tap'
import { TOOLS_DIR } from '../../app/tools-dir.ts'
import { ALL_LEVELS } from '../../src/auth/identity.ts'
import { clientConfigs } from '../../src/connect/client-configs.ts'
import { loadToolCatalog } from '../../src/mcp/runtime/registry.ts'
import { optionsSchema } from '../../src/options.ts'

const read = (path: string): string => readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8')
const guide = read('docs/connecting-clients.md')

/** GitHub's heading anchors: lower case, punctuation dropped, spaces to hyphens. */
const slug = (heading: string): string => heading.trim().toLowerCase().replace(/[^\p{L}\p{N} -]/gu, '').replace(/ /g, '-')
const anchors = (markdown: string): Set<string> => new Set([...markdown.matchAll(/^#{1,6} (.+)$/gm)].map(m => slug(m[1] as string)))

t.test('every token configuration the Connect tab prints is in the guide, as printed', async t => {
  const blocks = [...guide.matchAll(/```json\n([\s\S]*?)```/g)].map(m => JSON.parse(m[1] as string) as unknown)
  for (const config of clientConfigs('http://HA_IP:9583/mcp', '<token>')) {
    if (config.text.startsWith('{')) {
      t.ok(blocks.some(block => JSON.stringify(block) === JSON.stringify(JSON.parse(config.text))), `${config.title}: a json block equal to what the Connect tab prints`)
    } else {
      for (const line of config.text.split('\n')) t.ok(guide.includes(line.replace(/^(URL|Header|Transport): /, '')), `${config.title}: ${line}`)
    }
  }
})

t.test('links inside and between the guides land on a heading', async t => {
  const files = ['docs/connecting-clients.md', 'docs/troubleshooting.md', 'README.md']
  const headings = new Map([...files, 'docs/security.md'].map(file => [file.replace(/^docs\//, ''), anchors(read(file))]))
  for (const file of files) {
    for (const [, target, anchor] of read(file).matchAll(/\]\(((?:docs\/)?[a-z-]*\.md)?#([a-z0-9-]+)\)/g)) {
      const name = target === undefined ? file.replace(/^docs\//, '') : target.replace(/^docs\//, '')
      t.ok(headings.get(name)?.has(anchor as string), `${file}: #${anchor} in ${name}`)
    }
  }
})

t.test('the guide says the truth about field types: anyOf appears only as number or integer, and it names such fields', async t => {
  const catalog = await loadToolCatalog(TOOLS_DIR)
  const options = optionsSchema.parse({ allow_write: true, allow_config_write: true, allow_camera: true, enable_sessions: true, tool_list: 'full' })
  const unions = new Map<string, unknown[]>()
  const walk = (node: unknown, name: string): void => {
    if (typeof node !== 'object' || node === null) return
    const schema = node as Record<string, unknown>
    if (Array.isArray(schema.anyOf)) unions.set(name, schema.anyOf)
    for (const [key, child] of Object.entries((schema.properties ?? {}) as Record<string, unknown>)) walk(child, key)
    if (schema.items !== undefined) walk(schema.items, name)
  }
  for (const tool of catalog.listFor(options, { id: 'primary', name: 'primary', levels: ALL_LEVELS }).tools) walk(tool.inputSchema, tool.name)
  t.ok(unions.size > 0, 'some field is a union')
  for (const [field, branches] of unions) t.same(branches, [{ type: 'number' }, { type: 'integer' }], `${field}: number or integer, nothing else`)
  for (const field of unions.keys()) t.ok(guide.includes(`\`${field}\``), `the guide names ${field}`)
  t.notMatch(guide, /one type per field/, 'the guide no longer says every field has one type')
  t.match(guide, /`hours`[^]*`anyOf` of `number` and `integer`/, 'it says which fields are a union and why')
})

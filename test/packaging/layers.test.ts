// The folders are layers: a lower one never reaches a higher one, by an import or by a path. src/ (the
// services, no Fastify wiring) < tools/ and plugins/ (each on src/ only) < routes/ (on src/ and
// plugins/) < app/ (the app factory, start/stop, the entry). app/tools-dir.ts alone names tools/: the app hands that directory to the
// registry. Inside src/ the subfolders are layers too (SRC_LAYERS), and nothing imports in a circle.
// Nothing shipped reaches the simulator, the scripts, the bench or the tests.
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import t from 'tap'

const ROOT = join(import.meta.dirname, '../..')
const FORBIDDEN: Record<string, string[]> = {
  src: ['plugins', 'routes', 'app', 'tools', 'demo', 'scripts', 'test', 'bench'],
  tools: ['plugins', 'routes', 'app', 'demo', 'scripts', 'test', 'bench'],
  plugins: ['routes', 'app', 'tools', 'demo', 'scripts', 'test', 'bench'],
  routes: ['app', 'tools', 'demo', 'scripts', 'test', 'bench'],
  app: ['tools', 'demo', 'scripts', 'test', 'bench']
}
const ALLOWED = ['app/tools-dir.ts -> tools']
/** src/ lowest first: a module reaches its own layer and lower ones. `*.ts`: the files directly in src/ but compose.ts. */
const SRC_LAYERS = [
  ['*.ts'], ['auth'], ['ha'], ['home'], ['policy'], ['addon', 'connect'], ['oauth'], ['mcp'], ['sessions', 'ingress'],
  ['compose.ts']
]
/** The src/ modules that touch Fastify or its types, as docs/architecture.md lists them; tools/ touch none. */
const FASTIFY_IN_SRC = ['src/logger.ts', 'src/mcp/transport/rpc-error.ts']
const FASTIFY = /['"`](?:fastify(?:-[a-z]+)?|@fastify\/[^'"`]+)['"`]/

function files (dir: string): string[] {
  return readdirSync(join(ROOT, dir), { recursive: true, encoding: 'utf8' }).filter(f => f.endsWith('.ts')).map(f => join(dir, f))
}

/** What a module reaches by a relative path, however written: imports, import(), require, new URL(..., import.meta.url). */
function reached (file: string): string[] {
  const text = readFileSync(join(ROOT, file), 'utf8')
  return [...text.matchAll(/['"`](\.\.?\/[^'"`$]*)/g)].map(match => relative(ROOT, join(ROOT, file, '..', match[1] as string)))
}

/** The first cycle in a graph of module -> modules it reaches, as a path that ends where it starts. */
export function findCycle (graph: Map<string, string[]>): string[] | undefined {
  const done = new Set<string>()
  const visit = (node: string, path: string[]): string[] | undefined => {
    if (path.includes(node)) return [...path.slice(path.indexOf(node)), node]
    if (done.has(node)) return undefined
    for (const next of graph.get(node) ?? []) {
      const cycle = visit(next, [...path, node])
      if (cycle) return cycle
    }
    done.add(node)
    return undefined
  }
  for (const node of graph.keys()) {
    const cycle = visit(node, [])
    if (cycle) return cycle
  }
  return undefined
}

/** The edges of the graph that go up SRC_LAYERS; a src/ folder or file missing from it counts as up. */
export function upward (graph: Map<string, string[]>): string[] {
  const unit = (file: string): string => /^src\/[^/]+$/.test(file) && file !== 'src/compose.ts' ? '*.ts' : file.split('/')[1] as string
  const rank = (file: string): number => SRC_LAYERS.findIndex(layer => layer.includes(unit(file)))
  return [...graph].flatMap(([file, targets]) => targets.filter(to => rank(file) === -1 || rank(to) === -1 || rank(to) > rank(file)).map(to => `${file} -> ${to}`))
}

const graph = new Map(Object.keys(FORBIDDEN).flatMap(files).map(file => [file, reached(file).filter(to => existsSync(join(ROOT, to)))]))
const inSrc = new Map([...graph].filter(([file]) => file.startsWith('src/')).map(([file, targets]) => [file, targets.filter(to => to.startsWith('src/'))]))

for (const [layer, above] of Object.entries(FORBIDDEN)) {
  t.test(`${layer}/ reaches none of ${above.join(', ')}`, async t => {
    const offending = [...graph].filter(([file]) => file.startsWith(`${layer}/`))
      .flatMap(([file, targets]) => targets.map(to => `${file} -> ${to.split('/')[0] as string}`))
      .filter(edge => above.includes(edge.split(' -> ')[1] as string) && !ALLOWED.includes(edge))
    t.same(offending, [])
  })
}

t.test('inside src/, no import goes up a layer or round in a circle', async t => {
  t.same(upward(inSrc), [], 'SRC_LAYERS, lowest first: ' + SRC_LAYERS.map(layer => layer.join(' ')).join(' < '))
  t.equal(findCycle(inSrc)?.join(' -> '), undefined)
})

t.test('the cycle and layer checks catch what they are for', async t => {
  const fixture = new Map([['src/home/a.ts', ['src/home/b.ts']], ['src/home/b.ts', ['src/home/c.ts']], ['src/home/c.ts', ['src/home/a.ts']], ['src/home/d.ts', ['src/policy/e.ts']], ['src/shape.ts', ['src/home/a.ts']]])
  t.same(findCycle(fixture), ['src/home/a.ts', 'src/home/b.ts', 'src/home/c.ts', 'src/home/a.ts'])
  t.equal(findCycle(new Map([['src/a.ts', ['src/b.ts']], ['src/b.ts', []], ['src/c.ts', ['src/b.ts']]])), undefined, 'a shared module is no cycle')
  t.same(upward(fixture), ['src/home/d.ts -> src/policy/e.ts', 'src/shape.ts -> src/home/a.ts'])
  t.same(upward(new Map([['src/nowhere/x.ts', ['src/errors.ts']]])), ['src/nowhere/x.ts -> src/errors.ts'], 'a new folder needs its place in SRC_LAYERS')
})

t.test('src/ touches Fastify only where docs/architecture.md says; tools/ never', async t => {
  const touching = [...files('src'), ...files('tools')].filter(file => FASTIFY.test(readFileSync(join(ROOT, file), 'utf8')))
  t.same(touching, FASTIFY_IN_SRC)
  const architecture = readFileSync(join(ROOT, 'docs/architecture.md'), 'utf8')
  for (const file of FASTIFY_IN_SRC) t.ok(architecture.includes(`\`${file.slice('src/'.length)}\``), `docs/architecture.md names ${file}`)
})

/** Inside src/mcp/, lowest first: the tool runtime < the content (prompts, resources) < handlers.ts and the transport. */
const MCP_LAYERS: Record<string, string[]> = {
  'src/mcp/runtime/': ['src/mcp/content/', 'src/mcp/transport/', 'src/mcp/handlers.ts'],
  'src/mcp/content/': ['src/mcp/transport/', 'src/mcp/handlers.ts']
}

t.test('inside src/mcp/, the runtime and the content never reach the protocol layer above them', async t => {
  const offending = [...inSrc].flatMap(([file, targets]) => Object.entries(MCP_LAYERS)
    .filter(([folder]) => file.startsWith(folder))
    .flatMap(([, above]) => targets.filter(to => above.some(up => to.startsWith(up))).map(to => `${file} -> ${to}`)))
  t.same(offending, [])
})

// A tool folder's `_*.ts` files are its own: another folder shares code through tools/_shared/.
t.test('no tool reaches another tool folder\'s files', async t => {
  const offending = [...graph].filter(([file]) => file.startsWith('tools/')).flatMap(([file, targets]) => targets
    .filter(to => to.startsWith('tools/') && !to.startsWith('tools/_shared/') && to.split('/')[1] !== file.split('/')[1])
    .map(to => `${file} -> ${to}`))
  t.same(offending, [])
})

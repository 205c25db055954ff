// A file path named in the docs or in a code comment must exist: a reader who follows one to a file
// that was renamed or removed learns nothing and stops trusting the rest.
import { execFileSync } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import t from 'tap'
import ts from 'typescript'

const root = fileURLToPath(new URL('../../', import.meta.url))
const git = (...args: string[]) => execFileSync('git', args, { cwd: root, encoding: 'utf8' })
const tracked = git('ls-files').split('\n').filter(Boolean).filter(file => existsSync(root + file))

/** Our top-level folders: a path starting with one of them is read as one of ours. */
const OURS = /(?<![\w./@$-])((?:src|tools|test|plugins|routes|demo|app|bench|scripts|docs|addon|ingress|translations|patches)\/[\w.\-/*{},+]*[\w/*}])/g
/**
 * A path cited from another repository (Home Assistant's frontend has a `src/` of its own): the
 * repository is named just before it on the same line, with no sentence end in between.
 */
const FOREIGN = /\b(frontend|supervisor|core|probatio|home-assistant\/[\w-]+)('s)?\b[^.;\n]{0,20}$/i

/** The comments of a TypeScript or JavaScript file, from the compiler's own scanner of trivia. */
function comments (file: string, text: string): string[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false, file.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS)
  const seen = new Map<number, string>()
  const collect = (ranges: ts.CommentRange[] | undefined) => {
    for (const range of ranges ?? []) seen.set(range.pos, text.slice(range.pos, range.end))
  }
  const visit = (node: ts.Node) => {
    collect(ts.getLeadingCommentRanges(text, node.getFullStart()))
    collect(ts.getTrailingCommentRanges(text, node.getEnd()))
    ts.forEachChild(node, visit)
  }
  visit(source)
  collect(ts.getLeadingCommentRanges(text, source.endOfFileToken.getFullStart()))
  return [...seen.values()]
}

/** The paths of ours a text names that should exist: files with an extension and folders ending in `/`. */
export function namedPaths (text: string): string[] {
  const paths: string[] = []
  for (const match of text.matchAll(OURS)) {
    const path = match[1]
    if (/[*{]|\.\.\./.test(path)) continue // a glob or an elision, not one path
    if (!/\.\w+$/.test(path) && !path.endsWith('/')) continue // `tools/call` is an MCP method
    if (FOREIGN.test(text.slice(Math.max(0, match.index - 60), match.index))) continue
    paths.push(path)
  }
  return paths
}

function texts (): Array<{ file: string, text: string }> {
  const docs = tracked.filter(file => file === 'README.md' || file === 'DOCS.md' || /^docs\/.+\.md$/.test(file))
  const code = tracked.filter(file => /\.(ts|mts|js|mjs|cjs)$/.test(file) && !file.startsWith('tap-snapshots/'))
  const shell = tracked.filter(file => /\.sh$/.test(file) || file === '.ci/run' || file === 'Dockerfile')
  return [
    ...docs.map(file => ({ file, text: readFileSync(root + file, 'utf8') })),
    ...code.map(file => ({ file, text: comments(file, readFileSync(root + file, 'utf8')).join('\n') })),
    ...shell.map(file => ({ file, text: readFileSync(root + file, 'utf8').split('\n').filter(line => /^\s*#/.test(line)).join('\n') }))
  ]
}

/** Generated output (gitignored, e.g. bench/results/) exists only after a run. */
function ignored (path: string): boolean {
  try {
    git('check-ignore', '-q', '--no-index', path)
    return true
  } catch {
    return false
  }
}

t.test('the path reader: our files and folders, not globs, MCP methods or other repositories\' files', async t => {
  t.same(namedPaths('see `src/mcp/runtime/invoke.ts` and test/docs/ and tools/list'), ['src/mcp/runtime/invoke.ts', 'test/docs/'])
  t.same(namedPaths('`plugins/oauth*.ts`, src/{a,b}.ts, docs/.../x.md, ../../src/clock.ts, node_modules/x/src/y.ts'), [])
  t.same(namedPaths('frontend src/data/panel.ts; frenck/probatio (src/probatio/codecs/openapi.py'), [])
  t.same(namedPaths('HA\'s helpers/target.py and api/middleware/security.py'), [])
  t.same(namedPaths('the frontend does this. Ours: src/ghost.ts'), ['src/ghost.ts'])
  t.same(namedPaths('patches/zod+4.6.7.patch, not patches/zod+*.patch'), ['patches/zod+4.6.7.patch'])
})

t.test('every file path the docs and the code comments name exists', async t => {
  const all = texts()
  t.ok(all.length > 300, `read ${all.length} files`)
  const missing: string[] = []
  for (const { file, text } of all) {
    for (const path of namedPaths(text)) {
      if (!existsSync(root + path) && !ignored(path)) missing.push(`${file}: ${path}`)
    }
  }
  t.same([...new Set(missing)], [], 'no path to a file that is not there')
})

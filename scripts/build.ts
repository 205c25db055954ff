/**
 * The production build (`npm run build`): the server and each tool module bundled with their
 * dependencies into dist/, minified, ASCII only.
 *
 * Why a bundle and not tsc's one file per source: V8 keeps every loaded module's source text on the
 * heap for as long as the process runs (lazy compilation reads it again), and the SDK's and zod's
 * files contain a few non-Latin-1 characters, which makes V8 hold their whole text as UTF-16, twice
 * its size: about 7 MB. Bundled, whitespace minified and escaped to ASCII, the same code is about
 * 3 MB, and the old generation, which swings between the live heap and about 1.2-1.5 times it,
 * peaks that much lower (docs/performance.md).
 *
 * The layout stays what the app expects: dist/app/server.js is the entry, dist/tools/ holds one file
 * per tool module (the registry still finds and imports them one by one), and the code they share
 * sits beside the entry in dist/app/, so a path resolved from import.meta.url (tools/, package.json,
 * ingress/public) is the same from whichever file its module landed in. Names are not minified: a
 * stack trace in a user's log must still say which function failed, which is worth more than the
 * 1.5 MB minified names would save.
 * Nor are they kept with `keepNames`: its helper redefined `name` on 4,000 functions at load (each
 * then holding a property dictionary, 2.4 MB of heap at ready) and on every closure made per call.
 * A class esbuild renames for a collision (ours and the SDK's `OAuthError`: `var OAuthError3=class`)
 * keeps its source name everywhere but `.name`, so such a class names itself;
 * test/system/bundle-names.test.ts finds every renamed class of ours in both of esbuild's forms.
 * Type checking is `npm run typecheck`'s job; esbuild only strips the types.
 */
import { writeFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { build } from 'esbuild'
import { toolFiles } from '../src/mcp/runtime/registry.ts'

const ROOT = join(import.meta.dirname, '..')
// BUILD_OUT: another output directory (test/system/bundle-names.test.ts builds beside the suite's dist/).
const OUT = process.env.BUILD_OUT ?? join(ROOT, 'dist')

const result = await build({
  absWorkingDir: ROOT,
  entryPoints: ['app/server.ts', ...toolFiles(join(ROOT, 'tools')).map(file => relative(ROOT, file))],
  outdir: OUT,
  outbase: '.',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node22',
  // Shared code beside the entry: any module's import.meta.url then resolves as the entry's does.
  chunkNames: 'app/[name]-[hash]',
  // ws's optional native speed-ups: absent, ws uses its JavaScript code.
  external: ['bufferutil', 'utf-8-validate'],
  minifyWhitespace: true,
  minifySyntax: true,
  charset: 'ascii',
  legalComments: 'none',
  metafile: true,
  logLevel: 'warning',
  // The CommonJS dependencies (fastify, pino...) call require(); an ES module has none of its own.
  banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" }
})

// What went in, for test/system/build.test.ts: the simulator (demo/) must never be part of the image.
writeFileSync(join(OUT, 'inputs.json'), JSON.stringify(Object.keys(result.metafile.inputs).sort(), null, 1) + '\n')
const bytes = Object.values(result.metafile.outputs).reduce((sum, output) => sum + output.bytes, 0)
process.stdout.write(`dist/: ${Object.keys(result.metafile.outputs).length} files, ${Math.round(bytes / 1024)} KB\n`)

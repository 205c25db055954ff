// Every runtime dependency in package.json is one the product imports (src/, app/, plugins/, routes/, tools/):
// a dependency nothing imports is still installed into the image, audited and updated for nothing.
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import t from 'tap'

const ROOT = join(import.meta.dirname, '../..')
const PRODUCT = ['src', 'app', 'plugins', 'routes', 'tools']

/** The packages a source file imports: `from 'x'`, `import('x')`, `import 'x'`, subpaths cut to the package. */
export function importedPackages (source: string): Set<string> {
  const found = new Set<string>()
  for (const match of source.matchAll(/(?:\bfrom\s+|\bimport\s*\(\s*|\bimport\s+)['"]([^'"]+)['"]/g)) {
    const specifier = match[1] as string
    if (specifier.startsWith('.') || specifier.startsWith('node:') || specifier.startsWith('/')) continue
    const parts = specifier.split('/')
    found.add(specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0] as string)
  }
  return found
}

t.test('the import scan reads every form of import', async t => {
  const source = ['import a from \'fastify\'', 'import { b } from "@fastify/static"', 'import \'zod/v4\'', 'const c = await import(\'yaml\')', 'import d from \'./local.ts\'', 'import e from \'node:fs\''].join('\n')
  t.same([...importedPackages(source)].sort(),
    ['@fastify/static', 'fastify', 'yaml', 'zod'])
})

t.test('no runtime dependency that nothing in the product imports', async t => {
  const { dependencies } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { dependencies: Record<string, string> }
  const imported = new Set<string>()
  for (const dir of PRODUCT) {
    for (const file of readdirSync(join(ROOT, dir), { recursive: true, encoding: 'utf8' })) {
      if (!/\.(ts|js|mjs)$/.test(file)) continue
      for (const name of importedPackages(readFileSync(join(ROOT, dir, file), 'utf8'))) imported.add(name)
    }
  }
  const unused = Object.keys(dependencies).filter(name => !imported.has(name))
  t.same(unused, [], 'move each to devDependencies, or drop it')
})

// The folders are layers: a lower one never imports a higher one. src/ (the services, no Fastify
// wiring) < plugins/ (Fastify adapters over them) < app/ (the app factory, start/stop, the entry).
// Tools build on src/ only; nothing shipped imports the simulator, the scripts or the tests.
import { readdirSync, readFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import t from 'tap'

const ROOT = join(import.meta.dirname, '../..')
const FORBIDDEN: Record<string, string[]> = {
  src: ['plugins', 'app', 'tools', 'demo', 'scripts', 'test', 'bench'],
  tools: ['plugins', 'app', 'demo', 'scripts', 'test', 'bench'],
  plugins: ['app', 'tools', 'demo', 'scripts', 'test', 'bench'],
  app: ['tools', 'demo', 'scripts', 'test', 'bench']
}

function files (dir: string): string[] {
  return readdirSync(join(ROOT, dir), { recursive: true, encoding: 'utf8' }).filter(f => f.endsWith('.ts')).map(f => join(dir, f))
}

for (const [layer, above] of Object.entries(FORBIDDEN)) {
  t.test(`${layer}/ imports none of ${above.join(', ')}`, async t => {
    const offending: string[] = []
    for (const file of files(layer)) {
      const text = readFileSync(join(ROOT, file), 'utf8')
      for (const match of text.matchAll(/(?:from|import)\s*\(?\s*'(\.[^']+)'/g)) {
        const target = relative(ROOT, join(ROOT, file, '..', match[1] as string)).split('/')[0] as string
        if (above.includes(target)) offending.push(`${file} -> ${match[1]}`)
      }
    }
    t.same(offending, [])
  })
}

// A tool folder's `_*.ts` files are its own: another folder shares code through tools/_shared/.
t.test('no tool imports another tool folder\'s files', async t => {
  const offending: string[] = []
  for (const file of files('tools')) {
    const folder = file.split('/')[1] as string
    for (const match of readFileSync(join(ROOT, file), 'utf8').matchAll(/(?:from|import)\s*\(?\s*'(\.[^']+)'/g)) {
      const [top, other] = relative(ROOT, join(ROOT, file, '..', match[1] as string)).split('/')
      if (top === 'tools' && other !== '_shared' && other !== folder) offending.push(`${file} -> ${match[1]}`)
    }
  }
  t.same(offending, [])
})

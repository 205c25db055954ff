// tap coverage map: every test counts toward the project's own TypeScript sources only
// (src/, plugins/, routes/, tools/, app/), never the compiled dist/ that the production-build test runs.
import { readdirSync, statSync } from 'node:fs'
import { join } from 'node:path'

function walk (dir) {
  const out = []
  for (const name of readdirSync(dir)) {
    const path = join(dir, name)
    if (statSync(path).isDirectory()) out.push(...walk(path))
    else if (name.endsWith('.ts') && !name.endsWith('.d.ts')) out.push(path)
  }
  return out
}

const sources = ['src', 'plugins', 'routes', 'tools', 'app'].flatMap(walk)

export default () => sources

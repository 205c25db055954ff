// tap coverage map: every test counts toward the project's own TypeScript sources only
// (src/, plugins/, routes/, tools/, app/), never the compiled dist/ that the production-build test runs.
import { readdirSync, statSync } from 'node:fs'
import { join } from 'node:path'

// tap's runner imports this module after it sets which loaded files @tapjs/processinfo records in
// each test process, and before it starts any. tap's own list records every dependency: each test
// process then reads and splits their sources again (about 1,000 files, 0.3 s of CPU per test file)
// for coverage that node_modules never gets. tap's own modules (@tapjs/*) stay recorded: the
// recorder sets up coverage and its end-of-process report when it records its first file, which must
// be one of tap's (with all of node_modules left out, no test process wrote coverage). Only tap's
// --changed reads the records, and this project does not use it.
process.env._TAPJS_PROCESSINFO_EXCLUDE_ = String(/(^(node|tapmock):|[\\/](\.tap|tap-snapshots)[\\/]|[\\/]node_modules[\\/](?!@tapjs[\\/]))/)

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

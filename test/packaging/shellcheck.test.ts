// addon/run.sh is the container's entrypoint: a shell mistake there means an add-on that never
// starts, on the user's machine only. CI installs shellcheck; locally SKIP_SHELLCHECK=1 skips.
import t from 'tap'
import { spawnSync } from 'node:child_process'
import { existsSync, readFileSync, statSync } from 'node:fs'
import { delimiter, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = fileURLToPath(new URL('../../', import.meta.url))
const scriptPath = join(root, 'addon/run.sh')
const script = readFileSync(scriptPath, 'utf8')

function findBinary (name: string): string | undefined {
  const dirs = [...(process.env.PATH ?? '').split(delimiter), '/usr/bin', '/usr/local/bin']
  return dirs.map((dir) => join(dir, name)).find((path) => path.startsWith('/') && existsSync(path))
}

const shellcheck = findBinary('shellcheck')

t.test('shellcheck passes on addon/run.sh', { skip: shellcheck === undefined && process.env.SKIP_SHELLCHECK === '1' ? 'SKIP_SHELLCHECK=1' : false }, async (t) => {
  if (shellcheck === undefined) {
    t.fail('shellcheck not found: apt-get install shellcheck, or set SKIP_SHELLCHECK=1 to skip')
    return
  }
  const result = spawnSync(shellcheck, ['--severity=style', scriptPath], { encoding: 'utf8', timeout: 20_000 })
  t.equal(result.status, 0, 'no finding at any severity')
  t.equal(result.stdout, '', result.stdout)

  // Proves shellcheck really analyses bash here (the directive is honoured), not a silent pass.
  const flawed = spawnSync(shellcheck, ['-'], { input: '#!/usr/bin/with-contenv bashio\n# shellcheck shell=bash\nrm -rf $DIR/data\n', encoding: 'utf8', timeout: 20_000 })
  t.not(flawed.status, 0, 'an unquoted variable is reported')
  t.match(flawed.stdout, /SC2086/)
})

t.test('entrypoint shape', async (t) => {
  t.match(script, /^#!\/usr\/bin\/with-contenv bashio\n/, 'bashio with the container environment (SUPERVISOR_TOKEN)')
  t.match(script, /^# shellcheck shell=bash$/m, 'shellcheck told the dialect')
  t.ok((statSync(scriptPath).mode & 0o111) !== 0, 'executable in the repository')
  t.match(script, /^exec su-exec /m, 'the server replaces the shell (signals reach Node) and drops root')
})

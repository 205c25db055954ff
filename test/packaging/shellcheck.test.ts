// addon/run.sh is the container's entrypoint and addon/start.sh the server's command line: a shell
// mistake there means an add-on that never starts, on the user's machine only. CI installs shellcheck; elsewhere a missing one skips.
import t from 'tap'
import { spawnSync } from 'node:child_process'
import { readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { systemTool } from './_system-tool.ts'

const root = fileURLToPath(new URL('../../', import.meta.url))
const scriptPath = join(root, 'addon/run.sh')
const script = readFileSync(scriptPath, 'utf8')

const tool = systemTool('shellcheck', 'shellcheck', ['/usr/bin', '/usr/local/bin'])

t.test('shellcheck passes on addon/run.sh and addon/start.sh', { skip: tool.skip }, async (t) => {
  const shellcheck = tool.path
  if (shellcheck === undefined) {
    t.fail(tool.missing)
    return
  }
  for (const path of [scriptPath, join(root, 'addon/start.sh')]) {
    const result = spawnSync(shellcheck, ['--severity=style', path], { encoding: 'utf8', timeout: 20_000 })
    t.equal(result.status, 0, `${path}: no finding at any severity`)
    t.equal(result.stdout, '', result.stdout)
  }

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

t.test('start script shape', async (t) => {
  const startPath = join(root, 'addon/start.sh')
  t.match(readFileSync(startPath, 'utf8'), /^#!\/bin\/sh\n/, 'POSIX sh: the image\'s busybox and npm start both have it')
  t.ok((statSync(startPath).mode & 0o111) !== 0, 'executable in the repository')
  t.match(readFileSync(startPath, 'utf8'), /^exec "\$\{NODE_BIN:-node\}" /m, 'node replaces the shell (signals reach it)')
})

// Runs addon/run.sh under bash with bashio and the privileged commands replaced by stubs, to see
// what the container would really start: which user, which file, with which environment.
import t from 'tap'
import type { Test } from 'tap'
import { spawnSync } from 'node:child_process'
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = fileURLToPath(new URL('../../', import.meta.url))
const packageJson = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> }

// bashio reads /data/options.json; the stubs answer from STUB_* variables instead.
const BASHIO_STUBS = `
bashio::config.has_value() { [[ -n "\${STUB_LOG_LEVEL:-}" ]]; }
bashio::config() { echo "\${STUB_LOG_LEVEL}"; }
bashio::config.true() { [[ "\${STUB_ALLOW_WRITE:-false}" == true ]]; }
bashio::log.level() { echo "bashio-level $1" >> "$CALLS"; }
bashio::log.info() { echo "info $*" >> "$CALLS"; }
mkdir() { echo "mkdir $*" >> "$CALLS"; }
chown() { echo "chown $*" >> "$CALLS"; }
cd() { echo "cd $*" >> "$CALLS"; }
`

interface Launch { status: number | null, calls: string[], exec: { args: string[], env: Record<string, string> } | undefined }

function launch (t: Test, stubEnv: Record<string, string>): Launch {
  const dir = mkdtempSync(join(tmpdir(), 'run-sh-'))
  t.teardown(() => rmSync(dir, { recursive: true, force: true }))
  mkdirSync(join(dir, 'bin'))
  // su-exec is exec'd, so it must be a real program: it records its arguments and environment.
  const suExec = join(dir, 'bin', 'su-exec')
  writeFileSync(suExec, '#!/usr/bin/env node\nrequire(\'node:fs\').writeFileSync(process.env.EXEC_RECORD, JSON.stringify({ args: process.argv.slice(2), env: process.env }))\n')
  chmodSync(suExec, 0o755)
  const calls = join(dir, 'calls.log')
  writeFileSync(calls, '')
  const record = join(dir, 'exec.json')
  const env: Record<string, string> = { PATH: `${join(dir, 'bin')}:${process.env.PATH ?? ''}`, CALLS: calls, EXEC_RECORD: record, APP_DIR: root.replace(/\/$/, ''), ...stubEnv }
  const result = spawnSync('bash', ['-c', `${BASHIO_STUBS}\nsource "$1"`, 'run.sh', join(root, 'addon/run.sh')], { env, encoding: 'utf8', timeout: 20_000 })
  let exec: Launch['exec']
  try {
    exec = JSON.parse(readFileSync(record, 'utf8'))
  } catch {
    exec = undefined
  }
  return { status: result.status, calls: readFileSync(calls, 'utf8').trim().split('\n'), exec }
}

t.test('starts the production entry as the mcp user with the add-on environment', async (t) => {
  const { status, calls, exec } = launch(t, { STUB_LOG_LEVEL: 'debug', STUB_ALLOW_WRITE: 'true' })
  t.equal(status, 0)
  t.ok(exec, 'ends by exec-ing su-exec')
  // One place for the Node flags: the add-on runs addon/start.sh, as npm start does, with the image's node.
  t.equal(packageJson.scripts.start, 'sh addon/start.sh', 'npm start runs the start script')
  t.same(exec?.args, ['mcp:mcp', '/bin/sh', join(root, 'addon/start.sh')], 'the add-on runs the same script, as mcp')
  t.equal(exec?.env.NODE_BIN, '/usr/local/bin/node', 'with the image\'s node, the binary the AppArmor profile confines')
  t.notMatch(exec?.env.NODE_OPTIONS ?? '', /max-old-space-size/, 'no second copy of the flags in NODE_OPTIONS')
  t.match(exec?.env, { MCP_PORT: '9583', INGRESS_PORT: '9584', DATA_DIR: '/data', LOG_LEVEL: 'debug', NODE_ENV: 'production' })
  t.ok(calls.includes('chown -R mcp:mcp /data'), 'hands /data to the server user first')
  t.ok(calls.includes('bashio-level debug'), 'bashio logs at the same level')
  t.ok(calls.some((line) => line.startsWith('info ') && line.includes('writes on')), 'the start line says writes are on')
})

t.test('without a log_level option the server decides its level', async (t) => {
  const { status, calls, exec } = launch(t, {})
  t.equal(status, 0)
  t.equal(exec?.env.LOG_LEVEL, undefined, 'LOG_LEVEL is not forced')
  t.ok(calls.some((line) => line.startsWith('info ') && line.includes('writes off')))
})

t.test('the start script runs the production entry with the memory flags and the allocator settings', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'start-sh-'))
  t.teardown(() => rmSync(dir, { recursive: true, force: true }))
  // A node that records how it was started, in place of the real one.
  const node = join(dir, 'node')
  const record = join(dir, 'node.json')
  writeFileSync(node, `#!/bin/sh\nprintf '%s\\n' "$PWD" "$MALLOC_ARENA_MAX" "$MALLOC_MMAP_THRESHOLD_" "$@" > "${record}"\n`)
  chmodSync(node, 0o755)
  const result = spawnSync('sh', [join(root, 'addon/start.sh'), '--cpu-prof'], { env: { PATH: process.env.PATH ?? '', NODE_BIN: node }, encoding: 'utf8', timeout: 20_000, cwd: dir })
  t.equal(result.status, 0, result.stderr)
  const [cwd, arenas, mmapThreshold, ...args] = readFileSync(record, 'utf8').trim().split('\n')
  t.equal(cwd, root.replace(/\/$/, ''), 'from the app\'s folder, wherever it is started from')
  t.equal(args.at(-1), 'dist/app/server.js', 'the production entry')
  t.ok(args.some(arg => /^--max-old-space-size=\d+$/.test(arg)), 'a heap cap for small machines')
  t.ok(args.includes('--optimize-for-size'), 'V8\'s memory-saving mode (it also keeps the young generation at 1 MB)')
  t.equal(args.at(-2), '--cpu-prof', 'extra arguments go to node before the entry')
  t.match({ arenas, mmapThreshold }, { arenas: /^\d+$/, mmapThreshold: /^\d+$/ }, 'glibc\'s allocator settings (the image\'s musl ignores them)')
})

t.test('docs/performance.md gives the reason for every setting of the start script', async (t) => {
  const script = readFileSync(join(root, 'addon/start.sh'), 'utf8')
  const settings = script.split('\n').map(line => line.trim().replace(/ \\$/, '')).filter(line => /^(export [A-Z_]+=|--)/.test(line))
    .map(line => line.replace(/^export /, '').replace(/=.*$/, ''))
  t.ok(settings.length >= 5, `the script's settings were read (${settings.join(' ')})`)
  const reasons = readFileSync(join(root, 'docs/performance.md'), 'utf8').split('## Why each setting')[1]?.split('\n## ')[0] ?? ''
  for (const setting of settings) t.match(reasons, new RegExp('^- `' + setting.replace(/[-]/g, '\\-') + '[=`]', 'm'), `${setting} has its reason`)
})

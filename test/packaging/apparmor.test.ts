// The Supervisor loads apparmor.txt into the kernel when the add-on starts; a profile that does
// not compile keeps the add-on from starting at all. CI installs Debian's apparmor package so
// this compiles for real; elsewhere a missing apparmor_parser skips, naming the package.
import t from 'tap'
import { spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { systemTool } from './_system-tool.ts'
import { parse } from 'yaml'

const root = fileURLToPath(new URL('../../', import.meta.url))
const profilePath = join(root, 'apparmor.txt')
const profile = readFileSync(profilePath, 'utf8')
const slug = (parse(readFileSync(join(root, 'config.yaml'), 'utf8')) as { slug: string }).slug

/** Compiles without touching the kernel or the cache, which needs neither root nor AppArmor enabled. */
function compile (parser: string, source: string, output: string): { status: number | null, stderr: string } {
  const result = spawnSync(parser, ['--skip-kernel-load', '--skip-cache', '--ofile', output, source], { encoding: 'utf8', timeout: 20_000 })
  return { status: result.status, stderr: result.stderr }
}

/** The body of the child profile `name`, up to its closing brace. */
function childProfile (name: string): string {
  const start = profile.indexOf(`profile ${name} `)
  return start === -1 ? '' : profile.slice(start, profile.indexOf('\n  }', start))
}

// apparmor_parser lives in /usr/sbin, which a non-root PATH may lack.
const tool = systemTool('apparmor_parser', 'apparmor', ['/usr/sbin', '/sbin'])
const parser = tool.path

t.test('apparmor_parser compiles the profile', { skip: tool.skip }, async (t) => {
  if (parser === undefined) {
    t.fail(tool.missing)
    return
  }
  const dir = mkdtempSync(join(tmpdir(), 'apparmor-'))
  t.teardown(() => rmSync(dir, { recursive: true, force: true }))

  const compiled = compile(parser, profilePath, join(dir, 'ha_mcp.bin'))
  t.equal(compiled.status, 0, `compiles: ${compiled.stderr.trim()}`)
  t.ok(existsSync(join(dir, 'ha_mcp.bin')) && statSync(join(dir, 'ha_mcp.bin')).size > 0, 'emits binary policy')

  const names = spawnSync(parser, ['--names', profilePath], { encoding: 'utf8', timeout: 20_000 })
  t.same(names.stdout.trim().split('\n'), [slug, `${slug}//node`], 'profile named after the slug, with a node child profile')

  // Proves the step above would catch a broken profile rather than pass anything.
  const broken = join(dir, 'broken.txt')
  writeFileSync(broken, profile.replace('network inet tcp,', 'network inet tcpp,'))
  t.not(compile(parser, broken, join(dir, 'broken.bin')).status, 0, 'a broken profile is refused')
})

t.test('profile shape', async (t) => {
  t.match(profile, new RegExp(`^profile ${slug} flags=\\(attach_disconnected,mediate_deleted\\) \\{`, 'm'), 'top profile is the slug')
  t.match(profile, /^#include <tunables\/global>/m)

  const dockerfile = readFileSync(join(root, 'Dockerfile'), 'utf8')
  const runScript = readFileSync(join(root, 'addon/run.sh'), 'utf8')
  const transition = /^\s*(\/\S+) cx -> node,/m.exec(profile)
  t.ok(transition, 'node runs in its own child profile')
  const nodePath = transition?.[1] ?? ''
  t.ok(dockerfile.includes(` ${nodePath}\n`) || dockerfile.includes(` ${nodePath} `), `the image installs node at ${nodePath}`)
  t.ok(runScript.includes(nodePath), `run.sh starts ${nodePath}, so the transition applies`)

  const node = childProfile('node')
  t.match(node, /network inet tcp,/, 'the server may use TCP')
  t.match(node, /network inet6 tcp,/)
  t.match(node, /^\s*\/data\/\*\* rwk,/m, '/data writable with file locks')
  t.notMatch(node, /^\s*capability\b/m, 'the server gets no capability')
  t.notMatch(node, /^\s*\/app\/[^\n]*\b[a-z]*w[a-z]*,/m, 'the app directory is not writable')
  t.match(node, /deny \/app\/\*\* wl,/, 'writes to the app are denied explicitly')
  t.match(node, new RegExp(`signal \\(receive\\) peer=\\*_${slug},`), 'accepts SIGTERM from the init tree (repository-prefixed name)')

  const config = readFileSync(join(root, 'config.yaml'), 'utf8')
  t.notMatch(config, /^apparmor:/m, 'config.yaml keeps AppArmor on (the default) so this profile is used')
})

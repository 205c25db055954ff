// The release guard: a tag whose number disagrees with config.yaml, package.json or the
// changelog must stop the release before any image is pushed.
import t from 'tap'
import type { Test } from 'tap'
import { spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = fileURLToPath(new URL('../../', import.meta.url))
const script = join(root, 'scripts/check-version.mjs')
const version = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string }).version

function check (...args: string[]): { status: number | null, stdout: string, stderr: string } {
  const result = spawnSync(process.execPath, [script, ...args], { encoding: 'utf8', timeout: 20_000 })
  return { status: result.status, stdout: result.stdout, stderr: result.stderr }
}

function fixture (t: Test, files: { config?: string, pkg?: string, changelog?: string }): string {
  const dir = mkdtempSync(join(tmpdir(), 'check-version-'))
  t.teardown(() => rmSync(dir, { recursive: true, force: true }))
  if (files.config !== undefined) writeFileSync(join(dir, 'config.yaml'), `name: x\nversion: "${files.config}"\nslug: x\n`)
  if (files.pkg !== undefined) writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'x', version: files.pkg }))
  if (files.changelog !== undefined) writeFileSync(join(dir, 'CHANGELOG.md'), files.changelog)
  return dir
}

const changelogFor = (v: string): string => `# Changelog\n\n## [Unreleased]\n\n- next\n\n## [${v}] - 2026-11-30\n\n- first\n\n## [0.0.9] - 2026-11-01\n`

t.test('the repository itself agrees, with the tag a release would carry', async (t) => {
  const result = check('--root', root, '--tag', `v${version}`)
  t.equal(result.status, 0, result.stderr)
  t.match(result.stdout, `all agree on ${version}`)
})

t.test('accepts matching versions (Unreleased section skipped, refs/tags prefix tolerated)', async (t) => {
  const dir = fixture(t, { config: '1.2.3', pkg: '1.2.3', changelog: changelogFor('1.2.3') })
  t.equal(check('--root', dir).status, 0)
  t.equal(check('--root', dir, '--tag', 'v1.2.3').status, 0)
  t.equal(check('--root', dir, '--tag', 'refs/tags/v1.2.3').status, 0)
})

t.test('rejects a mismatch and names the culprit', async (t) => {
  const configBehind = check('--root', fixture(t, { config: '1.2.2', pkg: '1.2.3', changelog: changelogFor('1.2.3') }))
  t.equal(configBehind.status, 1)
  t.match(configBehind.stderr, /config\.yaml differs/)

  const noChangelogEntry = check('--root', fixture(t, { config: '1.2.3', pkg: '1.2.3', changelog: changelogFor('1.2.2') }))
  t.equal(noChangelogEntry.status, 1)
  t.match(noChangelogEntry.stderr, /CHANGELOG\.md differs/)

  const wrongTag = check('--root', fixture(t, { config: '1.2.3', pkg: '1.2.3', changelog: changelogFor('1.2.3') }), '--tag', 'v1.2.4')
  t.equal(wrongTag.status, 1)
  t.match(wrongTag.stderr, /git tag differs/)
})

t.test('a missing file or a bad argument is an error, not a pass', async (t) => {
  t.equal(check('--root', fixture(t, { config: '1.2.3', pkg: '1.2.3' })).status, 2, 'no CHANGELOG.md')
  t.equal(check('--root', fixture(t, { config: '1.2.3', pkg: '1.2.3', changelog: '# Changelog\n' })).status, 1, 'a changelog without any release entry')
  t.equal(check('--bogus').status, 2)
})

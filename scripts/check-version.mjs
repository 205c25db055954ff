#!/usr/bin/env node
// Release guard: the add-on version lives in three files (config.yaml for the Supervisor,
// package.json for npm, CHANGELOG.md for users) plus the git tag. A release whose numbers
// disagree ships an image the Supervisor cannot find or a changelog that lies, so the
// release workflow stops here first.
//
// Usage: node scripts/check-version.mjs [--root DIR] [--tag vX.Y.Z]
// Exit codes: 0 all agree, 1 mismatch, 2 a file is missing or unreadable, or bad arguments.
import { readFile } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { parse as parseYaml } from 'yaml'

const RELEASE_HEADING = /^##\s+\[?v?(\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?)\]?/

/** The version of the newest released entry (an "Unreleased" section is skipped). */
export function topChangelogVersion (markdown) {
  for (const line of markdown.split(/\r?\n/)) {
    const match = RELEASE_HEADING.exec(line)
    if (match !== null) return match[1]
  }
  return undefined
}

async function readVersions (root) {
  const configText = await readFile(join(root, 'config.yaml'), 'utf8')
  const packageText = await readFile(join(root, 'package.json'), 'utf8')
  const changelogText = await readFile(join(root, 'CHANGELOG.md'), 'utf8')
  return {
    'config.yaml': String(parseYaml(configText)?.version ?? ''),
    'package.json': String(JSON.parse(packageText).version ?? ''),
    'CHANGELOG.md': topChangelogVersion(changelogText) ?? ''
  }
}

async function main () {
  let values
  try {
    ({ values } = parseArgs({ options: { root: { type: 'string' }, tag: { type: 'string' } } }))
  } catch (error) {
    console.error(`check-version: ${error.message}`)
    return 2
  }

  const root = resolve(values.root ?? '.')
  let versions
  try {
    versions = await readVersions(root)
  } catch (error) {
    console.error(`check-version: cannot read the version files in ${root}: ${error.message}`)
    return 2
  }
  if (values.tag !== undefined) versions['git tag'] = values.tag.replace(/^refs\/tags\//, '').replace(/^v/, '')

  const expected = versions['package.json']
  const wrong = Object.entries(versions).filter(([, version]) => version === '' || version !== expected)
  for (const [source, version] of Object.entries(versions)) {
    console.log(`${source.padEnd(12)} ${version === '' ? '(none found)' : version}`)
  }
  if (wrong.length > 0) {
    const names = wrong.map(([source]) => source).join(', ')
    console.error(`check-version: versions disagree: ${names} ${wrong.length === 1 ? 'differs' : 'differ'} ` +
      `from package.json (${expected || 'none'})`)
    return 1
  }
  console.log(`check-version: all agree on ${expected}`)
  return 0
}

process.exitCode = await main()

import { existsSync } from 'node:fs'
import { delimiter, join } from 'node:path'

/**
 * Tools npm cannot provide (apparmor_parser, shellcheck). Outside CI a missing one skips its test with
 * a line naming the Debian package; under CI=true (.ci/run installs them) it fails the run.
 */
export interface SystemTool {
  path: string | undefined
  /** tap's `skip` option: false when the tool is there or when CI requires it. */
  skip: string | false
  /** The line a test fails with under CI when the tool is missing. */
  missing: string
}

export function systemTool (name: string, debianPackage: string, extraDirs: string[] = []): SystemTool {
  const dirs = [...(process.env.PATH ?? '').split(delimiter), ...extraDirs]
  const path = dirs.map(dir => join(dir, name)).find(candidate => candidate.startsWith('/') && existsSync(candidate))
  const missing = `${name} not found: install Debian's ${debianPackage} package (apt-get install -y ${debianPackage})`
  const ci = process.env.CI === 'true' || process.env.CI === '1'
  return { path, skip: path === undefined && !ci ? `${missing}; skipped outside CI (CI=true makes it fail)` : false, missing: `${missing}; CI=true requires it` }
}

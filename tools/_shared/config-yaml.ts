import { createHash } from 'node:crypto'
import { stringify } from 'yaml'

/** Configs as a human reads them in Home Assistant's YAML editor: block style, no folded lines, no anchors. */
export function toYaml (value: unknown): string {
  return stringify(value, { lineWidth: 0, aliasDuplicateObjects: false })
}

/** JSON with object keys sorted at every level, so equal configs serialize identically. */
export function canonicalJson (value: unknown): string {
  return JSON.stringify(sortKeys(value)) ?? 'null'
}

function sortKeys (value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys)
  if (value === null || typeof value !== 'object') return value
  const record = value as Record<string, unknown>
  return Object.fromEntries(Object.keys(record).sort().map(key => [key, sortKeys(record[key])]))
}

/** Short stable hash of a config (sha256 of its canonical JSON); absent configs hash as 'none'. */
export function configHash (value: unknown): string {
  if (value === undefined) return 'none'
  return createHash('sha256').update(canonicalJson(value)).digest('hex').slice(0, 16)
}

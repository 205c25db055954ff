import { LRUCache } from 'lru-cache'

/**
 * Entity and service globs: `*` matches anything, every other character is literal, matching is
 * case-insensitive and covers the whole string. Compiled once per pattern.
 */
const compiled = new LRUCache<string, RegExp>({ max: 10_000 })

function compile (pattern: string): RegExp {
  let regex = compiled.get(pattern)
  if (!regex) {
    const source = pattern.trim().split('*').map(part => part.replace(/[.+?^${}()|[\]\\/-]/g, '\\$&')).join('.*')
    regex = new RegExp(`^${source}$`, 'i')
    compiled.set(pattern, regex)
  }
  return regex
}

export function globMatch (pattern: string, value: string): boolean {
  return compile(pattern).test(value)
}

export function matchesAny (patterns: readonly string[], value: string): boolean {
  for (const pattern of patterns) {
    if (compile(pattern).test(value)) return true
  }
  return false
}

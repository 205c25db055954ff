/**
 * Entity and service globs: `*` matches anything, every other character is literal, matching is
 * case-insensitive and covers the whole string. Compiled once per pattern.
 */
const compiled = new Map<string, RegExp>()

function compile (pattern: string): RegExp {
  let regex = compiled.get(pattern)
  if (!regex) {
    const source = pattern.trim().split('*').map(part => part.replace(/[.+?^${}()|[\]\\/-]/g, '\\$&')).join('.*')
    regex = new RegExp(`^${source}$`, 'i')
    if (compiled.size > 10_000) compiled.clear()
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

import { LRUCache } from 'lru-cache'
import { Minimatch } from 'minimatch'

/**
 * Entity and service globs, as owners write them anywhere else: `*` any run of characters, `?` one
 * character, `[abc]` / `[a-z]` one of a set, `{a,b}` either alternative. Case-insensitive, the whole
 * name must match, and nothing else is special: a leading `!` or `#` is a literal character (a
 * denylist entry must never turn into "everything but"). Compiled once per pattern.
 */
const OPTIONS = { nocase: true, dot: true, nonegate: true, nocomment: true, noext: true, noglobstar: true, optimizationLevel: 0 } as const
/** Made on the first glob: an LRU preallocates its slots, heap held for nothing where no glob is set. */
let compiled: LRUCache<string, Minimatch> | undefined

function compile (pattern: string): Minimatch {
  compiled ??= new LRUCache<string, Minimatch>({ max: 10_000 })
  let matcher = compiled.get(pattern)
  if (!matcher) {
    matcher = new Minimatch(pattern.trim(), OPTIONS)
    compiled.set(pattern, matcher)
  }
  return matcher
}

export function globMatch (pattern: string, value: string): boolean {
  return compile(pattern).match(value)
}

export function matchesAny (patterns: readonly string[], value: string): boolean {
  for (const pattern of patterns) {
    if (compile(pattern).match(value)) return true
  }
  return false
}

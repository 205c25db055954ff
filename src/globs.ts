import { LRUCache } from 'lru-cache'
import { braceExpand, Minimatch } from 'minimatch'

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

/** The patterns one glob's `{a,b}` groups may expand to: each one is a regular expression tried on every match. */
export const MAX_GLOB_ALTERNATIVES = 64

/**
 * Why a glob cannot be used, or undefined. Its `{ }` groups multiplied past MAX_GLOB_ALTERNATIVES
 * (seventeen `{a,b}` groups make 100,000 patterns, Minimatch's own cap: 400 MB once compiled); or a character no id
 * holds (ids hold only `[a-z0-9_.]`) outside `[ ]` and `{ }`: a comma, an unbalanced brace, a `!`,
 * so the pattern matches nothing, and a denylist item written that way silently denies nothing.
 */
export function globProblem (pattern: string): string | undefined {
  const alternatives = braceExpand(pattern, { braceExpandMax: MAX_GLOB_ALTERNATIVES + 1 })
  if (alternatives.length > MAX_GLOB_ALTERNATIVES) return `its { } groups make more than ${MAX_GLOB_ALTERNATIVES} patterns`
  for (const alternative of alternatives) {
    const stray = /[^a-z0-9_.*?]/.exec(alternative.replace(/\[[^\]]+\]/g, ''))
    if (stray) return `"${stray[0]}" outside [ ] or { } can match no id, so the pattern matches nothing: write one pattern per item`
  }
  return undefined
}

export function globMatch (pattern: string, value: string): boolean {
  return compile(pattern).match(value)
}

export function matchesAny (patterns: readonly string[], value: string): boolean {
  return firstMatch(patterns, value) !== undefined
}

/** The first pattern that matches, so a refusal can name the entry the owner would remove. */
export function firstMatch (patterns: readonly string[], value: string): string | undefined {
  for (const pattern of patterns) {
    if (compile(pattern).match(value)) return pattern
  }
  return undefined
}

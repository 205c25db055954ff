import { structuredPatch } from 'diff'

/** Like the old splitLines: a text is its lines, the final newline optional (YAML always has one). */
const normalise = (text: string): string => text === '' || text.endsWith('\n') ? text : `${text}\n`

/**
 * Unified diff of two texts (`---`/`+++` headers, `@@` hunks with `context` lines around each change),
 * or '' when they are equal: what a human reads before confirming a config edit.
 */
export function unifiedDiff (before: string, after: string, options: { from?: string, to?: string, context?: number } = {}): string {
  const patch = structuredPatch(options.from ?? 'a', options.to ?? 'b', normalise(before), normalise(after), undefined, undefined, { context: options.context ?? 3 })
  if (patch.hunks.length === 0) return ''
  const out = [`--- ${patch.oldFileName}`, `+++ ${patch.newFileName}`]
  // An empty range names the line before it, as GNU diff (and the library's own formatPatch) writes it.
  const range = (start: number, lines: number): string => `${lines === 0 ? start - 1 : start},${lines}`
  for (const hunk of patch.hunks) out.push(`@@ -${range(hunk.oldStart, hunk.oldLines)} +${range(hunk.newStart, hunk.newLines)} @@`, ...hunk.lines)
  return `${out.join('\n')}\n`
}

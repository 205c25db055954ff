/**
 * A small line diff (Myers' O(ND) algorithm) and its unified-diff rendering, used to show a config
 * edit to the human before they confirm it.
 */

export interface DiffOp {
  kind: ' ' | '-' | '+'
  line: string
}

/** Beyond this many edits the shortest script is not worth the memory: replace the middle wholesale. */
const MAX_EDIT_DISTANCE = 1000

/** Edit script turning `before` into `after`, as equal/removed/added lines in order. */
export function diffLines (before: readonly string[], after: readonly string[]): DiffOp[] {
  let prefix = 0
  while (prefix < before.length && prefix < after.length && before[prefix] === after[prefix]) prefix++
  let suffix = 0
  while (suffix < before.length - prefix && suffix < after.length - prefix &&
    before[before.length - 1 - suffix] === after[after.length - 1 - suffix]) suffix++
  const a = before.slice(prefix, before.length - suffix)
  const b = after.slice(prefix, after.length - suffix)
  const head = before.slice(0, prefix).map(line => ({ kind: ' ' as const, line }))
  const tail = before.slice(before.length - suffix).map(line => ({ kind: ' ' as const, line }))
  return [...head, ...middle(a, b), ...tail]
}

function middle (a: readonly string[], b: readonly string[]): DiffOp[] {
  if (a.length === 0) return b.map(line => ({ kind: '+', line }))
  if (b.length === 0) return a.map(line => ({ kind: '-', line }))
  const n = a.length
  const m = b.length
  const max = Math.min(n + m, MAX_EDIT_DISTANCE)
  const offset = max + 1
  const v = new Int32Array(2 * max + 3)
  // trace[d] is the frontier before step d; backtracking walks it from the end.
  const trace: Int32Array[] = []
  for (let d = 0; d <= max; d++) {
    trace.push(v.slice())
    for (let k = -d; k <= d; k += 2) {
      const down = k === -d || (k !== d && (v[offset + k - 1] as number) < (v[offset + k + 1] as number))
      let x = down ? (v[offset + k + 1] as number) : (v[offset + k - 1] as number) + 1
      let y = x - k
      while (x < n && y < m && a[x] === b[y]) { x++; y++ }
      v[offset + k] = x
      if (x >= n && y >= m) return backtrack(a, b, trace, d, offset)
    }
  }
  return [...a.map(line => ({ kind: '-' as const, line })), ...b.map(line => ({ kind: '+' as const, line }))]
}

function backtrack (a: readonly string[], b: readonly string[], trace: Int32Array[], distance: number, offset: number): DiffOp[] {
  const ops: DiffOp[] = []
  let x = a.length
  let y = b.length
  for (let d = distance; d > 0; d--) {
    const v = trace[d] as Int32Array
    const k = x - y
    const down = k === -d || (k !== d && (v[offset + k - 1] as number) < (v[offset + k + 1] as number))
    const prevK = down ? k + 1 : k - 1
    const prevX = v[offset + prevK] as number
    const prevY = prevX - prevK
    while (x > (down ? prevX : prevX + 1) && y > (down ? prevY + 1 : prevY)) {
      ops.push({ kind: ' ', line: a[x - 1] as string })
      x--
      y--
    }
    if (down) ops.push({ kind: '+', line: b[y - 1] as string })
    else ops.push({ kind: '-', line: a[x - 1] as string })
    x = prevX
    y = prevY
  }
  while (x > 0 && y > 0) {
    ops.push({ kind: ' ', line: a[x - 1] as string })
    x--
    y--
  }
  return ops.reverse()
}

const splitLines = (text: string): string[] => text === '' ? [] : text.replace(/\n$/, '').split('\n')

/**
 * Unified diff (`---`/`+++` headers, `@@` hunks with `context` lines around each change), or '' when
 * the texts are equal.
 */
export function unifiedDiff (before: string, after: string, options: { from?: string, to?: string, context?: number } = {}): string {
  const context = options.context ?? 3
  const ops = diffLines(splitLines(before), splitLines(after))
  const changes = ops.flatMap((op, index) => op.kind === ' ' ? [] : [index])
  if (changes.length === 0) return ''
  const out = [`--- ${options.from ?? 'a'}`, `+++ ${options.to ?? 'b'}`]
  // Line numbers (0-based count of lines consumed) before each op.
  const oldAt: number[] = []
  const newAt: number[] = []
  let oldLine = 0
  let newLine = 0
  for (const op of ops) {
    oldAt.push(oldLine)
    newAt.push(newLine)
    if (op.kind !== '+') oldLine++
    if (op.kind !== '-') newLine++
  }
  let i = 0
  while (i < changes.length) {
    let last = changes[i] as number
    let j = i + 1
    while (j < changes.length && (changes[j] as number) - last <= 2 * context + 1) last = changes[j++] as number
    const start = Math.max(0, (changes[i] as number) - context)
    const end = Math.min(ops.length, last + context + 1)
    const hunk = ops.slice(start, end)
    const oldCount = hunk.filter(op => op.kind !== '+').length
    const newCount = hunk.filter(op => op.kind !== '-').length
    const oldStart = (oldAt[start] as number) + (oldCount === 0 ? 0 : 1)
    const newStart = (newAt[start] as number) + (newCount === 0 ? 0 : 1)
    out.push(`@@ -${oldStart},${oldCount} +${newStart},${newCount} @@`)
    for (const op of hunk) out.push(`${op.kind}${op.line}`)
    i = j
  }
  return `${out.join('\n')}\n`
}

import type { EntityRow } from './entities.ts'
import { fold, tokens } from './text.ts'

/**
 * Full-text search over every entity's folded haystack. All haystacks are joined into one string so
 * the leading (longest) query word is found by the engine's native indexOf, jumping a whole entity
 * at a time, instead of testing every row in JavaScript: a search on 10,000 entities touches only
 * the rows that contain that word.
 */
const RARE_WORD_MATCHES = 64

export class SearchIndex {
  #text: string
  #starts: number[]
  #ids: string[]

  constructor (rows: readonly EntityRow[]) {
    this.#ids = rows.map(row => row.entity_id)
    this.#starts = []
    let offset = 0
    for (const row of rows) {
      this.#starts.push(offset)
      offset += row.haystack.length + 1
    }
    this.#text = rows.map(row => row.haystack).join('\u0000')
  }

  #rowAt (position: number): number {
    let low = 0
    let high = this.#starts.length - 1
    while (low < high) {
      const mid = (low + high + 1) >> 1
      if ((this.#starts[mid] as number) <= position) low = mid
      else high = mid - 1
    }
    return low
  }

  /**
   * Ids of entities whose haystack contains `word`, in index order; undefined as soon as there are
   * more than `limit` (the caller already knows a rarer word).
   */
  candidates (word: string, limit = Infinity): string[] | undefined {
    const found: string[] = []
    let position = this.#text.indexOf(word)
    while (position !== -1) {
      const row = this.#rowAt(position)
      found.push(this.#ids[row] as string)
      if (found.length > limit) return undefined
      const next = this.#starts[row + 1]
      if (next === undefined) break
      position = this.#text.indexOf(word, next)
    }
    return found
  }

  /**
   * Candidates for a query: the matches of its rarest word. Counting stops early for common words
   * ("room" in a home where every name has it), so a query costs what its rarest word costs.
   */
  candidatesFor (words: readonly string[]): string[] {
    let best: string[] | undefined
    // Growing caps: each pass stops every word after a few matches, so the rarest word settles it
    // at about the cost of its own matches, whatever the others cost.
    for (const cap of [RARE_WORD_MATCHES, RARE_WORD_MATCHES * 8, RARE_WORD_MATCHES * 64, Infinity]) {
      for (const word of words) {
        const found = this.candidates(word, best ? Math.min(best.length - 1, cap) : cap)
        if (found && (!best || found.length < best.length)) best = found
        if (best?.length === 0) return best
      }
      if (best) return best
    }
    return best ?? []
  }
}

/** Score of a row for a query, or -1 when some word matches nowhere. */
export function searchScore (row: EntityRow, foldedQuery: string, queryTokens: readonly string[]): number {
  let score = 0
  for (const token of queryTokens) {
    if (!row.haystack.includes(token)) return -1
    if (row.entity_id.includes(token)) score += 5
    if (row.foldedName.includes(token)) score += 4
    else score += 2
  }
  if (row.entity_id === foldedQuery) score += 1000
  else if (row.foldedName === foldedQuery) score += 100
  else if (row.foldedName.startsWith(foldedQuery)) score += 20
  return score
}

/**
 * Ranks the rows that match every word of `query`: exact id first, then name matches. With `top`,
 * only the best `top` rows are kept (in order) while every match is still counted, so a broad word
 * on a big home costs a scan, not a sort. Candidates arrive sorted by entity id, which settles ties.
 */
export function rankMatches (query: string, candidates: Iterable<EntityRow>, top = Infinity): { rows: EntityRow[], total: number } {
  const queryTokens = tokens(query)
  const folded = fold(query.trim())
  const best: Array<{ row: EntityRow, score: number }> = []
  let total = 0
  for (const row of candidates) {
    const score = searchScore(row, folded, queryTokens)
    if (score < 0) continue
    total++
    if (best.length >= top && score <= (best[best.length - 1] as { score: number }).score) continue
    // Insert after every entry with a score >= this one: equal scores keep id order.
    let at = best.length
    while (at > 0 && (best[at - 1] as { score: number }).score < score) at--
    best.splice(at, 0, { row, score })
    if (best.length > top) best.pop()
  }
  return { rows: best.map(entry => entry.row), total }
}

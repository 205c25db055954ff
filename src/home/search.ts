import type { EntityRow } from './catalog.ts'
import { fold, tokens } from './text.ts'

/**
 * Full-text search over every entity's folded haystack. All haystacks are joined into one string so
 * the leading (longest) query word is found by the engine's native indexOf, jumping a whole entity
 * at a time, instead of testing every row in JavaScript: a search on 10,000 entities touches only
 * the rows that contain that word.
 */
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

  /** Ids of entities whose haystack contains `word`, in index order. */
  candidates (word: string): string[] {
    const found: string[] = []
    let position = this.#text.indexOf(word)
    while (position !== -1) {
      const row = this.#rowAt(position)
      found.push(this.#ids[row] as string)
      const next = this.#starts[row + 1]
      if (next === undefined) break
      position = this.#text.indexOf(word, next)
    }
    return found
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

/** Ranks the rows that match every word of `query`: exact id first, then name matches. */
export function rankMatches (query: string, candidates: Iterable<EntityRow>): EntityRow[] {
  const queryTokens = tokens(query)
  const folded = fold(query.trim())
  const scored: Array<{ row: EntityRow, score: number }> = []
  for (const row of candidates) {
    const score = searchScore(row, folded, queryTokens)
    if (score >= 0) scored.push({ row, score })
  }
  scored.sort((a, b) => b.score - a.score || (a.row.entity_id < b.row.entity_id ? -1 : 1))
  return scored.map(s => s.row)
}

/** The word to look up in the index: the longest, as it matches the fewest entities. */
export function leadingToken (query: string): string | undefined {
  return tokens(query).sort((a, b) => b.length - a.length)[0]
}

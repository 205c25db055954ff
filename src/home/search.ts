import type { EntityRow } from './entities.ts'
import { fold, tokens } from './text.ts'

/**
 * Full-text search over every entity's folded haystack, by word. A query word has no whitespace, so
 * it can only sit inside one whitespace-free word of a haystack: the index keeps each distinct word
 * once with the rows that hold it, all words joined into one string so that a query word is found by
 * the engine's native indexOf over the words, not over every haystack. A word's candidates are the
 * rows of the index words that contain it. Words with a dot or an underscore (an entity id as it is
 * written) are kept apart, each piece between them also indexed as a plain word: a query word
 * without either is looked up among the plain words only, where `room` is one word, not one raw id
 * per room entity.
 */
const SEPARATOR = '\u0000'
const WHITESPACE = /\s+/u
const JOINERS = /[._]/
const JOINER_RUNS = /[._]+/

/** Distinct words, each with the rows (indices, increasing) that hold it. */
class WordList {
  /** Every word, each followed by SEPARATOR, and where each one starts. */
  readonly text: string
  readonly starts: Int32Array
  /** The rows holding word k: postings[offsets[k]] .. postings[offsets[k + 1] - 1]. */
  readonly offsets: Int32Array
  readonly postings: Int32Array

  constructor (words: string[], counts: number[], fill: (place: (word: number, row: number) => void) => void) {
    this.offsets = new Int32Array(counts.length + 1)
    counts.forEach((count, id) => { this.offsets[id + 1] = (this.offsets[id] as number) + count })
    this.postings = new Int32Array(this.offsets[counts.length] as number)
    const next = this.offsets.slice(0, counts.length)
    fill((id, row) => { this.postings[(next[id] as number)++] = row })
    this.starts = new Int32Array(words.length)
    let at = 0
    words.forEach((word, id) => {
      this.starts[id] = at
      at += word.length + 1
    })
    this.text = words.join(SEPARATOR) + SEPARATOR
  }

  count (id: number): number {
    return (this.offsets[id + 1] as number) - (this.offsets[id] as number)
  }

  rows (id: number): Int32Array {
    return this.postings.subarray(this.offsets[id], this.offsets[id + 1])
  }

  #wordAt (position: number): number {
    let low = 0
    let high = this.starts.length - 1
    while (low < high) {
      const mid = (low + high + 1) >> 1
      if ((this.starts[mid] as number) <= position) low = mid
      else high = mid - 1
    }
    return low
  }

  /** The words that contain `word`. */
  holding (word: string): number[] {
    const found: number[] = []
    let position = this.text.indexOf(word)
    while (position !== -1) {
      const id = this.#wordAt(position)
      found.push(id)
      position = this.text.indexOf(word, this.starts[id + 1] ?? this.text.length)
    }
    return found
  }
}

/** Builds the two word lists in two passes: count the rows of each word, then fill packed arrays. */
function buildLists (haystacks: readonly string[]): { plain: WordList, joined: WordList } {
  const kinds = [new Map<string, number>(), new Map<string, number>()]
  const counts: number[][] = [[], []]
  const lastRow: number[][] = [[], []]
  const visitAll = (visit: (kind: number, id: number, row: number) => void): void => {
    const add = (kind: number, word: string, row: number): void => {
      const ids = kinds[kind] as Map<string, number>
      let id = ids.get(word)
      if (id === undefined) {
        id = ids.size
        ids.set(word, id)
        ;(counts[kind] as number[]).push(0)
        ;(lastRow[kind] as number[]).push(-1)
      }
      const last = lastRow[kind] as number[]
      if (last[id] !== row) {
        last[id] = row
        visit(kind, id, row)
      }
    }
    haystacks.forEach((haystack, row) => {
      for (const word of haystack.split(WHITESPACE)) {
        if (word === '') continue
        if (!JOINERS.test(word)) {
          add(0, word, row)
          continue
        }
        add(1, word, row)
        for (const piece of word.split(JOINER_RUNS)) if (piece !== '') add(0, piece, row)
      }
    })
  }
  visitAll((kind, id) => { const c = counts[kind] as number[]; c[id] = (c[id] as number) + 1 })
  const list = (kind: number): WordList => new WordList([...(kinds[kind] as Map<string, number>).keys()], counts[kind] as number[], place => {
    ;(lastRow[kind] as number[]).fill(-1)
    visitAll((k, id, row) => { if (k === kind) place(id, row) })
  })
  return { plain: list(0), joined: list(1) }
}

export class SearchIndex {
  /**
   * The rows as they were when the index was built. Their searchable text (id, name, haystack) is
   * still theirs: any change to it rebuilds the index; a state change does not, so a caller reads
   * states from the current rows, never from these.
   */
  #rows: readonly EntityRow[]
  #haystacks: string[]
  #plain: WordList
  #joined: WordList
  /** Scratch marks for merging several words' rows, one per row, all 0 between calls. */
  #marks: Uint8Array
  /** Scratch room for one union's rows (at most every row once). */
  #scratch: Int32Array

  constructor (rows: readonly EntityRow[]) {
    this.#rows = [...rows]
    this.#haystacks = rows.map(row => row.haystack)
    this.#marks = new Uint8Array(rows.length)
    this.#scratch = new Int32Array(rows.length)
    const { plain, joined } = buildLists(this.#haystacks)
    this.#plain = plain
    this.#joined = joined
  }

  /**
   * Ids of entities whose haystack contains `word`, in index order; undefined as soon as there are
   * more than `limit` (the caller already knows a rarer word).
   */
  candidates (word: string, limit = Infinity): string[] | undefined {
    return this.#resolve(this.#plan(word), limit)?.map(row => row.entity_id)
  }

  /** The index words that contain `word`, with the most and the total rows any of them holds. */
  #plan (word: string): Plan {
    if (word === '' || word.includes(SEPARATOR) || WHITESPACE.test(word)) return { word, list: undefined, matched: [], most: 0, sum: Infinity }
    const list = JOINERS.test(word) ? this.#joined : this.#plain
    const matched = list.holding(word)
    let most = 0
    let sum = 0
    for (const id of matched) {
      const count = list.count(id)
      most = Math.max(most, count)
      sum += count
    }
    return { word, list, matched, most, sum }
  }

  #resolve (plan: Plan, limit: number): EntityRow[] | undefined {
    if (plan.list === undefined) return this.#scan(plan.word, limit)
    // One index word alone holding more rows than the limit: the union can only be larger.
    if (plan.most > limit) return undefined
    const rows = plan.matched.length === 1 ? plan.list.rows(plan.matched[0] as number) : this.#union(plan.list, plan.matched)
    if (rows.length > limit) return undefined
    const found = new Array<EntityRow>(rows.length)
    for (let i = 0; i < rows.length; i++) found[i] = this.#rows[rows[i] as number] as EntityRow
    return found
  }

  /**
   * The rows of several words, each once, increasing: a view of the index's scratch rows, read before
   * the next union (a new typed array per call was a native buffer for every full GC to sweep).
   */
  #union (list: WordList, words: number[]): Int32Array {
    const marks = this.#marks
    const scratch = this.#scratch
    const { offsets, postings } = list
    let count = 0
    for (const word of words) {
      const end = offsets[word + 1] as number
      for (let at = offsets[word] as number; at < end; at++) {
        const row = postings[at] as number
        if (marks[row] === 0) {
          marks[row] = 1
          scratch[count++] = row
        }
      }
    }
    const rows = scratch.subarray(0, count)
    for (const row of rows) marks[row] = 0
    return rows.sort()
  }

  /** Every row whose haystack contains `word`: the plain scan, for a word the index cannot split on. */
  #scan (word: string, limit: number): EntityRow[] | undefined {
    const found: EntityRow[] = []
    for (let row = 0; row < this.#haystacks.length; row++) {
      if (!(this.#haystacks[row] as string).includes(word)) continue
      found.push(this.#rows[row] as EntityRow)
      if (found.length > limit) return undefined
    }
    return found
  }

  /**
   * Candidates for a query: the matches of its rarest word. Words are tried fewest possible rows
   * first, and a word stops as soon as one of its index words alone holds more rows than the rarest
   * so far, so a common word ("room" in a home where every name has it) costs a look at its index
   * words, not a list of its rows. Any word's matches would do (every row must hold every word,
   * which ranking checks): the rarest is the fewest to check. The rows are the index's own: rank by
   * their text, read states from the current rows. With the rows, the word that chose them: every
   * one of them contains it.
   */
  match (words: readonly string[]): { rows: EntityRow[], word: string | undefined } {
    const plans = words.map(word => this.#plan(word)).sort((a, b) => a.sum - b.sum)
    let best: EntityRow[] | undefined
    let word: string | undefined
    for (const plan of plans) {
      const found = this.#resolve(plan, best ? best.length - 1 : Infinity)
      if (found && (!best || found.length < best.length)) {
        best = found
        word = plan.word
      }
      if (best?.length === 0) break
    }
    return { rows: best ?? [], word }
  }
}

interface Plan {
  word: string
  /** Where `word`'s index words are; undefined when only a scan of every haystack can tell. */
  list: WordList | undefined
  matched: number[]
  most: number
  sum: number
}

/** Whether `haystack` contains every one of `words`. */
function containsAll (haystack: string, words: readonly string[]): boolean {
  for (const word of words) if (!haystack.includes(word)) return false
  return true
}

/** What each query word adds: 5 when the id holds it, 4 when the name does, else 2. */
function wordsScore (row: EntityRow, queryTokens: readonly string[]): number {
  let score = 0
  for (const token of queryTokens) {
    if (row.entity_id.includes(token)) score += 5
    if (row.foldedName.includes(token)) score += 4
    else score += 2
  }
  return score
}

/** The most wordsScore gives per query word. */
const MOST_PER_WORD = 9

/** What the whole query adds: exact id, exact name, or a name that starts with it. */
function wholeScore (row: EntityRow, foldedQuery: string): number {
  if (row.entity_id === foldedQuery) return 1000
  if (row.foldedName === foldedQuery) return 100
  if (row.foldedName.startsWith(foldedQuery)) return 20
  return 0
}

/** Score of a row for a query, or -1 when some word matches nowhere. */
export function searchScore (row: EntityRow, foldedQuery: string, queryTokens: readonly string[]): number {
  if (!containsAll(row.haystack, queryTokens)) return -1
  return wordsScore(row, queryTokens) + wholeScore(row, foldedQuery)
}

/**
 * Ranks the rows that match every word of `query`: exact id first, then name matches. With `top`,
 * only the best `top` rows are kept (in order) while every match is still counted, so a broad word
 * on a big home costs a scan, not a sort. Candidates arrive sorted by entity id, which settles ties.
 * `contained`: a query word every candidate is known to contain (SearchIndex.match's), not looked for
 * again. Once `top` rows are kept, a match whose best possible score cannot beat the last of them is
 * only counted: its words are not looked for in its id and name.
 */
export function rankMatches (query: string, candidates: Iterable<EntityRow>, top = Infinity, contained?: string): { rows: EntityRow[], total: number } {
  const queryTokens = tokens(query)
  const folded = fold(query.trim())
  const checked = contained === undefined ? queryTokens : queryTokens.filter(token => token !== contained)
  const most = MOST_PER_WORD * queryTokens.length
  // The best rows so far and their scores, side by side: no object per match, no array per insertion.
  const rows: EntityRow[] = []
  const scores: number[] = []
  let total = 0
  for (const row of candidates) {
    if (!containsAll(row.haystack, checked)) continue
    total++
    const whole = wholeScore(row, folded)
    const full = rows.length >= top
    if (full && most + whole <= (scores[scores.length - 1] as number)) continue
    const score = wordsScore(row, queryTokens) + whole
    if (full && score <= (scores[scores.length - 1] as number)) continue
    // Insert after every entry with a score >= this one: equal scores keep id order.
    let at = rows.length
    while (at > 0 && (scores[at - 1] as number) < score) {
      rows[at] = rows[at - 1] as EntityRow
      scores[at] = scores[at - 1] as number
      at--
    }
    rows[at] = row
    scores[at] = score
    if (rows.length > top) {
      rows.pop()
      scores.pop()
    }
  }
  return { rows, total }
}

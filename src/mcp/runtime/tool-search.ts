import { KEYWORD_LANGUAGES, type ToolDefinition } from './define-tool.ts'

/**
 * ha_search_tools' ranking: no model and no network, a weighted word match over each tool's name,
 * title, description and its keywords in the panel's five languages. Words are folded (lower case,
 * accents and umlauts dropped, ß as ss) so "mises à jour" finds "mises a jour"; a word matches a
 * tool's word exactly, by a shared stem, as a prefix, inside a compound ("Gerätneustart"), or within
 * one or two typos (a bounded Damerau-Levenshtein distance). Each match counts by how rare the word
 * is among the tools (idf) and by the field it is in, so "automation" alone ranks by the other words.
 */

/** Words that say nothing about which tool is meant, in the five languages. */
const STOPWORDS = new Set(`
  a an the of to in on at for from by with and or is are was were be been my me i you your it its this that these those
  what which whom how do does did can could should would please all any some there here
  de der die das den dem des ein eine einen einem einer und oder ist sind war mein meine meinen mir mich ich du im am an auf zu
  zum zur vom von mit fur bitte was hat haben es sie er wir ihr welche welcher welches
  le la les l un une des du d et ou est sont mon ma mes moi je tu il elle au aux en sur pour par avec que quoi ce cette ces quel quelle quels quelles
  s y se ne pas
  el los las una unos unas del al y o es son mi mis yo que cual cuales para con como se lo
  het een van zijn mijn ik jij je wat welke hoe en of in aan voor met er
  ha
`.split(/\s+/).filter(word => word !== ''))

/** Lower case, accents dropped, ß as ss: the form every word is compared in. */
export function fold (text: string): string {
  return text.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase().replace(/\u00df/g, 'ss')
}

/** The meaningful words of a text: folded, split on anything but letters and digits (ha_get_entity is get, entity). */
export function words (text: string): string[] {
  return fold(text).split(/[^\p{L}\p{N}]+/u).filter(word => word.length > 1 && !STOPWORDS.has(word))
}

/** A crude stem shared by the five languages' plural and verb endings: lights/light, geräte/gerät, lumières/lumière. */
function stem (word: string): string {
  if (word.length <= 4) return word
  return word.replace(/(ations|ation|ungen|ung|ies|es|en|er|s|e|n)$/, '')
}

/** Damerau-Levenshtein distance, or max + 1 as soon as it is certain to exceed max. */
function distance (a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1
  let before: number[] = []
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j)
  for (let i = 1; i <= a.length; i++) {
    const current = [i]
    let best = i
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1
      let value = Math.min((previous[j] as number) + 1, (current[j - 1] as number) + 1, (previous[j - 1] as number) + cost)
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) value = Math.min(value, (before[j - 2] as number) + 1)
      current.push(value)
      best = Math.min(best, value)
    }
    if (best > max) return max + 1
    before = previous
    previous = current
  }
  return previous[b.length] as number
}

/** How well a query word matches a tool's word, 0 to 1. */
export function similarity (query: string, word: string): number {
  if (query === word) return 1
  const shorter = Math.min(query.length, word.length)
  if (shorter >= 4 && stem(query) === stem(word)) return 0.9
  if (shorter >= 4 && (word.startsWith(query) || query.startsWith(word))) return 0.75
  // A compound holds the tool's word: "gerateneustart" holds "neustart", "einkaufsliste" holds "liste".
  if (word.length >= 5 && query.length > word.length && query.includes(word)) return 0.6
  const allowed = shorter >= 8 ? 2 : shorter >= 5 ? 1 : 0
  if (allowed > 0 && distance(query, word, allowed) <= allowed) return 0.7
  return 0
}

/** How much a match counts by where the tool's word is. */
const FIELD_WEIGHT = { name: 3, title: 2.5, keywords: 2, description: 1 } as const
type Field = keyof typeof FIELD_WEIGHT

interface Indexed<T> {
  item: T
  /** Each distinct word of the tool with the weight of the best field it is in. */
  weights: Map<string, number>
}

/** The tools' words, indexed once; `rank` answers a query over any subset of them. */
export class ToolIndex<T extends { definition: Pick<ToolDefinition, 'name' | 'title' | 'description' | 'keywords'> }> {
  readonly #entries: Array<Indexed<T>>
  readonly #idf = new Map<string, number>()
  /** Query word -> its best similarity to each vocabulary word it matches, computed once per word. */
  readonly #matches = new Map<string, Array<[string, number]>>()

  constructor (items: readonly T[]) {
    this.#entries = items.map(item => {
      const { name, title, description, keywords } = item.definition
      const weights = new Map<string, number>()
      const add = (field: Field, text: string): void => {
        for (const word of words(text)) weights.set(word, Math.max(weights.get(word) ?? 0, FIELD_WEIGHT[field]))
      }
      add('description', description)
      add('keywords', KEYWORD_LANGUAGES.map(language => keywords[language]).join(' '))
      add('title', title)
      add('name', name.replace(/_/g, ' '))
      return { item, weights }
    })
    const documents = new Map<string, number>()
    for (const entry of this.#entries) for (const word of entry.weights.keys()) documents.set(word, (documents.get(word) ?? 0) + 1)
    const total = this.#entries.length
    for (const [word, count] of documents) this.#idf.set(word, Math.log(1 + total / count))
  }

  #matchesOf (query: string): Array<[string, number]> {
    let found = this.#matches.get(query)
    if (!found) {
      found = []
      for (const word of this.#idf.keys()) {
        const score = similarity(query, word)
        if (score > 0) found.push([word, score])
      }
      // Bounded: a query of many odd words must not grow the memo without end.
      if (this.#matches.size > 5_000) this.#matches.clear()
      this.#matches.set(query, found)
    }
    return found
  }

  /** The items `include` lets through that match the query, best first (at most `limit`); ties by name. */
  rank (query: string, limit: number, include: (item: T) => boolean): T[] {
    const asked = [...new Set(words(query))].slice(0, 32)
    const scored: Array<{ item: T, score: number }> = []
    for (const entry of this.#entries) {
      if (!include(entry.item)) continue
      let score = 0
      for (const word of asked) {
        let best = 0
        for (const [match, similar] of this.#matchesOf(word)) {
          const weight = entry.weights.get(match)
          if (weight !== undefined) best = Math.max(best, similar * weight * (this.#idf.get(match) ?? 0))
        }
        score += best
      }
      if (score > 0) scored.push({ item: entry.item, score })
    }
    scored.sort((a, b) => b.score - a.score || a.item.definition.name.localeCompare(b.item.definition.name))
    return scored.slice(0, limit).map(entry => entry.item)
  }
}

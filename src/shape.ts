/** Response shaping: small answers are the product. */
export const RESPONSE_CAP_BYTES = 15_000
export const ATTRIBUTE_MAX_CHARS = 500

export interface Envelope<T> {
  items: T[]
  returned: number
  total: number
  has_more: boolean
  next_offset: number | null
  note?: string
}

/** The standard list envelope for one page of `all`; `map` shapes only the rows on the page. */
export function page<T, U = T> (all: readonly T[], offset: number, limit: number, note?: string, map?: (item: T) => U): Envelope<U> {
  const slice = all.slice(offset, offset + limit)
  const items = (map ? slice.map(item => map(item)) : slice) as U[]
  const end = offset + items.length
  const hasMore = end < all.length
  const envelope: Envelope<U> = { items, returned: items.length, total: all.length, has_more: hasMore, next_offset: hasMore ? end : null }
  if (note) envelope.note = note
  return envelope
}

export function byteLength (value: unknown): number {
  return Buffer.byteLength(JSON.stringify(value) ?? '', 'utf8')
}

/** A plain JSON object (not null, not an array). */
export function isRecord (value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value)
}

/** The first `max` characters of a text, never splitting a surrogate pair (an emoji stays whole or goes). */
export function clip (text: string, max: number): string {
  if (text.length <= max) return text
  const cut = /[\uD800-\uDBFF]/.test(text[max - 1] ?? '') ? max - 1 : max
  return text.slice(0, cut)
}

/** A free text (or the JSON of a value) cut to `max` characters, saying so; undefined for nothing. */
export function excerpt (value: unknown, max: number): string | undefined {
  if (value === undefined || value === null || value === '') return undefined
  const text = typeof value === 'string' ? value : JSON.stringify(value)
  return text.length > max ? `${clip(text, max)}… (${text.length} chars)` : text
}

/**
 * A text shortened until its JSON form (quotes and escapes counted, in UTF-8) takes at most `maxBytes`,
 * saying how much is not shown. For text a person reads in full elsewhere (a confirmation's question),
 * where fitToCap's generic shortening would cut every part instead of the tail.
 */
export function fitText (text: string, maxBytes: number): string {
  const size = (value: string): number => Buffer.byteLength(JSON.stringify(value), 'utf8')
  if (size(text) <= maxBytes) return text
  const shortened = (keep: number): string => `${clip(text, keep)}… (shortened to fit the answer: the other ${text.length - keep} characters are not shown)`
  let low = 0
  let high = text.length
  while (low < high) {
    const mid = Math.ceil((low + high) / 2)
    if (size(shortened(mid)) <= maxBytes) low = mid
    else high = mid - 1
  }
  return shortened(low)
}

/** Truncates one attribute value whose text form is longer than `max` characters. */
export function truncateValue (value: unknown, max = ATTRIBUTE_MAX_CHARS): unknown {
  if (typeof value === 'string') {
    return value.length > max ? `${clip(value, max)}… (truncated, ${value.length} chars)` : value
  }
  if (value !== null && typeof value === 'object') {
    const text = JSON.stringify(value)
    if (text.length > max) return `${clip(text, max)}… (truncated, ${text.length} chars)`
  }
  return value
}

function isEnvelope (value: unknown): value is Envelope<unknown> {
  return value !== null && typeof value === 'object' && Array.isArray((value as Envelope<unknown>).items) &&
    typeof (value as Envelope<unknown>).returned === 'number'
}

const REFINE = 'Answer capped at about 15 KB: narrow the query with filters, lower limit, or page with offset.'

/**
 * Makes any answer fit the cap. A list envelope keeps as many items as fit and points to the next
 * offset; anything else has its biggest parts shortened. The note always says how to refine.
 */
export function fitToCap (value: unknown, cap = RESPONSE_CAP_BYTES, hint = REFINE): unknown {
  if (byteLength(value) <= cap) return value
  if (isEnvelope(value)) {
    const items = value.items
    let low = 0
    let high = items.length
    const offset = value.next_offset !== null ? value.next_offset - value.returned : 0
    const build = (count: number): Envelope<unknown> => ({
      ...value,
      items: items.slice(0, count),
      returned: count,
      has_more: true,
      next_offset: offset + count,
      note: value.note ? `${value.note} ${hint}` : hint
    })
    while (low < high) {
      const mid = Math.ceil((low + high) / 2)
      if (byteLength(build(mid)) <= cap) low = mid
      else high = mid - 1
    }
    const fitted = build(low)
    return byteLength(fitted) <= cap ? fitted : shrink(fitted, cap, hint)
  }
  return shrink(value, cap, hint)
}

function shrink (value: unknown, cap: number, hint: string): unknown {
  let maxChars = 2000
  let current = value
  while (maxChars >= 20) {
    current = shorten(value, maxChars, 40)
    const wrapped = isRecord(current)
      ? { ...current, note: hint }
      : { value: current, note: hint }
    if (byteLength(wrapped) <= cap) return wrapped
    maxChars = Math.floor(maxChars / 2)
  }
  return { truncated: true, note: hint }
}

function shorten (value: unknown, maxChars: number, maxItems: number): unknown {
  if (typeof value === 'string') return truncateValue(value, maxChars)
  if (Array.isArray(value)) {
    const kept = value.slice(0, maxItems).map(v => shorten(v, maxChars, maxItems))
    if (value.length > maxItems) kept.push(`… ${value.length - maxItems} more`)
    return kept
  }
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {}
    for (const [key, v] of Object.entries(value)) out[key] = shorten(v, maxChars, maxItems)
    return out
  }
  return value
}

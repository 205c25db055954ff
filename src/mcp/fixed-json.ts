/**
 * Answer items whose JSON is computed once, not on every call: a list or search answer is mostly
 * compact entity rows, the same rows call after call, and serializing them again (then escaping the
 * whole text a second time for the JSON-RPC answer's text field) was the largest part of such a
 * call's CPU and of its garbage.
 *
 * `fixedJson(item)` freezes a flat item (strings, numbers, booleans, null) and keeps its JSON and
 * that JSON escaped as the inside of a JSON string. `answerJson(value)` then serializes an answer
 * whose top-level arrays hold such items from those pieces; its text is byte for byte
 * `JSON.stringify(value)`, because a frozen item of primitives always serializes the same way.
 */

type Flat = Record<string, string | number | boolean | null>

/** An item's JSON, that JSON escaped, and the UTF-8 size of each (measured once, not per answer). */
interface Pieces { json: string, escaped: string, jsonBytes: number, escapedBytes: number }

/**
 * A value kept on an object itself, under a non-enumerable symbol that no JSON, key listing or schema
 * sees: what an answer remembers about its serialization. Not a WeakMap: an entry per call (or per
 * entity ever listed) would be weak references for every full GC to settle in its pause.
 */
export function hiddenSlot<T> (description: string): { get: (owner: unknown) => T | undefined, set: (owner: object, value: T) => void } {
  const key = Symbol(description)
  return {
    get: owner => typeof owner === 'object' && owner !== null ? (owner as Record<symbol, T | undefined>)[key] : undefined,
    set: (owner, value) => { Object.defineProperty(owner, key, { value }) }
  }
}

/** Where a fixed item keeps its pieces. */
const piecesSlot = hiddenSlot<Pieces>('fixed JSON')
const piecesOf = piecesSlot.get

/** The inside of `JSON.stringify(text)` (without its quotes). */
function escapeInner (text: string): string {
  const quoted = JSON.stringify(text)
  return quoted.slice(1, -1)
}

/** Freezes `item` and remembers its JSON; returns the same object. */
export function fixedJson<T extends Flat> (item: T): Readonly<T> {
  const json = JSON.stringify(item)
  const escaped = escapeInner(json)
  piecesSlot.set(item, { json, escaped, jsonBytes: Buffer.byteLength(json, 'utf8'), escapedBytes: Buffer.byteLength(escaped, 'utf8') })
  return Object.freeze(item)
}

/** The UTF-8 size of a run of pieces written one after the other: remembered for answerJson's, else measured. */
const runBytesSlot = hiddenSlot<number>('UTF-8 bytes')
export function runBytes (run: readonly string[]): number {
  const known = runBytesSlot.get(run)
  if (known !== undefined) return known
  let bytes = 0
  for (const piece of run) bytes += Buffer.byteLength(piece, 'utf8')
  return bytes
}

export interface AnswerJson {
  /** `JSON.stringify(value)`. */
  text: string
  /**
   * When the answer had fixed items: the text in pieces, and `JSON.stringify(text)` without its quotes
   * in the same pieces, to be written one after the other, so neither is ever built (nor the text
   * escaped) as a whole on the way out. Each piece begins and ends on JSON punctuation or a whole
   * value, so no word runs across two pieces (what a scrub per piece relies on).
   */
  pieces?: readonly string[]
  escaped?: readonly string[]
}

/** An answer from fixed pieces: its text is joined only if something reads it. */
class PiecedAnswer implements AnswerJson {
  readonly pieces: readonly string[]
  readonly escaped: readonly string[]
  #text: string | undefined

  constructor (pieces: readonly string[], escaped: readonly string[]) {
    this.pieces = pieces
    this.escaped = escaped
  }

  get text (): string {
    this.#text ??= this.pieces.join('')
    return this.#text
  }
}

function isPlainRecord (value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false
  const proto = Object.getPrototypeOf(value) as unknown
  return (proto === Object.prototype || proto === null) && typeof (value as { toJSON?: unknown }).toJSON !== 'function'
}

function hasFixedItems (value: Record<string, unknown>): boolean {
  for (const key in value) {
    const items = value[key]
    if (Array.isArray(items) && items.length > 0 && piecesOf(items[0]) !== undefined) return true
  }
  return false
}

/**
 * Serializes an answer: `JSON.stringify(value)`, from the fixed items' remembered pieces when a
 * top-level array of a plain object holds some (list and search answers), else JSON.stringify itself.
 */
export function answerJson (value: unknown): AnswerJson {
  if (!isPlainRecord(value) || !hasFixedItems(value)) return { text: JSON.stringify(value) ?? 'null' }
  // Sized once: a list answer's pieces are a few hundred, and growing the arrays was most of its garbage.
  let size = 2
  for (const key in value) {
    const member = value[key]
    size += Array.isArray(member) ? 2 * member.length + 1 : 1
  }
  const raw = new Array<string>(size)
  const escaped = new Array<string>(size)
  let at = 0
  let bytes = 0
  let escapedBytes = 0
  const piece = (json: string, inner: string, jsonSize: number, innerSize: number): void => {
    raw[at] = json
    escaped[at++] = inner
    bytes += jsonSize
    escapedBytes += innerSize
  }
  // Punctuation: one byte, the same escaped.
  const mark = (json: string): void => { piece(json, json, 1, 1) }
  const literal = (json: string): void => {
    const inner = escapeInner(json)
    piece(json, inner, Buffer.byteLength(json, 'utf8'), Buffer.byteLength(inner, 'utf8'))
  }
  mark('{')
  let first = true
  // Object.keys is JSON.stringify's order (own enumerable string keys, integer-like ones first).
  for (const key of Object.keys(value)) {
    const member = value[key]
    const comma = first ? '' : ','
    if (Array.isArray(member)) {
      literal(`${comma}${JSON.stringify(key)}:[`)
      for (let i = 0; i < member.length; i++) {
        if (i > 0) mark(',')
        const item: unknown = member[i]
        const pieces = piecesOf(item)
        // As JSON.stringify writes an array's undefined, function or symbol item (and a hole).
        if (pieces !== undefined) piece(pieces.json, pieces.escaped, pieces.jsonBytes, pieces.escapedBytes)
        else literal(JSON.stringify(item) ?? 'null')
      }
      mark(']')
    } else {
      const json = JSON.stringify(member)
      // As JSON.stringify leaves out an object's undefined, function or symbol member.
      if (json === undefined) continue
      literal(`${comma}${JSON.stringify(key)}:${json}`)
    }
    first = false
  }
  mark('}')
  raw.length = at
  escaped.length = at
  runBytesSlot.set(raw, bytes)
  runBytesSlot.set(escaped, escapedBytes)
  return new PiecedAnswer(raw, escaped)
}

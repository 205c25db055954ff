/**
 * One copy of each short text that many entities repeat. Home Assistant's answers are parsed whole,
 * and JSON.parse makes a new string for every occurrence: "measurement", "off", "zha", a config
 * entry id shared by 900 entries, each held thousands of times on a big home (3 MB of duplicates at
 * ready on 10,000 entities). The table is bounded: texts over `maxLength` are never kept, and once
 * `maxEntries` are known new texts pass through unchanged, so unique values (ids, readings) cannot
 * grow it past a few hundred kilobytes. The values that repeat are seen first (every entity has them).
 *
 * One table per app, built by the composition root (src/compose.ts) and handed to the Home Assistant
 * connection (states, registries) and the entity catalogue, so the copies they keep are the same ones.
 */

/**
 * Fields whose value is one entity's or one device's own (its id, its name): never repeated, so
 * never worth a place in the table, which they would fill before the values that do repeat.
 */
const OWN_VALUES = new Set(['entity_id', 'id', 'unique_id', 'previous_unique_id', 'friendly_name', 'name', 'name_by_user', 'serial_number', 'entity_picture', 'access_token'])

export class InternTable {
  readonly #known = new Map<string, string>()
  readonly #maxLength: number
  readonly #maxEntries: number

  constructor (limits: { maxLength?: number, maxEntries?: number } = {}) {
    this.#maxLength = limits.maxLength ?? 40
    this.#maxEntries = limits.maxEntries ?? 8192
  }

  /** How many texts the table holds. */
  get size (): number {
    return this.#known.size
  }

  /** The one kept copy of `text` (equal to it), or `text` itself. */
  intern (text: string): string {
    if (text.length > this.#maxLength) return text
    const kept = this.#known.get(text)
    if (kept !== undefined) return kept
    if (this.#known.size < this.#maxEntries) this.#known.set(text, text)
    return text
  }

  /**
   * Interns, in place, the string values of a freshly parsed record and the strings in its arrays of
   * strings (one level: attributes and registry entries are flat), but for OWN_VALUES; returns the record.
   */
  internFields<T extends object> (record: T): T {
    const fields = record as Record<string, unknown>
    for (const key in fields) {
      if (OWN_VALUES.has(key)) continue
      const value = fields[key]
      if (typeof value === 'string') fields[key] = this.intern(value)
      else if (Array.isArray(value)) {
        for (let i = 0; i < value.length; i++) {
          const item: unknown = value[i]
          if (typeof item === 'string') value[i] = this.intern(item)
        }
      }
    }
    return record
  }
}

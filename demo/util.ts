import { randomBytes } from 'node:crypto'

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ'

/** Seeded PRNG (mulberry32): the whole home is reproducible from one integer. */
export function createRng (seed: number): () => number {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

/** Stateless hash to a float in [0, 1): lets history be computed on demand instead of stored. */
export function hashUnit (...parts: Array<string | number>): number {
  let h = 2166136261
  for (const part of parts) {
    const s = String(part)
    for (let i = 0; i < s.length; i++) {
      h ^= s.charCodeAt(i)
      h = Math.imul(h, 16777619)
    }
    h ^= 0x9e
    h = Math.imul(h, 16777619)
  }
  h ^= h >>> 13
  h = Math.imul(h, 0x5bd1e995)
  h ^= h >>> 15
  return (h >>> 0) / 4294967296
}

export function pick<T> (rng: () => number, list: readonly T[]): T {
  return list[Math.floor(rng() * list.length)] as T
}

/** ULID-like id: 10 chars of time, 16 of randomness, Crockford base32 (26 chars). */
export function ulid (timeMs: number = Date.now(), rng?: () => number): string {
  let out = ''
  let t = Math.floor(timeMs)
  for (let i = 0; i < 10; i++) {
    out = CROCKFORD[t % 32] + out
    t = Math.floor(t / 32)
  }
  const bytes = rng === undefined ? randomBytes(16) : Array.from({ length: 16 }, () => Math.floor(rng() * 256))
  for (let i = 0; i < 16; i++) out += CROCKFORD[(bytes[i] as number) % 32]
  return out
}

export function hexId (rng: () => number, length = 32): string {
  let out = ''
  for (let i = 0; i < length; i++) out += Math.floor(rng() * 16).toString(16)
  return out
}

/** HA's timestamp format: ISO 8601 with microseconds and +00:00. */
export function isoTime (ms: number): string {
  const iso = new Date(Math.floor(ms)).toISOString() // 2026-01-01T00:00:00.000Z
  const micro = Math.round((ms - Math.floor(ms)) * 1000).toString().padStart(3, '0')
  return `${iso.slice(0, 23)}${micro}+00:00`
}

export function epochSeconds (ms: number): number {
  return Math.round(ms * 1000) / 1e6
}

// The few non-Latin characters the demo uses, transliterated the way HA's unidecode-based slugify does.
const TRANSLITERATION: Record<string, string> = { 和: ' he ', 室: ' shi ', ß: 'ss' }

/** Home Assistant's entity id (and service name) shape: `domain.object_id`. */
export const ENTITY_ID = /^[a-z0-9_]+\.[a-z0-9_]+$/

export function slugify (text: string): string {
  const slug = text.replace(/[和室ß]/g, ch => TRANSLITERATION[ch] ?? ch).normalize('NFKD').replace(/[\u0300-\u036f]/g, '').toLowerCase()
    .replace(/[^a-z0-9]+/g, '_').replace(/^_+|_+$/g, '')
  return slug === '' ? 'unknown' : slug
}

export function parseTime (value: unknown): number | undefined {
  if (typeof value !== 'string' || value === '') return undefined
  const ms = Date.parse(value)
  return Number.isNaN(ms) ? undefined : ms
}

export function asArray (value: unknown): string[] {
  if (value === undefined || value === null) return []
  if (Array.isArray(value)) return value.filter((v): v is string => typeof v === 'string')
  return typeof value === 'string' ? [value] : []
}

export function isRecord (value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

import { realClock } from '../clock.ts'
import { appendFileSync, mkdirSync, renameSync, statSync } from 'node:fs'
import { dirname } from 'node:path'
import type { AuditApi, AuditEntry } from './types.ts'

export interface AuditLogOptions {
  /** Path of the JSON-lines file (DATA_DIR/audit.log); none keeps the trail on stderr only. */
  file?: string
  /** Size at which the file moves to `<file>.1`, keeping one old generation. */
  rotateBytes?: number
  /** Where each line is mirrored whatever the log level; stderr by default. */
  write?: (line: string) => void
  /** Last resort against secrets: applied to every line before it leaves the process. */
  scrub?: (text: string) => string
  /** Reports a file problem once (the log stays on stderr). */
  warn?: (message: string) => void
  now?: () => number
  ringSize?: number
}

export const AUDIT_ROTATE_BYTES = 1_000_000
/** Ids a list keeps in an audit line (the most a target field takes); past it, the first ones and a count. */
export const AUDIT_LINE_IDS = 100
/** Ids a list keeps in the entries held in memory for the panel. */
export const AUDIT_MEMORY_IDS = 10

/** A list of ids as an audit keeps it: whole up to `max`, else its first `max` and `… and N more`. */
export function summariseIds (ids: string[], max: number): string[] {
  if (ids.length <= max) return ids
  // A list summarised once already (the line, then the copy kept in memory) keeps its true count.
  const earlier = /^\u2026 and (\d+) more$/.exec(ids.at(-1) ?? '')
  const total = earlier ? ids.length - 1 + Number(earlier[1]) : ids.length
  return [...ids.slice(0, max), `… and ${total - max} more`]
}

/** An entry with its entity and target lists summarised (see summariseIds). */
function summarised<T extends Pick<AuditEntry, 'entities' | 'target'>> (entry: T, max: number): T {
  const target = entry.target === undefined
    ? undefined
    : Object.fromEntries(Object.entries(entry.target).map(([key, value]) => [key, Array.isArray(value) ? summariseIds(value, max) : value]))
  return {
    ...entry,
    ...(entry.entities === undefined ? {} : { entities: summariseIds(entry.entities, max) }),
    ...(target === undefined ? {} : { target })
  }
}

/**
 * The write audit: one JSON line per attempt, written straight to stderr (never through the log
 * level filter) and appended to the audit file, plus the last entries in memory for the ingress page.
 * Writes are synchronous: they are rare, and a line must not be lost when the process stops. Long id
 * lists are summarised (the first ids and a count), so that no line outgrows the rotation size (one
 * call naming 190,000 ids wrote a 5.4 MB line) and the entries in memory stay small.
 */
export class AuditLog implements AuditApi {
  readonly #file: string | undefined
  readonly #rotateBytes: number
  readonly #write: (line: string) => void
  readonly #scrub: (text: string) => string
  readonly #warn: (message: string) => void
  readonly #now: () => number
  readonly #ringSize: number
  readonly #ring: AuditEntry[] = []
  #size: number | undefined
  #fileBroken = false

  constructor (options: AuditLogOptions = {}) {
    this.#file = options.file
    this.#rotateBytes = options.rotateBytes ?? AUDIT_ROTATE_BYTES
    this.#write = options.write ?? (line => { process.stderr.write(line) })
    this.#scrub = options.scrub ?? (text => text)
    this.#warn = options.warn ?? (() => {})
    this.#now = options.now ?? realClock.now
    this.#ringSize = options.ringSize ?? 200
  }

  record (entry: Omit<AuditEntry, 'time'>): void {
    const time = new Date(this.#now()).toISOString()
    const full = { time, ...summarised(entry, AUDIT_LINE_IDS) } as AuditEntry
    const line = this.#scrub(JSON.stringify(documentedShape(full))) + '\n'
    const { audit: _audit, ts: _ts, allowed: _allowed, result: _result, ...stored } = JSON.parse(line) as AuditEntry & { audit?: boolean, ts?: string, allowed?: boolean, result?: string }
    this.#ring.push(summarised(stored, AUDIT_MEMORY_IDS))
    if (this.#ring.length > this.#ringSize) this.#ring.shift()
    this.#write(line)
    this.#append(line)
  }

  /** Newest first. */
  recent (limit = 50): AuditEntry[] {
    return this.#ring.slice(-Math.max(0, limit)).reverse()
  }

  /** Writes are synchronous; kept so callers can treat the log like any buffered sink on shutdown. */
  async flush (): Promise<void> {}

  #append (line: string): void {
    if (!this.#file || this.#fileBroken) return
    try {
      if (this.#size === undefined) {
        mkdirSync(dirname(this.#file), { recursive: true })
        this.#size = sizeOf(this.#file)
      }
      const bytes = Buffer.byteLength(line)
      if (this.#size > 0 && this.#size + bytes > this.#rotateBytes) {
        renameSync(this.#file, `${this.#file}.1`)
        this.#size = 0
      }
      appendFileSync(this.#file, line, { mode: 0o600 })
      this.#size += bytes
    } catch (err) {
      this.#fileBroken = true
      this.#warn(`audit file ${this.#file} is not writable (${(err as Error).message}); the audit continues on stderr only`)
    }
  }
}

/** What each outcome means in mcp-ha's terms: did the rules let it through, and with what result. */
const DOCUMENTED: Record<AuditEntry['outcome'], { allowed: boolean, result?: string, reason?: string }> = {
  allowed: { allowed: true, result: 'ok' },
  confirmation_given: { allowed: true, result: 'ok' },
  dry_run: { allowed: true, result: 'dry_run' },
  failed: { allowed: true, result: 'error' },
  confirmation_asked: { allowed: false, reason: 'confirmation_required' },
  refused: { allowed: false }
}

/**
 * mcp-ha's documented line first (`ts`, `audit`, `tool`, `domain`, `service`, `target`, `allowed`, then
 * `result` or `reason`), which people parse, followed by our own fields (time, outcome, identity, ref...).
 */
function documentedShape (entry: AuditEntry): Record<string, unknown> {
  const meaning = DOCUMENTED[entry.outcome]
  const reason = entry.reason ?? meaning.reason
  const line: Record<string, unknown> = {
    ts: entry.time,
    audit: true,
    tool: entry.tool,
    ...(entry.domain === undefined ? {} : { domain: entry.domain }),
    ...(entry.service === undefined ? {} : { service: entry.service }),
    ...(entry.operation === undefined ? {} : { operation: entry.operation }),
    ...(entry.target === undefined ? {} : { target: entry.target }),
    allowed: meaning.allowed,
    ...(meaning.allowed ? { result: meaning.result } : {}),
    ...(reason === undefined ? {} : { reason })
  }
  for (const [key, value] of Object.entries(entry)) if (!(key in line)) line[key] = value
  return line
}

function sizeOf (file: string): number {
  try {
    return statSync(file).size
  } catch {
    return 0
  }
}

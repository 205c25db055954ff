import pino from 'pino'
import type { FastifyBaseLogger } from 'fastify'
import type { LogLevel } from './options.ts'
import { realClock } from './clock.ts'

/** pino numbers for Home Assistant's seven levels. */
export const LEVEL_VALUES: Record<LogLevel, number> = {
  trace: 10, debug: 20, info: 30, notice: 35, warning: 40, error: 50, fatal: 60
}
const LEVEL_NAMES = new Map(Object.entries(LEVEL_VALUES).map(([name, value]) => [value, name.toUpperCase()]))

/** Fastify's logger type, with Home Assistant's two extra levels (declared below). */
export type AppLogger = FastifyBaseLogger

/** Shows only the start of a secret: enough to tell two tokens apart, never enough to use one. */
export function maskSecret (secret: string): string {
  return `${secret.slice(0, 8)}********`
}

/**
 * Every secret the process knows is registered here; the log sink replaces any occurrence with its
 * masked form, so no code path (a thrown error echoing a header, a debug dump) can leak one.
 */
export class SecretScrubber {
  #secrets = new Set<string>()
  add (secret: string | undefined): void {
    if (secret && secret.length >= 8) this.#secrets.add(secret)
  }

  delete (secret: string): void {
    this.#secrets.delete(secret)
  }

  scrub (text: string): string {
    let out = text
    for (const secret of this.#secrets) {
      if (out.includes(secret)) out = out.split(secret).join(maskSecret(secret))
    }
    return out
  }
}

const SKIPPED_KEYS = new Set(['level', 'time', 'msg', 'pid', 'hostname', 'v'])

/** One readable line per event, as the add-on Log tab shows it: `[ISO time] LEVEL message {fields}`. */
export function formatLine (json: string): string {
  let entry: Record<string, unknown>
  try {
    entry = JSON.parse(json) as Record<string, unknown>
  } catch {
    return json.endsWith('\n') ? json : `${json}\n`
  }
  // Wall time, like pino's own stamp: log lines line up with Home Assistant's, whatever clock a test runs.
  const time = typeof entry.time === 'number' ? new Date(entry.time).toISOString() : new Date(realClock.now()).toISOString()
  const level = LEVEL_NAMES.get(entry.level as number) ?? 'INFO'
  const rest: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(entry)) {
    if (!SKIPPED_KEYS.has(key)) rest[key] = value
  }
  const fields = Object.keys(rest).length > 0 ? ` ${JSON.stringify(rest)}` : ''
  return `[${time}] ${level} ${String(entry.msg ?? '')}${fields}\n`
}

/**
 * Argument keys whose values are secrets a caller passes (an alarm or lock `code`, a `confirm_token`, a
 * password, a PIN, an API key): trace-level argument logs show `[redacted]` instead, since owners paste
 * the Log tab into bug reports.
 */
const SECRET_ARGUMENT = /(^|_)(code|pin|password|passcode|secret|token|api_key|apikey)$/i

/** A tool call's arguments as the trace log shows them: secret fields redacted, at most `max` characters. */
export function loggableArguments (args: unknown, max: number): string {
  return JSON.stringify(args ?? {}, (key, value: unknown) => SECRET_ARGUMENT.test(key) && value !== null && typeof value !== 'object' ? '[redacted]' : value).slice(0, max)
}

export interface LoggerOptions {
  level: LogLevel
  scrubber: SecretScrubber
  /** Where lines go; stdout by default. Tests pass a collector. */
  write?: (line: string) => void
}

export function createLogger ({ level, scrubber, write }: LoggerOptions): AppLogger {
  const sink = write ?? ((line: string) => { process.stdout.write(line) })
  return pino({
    level,
    customLevels: { notice: LEVEL_VALUES.notice, warning: LEVEL_VALUES.warning },
    useOnlyCustomLevels: false,
    base: undefined,
    redact: { paths: ['req.headers.authorization', 'headers.authorization', 'authorization', 'token', 'access_token'], censor: '[redacted]' }
  }, {
    write (chunk: string) {
      sink(formatLine(scrubber.scrub(chunk)))
    }
  }) as unknown as AppLogger
}

declare module 'fastify' {
  interface FastifyBaseLogger {
    notice: pino.LogFn
    warning: pino.LogFn
  }
}

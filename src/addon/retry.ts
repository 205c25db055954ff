import { realClock, sleep, type Clock } from '../clock.ts'
import { HomeAssistantError } from '../errors.ts'
import { exponentialDelay } from '../retry-delay.ts'

/** How long to wait between attempts while the Supervisor is still starting. */
export interface RetryOptions {
  /** First delay; doubles after each failed attempt. */
  baseMs?: number
  maxMs?: number
  /** Attempts in total, the first one included. */
  attempts?: number
  /** Aborted on shutdown: the wait ends and the last error is thrown. */
  signal?: AbortSignal
  /** Called before each wait, for a log line. */
  onRetry?: (err: unknown, attempt: number, delayMs: number) => void
  /** What the waits run on; real time unless a test brings its own. */
  clock?: Clock
}

const TRANSIENT_STATUSES = new Set([502, 503, 504])

/**
 * True for failures that mean "the Supervisor is not up yet": connection refused, a timeout, or a
 * 502/503/504 from its proxy (the status it answered, never the text). A 4xx means the request
 * itself is wrong and retrying will not help.
 */
export function isTransientSupervisorError (err: unknown): boolean {
  if (!(err instanceof HomeAssistantError)) return false
  if (err.code === 'HAMCP_HA_NOT_CONNECTED' || err.code === 'HAMCP_HA_TIMEOUT') return true
  return err.code === 'HAMCP_HA_HTTP_FAILED' && err.upstreamStatus !== undefined && TRANSIENT_STATUSES.has(err.upstreamStatus)
}

/** Runs `task` until it succeeds, retrying only transient Supervisor failures with a doubling delay. */
export async function withSupervisorRetry<T> (task: () => Promise<T>, options: RetryOptions = {}): Promise<T> {
  const base = options.baseMs ?? 2_000
  const max = options.maxMs ?? 60_000
  const attempts = options.attempts ?? 12
  const aborted = (): boolean => options.signal?.aborted === true
  for (let attempt = 1; ; attempt++) {
    try {
      return await task()
    } catch (err) {
      if (attempt >= attempts || !isTransientSupervisorError(err) || aborted()) throw err
      const delay = exponentialDelay(attempt, base, max)
      options.onRetry?.(err, attempt, delay)
      await sleep(options.clock ?? realClock, delay, { signal: options.signal })
      if (aborted()) throw err
    }
  }
}

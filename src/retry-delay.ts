/**
 * The one exponential backoff: `baseMs` for the first retry, doubling each time, never over `maxMs`.
 * Home Assistant reconnects, Supervisor retries and failed sign-in blocks all wait this long.
 */
export function exponentialDelay (attempt: number, baseMs: number, maxMs: number): number {
  // The exponent is capped so a long outage cannot overflow to Infinity before the ceiling applies.
  return Math.min(maxMs, baseMs * 2 ** Math.min(Math.max(attempt, 1) - 1, 30))
}

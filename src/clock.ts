/**
 * The one clock. Everything that reads the time or waits (expiries, windows, timestamps, retries,
 * pings, sweeps) takes a `Clock`; `realClock` is the only code that reads `Date.now` or starts a
 * global timer (test/packaging/clock.test.ts holds that). The composition root (src/compose.ts)
 * builds services on one clock, and tests pass one they move by hand (test/helper.ts `fakeClock`).
 */

export interface Clock {
  /** Milliseconds since the epoch. */
  now: () => number
  /**
   * Runs `fn` once after `ms`; returns what cancels it. The timer does not keep the process alive
   * unless `ref` (a wait that something is awaiting, like a timeout around a promise).
   */
  schedule: (fn: () => void, ms: number, options?: { ref?: boolean }) => () => void
}

export const realClock: Clock = {
  now: () => Date.now(),
  schedule: (fn, ms, options) => {
    const timer = setTimeout(fn, ms)
    if (options?.ref !== true) timer.unref()
    return () => { clearTimeout(timer) }
  }
}

/** Runs `fn` every `ms` on `clock` until the returned function is called. */
export function every (clock: Clock, ms: number, fn: () => void): () => void {
  let cancel = (): void => {}
  let stopped = false
  const tick = (): void => {
    cancel = clock.schedule(() => {
      if (stopped) return
      tick()
      fn()
    }, ms)
  }
  tick()
  return () => { stopped = true; cancel() }
}

/** Resolves after `ms` on `clock`, or at once when `signal` aborts; `ref` as in `Clock.schedule`. */
export async function sleep (clock: Clock, ms: number, options: { signal?: AbortSignal, ref?: boolean } = {}): Promise<void> {
  const { signal } = options
  await new Promise<void>(resolve => {
    const cancel = clock.schedule(done, ms, { ref: options.ref === true })
    function done (): void {
      cancel()
      signal?.removeEventListener('abort', done)
      resolve()
    }
    signal?.addEventListener('abort', done, { once: true })
  })
}

/**
 * The clock as p-timeout's `customTimers`: a timeout it sets runs on `clock`, so an injected clock
 * moves it too. Held (`ref`) like p-timeout's own: the awaited promise settles either way.
 */
export function timersOf (clock: Clock): { setTimeout: typeof globalThis.setTimeout, clearTimeout: typeof globalThis.clearTimeout } {
  return {
    setTimeout: ((fn: () => void, ms?: number) => clock.schedule(fn, ms ?? 0, { ref: true })) as unknown as typeof globalThis.setTimeout,
    clearTimeout: ((cancel?: unknown) => { if (typeof cancel === 'function') cancel() }) as typeof globalThis.clearTimeout
  }
}

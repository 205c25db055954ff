/**
 * The one clock. Everything that reads the time or waits (expiries, windows, timestamps, retries,
 * pings, sweeps) takes a `Clock`; `realClock` is the only code that reads `Date.now` or starts a
 * global timer (test/packaging/clock.test.ts holds that). The composition root (src/compose.ts)
 * builds services on one clock, and tests pass one they move by hand (test/helper.ts `fakeClock`).
 */

export interface Clock {
  /** Milliseconds since the epoch. */
  now: () => number
  /** Runs `fn` once after `ms`, without keeping the process alive; returns what cancels it. */
  schedule: (fn: () => void, ms: number) => () => void
}

export const realClock: Clock = {
  now: () => Date.now(),
  schedule: (fn, ms) => {
    const timer = setTimeout(fn, ms)
    timer.unref()
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

/** Resolves after `ms` on `clock`, or at once when `signal` aborts. */
export async function sleep (clock: Clock, ms: number, signal?: AbortSignal): Promise<void> {
  await new Promise<void>(resolve => {
    const cancel = clock.schedule(done, ms)
    function done (): void {
      cancel()
      signal?.removeEventListener('abort', done)
      resolve()
    }
    signal?.addEventListener('abort', done, { once: true })
  })
}

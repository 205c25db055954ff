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

const LATE = Symbol('late')
/** The longest wait a timer can hold: setTimeout stores it in 32 bits and fires at once past it. */
const LONGEST_WAIT_MS = 2 ** 31 - 1

/**
 * What `work` settles to, or what `onTimeout` returns (or throws) once `ms` pass on `clock` first;
 * the timer is cancelled as soon as either happens, and `work` is then left to finish unheard. The
 * timer is held (`ref`): something awaits it. An `ms` no timer can hold (Infinity, or past 24.8 days)
 * sets none: the work is simply awaited.
 *
 * Plain on purpose: p-timeout, used here before, assigns a closure literal straight to a property of
 * the promise it returns, and V8 allocates such closures in the old generation, so each awaited answer
 * stayed reachable through its scope until the next full collection (docs/performance.md).
 */
export async function within<T> (clock: Clock, ms: number, work: Promise<T>, onTimeout: () => T): Promise<T> {
  if (!(ms <= LONGEST_WAIT_MS)) return await work
  let cancel = (): void => {}
  const late = new Promise<typeof LATE>(resolve => { cancel = clock.schedule(() => { resolve(LATE) }, ms, { ref: true }) })
  try {
    const first = await Promise.race([work, late])
    return first === LATE ? onTimeout() : first
  } finally {
    cancel()
  }
}

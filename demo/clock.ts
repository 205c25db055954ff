let last = 0

/** Wall-clock milliseconds with sub-millisecond precision, strictly increasing (HA timestamps carry microseconds). */
export function nowMs (): number {
  let now = performance.timeOrigin + performance.now()
  if (now <= last) now = last + 0.001
  last = now
  return now
}

/** Epoch seconds (float, microsecond precision) of one of HA's ISO timestamps. */
export function isoToSeconds (iso: string): number {
  const whole = Math.floor(Date.parse(iso) / 1000)
  const micro = iso.charAt(19) === '.' ? Number(iso.slice(20, 26).padEnd(6, '0')) : 0
  return Math.round((whole + micro / 1e6) * 1e6) / 1e6
}

/**
 * The performance budget (SPEC section 15, docs/performance.md), written once: `npm run test:perf`
 * checks a bench run against it and test/system/build.test.ts holds every tool's broadest call to it.
 */
export const BUDGET = {
  /** The lookups held to a throughput and a tail latency, under 16 concurrent stateless clients on 10,000 entities. */
  lookups: ['search', 'get', 'list'],
  minCallsPerSecond: 2_000,
  maxP99Ms: 20,
  /** The server's peak resident memory over the whole bench, heavy reads included. */
  maxPeakRssMb: 150,
  /** Every tool with its broadest arguments: answered within this, raising the resident memory by at most `callMemoryMb`. */
  callMs: 2_000,
  callMemoryMb: 30
} as const

interface Run {
  scenarios: Record<string, { calls_per_s: number, p99_ms: number, errors: number }>
  heavy_reads: Array<{ label: string, ms: number, peak_above_mb: number, error: string | null }>
  server_peak_rss_mb: number
}

/** What in a bench run is over the budget, one sentence each; empty when it holds. */
export function overBudget (run: Run): string[] {
  const over: string[] = []
  for (const name of BUDGET.lookups) {
    const scenario = run.scenarios[name]
    if (scenario === undefined) { over.push(`${name}: not measured`); continue }
    if (scenario.calls_per_s < BUDGET.minCallsPerSecond) over.push(`${name}: ${scenario.calls_per_s} calls/s, under ${BUDGET.minCallsPerSecond}`)
    if (scenario.p99_ms > BUDGET.maxP99Ms) over.push(`${name}: p99 ${scenario.p99_ms} ms, over ${BUDGET.maxP99Ms}`)
    if (scenario.errors > 0) over.push(`${name}: ${scenario.errors} errors`)
  }
  if (run.heavy_reads.length === 0) over.push('heavy reads: not measured')
  for (const call of run.heavy_reads) {
    if (call.ms > BUDGET.callMs) over.push(`${call.label}: ${call.ms} ms, over ${BUDGET.callMs}`)
    if (call.peak_above_mb > BUDGET.callMemoryMb) over.push(`${call.label}: +${call.peak_above_mb} MB, over ${BUDGET.callMemoryMb}`)
  }
  if (run.server_peak_rss_mb > BUDGET.maxPeakRssMb) over.push(`peak RSS ${run.server_peak_rss_mb} MB, over ${BUDGET.maxPeakRssMb}`)
  return over
}

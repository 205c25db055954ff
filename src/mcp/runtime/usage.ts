import { realClock } from '../../clock.ts'
import type { CallReport } from './invoke.ts'

/** Tool calls since start, per tool and per token, for the ingress page. */
export class UsageCounters {
  readonly startedAt: number
  #byTool = new Map<string, { calls: number, errors: number, totalMs: number }>()
  #byIdentity = new Map<string, number>()

  constructor (now: () => number = realClock.now) {
    this.startedAt = now()
  }

  record (report: CallReport): void {
    const tool = this.#byTool.get(report.tool) ?? { calls: 0, errors: 0, totalMs: 0 }
    tool.calls++
    if (!report.ok) tool.errors++
    tool.totalMs += report.ms
    this.#byTool.set(report.tool, tool)
    this.#byIdentity.set(report.identity, (this.#byIdentity.get(report.identity) ?? 0) + 1)
  }

  snapshot (): { byTool: Array<{ tool: string, calls: number, errors: number, avgMs: number }>, byIdentity: Array<{ identity: string, calls: number }>, total: number } {
    const byTool = [...this.#byTool].map(([tool, v]) => ({ tool, calls: v.calls, errors: v.errors, avgMs: Math.round((v.totalMs / v.calls) * 10) / 10 }))
      .sort((a, b) => b.calls - a.calls)
    const byIdentity = [...this.#byIdentity].map(([identity, calls]) => ({ identity, calls })).sort((a, b) => b.calls - a.calls)
    return { byTool, byIdentity, total: byTool.reduce((sum, t) => sum + t.calls, 0) }
  }
}

import type { HassContext } from './types.ts'

export interface TraceStep { path: string, timestamp: string, changed_variables?: Record<string, unknown>, result?: Record<string, unknown>, error?: string }

export interface Trace {
  run_id: string
  domain: 'automation' | 'script'
  item_id: string
  state: 'running' | 'stopped'
  script_execution: string | null
  last_step: string | null
  timestamp: { start: string, finish: string | null }
  trigger?: string
  error?: string
  context: HassContext
  config: Record<string, unknown>
  steps: Record<string, TraceStep[]>
}

export const STORED_TRACES = 5

export function shortTrace (trace: Trace): Record<string, unknown> {
  const out: Record<string, unknown> = {
    last_step: trace.last_step,
    run_id: trace.run_id,
    state: trace.state,
    script_execution: trace.script_execution,
    timestamp: trace.timestamp,
    domain: trace.domain,
    item_id: trace.item_id
  }
  if (trace.trigger !== undefined) out.trigger = trace.trigger
  if (trace.error !== undefined) out.error = trace.error
  return out
}

export function fullTrace (trace: Trace): Record<string, unknown> {
  return { ...shortTrace(trace), trace: trace.steps, config: trace.config, blueprint_inputs: null, context: trace.context }
}

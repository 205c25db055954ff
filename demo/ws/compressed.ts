import { isoToSeconds } from '../clock.ts'
import type { HassContext, HassState } from '../types.ts'

/** subscribe_entities add form: lc always, lu only when it differs, context as bare id when it has no parent/user. */
export function compressState (state: HassState): Record<string, unknown> {
  const lc = isoToSeconds(state.last_changed)
  const out: Record<string, unknown> = { s: state.state, a: state.attributes, c: compressContext(state.context), lc }
  if (state.last_updated !== state.last_changed) out.lu = isoToSeconds(state.last_updated)
  return out
}

function compressContext (context: HassContext): string | HassContext {
  return context.parent_id === null && context.user_id === null ? context.id : context
}

/** subscribe_entities change form for one state_changed, as core websocket_api/messages.py _state_diff builds it: a bare-string `c` when only the context id changed. */
export function diffStates (oldState: HassState, newState: HassState): Record<string, unknown> {
  const plus: Record<string, unknown> = {}
  if (oldState.state !== newState.state) plus.s = newState.state
  if (oldState.last_changed !== newState.last_changed) plus.lc = isoToSeconds(newState.last_changed)
  else if (oldState.last_updated !== newState.last_updated) plus.lu = isoToSeconds(newState.last_updated)
  const oc = oldState.context
  const nc = newState.context
  if (oc.parent_id !== nc.parent_id || oc.user_id !== nc.user_id) {
    const ctx: Record<string, unknown> = {}
    if (oc.id !== nc.id) ctx.id = nc.id
    if (oc.parent_id !== nc.parent_id) ctx.parent_id = nc.parent_id
    if (oc.user_id !== nc.user_id) ctx.user_id = nc.user_id
    plus.c = ctx
  } else if (oc.id !== nc.id) {
    plus.c = nc.id
  }
  const changed: Record<string, unknown> = {}
  let anyChanged = false
  for (const [key, value] of Object.entries(newState.attributes)) {
    if (!(key in oldState.attributes) || JSON.stringify(oldState.attributes[key]) !== JSON.stringify(value)) {
      changed[key] = value
      anyChanged = true
    }
  }
  if (anyChanged) plus.a = changed
  const removed = Object.keys(oldState.attributes).filter(key => !(key in newState.attributes))
  const out: Record<string, unknown> = { '+': plus }
  if (removed.length > 0) out['-'] = { a: removed }
  return out
}

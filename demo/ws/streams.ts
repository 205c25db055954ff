import { isoToSeconds } from '../clock.ts'
import { HaError } from '../errors.ts'
import { historyDuringPeriod } from '../history.ts'
import { logbookEvents } from '../logbook.ts'
import type { HassState } from '../types.ts'
import { asArray, parseTime } from '../util.ts'
import { addSubscription } from './core.ts'
import { NO_REPLY, type CommandContext, type CommandTable } from './protocol.ts'

function window (ctx: CommandContext): { from: number, to: number | undefined } {
  const from = parseTime(ctx.msg.start_time)
  if (from === undefined) throw new HaError('invalid_start_time', 'Invalid start_time')
  const to = ctx.msg.end_time === undefined ? undefined : parseTime(ctx.msg.end_time)
  if (ctx.msg.end_time !== undefined && to === undefined) throw new HaError('invalid_end_time', 'Invalid end_time')
  return { from, to }
}

/** history/stream: the past as one event, then live rows while end_time is in the future (or absent). */
function historyStream (ctx: CommandContext): typeof NO_REPLY {
  const { from, to } = window(ctx)
  const ids = asArray(ctx.msg.entity_ids)
  const noAttributes = ctx.msg.no_attributes === true
  const live = to === undefined || to > Date.now()
  if (live) {
    addSubscription(ctx, ({ event }) => {
      if (event.event_type !== 'state_changed' || !ids.includes(String(event.data.entity_id))) return
      const s = event.data.new_state as HassState | null
      if (s === null) return
      const row: Record<string, unknown> = { s: s.state, ...(noAttributes ? {} : { a: s.attributes }), lu: isoToSeconds(s.last_updated) }
      if (s.last_changed !== s.last_updated) row.lc = isoToSeconds(s.last_changed)
      ctx.conn.sendEvent(ctx.id, JSON.stringify({ states: { [s.entity_id]: [row] } }))
    })
  }
  const end = Math.min(to ?? Date.now(), Date.now())
  const states = historyDuringPeriod(ctx.rt.house, { entityIds: ids, from, to: end, includeStartTimeState: ctx.msg.include_start_time_state !== false, minimalResponse: ctx.msg.minimal_response === true, noAttributes, significantChangesOnly: ctx.msg.significant_changes_only !== false })
  ctx.conn.sendResult(ctx.id, null)
  ctx.conn.sendEvent(ctx.id, JSON.stringify({ states, start_time: from / 1000, end_time: end / 1000 }))
  return NO_REPLY
}

/** logbook/event_stream: the past as one event, then live rows for logbook-worthy changes. */
function logbookStream (ctx: CommandContext): typeof NO_REPLY {
  const { from, to } = window(ctx)
  const filter = ctx.msg.entity_ids === undefined && ctx.msg.device_ids === undefined ? undefined : new Set(asArray(ctx.msg.entity_ids))
  if (to === undefined || to > Date.now()) {
    addSubscription(ctx, ({ event }) => {
      if (event.event_type !== 'state_changed') return
      const s = event.data.new_state as HassState | null
      const old = event.data.old_state as HassState | null
      if (s === null || old === null || s.last_changed === old.last_changed) return
      if (filter !== undefined && !filter.has(s.entity_id)) return
      if (s.attributes.unit_of_measurement !== undefined || s.attributes.state_class !== undefined) return
      const row: Record<string, unknown> = { state: s.state, entity_id: s.entity_id, when: isoToSeconds(s.last_changed), context_id: s.context.id, ...(ctx.rt.house.contextOrigins.get(s.context.id) ?? {}) }
      ctx.conn.sendEvent(ctx.id, JSON.stringify({ events: [row] }))
    })
  }
  const end = Math.min(to ?? Date.now(), Date.now())
  const events = logbookEvents(ctx.rt.house, { ...ctx.msg, end_time: new Date(end).toISOString() })
  ctx.conn.sendResult(ctx.id, null)
  ctx.conn.sendEvent(ctx.id, JSON.stringify({ events, start_time: from / 1000, end_time: end / 1000 }))
  return NO_REPLY
}

export const streamCommands: CommandTable = {
  'history/stream': {
    keys: { required: ['start_time', 'entity_ids'], optional: ['end_time', 'include_start_time_state', 'significant_changes_only', 'minimal_response', 'no_attributes'] },
    handle: historyStream
  },
  'logbook/event_stream': {
    keys: { required: ['start_time'], optional: ['end_time', 'entity_ids', 'device_ids'] },
    handle: logbookStream
  }
}

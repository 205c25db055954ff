import { HaError } from '../errors.ts'
import { listenersView, nativeResult, renderTemplate, TemplateError } from '../template/index.ts'
import { isRecord } from '../util.ts'
import { addSubscription } from './core.ts'
import { NO_REPLY, type CommandContext, type CommandTable } from './protocol.ts'

function render (ctx: CommandContext): { result: unknown, listeners: Record<string, unknown> } {
  const variables = isRecord(ctx.msg.variables) ? ctx.msg.variables : {}
  const outcome = renderTemplate(ctx.rt.house, String(ctx.msg.template), variables, ctx.msg.strict === true)
  return { result: nativeResult(outcome.text), listeners: listenersView(outcome.listeners) }
}

/** render_template: result null, then an event per (changed) render; errors at subscribe time are template_error. */
function subscribe (ctx: CommandContext): typeof NO_REPLY {
  let first: { result: unknown, listeners: Record<string, unknown> }
  try {
    first = render(ctx)
  } catch (err) {
    if (err instanceof TemplateError) throw new HaError('template_error', err.message)
    throw err
  }
  let last = JSON.stringify(first.result)
  let listeners = first.listeners
  const reportErrors = ctx.msg.report_errors === true
  addSubscription(ctx, ({ event }) => {
    if (event.event_type !== 'state_changed') return
    const id = String(event.data.entity_id)
    const domain = id.split('.')[0] as string
    const entities = listeners.entities as string[]
    const domains = listeners.domains as string[]
    if (listeners.all !== true && !entities.includes(id) && !domains.includes(domain)) return
    try {
      const next = render(ctx)
      listeners = next.listeners
      const json = JSON.stringify(next.result)
      if (json === last) return
      last = json
      ctx.conn.sendEvent(ctx.id, JSON.stringify(next))
    } catch (err) {
      if (reportErrors) ctx.conn.sendEvent(ctx.id, JSON.stringify({ error: err instanceof Error ? err.message : String(err), level: 'ERROR' }))
    }
  })
  ctx.conn.sendResult(ctx.id, null)
  ctx.conn.sendEvent(ctx.id, JSON.stringify(first))
  return NO_REPLY
}

export const templateCommands: CommandTable = {
  render_template: {
    keys: { required: ['template'], optional: ['entity_ids', 'variables', 'timeout', 'strict', 'report_errors'] },
    handle: subscribe
  }
}

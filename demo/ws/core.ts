import { HaError, invalidFormat } from '../errors.ts'
import type { BusMessage } from '../house.ts'
import type { HassState } from '../types.ts'
import { isRecord } from '../util.ts'
import { compressState, diffStates } from './compressed.ts'
import { NO_REPLY, RawJson, type CommandContext, type CommandTable } from './protocol.ts'
import { buildConfig } from '../config.ts'
import { panels } from '../lovelace.ts'

function entityFilter (msg: Record<string, unknown>): (entityId: string) => boolean {
  const ids = Array.isArray(msg.entity_ids) ? new Set(msg.entity_ids.map(String)) : undefined
  const include = isRecord(msg.include) ? msg.include : undefined
  const exclude = isRecord(msg.exclude) ? msg.exclude : undefined
  const matches = (f: Record<string, unknown>, id: string): boolean => {
    const domain = id.split('.')[0] as string
    const domains = Array.isArray(f.domains) ? f.domains.map(String) : []
    const entities = Array.isArray(f.entities) ? f.entities.map(String) : []
    const globs = Array.isArray(f.entity_globs) ? f.entity_globs.map(g => new RegExp(`^${String(g).replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*').replace(/\?/g, '.')}$`)) : []
    return domains.includes(domain) || entities.includes(id) || globs.some(g => g.test(id))
  }
  return id => {
    if (ids !== undefined && !ids.has(id)) return false
    if (exclude !== undefined && matches(exclude, id)) return false
    if (include !== undefined && !matches(include, id)) return false
    return true
  }
}

/** Attaches a listener under the subscription id; unsubscribe_events and closing the socket remove it. */
export function addSubscription (ctx: CommandContext, listener: (message: BusMessage) => void): void {
  const stop = ctx.rt.house.subscribe(listener)
  ctx.conn.subscriptions.set(ctx.id, stop)
}

function subscribeEntities (ctx: CommandContext): typeof NO_REPLY {
  const { house } = ctx.rt
  const wanted = entityFilter(ctx.msg)
  // Listener first, then the snapshot: no change can fall between the two.
  addSubscription(ctx, ({ event }) => {
    if (event.event_type !== 'state_changed') return
    const id = String(event.data.entity_id)
    if (!wanted(id)) return
    const oldState = event.data.old_state as HassState | null
    const newState = event.data.new_state as HassState | null
    let payload: unknown
    if (newState === null) payload = { r: [id] }
    else if (oldState === null) payload = { a: { [id]: compressState(newState) } }
    else payload = { c: { [id]: diffStates(oldState, newState) } }
    ctx.conn.sendEvent(ctx.id, JSON.stringify(payload))
  })
  ctx.conn.sendResult(ctx.id, null)
  const parts: string[] = []
  for (const id of house.states.keys()) {
    if (!wanted(id)) continue
    parts.push(`${JSON.stringify(id)}:${house.cachedView('compressed', id, () => JSON.stringify(compressState(house.states.get(id) as HassState)))}`)
  }
  ctx.conn.sendEvent(ctx.id, `{"a":{${parts.join(',')}}}`)
  return NO_REPLY
}

export const coreCommands: CommandTable = {
  ping: { handle: ctx => { ctx.conn.sendMessage({ id: ctx.id, type: 'pong' }); return NO_REPLY } },
  supported_features: {
    keys: { required: ['features'] },
    handle: ctx => {
      if (isRecord(ctx.msg.features) && ctx.msg.features.coalesce_messages !== undefined && ctx.msg.features.coalesce_messages !== 0) ctx.conn.enableCoalescing()
      return null
    }
  },
  get_states: { keys: {}, handle: ctx => new RawJson(ctx.rt.house.statesArrayJson()) },
  get_config: { keys: {}, handle: ctx => buildConfig(ctx.rt) },
  get_services: { keys: {}, handle: ctx => new RawJson(ctx.rt.services.descriptions()) },
  call_service: {
    keys: { required: ['domain', 'service'], optional: ['service_data', 'target', 'return_response'] },
    handle: async ctx => {
      const { msg } = ctx
      if (typeof msg.domain !== 'string') throw invalidFormat(`expected str for dictionary value @ data['domain']. Got ${JSON.stringify(msg.domain)}`)
      if (typeof msg.service !== 'string') throw invalidFormat(`expected str for dictionary value @ data['service']. Got ${JSON.stringify(msg.service)}`)
      if (msg.service_data !== undefined && !isRecord(msg.service_data)) throw invalidFormat("expected dict for dictionary value @ data['service_data']")
      if (msg.target !== undefined && !isRecord(msg.target)) throw invalidFormat("expected dict for dictionary value @ data['target']")
      const outcome = await ctx.rt.services.call({
        domain: msg.domain,
        service: msg.service,
        ...(isRecord(msg.service_data) ? { serviceData: msg.service_data } : {}),
        ...(isRecord(msg.target) ? { target: msg.target } : {}),
        returnResponse: msg.return_response === true,
        via: 'ws'
      })
      return msg.return_response === true ? { context: outcome.context, response: outcome.response } : { context: outcome.context }
    }
  },
  fire_event: {
    keys: { required: ['event_type'], optional: ['event_data'] },
    handle: ctx => {
      const context = ctx.rt.house.newContext(ctx.rt.house.userId)
      ctx.rt.house.fire(String(ctx.msg.event_type), isRecord(ctx.msg.event_data) ? ctx.msg.event_data : {}, context)
      return { context }
    }
  },
  subscribe_events: {
    keys: { optional: ['event_type'] },
    handle: ctx => {
      const type = ctx.msg.event_type
      addSubscription(ctx, message => {
        if (type === undefined || type === '*' || message.event.event_type === type) ctx.conn.sendEvent(ctx.id, message.json())
      })
      return null
    }
  },
  unsubscribe_events: {
    keys: { required: ['subscription'] },
    handle: ctx => {
      const id = Number(ctx.msg.subscription)
      const stop = ctx.conn.subscriptions.get(id)
      if (stop === undefined) throw new HaError('not_found', 'Subscription not found.')
      stop()
      ctx.conn.subscriptions.delete(id)
      return null
    }
  },
  subscribe_entities: { keys: { optional: ['entity_ids', 'include', 'exclude'] }, handle: subscribeEntities },
  'auth/current_user': {
    handle: ctx => ({ id: ctx.rt.house.userId, name: ctx.conn.viaSupervisor ? 'Supervisor' : 'Alice', is_owner: !ctx.conn.viaSupervisor && ctx.rt.options.admin, is_admin: ctx.conn.viaSupervisor || ctx.rt.options.admin, credentials: [{ auth_provider_type: 'homeassistant', auth_provider_id: null }], mfa_modules: [{ id: 'totp', name: 'Authenticator app', enabled: false }] })
  },
  get_panels: { handle: ctx => panels(ctx.rt.options.overview) },
  'entity/source': {
    handle: ctx => Object.fromEntries([...ctx.rt.house.entities.values()].map(e => [e.entity_id, { domain: e.platform }]))
  }
}

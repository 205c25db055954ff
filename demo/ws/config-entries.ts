import { entriesOf, entryJson, requireEntry, setDisabledBy, addEntry } from '../config-entries.ts'
import { HaError } from '../errors.ts'
import type { CommandTable } from './protocol.ts'

/**
 * The config entry commands of core's components/config/config_entries.py (config_entries_get,
 * config_entry_disable, config_entries_progress, ignore_config_flow), over demo/config-entries.ts.
 */
export const configEntryCommands: CommandTable = {
  'config_entries/get': {
    keys: { optional: ['type_filter', 'domain'] },
    handle: ctx => [...entriesOf(ctx.rt.house).entries.values()]
      .filter(e => typeof ctx.msg.domain !== 'string' || e.domain === ctx.msg.domain)
      .map(entryJson)
  },
  'config_entries/disable': {
    keys: { required: ['entry_id', 'disabled_by'] },
    handle: ctx => {
      // The schema takes only "user" or null: the API never sets another disabler.
      const by = ctx.msg.disabled_by
      if (by !== 'user' && by !== null) throw new HaError('invalid_format', `value must be one of ['user', None] for dictionary value @ data['disabled_by']. Got '${String(by)}'`)
      const entry = requireEntry(ctx.rt.house, String(ctx.msg.entry_id))
      setDisabledBy(ctx.rt.house, entry, by)
      return { require_restart: false }
    }
  },
  // Flows not started by a user: discoveries waiting for the owner.
  'config_entries/flow/progress': {
    handle: ctx => [...entriesOf(ctx.rt.house).flows.values()]
      .filter(f => f.context.source !== 'user')
      .map(f => ({ flow_id: f.flow_id, handler: f.handler, step_id: f.state.shown?.step_id, context: f.context }))
  },
  'config_entries/ignore_flow': {
    keys: { required: ['flow_id', 'title'] },
    handle: ctx => {
      const store = entriesOf(ctx.rt.house)
      const flow = store.flows.get(String(ctx.msg.flow_id))
      if (flow === undefined) throw new HaError('not_found', 'Config entry not found')
      if (flow.context.unique_id === undefined) throw new HaError('no_unique_id', 'Specified flow has no unique ID.')
      // The ignore flow aborts every other flow of the same handler and unique id, this one included.
      for (const other of [...store.flows.values()]) if (other.handler === flow.handler && other.context.unique_id === flow.context.unique_id) store.flows.delete(other.flow_id)
      addEntry(ctx.rt.house, { domain: flow.handler, title: String(ctx.msg.title), source: 'ignore', unique_id: flow.context.unique_id })
      return null
    }
  }
}

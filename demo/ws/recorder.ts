import { HaError, invalidFormat } from '../errors.ts'
import { historyDuringPeriod } from '../history.ts'
import { logbookEvents } from '../logbook.ts'
import { metadataView, statisticMeta, statisticsDuringPeriod } from '../statistics.ts'
import { ENTITY_ID, parseTime } from '../util.ts'
import type { CommandTable } from './protocol.ts'

export const recorderCommands: CommandTable = {
  'history/history_during_period': {
    keys: { required: ['start_time'], optional: ['end_time', 'entity_ids', 'include_start_time_state', 'significant_changes_only', 'minimal_response', 'no_attributes'] },
    handle: ({ rt, msg }) => {
      const from = parseTime(msg.start_time)
      if (from === undefined) throw new HaError('invalid_start_time', 'Invalid start_time')
      const to = msg.end_time === undefined ? Date.now() : parseTime(msg.end_time)
      if (to === undefined) throw new HaError('invalid_end_time', 'Invalid end_time')
      if (!Array.isArray(msg.entity_ids)) throw invalidFormat("required key not provided @ data['entity_ids']. Got None")
      const ids = msg.entity_ids.map(String)
      if (ids.some(id => !ENTITY_ID.test(id) && !rt.house.states.has(id))) throw new HaError('invalid_entity_ids', 'Invalid entity_ids')
      if (from > Date.now()) return {}
      return historyDuringPeriod(rt.house, {
        entityIds: ids,
        from,
        to,
        includeStartTimeState: msg.include_start_time_state !== false,
        significantChangesOnly: msg.significant_changes_only !== false,
        minimalResponse: msg.minimal_response === true,
        noAttributes: msg.no_attributes === true
      })
    }
  },
  'recorder/statistics_during_period': {
    keys: { required: ['start_time', 'statistic_ids', 'period'], optional: ['end_time', 'types', 'units'] },
    handle: ({ rt, msg }) => statisticsDuringPeriod(rt.house, msg)
  },
  'recorder/list_statistic_ids': {
    keys: { optional: ['statistic_type'] },
    handle: ({ rt, msg }) => [...rt.house.states.keys()]
      .map(id => statisticMeta(rt.house, id))
      .filter(meta => meta !== undefined && (msg.statistic_type === undefined || (msg.statistic_type === 'sum') === meta.hasSum))
      .map(meta => metadataView(meta as NonNullable<typeof meta>))
  },
  'recorder/get_statistics_metadata': {
    keys: { optional: ['statistic_ids'] },
    handle: ({ rt, msg }) => {
      const ids = Array.isArray(msg.statistic_ids) ? msg.statistic_ids.map(String) : [...rt.house.states.keys()]
      return ids.map(id => statisticMeta(rt.house, id)).filter(m => m !== undefined).map(m => metadataView(m))
    }
  },
  'recorder/info': {
    handle: () => ({ backlog: 0, max_backlog: 65000, migration_in_progress: false, migration_is_live: false, recording: true, thread_running: true, db_in_default_location: true })
  },
  'logbook/get_events': {
    keys: { required: ['start_time'], optional: ['end_time', 'entity_ids', 'device_ids', 'context_id'] },
    handle: ({ rt, msg }) => logbookEvents(rt.house, msg)
  }
}

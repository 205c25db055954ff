import { HaError } from '../errors.ts'
import type { CommandTable } from './protocol.ts'
import { deviceView, entityDisplayView, entityExtendedView, entityListView } from './registry-views.ts'

const strings = (value: unknown): string[] => Array.isArray(value) ? value.map(String) : []

/** Registry reads; the writes live in registry-writes.ts. */
export const registryCommands: CommandTable = {
  'config/area_registry/list': { handle: ctx => [...ctx.rt.house.areas.values()] },
  'config/floor_registry/list': { handle: ctx => [...ctx.rt.house.floors.values()] },
  'config/label_registry/list': { handle: ctx => [...ctx.rt.house.labels.values()] },
  'config/device_registry/list': { handle: ctx => [...ctx.rt.house.devices.values()].map(deviceView) },
  'config/entity_registry/list': { handle: ctx => [...ctx.rt.house.entities.values()].map(entityListView) },
  'config/entity_registry/list_for_display': {
    handle: ctx => {
      const categories = ['config', 'diagnostic']
      const entities = [...ctx.rt.house.entities.values()].filter(e => e.disabled_by === null).map(e => entityDisplayView(e, categories))
      return { entity_categories: { 0: 'config', 1: 'diagnostic' }, entities }
    }
  },
  'config/entity_registry/get': {
    keys: { required: ['entity_id'] },
    handle: ctx => {
      const entry = ctx.rt.house.entities.get(String(ctx.msg.entity_id))
      if (entry === undefined) throw new HaError('not_found', 'Entity not found')
      return entityExtendedView(entry)
    }
  },
  'config/entity_registry/get_entries': {
    keys: { required: ['entity_ids'] },
    handle: ctx => Object.fromEntries(strings(ctx.msg.entity_ids).map(id => {
      const entry = ctx.rt.house.entities.get(id)
      return [id, entry === undefined ? null : entityExtendedView(entry)]
    }))
  },
  'config/entity_registry/remove': {
    keys: { required: ['entity_id'] },
    handle: ctx => {
      const id = String(ctx.msg.entity_id)
      if (!ctx.rt.house.entities.delete(id)) throw new HaError('not_found', 'Entity not found')
      ctx.rt.house.removeState(id)
      ctx.rt.house.fire('entity_registry_updated', { action: 'remove', entity_id: id })
      return null
    }
  }
}

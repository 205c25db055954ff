import { HaError, requiredKey } from '../errors.ts'
import type { AreaEntry, FloorEntry, LabelEntry } from '../types.ts'
import { epochSeconds, isRecord, slugify } from '../util.ts'
import type { CommandContext, CommandTable } from './protocol.ts'
import { deviceView, entityDisplayView, entityExtendedView, entityListView, originalFriendlyName } from './registry-views.ts'

const now = (): number => epochSeconds(Date.now())
const strings = (value: unknown): string[] => Array.isArray(value) ? value.map(String) : []
const nullableString = (value: unknown): string | null => typeof value === 'string' ? value : null

function uniqueId (base: string, taken: (id: string) => boolean): string {
  let id = base
  for (let n = 2; taken(id); n++) id = `${base}_${n}`
  return id
}

function entityUpdate (ctx: CommandContext): unknown {
  const { house } = ctx.rt
  const msg = ctx.msg
  const entityId = String(msg.entity_id)
  const entry = house.entities.get(entityId)
  if (entry === undefined) throw new HaError('not_found', 'Entity not found')
  const changes: Record<string, unknown> = {}
  const assign = <K extends keyof typeof entry>(key: K, value: (typeof entry)[K]): void => {
    if (JSON.stringify(entry[key]) !== JSON.stringify(value)) { changes[key] = entry[key]; entry[key] = value }
  }
  if ('name' in msg) assign('name', nullableString(msg.name))
  if ('icon' in msg) assign('icon', nullableString(msg.icon))
  if ('area_id' in msg) {
    const area = nullableString(msg.area_id)
    if (area !== null && !house.areas.has(area)) throw new HaError('invalid_info', `Area ${area} does not exist`)
    assign('area_id', area)
  }
  if ('labels' in msg) assign('labels', strings(msg.labels))
  if ('aliases' in msg) assign('aliases', strings(msg.aliases))
  if ('disabled_by' in msg) assign('disabled_by', nullableString(msg.disabled_by))
  if ('hidden_by' in msg) assign('hidden_by', nullableString(msg.hidden_by))
  if ('device_class' in msg) assign('device_class', nullableString(msg.device_class))
  if (isRecord(msg.categories)) assign('categories', { ...entry.categories, ...msg.categories as Record<string, string> })
  if (typeof msg.options_domain === 'string' && isRecord(msg.options)) assign('options', { ...entry.options, [msg.options_domain]: msg.options })
  let oldEntityId: string | undefined
  if (typeof msg.new_entity_id === 'string' && msg.new_entity_id !== entityId) {
    const next = msg.new_entity_id
    if (house.entities.has(next) || house.states.has(next)) throw new HaError('invalid_info', `Entity ${next} is already registered`)
    if (next.split('.')[0] !== entityId.split('.')[0] || !/^[a-z0-9_]+\.[a-z0-9_]+$/.test(next)) throw new HaError('invalid_info', 'New entity ID should be same domain')
    oldEntityId = entityId
    changes.entity_id = entityId
    house.entities.delete(entityId)
    entry.entity_id = next
    house.entities.set(next, entry)
    const state = house.states.get(entityId)
    if (state !== undefined) {
      house.removeState(entityId)
      house.setState(next, state.state, state.attributes)
    }
  }
  if (Object.keys(changes).length > 0) entry.modified_at = now()
  const state = house.states.get(entry.entity_id)
  if ('name' in changes && state !== undefined) {
    house.setState(entry.entity_id, state.state, { ...state.attributes, friendly_name: entry.name ?? originalFriendlyName(house, entry) })
  }
  if ('disabled_by' in changes && entry.disabled_by !== null && state !== undefined) house.removeState(entry.entity_id)
  house.fire('entity_registry_updated', { action: 'update', entity_id: entry.entity_id, changes, ...(oldEntityId === undefined ? {} : { old_entity_id: oldEntityId }) })
  const out: Record<string, unknown> = { entity_entry: entityExtendedView(entry) }
  if ('disabled_by' in changes) out.reload_delay = 30
  return out
}

type Named = AreaEntry | FloorEntry | LabelEntry

function simpleRegistry<T extends Named> (kind: 'area' | 'floor' | 'label', idKey: string, map: (ctx: CommandContext) => Map<string, T>, build: (msg: Record<string, unknown>, id: string) => T, deleteResult: unknown): CommandTable {
  const event = `${kind}_registry_updated`
  const label = kind.charAt(0).toUpperCase() + kind.slice(1)
  const apply = (entry: T, msg: Record<string, unknown>): void => {
    for (const [key, value] of Object.entries(msg)) {
      if (key === 'id' || key === 'type' || key === idKey) continue
      if (key in entry) (entry as unknown as Record<string, unknown>)[key] = value
    }
  }
  const checkName = (m: Map<string, T>, name: string, except?: string): void => {
    for (const e of m.values()) {
      const id = (e as unknown as Record<string, string>)[idKey] as string
      if (id !== except && e.name.toLowerCase() === name.toLowerCase()) throw new HaError('invalid_info', `The name ${name} (${slugify(name)}) is already in use`)
    }
  }
  return {
    [`config/${kind}_registry/list`]: { handle: ctx => [...map(ctx).values()] },
    [`config/${kind}_registry/create`]: {
      handle: ctx => {
        if (typeof ctx.msg.name !== 'string') throw requiredKey('name')
        const m = map(ctx)
        checkName(m, ctx.msg.name)
        const id = uniqueId(slugify(ctx.msg.name), candidate => m.has(candidate))
        const entry = build(ctx.msg, id)
        apply(entry, ctx.msg)
        m.set(id, entry)
        ctx.rt.house.fire(event, { action: 'create', [idKey]: id })
        return entry
      }
    },
    [`config/${kind}_registry/update`]: {
      handle: ctx => {
        const m = map(ctx)
        const id = String(ctx.msg[idKey])
        const entry = m.get(id)
        if (entry === undefined) throw new HaError('invalid_info', `${label} ID doesn't exist`)
        if (typeof ctx.msg.name === 'string') checkName(m, ctx.msg.name, id)
        apply(entry, ctx.msg)
        entry.modified_at = now()
        ctx.rt.house.fire(event, { action: 'update', [idKey]: id })
        return entry
      }
    },
    [`config/${kind}_registry/delete`]: {
      handle: ctx => {
        const m = map(ctx)
        const id = String(ctx.msg[idKey])
        if (!m.delete(id)) throw new HaError('invalid_info', `${label} ID doesn't exist`)
        ctx.rt.house.fire(event, { action: 'remove', [idKey]: id })
        return deleteResult
      }
    }
  }
}

export const registryCommands: CommandTable = {
  ...simpleRegistry('area', 'area_id', ctx => ctx.rt.house.areas, (_msg, id) => ({ area_id: id, name: '', floor_id: null, icon: null, aliases: [], labels: [], picture: null, humidity_entity_id: null, temperature_entity_id: null, motion_entity_id: null, created_at: now(), modified_at: now() }), 'success'),
  ...simpleRegistry('floor', 'floor_id', ctx => ctx.rt.house.floors, (_msg, id) => ({ floor_id: id, name: '', level: null, icon: null, aliases: [], created_at: now(), modified_at: now() }), null),
  ...simpleRegistry('label', 'label_id', ctx => ctx.rt.house.labels, (_msg, id) => ({ label_id: id, name: '', color: null, icon: null, description: null, created_at: now(), modified_at: now() }), null),
  'config/device_registry/list': { handle: ctx => [...ctx.rt.house.devices.values()].map(deviceView) },
  'config/device_registry/update': {
    handle: ctx => {
      const device = ctx.rt.house.devices.get(String(ctx.msg.device_id))
      if (device === undefined) throw new HaError('not_found', 'Device not found')
      const changes: Record<string, unknown> = {}
      for (const key of ['area_id', 'name_by_user', 'disabled_by', 'labels'] as const) {
        if (!(key in ctx.msg)) continue
        const value = key === 'labels' ? strings(ctx.msg.labels) : nullableString(ctx.msg[key])
        if (JSON.stringify(device[key]) !== JSON.stringify(value)) {
          changes[key] = device[key]
          Object.assign(device, { [key]: value })
        }
      }
      device.modified_at = now()
      ctx.rt.house.fire('device_registry_updated', { action: 'update', device_id: device.id, changes })
      return deviceView(device)
    }
  },
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
  'config/entity_registry/update': { handle: entityUpdate },
  'config/entity_registry/remove': {
    keys: { required: ['entity_id'] },
    handle: ctx => {
      const id = String(ctx.msg.entity_id)
      if (!ctx.rt.house.entities.delete(id)) throw new HaError('not_found', 'Entity not found')
      ctx.rt.house.removeState(id)
      ctx.rt.house.fire('entity_registry_updated', { action: 'remove', entity_id: id })
      return null
    }
  },
  'config/category_registry/list': {
    keys: { required: ['scope'] },
    handle: ctx => ctx.msg.scope === 'automation' ? [{ category_id: '01JCATLIGHTING0000000000000', created_at: epochSeconds(ctx.rt.house.home.startMs - 86_400_000 * 30), icon: 'mdi:lightbulb', modified_at: epochSeconds(ctx.rt.house.home.startMs - 86_400_000 * 30), name: 'Lighting' }] : []
  },
  'config_entries/get': {
    handle: ctx => ctx.rt.house.home.configEntries
      .filter(e => typeof ctx.msg.domain !== 'string' || e.domain === ctx.msg.domain)
      .map(e => ({ created_at: epochSeconds(ctx.rt.house.home.startMs - 86_400_000 * 120), entry_id: e.entry_id, domain: e.domain, modified_at: epochSeconds(ctx.rt.house.home.startMs - 86_400_000 * 120), title: e.title, source: 'user', state: 'loaded', supports_options: false, supports_remove_device: false, supports_unload: true, supports_reconfigure: false, supported_subentry_types: {}, pref_disable_new_entities: false, pref_disable_polling: false, disabled_by: null, reason: null, error_reason_translation_key: null, error_reason_translation_placeholders: null, num_subentries: 0 }))
  }
}

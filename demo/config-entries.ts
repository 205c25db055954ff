import { randomUUID } from 'node:crypto'
import { nowMs } from './clock.ts'
import { HaError } from './errors.ts'
import type { FormField } from './flow-schema.ts'
import type { House } from './house.ts'
import { newSchemaFlow, type SchemaFlowState, type StepTable } from './schema-flow.ts'
import type { HassState } from './types.ts'
import { epochSeconds, ulid } from './util.ts'

/**
 * The demo's config entries and the flows around them, held to core's homeassistant/config_entries.py
 * (ConfigEntry, ConfigEntryState, async_set_disabled_by, async_remove, async_reload) and
 * data_entry_flow.py (FlowManager: a flow id is a random hex uuid, a finished or aborted flow is gone).
 */
export type EntryState = 'loaded' | 'setup_error' | 'migration_error' | 'setup_retry' | 'not_loaded' | 'failed_unload' | 'setup_in_progress'

export interface DemoEntry {
  entry_id: string
  domain: string
  title: string
  source: string
  state: EntryState
  reason: string | null
  disabled_by: 'user' | null
  unique_id: string | null
  /** The options flow's steps ("init" first); undefined: the integration has no options flow. */
  optionsFlow?: StepTable
  options: Record<string, unknown>
  /** Sets up the entities of an entry made in the demo (a helper's): called on every setup, after an options change. */
  setupEntities?: (house: House, entry: DemoEntry) => void
  /** The integration's async_remove_entry (a group unhides its members). */
  onRemove?: (house: House, entry: DemoEntry) => void
  supports_reconfigure: boolean
  /** Why every setup of this entry fails (a ConfigEntryError's message); undefined: setups succeed. */
  failsWith?: string
  created_at: number
  modified_at: number
}

/** A config flow in progress (config_entries/flow/progress): its steps walked by demo/schema-flow.ts. */
export interface DemoFlow {
  flow_id: string
  handler: string
  context: { source: string, unique_id?: string, title_placeholders?: Record<string, string>, show_advanced_options?: boolean }
  state: SchemaFlowState
  /** The entry's title from the options gathered (SchemaConfigFlowHandler.async_config_entry_title). */
  title: (options: Record<string, unknown>, house: House) => string
  /** What the new entry sets up (the helper's entity); undefined: nothing the demo models. */
  setupEntities?: DemoEntry['setupEntities']
  onRemove?: DemoEntry['onRemove']
  optionsFlow?: StepTable
}

export interface OptionsFlow { flow_id: string, entry_id: string, state: SchemaFlowState }

export interface ConfigEntryStore {
  entries: Map<string, DemoEntry>
  flows: Map<string, DemoFlow>
  optionsFlows: Map<string, OptionsFlow>
  /** Entities whose states an unload removed, per entry: a setup brings them back. */
  unloaded: Map<string, HassState[]>
}

const stores = new WeakMap<House, ConfigEntryStore>()

/**
 * Hue's v1 options flow (core hue/config_flow.py HueV1OptionsFlowHandler): two booleans whose
 * defaults are the entry's current options, no suggested values.
 */
const HUE_FIELDS: FormField[] = [
  { name: 'allow_hue_groups', type: 'boolean', optional: true, default: false },
  { name: 'allow_unreachable', type: 'boolean', optional: true, default: false }
]
const HUE_OPTIONS: StepTable = {
  init: { suggest: false, schema: ctx => HUE_FIELDS.map(f => ({ ...f, default: ctx.options[f.name] ?? f.default })) }
}

function seed (house: House): ConfigEntryStore {
  const created = epochSeconds(house.home.startMs - 86_400_000 * 120)
  const entry = (fields: Partial<DemoEntry> & Pick<DemoEntry, 'entry_id' | 'domain' | 'title'>): DemoEntry => ({
    source: 'user', state: 'loaded', reason: null, disabled_by: null, unique_id: null, options: {}, supports_reconfigure: false, created_at: created, modified_at: created, ...fields
  })
  const entries = new Map<string, DemoEntry>()
  for (const def of house.home.configEntries) {
    const hue = def.domain === 'hue'
    entries.set(def.entry_id, entry({
      ...def,
      ...(hue ? { title: 'Hue Bridge', unique_id: '001788fffe4a2b3c', optionsFlow: HUE_OPTIONS, options: { allow_hue_groups: false, allow_unreachable: false }, supports_reconfigure: true } : {})
    }))
  }
  const id = (): string => ulid(house.home.startMs - 86_400_000 * 30, Math.random)
  const extras = [
    // ConfigEntryError during setup: state setup_error, its message as the reason.
    entry({ entry_id: id(), domain: 'nut', title: 'UPS in the closet', state: 'setup_error', reason: 'Connection refused by 192.168.1.40:3493', failsWith: 'Connection refused by 192.168.1.40:3493' }),
    entry({ entry_id: id(), domain: 'spotify', title: 'Spotify (old account)', state: 'not_loaded', disabled_by: 'user' }),
    // An ignored discovery is an entry of source "ignore" (config_entries.py SOURCE_IGNORE), never loaded.
    entry({ entry_id: id(), domain: 'esphome', title: 'garage-door-esp', source: 'ignore', state: 'not_loaded', unique_id: 'a4:cf:12:00:00:01' })
  ]
  for (const extra of extras) entries.set(extra.entry_id, extra)
  const flows = new Map<string, DemoFlow>()
  const discovered = (handler: string, stepId: string, fields: FormField[], context: DemoFlow['context'], title: string): void => { discoveryFlow(flows, handler, stepId, fields, context, title) }
  discovered('shelly', 'confirm_discovery', [], { source: 'zeroconf', unique_id: 'shellyplus1pm-441793a1b2c3', title_placeholders: { name: 'shellyplus1pm-441793a1b2c3' } }, 'Shelly Plus 1PM')
  // HomeKit pairing needs the code printed on the accessory (homekit_controller/config_flow.py async_step_pair).
  discovered('homekit_controller', 'pair', [{ name: 'pairing_code', type: 'string', required: true }], { source: 'zeroconf', unique_id: '4e:21:9a:0c:3f:7d', title_placeholders: { name: 'Eve Door 20EBY9901' } }, 'Eve Door 20EBY9901')
  return { entries, flows, optionsFlows: new Map(), unloaded: new Map() }
}

/** A discovery waiting on one form step (an empty form only confirms); its answer adds an entry with this title. Returns the flow id. */
export function discoveryFlow (flows: Map<string, DemoFlow>, handler: string, stepId: string, fields: FormField[], context: DemoFlow['context'], title: string): string {
  const flowId = flowIdOf()
  const state = newSchemaFlow({ [stepId]: { schema: fields } }, {}, false)
  state.shown = { type: 'form', step_id: stepId, fields }
  flows.set(flowId, { flow_id: flowId, handler, context, state, title: () => title })
  return flowId
}

/** core util/uuid.py random_uuid_hex: 32 hex digits. */
export const flowIdOf = (): string => randomUUID().replaceAll('-', '')

export function entriesOf (house: House): ConfigEntryStore {
  let store = stores.get(house)
  if (store === undefined) stores.set(house, (store = seed(house)))
  return store
}

/** ConfigEntry.as_json_fragment (core config_entries.py), what config_entries/get and the REST views answer. */
export function entryJson (entry: DemoEntry): Record<string, unknown> {
  return {
    created_at: entry.created_at,
    entry_id: entry.entry_id,
    domain: entry.domain,
    modified_at: entry.modified_at,
    title: entry.title,
    source: entry.source,
    state: entry.state,
    supports_options: entry.optionsFlow !== undefined,
    supports_remove_device: false,
    supports_unload: true,
    supports_reconfigure: entry.supports_reconfigure,
    supported_subentry_types: {},
    pref_disable_new_entities: false,
    pref_disable_polling: false,
    disabled_by: entry.disabled_by,
    reason: entry.reason,
    error_reason_translation_key: null,
    error_reason_translation_placeholders: null,
    num_subentries: 0
  }
}

export function requireEntry (house: House, entryId: string): DemoEntry {
  const entry = entriesOf(house).entries.get(entryId)
  if (entry === undefined) throw new HaError('not_found', 'Config entry not found')
  return entry
}

/** Unload: the entry's entity states leave the state machine (kept to come back on the next setup). */
function unload (house: House, entry: DemoEntry): void {
  const store = entriesOf(house)
  const removed: HassState[] = store.unloaded.get(entry.entry_id) ?? []
  for (const registered of house.entities.values()) {
    if (registered.config_entry_id !== entry.entry_id) continue
    const state = house.states.get(registered.entity_id)
    if (state === undefined) continue
    removed.push(state)
    house.removeState(registered.entity_id)
  }
  store.unloaded.set(entry.entry_id, removed)
  entry.state = 'not_loaded'
}

/** Setup: an entry whose setup fails (setup_error) stays failed with its reason; otherwise its states return. */
export function setup (house: House, entry: DemoEntry): void {
  if (entry.failsWith !== undefined) { entry.state = 'setup_error'; entry.reason = entry.failsWith; return }
  const store = entriesOf(house)
  if (entry.setupEntities !== undefined) entry.setupEntities(house, entry)
  else {
    for (const state of store.unloaded.get(entry.entry_id) ?? []) {
      if (house.entities.get(state.entity_id)?.disabled_by === null) house.setState(state.entity_id, state.state, state.attributes)
    }
  }
  store.unloaded.delete(entry.entry_id)
  entry.state = 'loaded'
  entry.reason = null
}

/** ConfigEntries.async_reload: unload then set up again; a disabled entry is only unloaded. */
export function reloadEntry (house: House, entry: DemoEntry): void {
  if (entry.state === 'loaded') unload(house, entry)
  if (entry.disabled_by === null) setup(house, entry)
  house.configWrites.push(`config_entries reload ${entry.entry_id}`)
}

/**
 * ConfigEntries.async_set_disabled_by: the device and entity registries follow (their disabled_by
 * "config_entry", core helpers/device_registry.py and entity_registry.py
 * async_config_entry_disabled_by_changed: only entries not disabled for another reason), then the
 * entry is unloaded or set up.
 */
export function setDisabledBy (house: House, entry: DemoEntry, disabledBy: 'user' | null): void {
  if (entry.disabled_by === disabledBy) return
  entry.disabled_by = disabledBy
  entry.modified_at = epochSeconds(nowMs())
  const from = disabledBy === null ? 'config_entry' : null
  const to = disabledBy === null ? null : 'config_entry'
  for (const device of house.devices.values()) {
    if (device.config_entry_id !== entry.entry_id || device.disabled_by !== from) continue
    device.disabled_by = to
    house.fire('device_registry_updated', { action: 'update', device_id: device.id, changes: { disabled_by: from } })
  }
  for (const registered of house.entities.values()) {
    if (registered.config_entry_id !== entry.entry_id || registered.disabled_by !== from) continue
    registered.disabled_by = to
    house.fire('entity_registry_updated', { action: 'update', entity_id: registered.entity_id, changes: { disabled_by: from } })
  }
  if (disabledBy === null) setup(house, entry)
  else unload(house, entry)
  house.configWrites.push(`config_entries ${disabledBy === null ? 'enable' : 'disable'} ${entry.entry_id}`)
}

/** ConfigEntries.async_remove: unload, then the entry's devices and entities leave the registries. */
export function removeEntry (house: House, entry: DemoEntry): { require_restart: boolean } {
  if (entry.state === 'loaded') unload(house, entry)
  const store = entriesOf(house)
  store.entries.delete(entry.entry_id)
  entry.onRemove?.(house, entry)
  store.unloaded.delete(entry.entry_id)
  for (const registered of [...house.entities.values()]) {
    if (registered.config_entry_id !== entry.entry_id) continue
    house.entities.delete(registered.entity_id)
    house.fire('entity_registry_updated', { action: 'remove', entity_id: registered.entity_id })
  }
  for (const device of [...house.devices.values()]) {
    if (device.config_entry_id !== entry.entry_id) continue
    house.devices.delete(device.id)
    house.fire('device_registry_updated', { action: 'remove', device_id: device.id })
  }
  house.configWrites.push(`config_entries delete ${entry.entry_id}`)
  return { require_restart: false }
}

/** A new entry made by a finished flow (FlowManager async_finish_flow -> ConfigEntries.async_add). */
export function addEntry (house: House, fields: Pick<DemoEntry, 'domain' | 'title' | 'source' | 'unique_id'> & Partial<DemoEntry>): DemoEntry {
  const now = epochSeconds(nowMs())
  const entry: DemoEntry = { entry_id: ulid(nowMs(), Math.random), state: fields.source === 'ignore' ? 'not_loaded' : 'loaded', reason: null, disabled_by: null, options: {}, supports_reconfigure: false, created_at: now, modified_at: now, ...fields }
  entriesOf(house).entries.set(entry.entry_id, entry)
  house.configWrites.push(`config_entries add ${entry.domain} ${entry.source}`)
  if (entry.state === 'loaded') entry.setupEntities?.(house, entry)
  return entry
}

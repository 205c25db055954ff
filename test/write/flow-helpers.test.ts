// ha_create_helper, ha_update_helper and ha_delete_helper on the helpers Home Assistant sets up through
// a config flow (template, group, utility_meter, threshold...), through the demo's flows, which follow
// core's helpers/schema_config_entry_flow.py and each helper's config_flow.py.
import t from 'tap'
import { entriesOf } from '../../demo/config-entries.ts'
import { callTool, caughtUp, connectClient, startHome, startServer, type ToolAnswer, type ToolCaller } from '../helper.ts'

const OPTIONS = { allow_write: true, allow_config_write: true }
const entryOf = (home: { house: any }, domain: string): any => [...entriesOf(home.house).entries.values()].filter(e => e.domain === domain).at(-1)
/** Flows a user started (the demo's discoveries wait there from the start) and options flows. */
const openFlows = (home: { house: any }): number => [...entriesOf(home.house).flows.values()].filter((f: any) => f.context?.source === 'user').length + entriesOf(home.house).optionsFlows.size

/** A config change is always confirmed: the first call asks, the second (with the token) writes. */
async function confirmed (client: ToolCaller, tool: string, args: Record<string, unknown>): Promise<ToolAnswer> {
  const asked = await callTool(client, tool, args)
  if (asked.isError === true || asked.json?.confirm_token === undefined) return asked
  return await callTool(client, tool, { ...args, confirm_token: asked.json.confirm_token })
}

/**
 * Each config-flow helper the tests walk: how to create it, the domain of the entity it makes, an option
 * to change, and whether undo can create it again after a delete (not when its config flow asks for a
 * field its options flow never shows).
 */
const HOUR = { hours: 1, minutes: 0, seconds: 0 }
const CASES: Array<{ type: string, name: string, options: Record<string, unknown>, domain: string, change: Record<string, unknown>, recreates: boolean }> = [
  { type: 'threshold', name: 'Frost warning', options: { entity_id: 'sensor.outside_temperature', lower: 2, hysteresis: 0.5 }, domain: 'binary_sensor', change: { lower: 0 }, recreates: true },
  { type: 'utility_meter', name: 'Dishwasher energy', options: { source: 'sensor.grid_consumption', cycle: 'monthly' }, domain: 'sensor', change: { source: 'sensor.solar_production' }, recreates: false },
  { type: 'template', name: 'Double temperature', options: { kind: 'sensor', state: '{{ states("sensor.outside_temperature") | float * 2 }}', unit_of_measurement: '°C' }, domain: 'sensor', change: { unit_of_measurement: 'K' }, recreates: true },
  { type: 'group', name: 'Kitchen lights', options: { kind: 'light', entities: ['light.kuche_ceiling_light', 'light.kuche_ceiling_light_2'] }, domain: 'light', change: { entities: ['light.kuche_ceiling_light'] }, recreates: true },
  // A sensor group has a field named type (its statistic): the menu's answer is kind, so both fit.
  { type: 'group', name: 'Mean outside', options: { kind: 'sensor', entities: ['sensor.outside_temperature', 'sensor.electricity_price'], type: 'mean' }, domain: 'sensor', change: { type: 'max' }, recreates: true },
  { type: 'random', name: 'Dice', options: { kind: 'sensor', minimum: 1, maximum: 6 }, domain: 'sensor', change: { maximum: 12 }, recreates: true },
  { type: 'derivative', name: 'Power draw', options: { source: 'sensor.grid_consumption', time_window: { hours: 0, minutes: 5, seconds: 0 } }, domain: 'sensor', change: { round: 3 }, recreates: false },
  { type: 'min_max', name: 'Warmest', options: { entity_ids: ['sensor.outside_temperature', 'sensor.electricity_price'], type: 'max' }, domain: 'sensor', change: { type: 'min' }, recreates: true },
  { type: 'integration', name: 'Solar energy', options: { source: 'sensor.solar_production', method: 'left' }, domain: 'sensor', change: { method: 'right' }, recreates: false },
  { type: 'statistics', name: 'Hourly mean', options: { entity_id: 'sensor.outside_temperature', state_characteristic: 'mean', max_age: HOUR }, domain: 'sensor', change: { precision: 1 }, recreates: false },
  { type: 'trend', name: 'Warming up', options: { entity_id: 'sensor.outside_temperature' }, domain: 'binary_sensor', change: { invert: true }, recreates: true },
  { type: 'filter', name: 'Smooth temperature', options: { entity_id: 'sensor.outside_temperature', filter: 'lowpass', time_constant: 10 }, domain: 'sensor', change: { precision: 1 }, recreates: false },
  { type: 'tod', name: 'Night', options: { after_time: '22:00:00', before_time: '06:00:00' }, domain: 'binary_sensor', change: { before_time: '07:00:00' }, recreates: true },
  { type: 'switch_as_x', name: 'Spare lamp', options: { entity_id: 'switch.spare_plug', target_domain: 'light' }, domain: 'light', change: { invert: true }, recreates: false },
  { type: 'history_stats', name: 'Kitchen light time', options: { entity_id: 'light.kuche_ceiling_light', type: 'time', state: ['on'], start: '{{ today_at() }}', duration: { hours: 24, minutes: 0, seconds: 0 } }, domain: 'sensor', change: { state_class: 'total_increasing' }, recreates: true }
]

t.test('each config-flow helper is created (its entity appears), changed, deleted and undone', async t => {
  const home = await startHome(t)
  const server = await startServer(t, { home, options: OPTIONS })
  const client = await connectClient(t, server)
  const undo = async (): Promise<ToolAnswer> => await confirmed(client, 'ha_undo', {})

  for (const c of CASES) {
    t.test(`${c.type} ${c.name}`, async t => {
      const created = await confirmed(client, 'ha_create_helper', { helper_type: c.type, name: c.name, options: c.options })
      t.notOk(created.isError, created.text)
      t.match(created.json, { success: true, entities: [new RegExp(`^${c.domain}\\.`)] })
      const entity = created.json.entities[0] as string
      t.ok(home.getState(entity), `${entity} is in the house`)
      const entry = entryOf(home, c.type)
      t.equal(entry.entry_id, created.json.entry_id)
      if (c.type !== 'switch_as_x') t.equal(entry.title, c.name)
      t.equal(openFlows(home), 0, 'no flow left open')
      await caughtUp(server)
      t.ok(server.app.services.home.entity(entity) !== undefined, 'helper entity in the catalogue')

      const dry = await callTool(client, 'ha_update_helper', { entity_id: entity, options: c.change, dry_run: true })
      t.notOk(dry.isError, dry.text)
      const [key, value] = Object.entries(c.change)[0] as [string, unknown]
      t.ok(dry.json.fields.some((f: any) => f.name === key), 'the dry run shows the options form')
      t.same(dry.json.changes[key].after, value)
      const before = entry.options[key]
      t.same(dry.json.changes[key].before, before ?? null, 'before is the current value')
      t.same(entry.options[key], before, 'a dry run changes nothing')

      const changed = await confirmed(client, 'ha_update_helper', { entity_id: entity, options: c.change })
      t.notOk(changed.isError, changed.text)
      t.same(entryOf(home, c.type).options[key], value, 'the entry holds the new option')
      const reverted = await undo()
      t.notOk(reverted.isError, reverted.text)
      t.same(entryOf(home, c.type).options[key], before, 'undo put the option back')

      const deleted = await confirmed(client, 'ha_delete_helper', { entity_id: entity })
      t.notOk(deleted.isError, deleted.text)
      t.notOk(home.getState(entity), 'the entity is gone with its entry')
      t.notOk(entriesOf(home.house).entries.has(entry.entry_id))
      t.equal(openFlows(home), 0)

      const back = await undo()
      if (!c.recreates) {
        t.equal(back.code, 'HAMCP_NOT_SUPPORTED', `a field set at creation only: ${back.text}`)
        t.notOk(entryOf(home, c.type), 'nothing half-made')
      } else {
        t.notOk(back.isError, back.text)
        t.ok(home.getState(entity), 'undo created it again')
        t.same(entryOf(home, c.type).options[key], before, 'with the options it had')
        await confirmed(client, 'ha_delete_helper', { entity_id: entity })
      }
      t.equal(openFlows(home), 0)
    })
  }
})

t.test('undo of a create deletes the entry; undo of a delete creates it again, or says why it cannot', async t => {
  const home = await startHome(t)
  const server = await startServer(t, { home, options: OPTIONS })
  const client = await connectClient(t, server)
  const created = await confirmed(client, 'ha_create_helper', { helper_type: 'threshold', name: 'Cold garden', options: { entity_id: 'sensor.outside_temperature', upper: 5 } })
  t.notOk(created.isError, created.text)
  t.equal(created.json.undo_available, true)
  const undone = await confirmed(client, 'ha_undo', {})
  t.notOk(undone.isError, undone.text)
  t.notOk(home.getState('binary_sensor.cold_garden'), 'undo deleted the created helper')
  t.notOk(entryOf(home, 'threshold'))

  await confirmed(client, 'ha_create_helper', { helper_type: 'threshold', name: 'Warm garden', options: { entity_id: 'sensor.outside_temperature', lower: 25, hysteresis: 1 } })
  await caughtUp(server)
  t.ok(server.app.services.home.entity('binary_sensor.warm_garden') !== undefined, 'threshold in the catalogue')
  const deleted = await confirmed(client, 'ha_delete_helper', { entity_id: 'binary_sensor.warm_garden' })
  t.notOk(deleted.isError, deleted.text)
  t.notOk(home.getState('binary_sensor.warm_garden'))
  const back = await confirmed(client, 'ha_undo', {})
  t.notOk(back.isError, back.text)
  t.ok(home.getState('binary_sensor.warm_garden'), 'created again')
  t.match(entryOf(home, 'threshold').options, { name: 'Warm garden', entity_id: 'sensor.outside_temperature', lower: 25, hysteresis: 1 }, 'with the options it had')

  // A utility meter's cycle is set at creation only: its options flow shows the source alone.
  await confirmed(client, 'ha_create_helper', { helper_type: 'utility_meter', name: 'Gas meter', options: { source: 'sensor.gas_consumption', cycle: 'daily' } })
  await caughtUp(server)
  t.ok(server.app.services.home.entity('sensor.gas_meter') !== undefined, 'meter in the catalogue')
  await confirmed(client, 'ha_delete_helper', { entity_id: 'sensor.gas_meter' })
  const cannot = await confirmed(client, 'ha_undo', {})
  t.equal(cannot.code, 'HAMCP_NOT_SUPPORTED', cannot.text)
  t.match(cannot.text, /cycle/)
  t.notOk(home.getState('sensor.gas_meter'), 'nothing half-made')
  t.equal(openFlows(home), 0, 'the config flow undo opened is aborted')
})

t.test('the flow\'s own validation comes back as an argument error naming the field and the form', async t => {
  const home = await startHome(t)
  const server = await startServer(t, { home, options: OPTIONS })
  const client = await connectClient(t, server)
  const entries = entriesOf(home.house).entries.size

  const noLimit = await confirmed(client, 'ha_create_helper', { helper_type: 'threshold', name: 'No limit', options: { entity_id: 'sensor.outside_temperature' } })
  t.equal(noLimit.code, 'HAMCP_INVALID_ARGUMENT', noLimit.text)
  t.match(noLimit.text, /base: need_lower_upper/, 'the schema flow\'s error key')
  t.match(noLimit.text, /lower \(number\).*upper \(number\)/, 'the form\'s fields')

  const missing = await confirmed(client, 'ha_create_helper', { helper_type: 'utility_meter', name: 'No source', options: { cycle: 'daily' } })
  t.equal(missing.code, 'HAMCP_INVALID_ARGUMENT', missing.text)
  t.match(missing.text, /source/)

  const unknown = await confirmed(client, 'ha_create_helper', { helper_type: 'threshold', name: 'Typo', options: { entity_id: 'sensor.outside_temperature', lowr: 3 } })
  t.equal(unknown.code, 'HAMCP_INVALID_ARGUMENT', unknown.text)
  t.match(unknown.text, /no field lowr/)
  t.match(unknown.text, /lower/)

  const noKind = await confirmed(client, 'ha_create_helper', { helper_type: 'template', name: 'What kind', options: { state: '{{ 1 }}' } })
  t.equal(noKind.code, 'HAMCP_INVALID_ARGUMENT', noKind.text)
  t.match(noKind.text, /sensor/, 'the kinds it offers')
  t.match(noKind.text, /options\.kind/)

  t.equal(entriesOf(home.house).entries.size, entries, 'nothing was created')
  t.equal(openFlows(home), 0, 'every flow it opened is aborted')
})

t.test('a dry run opens the flow, shows its forms, and leaves nothing behind', async t => {
  const home = await startHome(t)
  const server = await startServer(t, { home, options: OPTIONS })
  const client = await connectClient(t, server)
  const entries = entriesOf(home.house).entries.size
  const dry = await callTool(client, 'ha_create_helper', { helper_type: 'template', name: 'Preview', options: { kind: 'sensor' }, dry_run: true })
  t.notOk(dry.isError, dry.text)
  t.equal(dry.json.dry_run, true)
  t.ok(dry.json.forms[0].fields.some((f: any) => f.name === 'state' && f.required), 'the template sensor form and its required state')
  t.match(dry.json.missing, ['state'])
  t.equal(entriesOf(home.house).entries.size, entries)
  t.equal(openFlows(home), 0)
})

t.test('refusals reach nothing: option off, level, service_denylist, entity lists, templates, actions inside', async t => {
  const home = await startHome(t)
  const entries = entriesOf(home.house).entries.size
  const unchanged = (t: any, what: string): void => {
    t.equal(entriesOf(home.house).entries.size, entries, `${what}: no entry`)
    t.equal(openFlows(home), 0, `${what}: no flow opened`)
  }
  const threshold = { helper_type: 'threshold', name: 'Frost', options: { entity_id: 'sensor.outside_temperature', lower: 1 } }

  const writeOnly = await startServer(t, { home, options: { allow_write: true } })
  const writer = await connectClient(t, writeOnly)
  const off = await confirmed(writer, 'ha_create_helper', threshold)
  t.equal(off.code, 'HAMCP_DENIED_LEVEL', off.text)
  t.match(off.text, /allow_config_write/)
  unchanged(t, 'allow_config_write off')
  const storage = await callTool(writer, 'ha_create_helper', { helper_type: 'input_boolean', name: 'Still fine' })
  t.notOk(storage.isError, 'storage helpers need only allow_write, as before')

  const open = await startServer(t, { home, options: { ...OPTIONS, tool_list: 'full' } })
  const { token } = await open.app.services.tokens.create({ name: 'helpers write', levels: { '*': 'manage', integrations: 'write' } })
  const named = await connectClient(t, open, token)
  const level = await confirmed(named, 'ha_create_helper', threshold)
  t.equal(level.code, 'HAMCP_DENIED_LEVEL', level.text)
  t.match(level.text, /integrations category at manage; this token has it at write/)
  unchanged(t, 'integrations at write')

  const denying = await startServer(t, { home, options: { ...OPTIONS, service_denylist: ['threshold.create', 'lock.unlock'], entity_denylist: ['sensor.gas_consumption', 'lock.*'] } })
  const client = await connectClient(t, denying)
  const denied = await confirmed(client, 'ha_create_helper', threshold)
  t.equal(denied.code, 'HAMCP_DENIED_SERVICE', denied.text)
  t.match(denied.text, /threshold\.create/)
  unchanged(t, 'service_denylist')

  const deniedSource = await confirmed(client, 'ha_create_helper', { helper_type: 'utility_meter', name: 'Gas', options: { source: 'sensor.gas_consumption', cycle: 'daily' } })
  t.equal(deniedSource.code, 'HAMCP_DENIED_ENTITY', deniedSource.text)
  unchanged(t, 'a denied source sensor')

  const template = await confirmed(client, 'ha_create_helper', { helper_type: 'template', name: 'Lock mirror', options: { kind: 'sensor', state: '{{ states("lock.front_door") }}' } })
  t.equal(template.code, 'HAMCP_DENIED_TARGET', template.text)
  unchanged(t, 'a template while entity lists are set')

  const noLists = await startServer(t, { home, options: { ...OPTIONS, service_denylist: ['lock.unlock'] } })
  const plain = await connectClient(t, noLists)
  const action = await confirmed(plain, 'ha_create_helper', { helper_type: 'template', name: 'Door opener', options: { kind: 'switch', turn_on: [{ action: 'lock.unlock', target: { entity_id: 'lock.front_door' } }], turn_off: [] } })
  t.equal(action.code, 'HAMCP_DENIED_SERVICE', action.text)
  t.match(action.text, /lock\.unlock/)
  unchanged(t, 'an action inside on the denylist')
  t.same(home.serviceCalls, [], 'no refusal reached the house')
})

t.test('changing or deleting a config-flow helper: refusals leave the entry as it was and no flow open', async t => {
  const home = await startHome(t)
  const maker = await startServer(t, { home, options: OPTIONS })
  const owner = await connectClient(t, maker)
  const made = await confirmed(owner, 'ha_create_helper', { helper_type: 'threshold', name: 'Frost alarm', options: { entity_id: 'sensor.outside_temperature', lower: 1 } })
  t.notOk(made.isError, made.text)
  t.notOk(made.json.hash, 'the answer carries no internal fingerprint')
  const entry = entryOf(home, 'threshold')
  const options = { ...entry.options }

  const denying = await startServer(t, { home, options: { ...OPTIONS, service_denylist: ['threshold.update'] } })
  const client = await connectClient(t, denying)
  await denying.app.services.home.ready()
  t.ok(denying.app.services.home.entity('binary_sensor.frost_alarm') !== undefined, 'threshold in the catalogue')
  const denied = await confirmed(client, 'ha_update_helper', { entity_id: 'binary_sensor.frost_alarm', options: { lower: 3 } })
  t.equal(denied.code, 'HAMCP_DENIED_SERVICE', denied.text)
  t.match(denied.text, /threshold\.update/)
  const listing = await startServer(t, { home, options: { ...OPTIONS, entity_denylist: ['sensor.grid_consumption'] } })
  const listed = await connectClient(t, listing)
  await listing.app.services.home.ready()
  t.ok(listing.app.services.home.entity('binary_sensor.frost_alarm') !== undefined, 'threshold in the catalogue')
  const deniedSource = await confirmed(listed, 'ha_update_helper', { entity_id: 'binary_sensor.frost_alarm', options: { entity_id: 'sensor.grid_consumption' } })
  t.equal(deniedSource.code, 'HAMCP_DENIED_ENTITY', deniedSource.text)
  const unknown = await callTool(client, 'ha_update_helper', { entity_id: 'binary_sensor.frost_alarm', options: { name: 'Renamed' } })
  t.equal(unknown.code, 'HAMCP_INVALID_ARGUMENT', 'the options flow has no name field')
  t.match(unknown.text, /hysteresis/)
  t.same(entryOf(home, 'threshold').options, options, 'the entry is as it was')
  t.equal(openFlows(home), 0, 'the options flows read for the previews are closed')

  const hiding = await startServer(t, { home, options: { ...OPTIONS, entity_denylist: ['binary_sensor.frost_*'] } })
  const hidden = await connectClient(t, hiding)
  const deleted = await confirmed(hidden, 'ha_delete_helper', { entity_id: 'binary_sensor.frost_alarm' })
  t.equal(deleted.code, 'HAMCP_DENIED_ENTITY', deleted.text)
  t.ok(entriesOf(home.house).entries.has(entry.entry_id), 'still there')
  t.ok(home.getState('binary_sensor.frost_alarm'))
  t.same(home.serviceCalls, [], 'no refusal reached the house')
})

t.test('ha_manage_integration is no way around the helper tools\' checks: a helper\'s options and its delete go through them', async t => {
  const home = await startHome(t)
  const plain = await startServer(t, { home, options: OPTIONS })
  const owner = await connectClient(t, plain)
  const made = await confirmed(owner, 'ha_create_helper', { helper_type: 'template', name: 'Porch switch', options: { kind: 'switch', turn_on: [{ action: 'light.turn_on', target: { entity_id: 'light.kuche_ceiling_light' } }], turn_off: [] } })
  t.notOk(made.isError, made.text)
  const entry = entryOf(home, 'template')
  const options = JSON.parse(JSON.stringify(entry.options))

  const denying = await startServer(t, { home, options: { ...OPTIONS, service_denylist: ['lock.unlock', 'template.delete'] } })
  const client = await connectClient(t, denying)
  const around = await confirmed(client, 'ha_manage_integration', { action: 'options', entry_id: entry.entry_id, options: { turn_on: [{ action: 'lock.unlock', target: { entity_id: 'lock.front_door' } }] } })
  t.equal(around.code, 'HAMCP_NOT_SUPPORTED', around.text)
  t.match(around.text, /ha_update_helper/)
  const deleteAround = await confirmed(client, 'ha_manage_integration', { action: 'delete', entry_id: entry.entry_id })
  t.equal(deleteAround.code, 'HAMCP_NOT_SUPPORTED', deleteAround.text)
  t.match(deleteAround.text, /ha_delete_helper/)
  await denying.app.services.home.ready()
  t.ok(denying.app.services.home.entity('switch.porch_switch') !== undefined, 'template switch in the catalogue')
  const direct = await confirmed(client, 'ha_update_helper', { entity_id: 'switch.porch_switch', options: { turn_on: [{ action: 'lock.unlock', target: { entity_id: 'lock.front_door' } }] } })
  t.equal(direct.code, 'HAMCP_DENIED_SERVICE', direct.text)
  t.same(entryOf(home, 'template').options, options, 'the switch still does what it did')
  t.ok(entriesOf(home.house).entries.has(entry.entry_id))
  t.equal(openFlows(home), 0)
})

t.test('red team: a helper over a denied entity named by its entity registry id (which Home Assistant resolves) is refused', async t => {
  // group/<platform>.py and switch_as_x/__init__.py read their members through er.async_validate_entity_ids,
  // which takes a registry entry's id as well as an entity id: the id stands for the denied lock or switch.
  const home = await startHome(t)
  const entries = entriesOf(home.house).entries.size
  const server = await startServer(t, { home, options: { ...OPTIONS, entity_denylist: ['lock.front_door_lock', 'switch.irrigation'] } })
  const client = await connectClient(t, server)
  const lockId = (home.house.entities.get('lock.front_door_lock') as any).id as string
  const switchId = (home.house.entities.get('switch.irrigation') as any).id as string
  t.match(lockId, /^[0-9a-f]{32}$/)

  const group = await confirmed(client, 'ha_create_helper', { helper_type: 'group', name: 'Doors', options: { kind: 'lock', entities: ['lock.office_front_door_lock', lockId] } })
  t.equal(group.code, 'HAMCP_INVALID_ARGUMENT', group.text)
  t.match(group.text, new RegExp(lockId))
  const wrapped = await confirmed(client, 'ha_create_helper', { helper_type: 'switch_as_x', name: 'Valve', options: { entity_id: switchId, target_domain: 'valve' } })
  t.equal(wrapped.code, 'HAMCP_INVALID_ARGUMENT', wrapped.text)
  t.equal(entriesOf(home.house).entries.size, entries, 'no helper was made')
  t.equal(openFlows(home), 0)

  const made = await confirmed(client, 'ha_create_helper', { helper_type: 'group', name: 'Office door', options: { kind: 'lock', entities: ['lock.office_front_door_lock'] } })
  t.notOk(made.isError, made.text)
  await caughtUp(server)
  t.ok(server.app.services.home.entity('lock.office_door') !== undefined, 'group in the catalogue')
  const grown = await confirmed(client, 'ha_update_helper', { entity_id: 'lock.office_door', options: { entities: ['lock.office_front_door_lock', lockId] } })
  t.equal(grown.code, 'HAMCP_INVALID_ARGUMENT', grown.text)
  t.same(entryOf(home, 'group').options.entities, ['lock.office_front_door_lock'], 'the group holds what it held')
  t.same(home.serviceCalls, [], 'nothing reached the house')
})

t.test('red team: a helper made before the entity lists, wrapping a denied entity, is no way to it', async t => {
  const home = await startHome(t)
  const maker = await startServer(t, { home, options: OPTIONS })
  const owner = await connectClient(t, maker)
  const made = await confirmed(owner, 'ha_create_helper', { helper_type: 'template', name: 'Door opener', options: { kind: 'switch', turn_on: [{ action: 'lock.unlock', target: { entity_id: 'lock.front_door_lock' } }], turn_off: [] } })
  t.notOk(made.isError, made.text)
  const wrapped = await confirmed(owner, 'ha_create_helper', { helper_type: 'switch_as_x', name: 'Sprinkler', options: { entity_id: 'switch.irrigation', target_domain: 'light' } })
  t.notOk(wrapped.isError, wrapped.text)
  const light = (wrapped.json.entities as string[])[0] as string

  const denying = await startServer(t, { home, options: { ...OPTIONS, entity_denylist: ['lock.front_door_lock', 'switch.irrigation'] } })
  const client = await connectClient(t, denying)
  await denying.app.services.home.ready()
  t.ok(denying.app.services.home.entity('switch.door_opener') !== undefined && denying.app.services.home.entity(light) !== undefined, 'helpers in the catalogue')
  const calls = home.serviceCalls.length
  const lockBefore = home.house.states.get('lock.front_door_lock')?.state
  const opener = await callTool(client, 'ha_call_service', { domain: 'switch', service: 'turn_on', target: { entity_id: 'switch.door_opener' } })
  t.equal(opener.code, 'HAMCP_DENIED_ENTITY', `the template switch unlocks lock.front_door_lock: ${opener.text}`)
  const sprinkler = await callTool(client, 'ha_call_service', { domain: 'light', service: 'turn_on', target: { entity_id: light } })
  t.equal(sprinkler.code, 'HAMCP_DENIED_ENTITY', `the wrapper turns switch.irrigation on: ${sprinkler.text}`)
  t.same(home.serviceCalls.slice(calls), [], 'nothing reached the house')
  t.equal(home.house.states.get('lock.front_door_lock')?.state, lockBefore, 'the lock stayed as it was')
  t.equal(home.house.states.get('switch.irrigation')?.state, 'off', 'the switch stayed off')
})

t.test('a template switch\'s turn_on runs its action and a switch_as_x light drives its switch; the guard sees both, and a config-flow group\'s members', async t => {
  // What the demo plays (core template/switch.py, switch_as_x/entity.py, group/entity.py) and what the
  // guard makes of it: without entity lists the call goes through (asking first: it reaches a lock).
  const home = await startHome(t)
  const server = await startServer(t, { home, options: OPTIONS })
  const client = await connectClient(t, server)
  const lockState = (): string | undefined => home.house.states.get('lock.front_door_lock')?.state
  home.house.updateState('lock.front_door_lock', { state: 'locked' }, home.house.newContext(home.house.userId))
  t.equal(lockState(), 'locked')
  t.equal(home.house.states.get('switch.irrigation')?.state, 'off')
  t.notOk((await confirmed(client, 'ha_create_helper', { helper_type: 'template', name: 'Door opener', options: { kind: 'switch', turn_on: [{ action: 'lock.unlock', target: { entity_id: 'lock.front_door_lock' } }], turn_off: [] } })).isError)
  const wrapped = await confirmed(client, 'ha_create_helper', { helper_type: 'switch_as_x', name: 'Sprinkler', options: { entity_id: 'switch.irrigation', target_domain: 'light' } })
  const light = (wrapped.json.entities as string[])[0] as string
  await caughtUp(server)
  t.ok(server.app.services.home.entity('switch.door_opener') !== undefined && server.app.services.home.entity(light) !== undefined, 'helpers in the catalogue')

  const asked = await callTool(client, 'ha_call_service', { domain: 'switch', service: 'turn_on', target: { entity_id: 'switch.door_opener' } })
  t.ok(asked.json?.confirm_token !== undefined, `the switch reaches a lock, so it asks first: ${asked.text}`)
  t.match(asked.text, /lock\.front_door_lock/)
  const opened = await callTool(client, 'ha_call_service', { domain: 'switch', service: 'turn_on', target: { entity_id: 'switch.door_opener' }, confirm_token: asked.json.confirm_token })
  t.notOk(opened.isError, opened.text)
  t.equal(lockState(), 'unlocked', 'the template switch ran its turn_on action')
  const lit = await confirmed(client, 'ha_call_service', { domain: 'light', service: 'turn_on', target: { entity_id: light } })
  t.notOk(lit.isError, lit.text)
  t.equal(home.house.states.get('switch.irrigation')?.state, 'on', 'the wrapper turned its switch on')
  t.equal(home.house.states.get(light)?.state, 'on')

  // A group made through its config flow lists its members in its state (group/entity.py), so a denied member is refused through it.
  t.notOk((await confirmed(client, 'ha_create_helper', { helper_type: 'group', name: 'Sprinklers', options: { kind: 'switch', entities: ['switch.irrigation'] } })).isError)
  await caughtUp(server)
  t.ok(server.app.services.home.entity('switch.sprinklers') !== undefined, 'group in the catalogue')
  const denying = await startServer(t, { home, options: { ...OPTIONS, entity_denylist: ['switch.irrigation'] } })
  const denied = await connectClient(t, denying)
  await denying.app.services.home.ready()
  t.ok(denying.app.services.home.entity('switch.sprinklers') !== undefined, 'group in the catalogue')
  const calls = home.serviceCalls.length
  const grouped = await callTool(denied, 'ha_call_service', { domain: 'switch', service: 'turn_off', target: { entity_id: 'switch.sprinklers' } })
  t.equal(grouped.code, 'HAMCP_DENIED_ENTITY', grouped.text)
  t.match(grouped.text, /switch\.irrigation, reached through switch\.sprinklers/)
  t.same(home.serviceCalls.slice(calls), [], 'nothing reached the house')
  t.equal(home.house.states.get('switch.irrigation')?.state, 'on')
})

t.test('a helper whose entity the caller\'s entity lists would refuse is not created: it could neither be used nor deleted', async t => {
  const home = await startHome(t)
  const entries = entriesOf(home.house).entries.size
  const server = await startServer(t, { home, options: { ...OPTIONS, entity_denylist: ['input_boolean.secret_*', 'lock.hidden_*'] } })
  const client = await connectClient(t, server)
  const storage = await confirmed(client, 'ha_create_helper', { helper_type: 'input_boolean', name: 'Secret switch' })
  t.equal(storage.code, 'HAMCP_DENIED_ENTITY', storage.text)
  t.match(storage.text, /input_boolean\.secret_switch/)
  t.notOk(home.house.states.has('input_boolean.secret_switch'), 'no storage helper was made')
  const flow = await confirmed(client, 'ha_create_helper', { helper_type: 'group', name: 'Hidden doors', options: { kind: 'lock', entities: ['lock.office_front_door_lock'] } })
  t.equal(flow.code, 'HAMCP_DENIED_ENTITY', flow.text)
  t.match(flow.text, /lock\.hidden_doors/)
  t.equal(entriesOf(home.house).entries.size, entries, 'no config entry was made')
  t.equal(openFlows(home), 0, 'no flow was opened')

  // A named token's own list counts the same way; what its lists allow is made.
  const token = await server.app.services.tokens.create({ name: 'no sirens', levels: { '*': 'manage' }, entity_denylist: ['siren.*'] })
  const limited = await connectClient(t, server, token.token)
  const wrapper = await confirmed(limited, 'ha_create_helper', { helper_type: 'switch_as_x', name: 'Alarm', options: { entity_id: 'switch.irrigation', target_domain: 'siren' } })
  t.equal(wrapper.code, 'HAMCP_DENIED_ENTITY', wrapper.text)
  t.match(wrapper.text, /siren\.irrigation/)
  t.equal(entriesOf(home.house).entries.size, entries, 'no config entry was made')
  const allowed = await confirmed(client, 'ha_create_helper', { helper_type: 'input_boolean', name: 'Guest mode' })
  t.notOk(allowed.isError, allowed.text)
})

t.test('red team: a switch_as_x over a switch group whose member is a template switch unlocking a denied lock is refused', async t => {
  const home = await startHome(t)
  const maker = await startServer(t, { home, options: OPTIONS })
  const owner = await connectClient(t, maker)
  t.notOk((await confirmed(owner, 'ha_create_helper', { helper_type: 'template', name: 'Door opener', options: { kind: 'switch', turn_on: [{ action: 'lock.unlock', target: { entity_id: 'lock.front_door_lock' } }], turn_off: [] } })).isError)
  await caughtUp(maker)
  t.ok(maker.app.services.home.entity('switch.door_opener') !== undefined, 'template in the catalogue')
  t.notOk((await confirmed(owner, 'ha_create_helper', { helper_type: 'group', name: 'Openers', options: { kind: 'switch', entities: ['switch.door_opener'] } })).isError)
  await caughtUp(maker)
  t.ok(maker.app.services.home.entity('switch.openers') !== undefined, 'group in the catalogue')
  const wrapped = await confirmed(owner, 'ha_create_helper', { helper_type: 'switch_as_x', name: 'Porch', options: { entity_id: 'switch.openers', target_domain: 'light' } })
  t.notOk(wrapped.isError, wrapped.text)
  const light = (wrapped.json.entities as string[])[0] as string
  home.house.updateState('lock.front_door_lock', { state: 'locked' }, home.house.newContext(home.house.userId))

  const denying = await startServer(t, { home, options: { ...OPTIONS, entity_denylist: ['lock.front_door_lock'] } })
  const client = await connectClient(t, denying)
  await denying.app.services.home.ready()
  t.ok(denying.app.services.home.entity(light) !== undefined && denying.app.services.home.entity('switch.openers') !== undefined, 'helpers in the catalogue')
  const calls = home.serviceCalls.length
  const lit = await callTool(client, 'ha_call_service', { domain: 'light', service: 'turn_on', target: { entity_id: light } })
  t.equal(lit.code, 'HAMCP_DENIED_ENTITY', `the wrapper turns on the group, whose template switch unlocks the lock: ${lit.text}`)
  t.same(home.serviceCalls.slice(calls), [], 'nothing reached the house')
  t.equal(home.house.states.get('lock.front_door_lock')?.state, 'locked', 'the lock stayed locked')
})

t.test('red team: a name that only slugs to a denied id (accents, case, punctuation, other scripts) makes no helper', async t => {
  const home = await startHome(t)
  const entries = entriesOf(home.house).entries.size
  const server = await startServer(t, { home, options: { ...OPTIONS, entity_denylist: ['input_boolean.secret_*', 'lock.hidden_*'] } })
  const client = await connectClient(t, server)
  for (const name of ['S\u00e9cret switch', '  SECRET -- switch!! ', 'Secret\u00a0switch', 'secret_switch']) {
    const made = await confirmed(client, 'ha_create_helper', { helper_type: 'input_boolean', name })
    t.ok(made.isError, `${JSON.stringify(name)}: ${made.text}`)
    t.notOk([...home.house.states.keys()].some(id => id.startsWith('input_boolean.secret')), `${JSON.stringify(name)} made no storage helper`)
  }
  const flow = await confirmed(client, 'ha_create_helper', { helper_type: 'group', name: 'H\u00efdden doors', options: { kind: 'lock', entities: ['lock.office_front_door_lock'] } })
  t.ok(flow.isError, flow.text)
  t.equal(entriesOf(home.house).entries.size, entries, 'no config entry was made')
})

t.test('red team: a template button\'s press and homeassistant.turn_on on a wrapper reach the denied lock only to be refused', async t => {
  const home = await startHome(t)
  const maker = await startServer(t, { home, options: OPTIONS })
  const owner = await connectClient(t, maker)
  const button = await confirmed(owner, 'ha_create_helper', { helper_type: 'template', name: 'Door bell', options: { kind: 'button', press: [{ action: 'lock.unlock', target: { entity_id: 'lock.front_door_lock' } }] } })
  t.notOk(button.isError, button.text)
  t.notOk((await confirmed(owner, 'ha_create_helper', { helper_type: 'template', name: 'Door opener', options: { kind: 'switch', turn_on: [{ action: 'lock.unlock', target: { entity_id: 'lock.front_door_lock' } }], turn_off: [] } })).isError)
  home.house.updateState('lock.front_door_lock', { state: 'locked' }, home.house.newContext(home.house.userId))
  const denying = await startServer(t, { home, options: { ...OPTIONS, entity_denylist: ['lock.front_door_lock'] } })
  const client = await connectClient(t, denying)
  await denying.app.services.home.ready()
  t.ok(denying.app.services.home.entity('button.door_bell') !== undefined && denying.app.services.home.entity('switch.door_opener') !== undefined, 'helpers in the catalogue')
  const calls = home.serviceCalls.length
  const pressed = await callTool(client, 'ha_call_service', { domain: 'button', service: 'press', target: { entity_id: 'button.door_bell' } })
  t.equal(pressed.code, 'HAMCP_DENIED_ENTITY', pressed.text)
  const generic = await callTool(client, 'ha_call_service', { domain: 'homeassistant', service: 'turn_on', target: { entity_id: 'switch.door_opener' } })
  t.equal(generic.code, 'HAMCP_DENIED_ENTITY', generic.text)
  t.same(home.serviceCalls.slice(calls), [], 'nothing reached the house')
  t.equal(home.house.states.get('lock.front_door_lock')?.state, 'locked', 'the lock stayed locked')
})

t.test('red team: past MAX_WRAPPERS in one call the rest is refused under entity lists, never silently allowed', async t => {
  const home = await startHome(t)
  const maker = await startServer(t, { home, options: OPTIONS })
  const owner = await connectClient(t, maker)
  const ids: string[] = []
  for (let i = 0; i < 21; i++) {
    const made = await confirmed(owner, 'ha_create_helper', { helper_type: 'template', name: `Relay ${i}`, options: { kind: 'switch', turn_on: i === 20 ? [{ action: 'lock.unlock', target: { entity_id: 'lock.front_door_lock' } }] : [], turn_off: [] } })
    t.notOk(made.isError, made.text)
    ids.push(`switch.relay_${i}`)
  }
  home.house.updateState('lock.front_door_lock', { state: 'locked' }, home.house.newContext(home.house.userId))
  const denying = await startServer(t, { home, options: { ...OPTIONS, entity_denylist: ['lock.front_door_lock'] } })
  const client = await connectClient(t, denying)
  await denying.app.services.home.ready()
  t.ok(ids.every(id => denying.app.services.home.entity(id) !== undefined), 'helpers in the catalogue')
  const calls = home.serviceCalls.length
  const all = await callTool(client, 'ha_call_service', { domain: 'switch', service: 'turn_on', target: { entity_id: ids } })
  t.ok(all.code === 'HAMCP_DENIED_SERVICE' || all.code === 'HAMCP_DENIED_ENTITY', all.text)
  t.same(home.serviceCalls.slice(calls), [], 'nothing reached the house')
  t.equal(home.house.states.get('lock.front_door_lock')?.state, 'locked', 'the lock stayed locked')
})

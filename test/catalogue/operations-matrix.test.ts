import t from 'tap'
import type { Test } from 'tap'
import type { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { TOOLS_DIR } from '../../app/tools-dir.ts'
import { addonsOf } from '../../demo/addons.ts'
import { addEntry, discoveryFlow, entriesOf } from '../../demo/config-entries.ts'
import { energyPrefs } from '../../demo/energy.ts'
import type { DemoHome } from '../../demo/index.ts'
import { issuesOf } from '../../demo/ws/config-commands.ts'
import { levelIn, levelRank, type Level, type Levels } from '../../src/auth/identity.ts'
import { loadToolCatalog } from '../../src/mcp/runtime/registry.ts'
import { DEFAULT_SERVICE_DENYLIST, optionsSchema, type Options, type ToolList } from '../../src/options.ts'
import { callTool, caughtUp, connectClient, eventually, startHome, startServer, type TestServer, type ToolAnswer } from '../helper.ts'
import { accessToken } from '../oauth/_oauth.ts'

/**
 * Issue 32's "Done when", as one table: every operation of the issue, in each tool_list mode, for the
 * primary token, named tokens at each level and OAuth grants, through the SDK client. An allowed
 * operation is asserted by what reached the demo house (its records and state, not the answer's text);
 * a refusal by its stable code and by a house left exactly as it was. In core and search a tool that is
 * not listed is found by ha_search_tools and run through ha_call_tool; in full it is called directly.
 * One demo home for the file and one server per mode and options: every row leaves the house as it
 * found it (a pair of opposite operations, or a target made for the row), so rows never interfere.
 */

const FULL_ACCESS = { '*': 'manage', camera: 'manage' } as const satisfies Levels
const HUE = 'hue'
const SPOTIFY = 'spotify'
const CORE_UPDATE = 'update.home_assistant_core_update'
const VSCODE = 'a0d7b954_vscode'
const VSCODE_UPDATE = 'update.studio_code_server_update'
const REPAIR = { domain: 'zha', issue_id: 'inconsistent_network_settings' }
/** The default service_denylist with the two entries an owner removes to let add-on control and restarts through. */
const OPENED = DEFAULT_SERVICE_DENYLIST.filter(entry => entry !== 'hassio.*' && entry !== 'homeassistant.restart')
const ALL_ON: Partial<Options> = { allow_write: true, allow_config_write: true, allow_addon_control: true, service_denylist: OPENED }
/** Entries the denylisted server adds to the default list: each refuses operations that are Home Assistant services. */
const DENIED = ['homeassistant.reload_config_entry', 'homeassistant.reload_all', '*.reload', 'update.*']

/** The storage helper types, one per row in turn, with the fields each needs to be created. */
const HELPERS: ReadonlyArray<readonly [type: string, options: Record<string, unknown>]> = [
  ['input_boolean', {}],
  ['input_number', { min: 0, max: 10 }],
  ['input_select', { options: ['low', 'high'] }],
  ['input_text', {}],
  ['input_datetime', { has_date: true }],
  ['input_button', {}],
  ['counter', { step: 2 }],
  ['timer', { duration: '0:05:00' }],
  ['schedule', { monday: [{ from: '06:00:00', to: '07:00:00' }] }]
]

/** The 14 config-flow helper types, two per row in turn: what creates one and an option to change. */
const FLOW_HELPERS: ReadonlyArray<{ type: string, options: Record<string, unknown>, change: Record<string, unknown> }> = [
  { type: 'threshold', options: { entity_id: 'sensor.outside_temperature', lower: 2, hysteresis: 0.5 }, change: { lower: 0 } },
  { type: 'utility_meter', options: { source: 'sensor.grid_consumption', cycle: 'monthly' }, change: { source: 'sensor.solar_production' } },
  { type: 'template', options: { kind: 'sensor', state: '{{ 21 }}', unit_of_measurement: '°C' }, change: { unit_of_measurement: 'K' } },
  { type: 'group', options: { kind: 'light', entities: ['light.kuche_ceiling_light', 'light.kuche_ceiling_light_2'] }, change: { entities: ['light.kuche_ceiling_light'] } },
  { type: 'min_max', options: { entity_ids: ['sensor.kuche_smart_plug_power', 'sensor.living_room_smart_plug_power'], type: 'max' }, change: { type: 'sum' } },
  { type: 'derivative', options: { source: 'sensor.outside_temperature', time_window: { minutes: 5 }, unit_time: 'min' }, change: { round: 1 } },
  { type: 'integration', options: { source: 'sensor.kuche_smart_plug_power', unit_prefix: 'k' }, change: { method: 'left' } },
  { type: 'statistics', options: { entity_id: 'sensor.outside_temperature', state_characteristic: 'mean', max_age: { hours: 24 } }, change: { sampling_size: 20 } },
  { type: 'trend', options: { entity_id: 'sensor.outside_temperature', invert: true }, change: { max_samples: 3 } },
  { type: 'random', options: { kind: 'sensor', minimum: 1, maximum: 6 }, change: { maximum: 8 } },
  { type: 'filter', options: { entity_id: 'sensor.outside_temperature', filter: 'time_throttle', window_size: { minutes: 1 }, precision: 1 }, change: { precision: 2 } },
  { type: 'tod', options: { after_time: '22:00:00', before_time: '06:00:00' }, change: { after_time: '23:00:00' } },
  { type: 'switch_as_x', options: { entity_id: 'switch.irrigation', target_domain: 'light' }, change: { invert: true } },
  { type: 'history_stats', options: { entity_id: 'switch.irrigation', state: ['on'], type: 'time', start: '{{ today_at() }}', end: '{{ now() }}' }, change: { state: ['off'] } }
]
let flowHelperRuns = 0

interface Row {
  /** What the caller reaches it with. */
  readonly call: (tool: string, args: Record<string, unknown>) => Promise<ToolAnswer>
  /** Asks, checks that asking reached nothing, then answers with the token the tool returned. */
  readonly confirmed: (tool: string, args: Record<string, unknown>) => Promise<ToolAnswer>
  readonly t: Test
  readonly home: DemoHome
  readonly server: TestServer
  /** Unique per mode and caller: names the helpers, entries and flows a row makes. */
  readonly tag: string
  /** The row's index over the whole file, to cycle through the helper types. */
  readonly index: number
  readonly mode: ToolList
  readonly who: string
}

/**
 * Who confirms a restart in each mode: a restart costs the second home-assistant-js-websocket waits
 * before it reconnects, so one caller a mode restarts the house (each kind of caller once, each path
 * once) and the others are asked, which reaches nothing.
 */
const RESTARTED_BY: Readonly<Record<ToolList, string>> = { core: 'primary token', full: 'named token at manage', search: 'OAuth grant at manage' }

interface Operation {
  tool: string
  action: string
  /**
   * The levels a caller needs, per category (issue 32: the operation's category, its tool's kind): the
   * tool's own first; a Home Assistant service that does a tool's work needs that tool's too (item 8).
   */
  needs: ReadonlyArray<readonly [category: string, level: Level]>
  /** The option that must be on (besides the kind's own, allow_write or allow_config_write). */
  option?: 'allow_addon_control'
  /** A call that would change the house: what a refused caller tries. */
  attempt: (home: DemoHome) => Record<string, unknown>
  /** The service_denylist entry of the denylisted server that refuses it, when it is a service. */
  deniedBy?: string
  /** False when even an allowed caller's call writes nothing, so the audit has no line for it. */
  audited?: false
  /** Runs it as an allowed caller and asserts what reached the house; leaves the house as it was. */
  run: (row: Row) => Promise<void>
}

const entry = (home: DemoHome, domain: string): { entry_id: string, disabled_by: string | null, options: Record<string, unknown> } =>
  [...entriesOf(home.house).entries.values()].find(e => e.domain === domain && e.source !== 'ignore') as never

const entryId = (domain: string) => (home: DemoHome): string => entry(home, domain).entry_id

/** A discovered device waiting in a flow (a zeroconf find that needs only a yes), made for one row. */
function discovered (home: DemoHome, tag: string): string {
  return discoveryFlow(entriesOf(home.house).flows, 'shelly', 'confirm_discovery', [], { source: 'zeroconf', unique_id: `shelly-${tag}`, title_placeholders: { name: `shelly-${tag}` } }, `Shelly ${tag}`)
}

/** Everything an operation of the table can change, to prove that a refusal changed none of it. */
function houseFingerprint (home: DemoHome): string {
  const store = entriesOf(home.house)
  return JSON.stringify({
    serviceCalls: home.serviceCalls.length,
    configWrites: home.configWrites.length,
    registryWrites: home.registryWrites.length,
    states: [...home.house.states.values()].map(s => [s.entity_id, s.state, s.attributes]),
    entries: [...store.entries.values()].map(e => [e.entry_id, e.disabled_by, e.state, e.options]),
    flows: [...store.flows.keys()],
    energy: energyPrefs(home.house),
    addons: [...addonsOf(home.house).values()],
    issues: issuesOf(home.house)
  })
}

/** Catches the server up with the house (test/helper.ts caughtUp) and fails unless its own view of an entity passes `check`. */
async function seen (server: TestServer, entityId: string, check: (attributes: Record<string, unknown> | undefined) => boolean): Promise<void> {
  await caughtUp(server)
  if (!check(server.app.services.home.state(entityId)?.attributes)) throw new Error(`the server does not see ${entityId} as the house holds it`)
}

const OPERATIONS: Operation[] = [
  {
    tool: 'ha_list_integrations',
    action: 'list',
    needs: [['integrations', 'read']],
    attempt: () => ({ domain: HUE }),
    async run ({ t, call, home }) {
      const answer = await call('ha_list_integrations', { domain: HUE })
      t.same(answer.json?.items?.map((item: { entry_id: string }) => item.entry_id), [entry(home, HUE).entry_id], answer.text)
    }
  },
  {
    tool: 'ha_manage_integration',
    action: 'reload',
    needs: [['integrations', 'manage']],
    attempt: home => ({ action: 'reload', entry_id: entryId(HUE)(home) }),
    deniedBy: 'homeassistant.reload_config_entry',
    async run ({ t, call, home }) {
      const id = entryId(HUE)(home)
      const [calls, writes] = [home.serviceCalls.length, home.configWrites.length]
      const answer = await call('ha_manage_integration', { action: 'reload', entry_id: id })
      t.notOk(answer.isError, answer.text)
      t.match(home.serviceCalls.slice(calls), [{ domain: 'homeassistant', service: 'reload_config_entry', service_data: { entry_id: id } }])
      t.same(home.configWrites.slice(writes), [`config_entries reload ${id}`])
    }
  },
  {
    tool: 'ha_manage_integration',
    action: 'enable',
    needs: [['integrations', 'manage']],
    attempt: home => ({ action: 'enable', entry_id: entryId(SPOTIFY)(home) }),
    async run ({ t, call, home }) {
      t.equal(entry(home, SPOTIFY).disabled_by, 'user')
      const answer = await call('ha_manage_integration', { action: 'enable', entry_id: entryId(SPOTIFY)(home) })
      t.notOk(answer.isError, answer.text)
      t.equal(entry(home, SPOTIFY).disabled_by, null, 'enabled in the house')
    }
  },
  {
    tool: 'ha_manage_integration',
    action: 'disable',
    needs: [['integrations', 'manage']],
    attempt: home => ({ action: 'disable', entry_id: entryId(HUE)(home) }),
    async run ({ t, confirmed, home }) {
      const answer = await confirmed('ha_manage_integration', { action: 'disable', entry_id: entryId(SPOTIFY)(home) })
      t.notOk(answer.isError, answer.text)
      t.equal(entry(home, SPOTIFY).disabled_by, 'user', 'disabled in the house, as the enable row found it')
    }
  },
  {
    tool: 'ha_manage_integration',
    action: 'options',
    needs: [['integrations', 'manage']],
    attempt: home => ({ action: 'options', entry_id: entryId(HUE)(home), options: { allow_hue_groups: true } }),
    async run ({ t, call, home }) {
      for (const value of [true, false]) {
        const answer = await call('ha_manage_integration', { action: 'options', entry_id: entryId(HUE)(home), options: { allow_hue_groups: value } })
        t.notOk(answer.isError, answer.text)
        t.equal(entry(home, HUE).options.allow_hue_groups, value, `the option is ${String(value)} in the house`)
      }
    }
  },
  {
    tool: 'ha_manage_integration',
    action: 'accept_discovery',
    needs: [['integrations', 'manage']],
    attempt: home => ({ action: 'accept_discovery', flow_id: [...entriesOf(home.house).flows.keys()][0] }),
    async run ({ t, call, home, tag }) {
      const flowId = discovered(home, tag)
      const answer = await call('ha_manage_integration', { action: 'accept_discovery', flow_id: flowId })
      t.notOk(answer.isError, answer.text)
      t.notOk(entriesOf(home.house).flows.has(flowId), 'the discovery is done')
      t.ok([...entriesOf(home.house).entries.values()].some(e => e.title === `Shelly ${tag}` && e.source === 'zeroconf'), 'the device was added')
    }
  },
  {
    tool: 'ha_manage_integration',
    action: 'ignore_discovery',
    needs: [['integrations', 'manage']],
    attempt: home => ({ action: 'ignore_discovery', flow_id: [...entriesOf(home.house).flows.keys()][0] }),
    async run ({ t, call, home, tag }) {
      const flowId = discovered(home, tag)
      const answer = await call('ha_manage_integration', { action: 'ignore_discovery', flow_id: flowId })
      t.notOk(answer.isError, answer.text)
      t.notOk(entriesOf(home.house).flows.has(flowId), 'the discovery is gone')
      t.ok([...entriesOf(home.house).entries.values()].some(e => e.unique_id === `shelly-${tag}` && e.source === 'ignore'), 'remembered as ignored')
    }
  },
  {
    tool: 'ha_manage_integration',
    action: 'delete',
    needs: [['integrations', 'manage']],
    attempt: home => ({ action: 'delete', entry_id: entryId('nut')(home) }),
    async run ({ t, confirmed, home, tag }) {
      const made = addEntry(home.house, { domain: 'nut', title: `UPS ${tag}`, source: 'user', unique_id: `ups-${tag}` })
      const answer = await confirmed('ha_manage_integration', { action: 'delete', entry_id: made.entry_id })
      t.notOk(answer.isError, answer.text)
      t.notOk(entriesOf(home.house).entries.has(made.entry_id), 'the entry is gone from the house')
    }
  },
  {
    tool: 'ha_restart',
    action: 'restart',
    needs: [['system', 'manage']],
    attempt: () => ({ action: 'restart' }),
    deniedBy: 'homeassistant.restart',
    async run ({ t, call, confirmed, home, server, mode, who }) {
      if (RESTARTED_BY[mode] !== who) {
        const before = houseFingerprint(home)
        const asked = await call('ha_restart', { action: 'restart' })
        t.equal(asked.json?.confirmation_required, true, asked.text)
        t.equal(houseFingerprint(home), before, 'asking restarts nothing')
        return
      }
      const calls = home.serviceCalls.length
      const answer = await confirmed('ha_restart', { action: 'restart' })
      t.notOk(answer.isError, answer.text)
      t.match(home.serviceCalls.slice(calls), [{ domain: 'homeassistant', service: 'restart' }], 'the house restarted')
      // The demo drops every connection as Core does when it stops; the next row waits for the server to be back.
      await server.app.services.ha.whenReady(10_000)
    }
  },
  {
    tool: 'ha_restart',
    action: 'reload_all',
    needs: [['system', 'manage']],
    attempt: () => ({ action: 'reload_all' }),
    deniedBy: 'homeassistant.reload_all',
    async run ({ t, call, home }) {
      const calls = home.serviceCalls.length
      const answer = await call('ha_restart', { action: 'reload_all' })
      t.notOk(answer.isError, answer.text)
      t.match(home.serviceCalls.slice(calls)[0], { domain: 'homeassistant', service: 'reload_all' }, 'reloaded in the house')
    }
  },
  {
    tool: 'ha_restart',
    action: 'reload a domain',
    needs: [['system', 'manage']],
    attempt: () => ({ action: 'reload', domain: 'automation' }),
    deniedBy: '*.reload',
    async run ({ t, call, home }) {
      const calls = home.serviceCalls.length
      const answer = await call('ha_restart', { action: 'reload', domain: 'automation' })
      t.notOk(answer.isError, answer.text)
      t.match(home.serviceCalls.slice(calls), [{ domain: 'automation', service: 'reload' }], 'reloaded in the house')
    }
  },
  {
    // A config entry's reload is ha_manage_integration's too: integrations at manage besides system.
    tool: 'ha_restart',
    action: 'reload a config entry',
    needs: [['system', 'manage'], ['integrations', 'manage']],
    attempt: home => ({ action: 'reload', entry_id: entryId(HUE)(home) }),
    deniedBy: 'homeassistant.reload_config_entry',
    async run ({ t, call, home }) {
      const id = entryId(HUE)(home)
      const writes = home.configWrites.length
      const answer = await call('ha_restart', { action: 'reload', entry_id: id })
      t.notOk(answer.isError, answer.text)
      t.same(home.configWrites.slice(writes), [`config_entries reload ${id}`], 'reloaded in the house')
    }
  },
  {
    tool: 'ha_list_updates',
    action: 'list',
    needs: [['system', 'read']],
    attempt: () => ({}),
    async run ({ t, call, home }) {
      const answer = await call('ha_list_updates', {})
      const core = answer.json?.items?.find((item: { entity_id: string }) => item.entity_id === CORE_UPDATE)
      t.match(core, { installed: home.getState(CORE_UPDATE)?.attributes.installed_version, latest: home.getState(CORE_UPDATE)?.attributes.latest_version }, answer.text)
    }
  },
  {
    tool: 'ha_manage_update',
    action: 'skip',
    needs: [['system', 'manage']],
    attempt: () => ({ action: 'skip', entity_id: CORE_UPDATE }),
    deniedBy: 'update.*',
    async run ({ t, call, home, server }) {
      const answer = await call('ha_manage_update', { action: 'skip', entity_id: CORE_UPDATE })
      t.notOk(answer.isError, answer.text)
      t.match(home.getState(CORE_UPDATE), { state: 'off', attributes: { skipped_version: home.getState(CORE_UPDATE)?.attributes.latest_version } }, 'skipped in the house')
      await seen(server, CORE_UPDATE, attributes => attributes?.skipped_version !== null)
    }
  },
  {
    tool: 'ha_manage_update',
    action: 'clear_skipped',
    needs: [['system', 'manage']],
    attempt: () => ({ action: 'clear_skipped', entity_id: CORE_UPDATE }),
    deniedBy: 'update.*',
    async run ({ t, call, home, server }) {
      const answer = await call('ha_manage_update', { action: 'clear_skipped', entity_id: CORE_UPDATE })
      t.notOk(answer.isError, answer.text)
      t.match(home.getState(CORE_UPDATE), { state: 'on', attributes: { skipped_version: null } }, 'offered again in the house')
      await seen(server, CORE_UPDATE, attributes => attributes?.skipped_version === null)
    }
  },
  {
    tool: 'ha_manage_update',
    action: 'install',
    needs: [['system', 'manage']],
    attempt: () => ({ action: 'install', entity_id: CORE_UPDATE }),
    deniedBy: 'update.*',
    async run ({ t, confirmed, home, server }) {
      const before = home.getState(CORE_UPDATE)?.attributes as Record<string, unknown>
      const calls = home.serviceCalls.length
      const answer = await confirmed('ha_manage_update', { action: 'install', entity_id: CORE_UPDATE })
      t.notOk(answer.isError, answer.text)
      t.match(home.serviceCalls.slice(calls), [{ domain: 'update', service: 'install', target: { entity_id: CORE_UPDATE } }])
      t.equal(home.getState(CORE_UPDATE)?.attributes.installed_version, before.latest_version, 'installed in the house')
      // Back to the version before, for the next row.
      home.setState(CORE_UPDATE, 'on', before)
      await seen(server, CORE_UPDATE, attributes => attributes?.installed_version === before.installed_version)
    }
  },
  {
    tool: 'ha_manage_repair',
    action: 'ignore, unignore',
    needs: [['system', 'manage']],
    attempt: () => ({ action: 'ignore', ...REPAIR }),
    async run ({ t, call, home }) {
      const issue = (): { ignored: boolean } | undefined => issuesOf(home.house).find(i => i.domain === REPAIR.domain && i.issue_id === REPAIR.issue_id)
      for (const [action, ignored] of [['ignore', true], ['unignore', false]] as const) {
        const answer = await call('ha_manage_repair', { action, ...REPAIR })
        t.notOk(answer.isError, answer.text)
        t.equal(issue()?.ignored, ignored, `${action}: the issue registry has it`)
      }
    }
  },
  {
    tool: 'ha_create_helper',
    action: 'create, update, delete',
    needs: [['services', 'write']],
    attempt: () => ({ helper_type: 'input_boolean', name: 'Refused helper' }),
    async run ({ t, call, home, server, tag, index }) {
      const [type, options] = HELPERS[index % HELPERS.length] as typeof HELPERS[number]
      const entityId = `${type}.matrix_${tag.replaceAll('-', '_')}`
      const created = await call('ha_create_helper', { helper_type: type, name: `Matrix ${tag}`, options })
      t.notOk(created.isError, created.text)
      t.ok(home.getState(entityId), `${entityId} exists in the house`)
      await caughtUp(server)
      t.ok(server.app.services.home.entity(entityId) !== undefined, `${entityId} in the server's catalogue`)
      const updated = await call('ha_update_helper', { entity_id: entityId, options: { icon: 'mdi:star' } })
      t.notOk(updated.isError, updated.text)
      t.equal(home.getState(entityId)?.attributes.icon, 'mdi:star', 'changed in the house')
      const deleted = await call('ha_delete_helper', { entity_id: entityId })
      t.notOk(deleted.isError, deleted.text)
      t.notOk(home.getState(entityId), 'gone from the house')
    }
  },
  {
    // A config-flow helper is a config entry: integrations at manage and allow_config_write besides the tools' own.
    tool: 'ha_create_helper',
    action: 'config-flow helpers: create, update, delete',
    needs: [['services', 'write'], ['integrations', 'manage']],
    attempt: () => ({ helper_type: 'threshold', name: 'Refused frost', options: { entity_id: 'sensor.outside_temperature', lower: 2 } }),
    async run ({ t, confirmed, home, server, tag }) {
      for (const part of ['a', 'b']) {
        const helper = FLOW_HELPERS[flowHelperRuns++ % FLOW_HELPERS.length] as typeof FLOW_HELPERS[number]
        const name = `Matrix flow ${tag}${part}`
        const created = await confirmed('ha_create_helper', { helper_type: helper.type, name, options: helper.options })
        t.notOk(created.isError, `${helper.type}: ${created.text}`)
        if (created.isError) continue
        const entryId = String(created.json?.entry_id)
        const entry = (): { domain: string, options: Record<string, unknown> } | undefined => entriesOf(home.house).entries.get(entryId)
        const entityId = String(created.json?.entities?.[0])
        t.equal(entry()?.domain, helper.type, `a ${helper.type} entry in the house`)
        t.ok(home.getState(entityId), `${entityId} in the house`)
        await caughtUp(server)
        t.ok(server.app.services.home.entity(entityId) !== undefined, `${entityId} in the server's catalogue`)
        const updated = await confirmed('ha_update_helper', { entity_id: entityId, options: helper.change })
        t.notOk(updated.isError, `${helper.type}: ${updated.text}`)
        t.match(entry()?.options, helper.change, `${helper.type}: the entry holds the new option`)
        const deleted = await confirmed('ha_delete_helper', { entity_id: entityId })
        t.notOk(deleted.isError, `${helper.type}: ${deleted.text}`)
        t.notOk(entry(), 'the entry is gone')
        t.notOk(home.getState(entityId), 'and its entity')
      }
    }
  },
  {
    tool: 'ha_update_helper',
    action: 'a helper the owner made in Home Assistant',
    needs: [['services', 'write']],
    attempt: () => ({ entity_id: 'counter.coffee_cups', options: { step: 5 } }),
    async run ({ t, call, home }) {
      for (const step of [2, 1]) {
        const answer = await call('ha_update_helper', { entity_id: 'counter.coffee_cups', options: { step } })
        t.notOk(answer.isError, answer.text)
        t.equal(home.getState('counter.coffee_cups')?.attributes.step, step, `step ${step} in the house`)
      }
    }
  },
  {
    tool: 'ha_manage_addon',
    action: 'start, stop, restart',
    needs: [['system', 'manage']],
    option: 'allow_addon_control',
    attempt: () => ({ action: 'start', slug: 'core_samba' }),
    deniedBy: 'hassio.*',
    async run ({ t, call, confirmed, home }) {
      const addon = (slug: string): string | undefined => addonsOf(home.house).get(slug)?.state
      const calls = home.serviceCalls.length
      t.equal(addon('core_samba'), 'stopped')
      const started = await call('ha_manage_addon', { action: 'start', slug: 'core_samba' })
      t.notOk(started.isError, started.text)
      t.equal(addon('core_samba'), 'started', 'started in the house')
      const stopped = await confirmed('ha_manage_addon', { action: 'stop', slug: 'core_samba' })
      t.notOk(stopped.isError, stopped.text)
      t.equal(addon('core_samba'), 'stopped', 'stopped again, as the row found it')
      const restarted = await call('ha_manage_addon', { action: 'restart', slug: 'core_mosquitto' })
      t.notOk(restarted.isError, restarted.text)
      t.match(home.serviceCalls.slice(calls), [
        { domain: 'hassio', service: 'addon_start', service_data: { addon: 'core_samba' } },
        { domain: 'hassio', service: 'addon_stop', service_data: { addon: 'core_samba' } },
        { domain: 'hassio', service: 'addon_restart', service_data: { addon: 'core_mosquitto' } }
      ])
    }
  },
  {
    tool: 'ha_manage_addon',
    action: 'update',
    needs: [['system', 'manage']],
    option: 'allow_addon_control',
    attempt: () => ({ action: 'update', slug: VSCODE }),
    deniedBy: 'update.*',
    async run ({ t, confirmed, home, server }) {
      const addon = addonsOf(home.house).get(VSCODE)
      const before = { version: addon?.version, attributes: home.getState(VSCODE_UPDATE)?.attributes as Record<string, unknown> }
      // The demo's add-on update reports progress: the call returns once the install ends (demo/services/updates.ts).
      const finishing = eventually(() => home.finishUpdate(VSCODE_UPDATE), 5000, 'the add-on update to start')
      const answer = await confirmed('ha_manage_addon', { action: 'update', slug: VSCODE })
      await finishing
      t.notOk(answer.isError, answer.text)
      t.equal(addon?.version, addon?.version_latest, 'the Supervisor has the new version')
      // Back to the old version, for the next row.
      Object.assign(addon ?? {}, { version: before.version, update_available: true })
      home.setState(VSCODE_UPDATE, 'on', before.attributes)
      await seen(server, VSCODE_UPDATE, attributes => attributes?.installed_version === before.attributes.installed_version)
    }
  },
  {
    tool: 'ha_manage_addon',
    action: 'options (never: on its page)',
    needs: [['system', 'manage']],
    option: 'allow_addon_control',
    attempt: () => ({ action: 'options', slug: 'core_mosquitto', options: { logins: [] } }),
    // Refused before any write is tried, as an argument Home Assistant has no service for: no audit line.
    audited: false,
    async run ({ t, call, home }) {
      const before = houseFingerprint(home)
      const answer = await call('ha_manage_addon', { action: 'options', slug: 'core_mosquitto', options: { logins: [] } })
      t.equal(answer.code, 'HAMCP_NOT_PERMITTED', answer.text)
      t.equal(houseFingerprint(home), before, 'refused: nothing reached the house')
    }
  },
  {
    tool: 'ha_manage_config',
    action: 'energy read, update',
    needs: [['environment', 'manage']],
    attempt: home => ({ kind: 'energy', action: 'update', config: { device_consumption: [{ stat_consumption: energySensor(home), name: 'Refused' }] } }),
    async run ({ t, call, confirmed, home, tag }) {
      const read = await call('ha_manage_config', { kind: 'energy', action: 'read' })
      t.same(read.json?.energy_sources, energyPrefs(home.house).energy_sources, read.text)
      const before = energyPrefs(home.house).device_consumption
      const kettle = [{ stat_consumption: energySensor(home), name: `Kettle ${tag}` }]
      const changed = await confirmed('ha_manage_config', { kind: 'energy', action: 'update', config: { device_consumption: kettle } })
      t.notOk(changed.isError, changed.text)
      t.same(energyPrefs(home.house).device_consumption, kettle, 'saved in the house')
      const restored = await confirmed('ha_manage_config', { kind: 'energy', action: 'update', config: { device_consumption: before } })
      t.notOk(restored.isError, restored.text)
      t.same(energyPrefs(home.house).device_consumption, before)
    }
  }
]

// Home Assistant services that do an operation's work, through ha_call_service (issue 32 item 8).
const SERVICE_DOORS: Operation[] = [
  {
    tool: 'ha_call_service',
    action: 'homeassistant.reload_config_entry',
    needs: [['services', 'write'], ['integrations', 'manage']],
    attempt: home => ({ domain: 'homeassistant', service: 'reload_config_entry', data: { entry_id: entryId(HUE)(home) } }),
    deniedBy: 'homeassistant.reload_config_entry',
    async run ({ t, call, home }) {
      const id = entryId(HUE)(home)
      const writes = home.configWrites.length
      const answer = await call('ha_call_service', { domain: 'homeassistant', service: 'reload_config_entry', data: { entry_id: id } })
      t.notOk(answer.isError, answer.text)
      t.same(home.configWrites.slice(writes), [`config_entries reload ${id}`], 'reloaded in the house')
    }
  },
  {
    tool: 'ha_call_service',
    action: 'update.skip, update.clear_skipped',
    needs: [['services', 'write'], ['system', 'manage']],
    attempt: () => ({ domain: 'update', service: 'skip', target: { entity_id: CORE_UPDATE } }),
    deniedBy: 'update.*',
    async run ({ t, call, home, server }) {
      for (const [service, skipped] of [['skip', true], ['clear_skipped', false]] as const) {
        const answer = await call('ha_call_service', { domain: 'update', service, target: { entity_id: CORE_UPDATE } })
        t.notOk(answer.isError, answer.text)
        t.equal(home.getState(CORE_UPDATE)?.attributes.skipped_version !== null, skipped, `${service} reached the house`)
        await seen(server, CORE_UPDATE, attributes => (attributes?.skipped_version !== null) === skipped)
      }
    }
  },
  {
    tool: 'ha_call_service',
    action: 'hassio.addon_restart',
    needs: [['services', 'write'], ['system', 'manage']],
    option: 'allow_addon_control',
    attempt: () => ({ domain: 'hassio', service: 'addon_restart', data: { addon: 'core_mosquitto' } }),
    deniedBy: 'hassio.*',
    async run ({ t, call, home }) {
      const calls = home.serviceCalls.length
      const answer = await call('ha_call_service', { domain: 'hassio', service: 'addon_restart', data: { addon: 'core_mosquitto' } })
      t.notOk(answer.isError, answer.text)
      t.match(home.serviceCalls.slice(calls), [{ domain: 'hassio', service: 'addon_restart', service_data: { addon: 'core_mosquitto' } }])
    }
  },
  {
    tool: 'ha_call_service',
    action: 'automation.reload',
    needs: [['services', 'write'], ['system', 'manage']],
    attempt: () => ({ domain: 'automation', service: 'reload' }),
    deniedBy: '*.reload',
    async run ({ t, call, home }) {
      const calls = home.serviceCalls.length
      const answer = await call('ha_call_service', { domain: 'automation', service: 'reload' })
      t.notOk(answer.isError, answer.text)
      t.match(home.serviceCalls.slice(calls), [{ domain: 'automation', service: 'reload' }], 'reloaded in the house')
    }
  },
  {
    // Removing hassio.* from service_denylist for add-on control must not hand the host to a write-level token.
    tool: 'ha_call_service',
    action: 'hassio.host_reboot',
    needs: [['services', 'write'], ['system', 'manage']],
    attempt: () => ({ domain: 'hassio', service: 'host_reboot' }),
    deniedBy: 'hassio.*',
    async run ({ t, confirmed, home }) {
      const calls = home.serviceCalls.length
      // A reboot asks first, through ha_call_service too (SERVICE_CATEGORIES asks).
      const answer = await confirmed('ha_call_service', { domain: 'hassio', service: 'host_reboot' })
      t.notOk(answer.isError, answer.text)
      t.match(home.serviceCalls.slice(calls), [{ domain: 'hassio', service: 'host_reboot' }])
    }
  }
]

const EVERY_ROW = [...OPERATIONS, ...SERVICE_DOORS]

const energySensor = (home: DemoHome): string => home.entityIds().find(id => id.endsWith('_smart_plug_energy')) as string

/** An owner request per tool, in the panel's languages, that ha_search_tools answers with it. */
const REQUESTS: Readonly<Record<string, string>> = {
  ha_list_integrations: 'which integrations are failing',
  ha_manage_integration: 'turn off the Hue bridge integration',
  ha_list_updates: 'mises à jour disponibles',
  ha_manage_update: 'Update installieren',
  ha_manage_repair: 'ignore the repair about the old integration',
  ha_restart: 'Home Assistant neu starten',
  ha_create_helper: 'crear un contador',
  ha_update_helper: 'change the maximum of the input number',
  ha_delete_helper: 'delete the old counter helper',
  ha_manage_addon: 'restart the mosquitto add-on',
  ha_manage_config: 'configure the energy dashboard solar panels'
}

/** `auditName`: the name the audit gives this caller. */
interface Caller { who: string, auditName: string, levels: Levels, client: Client }

/** The tools these options let these levels call (tool_list aside): what a search may show, what a call may reach. */
type Callable = (options: Partial<Options>, levels: Levels) => Set<string>

async function callers (t: Test, server: TestServer): Promise<Caller[]> {
  const named: Array<[string, Levels]> = [
    ['named token at read', { '*': 'read' }],
    ['named token at write', { '*': 'write' }],
    ['named token at manage', { '*': 'manage' }],
    // integrations at manage, system at read (lists, no more), helpers at write, energy's category at read
    // while scenes at manage keep ha_manage_config callable: its energy kind is refused by level.
    ['named token, a level per category', { '*': 'none', integrations: 'manage', system: 'read', services: 'write', scenes: 'manage', environment: 'read' }],
    // system alone: updates, repairs and add-ons, and ha_manage_config for backups only (its energy kind refused).
    ['named token, system at manage only', { '*': 'none', system: 'manage' }],
    // everything but integrations: a config-flow helper is an integration's entry, refused by level.
    ['named token at manage, integrations at write', { '*': 'manage', integrations: 'write' }]
  ]
  const out: Caller[] = [{ who: 'primary token', auditName: 'primary token', levels: FULL_ACCESS, client: await connectClient(t, server) }]
  for (const [who, levels] of named) {
    const { token } = await server.app.services.tokens.create({ name: who, levels })
    out.push({ who, auditName: who, levels, client: await connectClient(t, server, token) })
  }
  for (const level of ['manage', 'read'] as const) {
    out.push({ who: `OAuth grant at ${level}`, auditName: `Grant at ${level}`, levels: { '*': level }, client: await connectClient(t, server, await accessToken(server.url, server.token, level)) })
  }
  return out
}

/** How a client that only lists reaches a tool: directly when listed, else through ha_call_tool. */
async function reach (client: Client, listed: Set<string>, tool: string, args: Record<string, unknown>): Promise<ToolAnswer> {
  const direct = listed.has(tool) || !listed.has('ha_call_tool')
  try {
    return direct ? await callTool(client, tool, args) : await callTool(client, 'ha_call_tool', { name: tool, arguments: args })
  } catch (err) {
    // A tool this caller may not call is no tool: the SDK rejects with JSON-RPC's invalid params and our code.
    const { code, data } = err as { code?: number, data?: { code?: string } }
    return { isError: true, text: String(err), json: undefined, code: code === -32602 ? data?.code : `rejected ${String(code)}` }
  }
}

const holds = (levels: Levels, [category, level]: readonly [string, Level]): boolean => levelRank(levelIn(levels, category)) >= levelRank(level)
const allowedFor = (operation: Operation, levels: Levels): boolean => operation.needs.every(need => holds(levels, need))

async function searchFinds (t: Test, client: Client, callable: Set<string>, shouldFind: (tool: string) => boolean): Promise<void> {
  for (const [tool, query] of Object.entries(REQUESTS)) {
    const found = ((await callTool(client, 'ha_search_tools', { query, limit: 10 })).json?.tools ?? []).map((entry: { name: string }) => entry.name) as string[]
    t.same(found.filter(name => !callable.has(name)), [], `"${query}" shows no tool this caller may not call`)
    if (shouldFind(tool)) t.ok(found.includes(tool), `"${query}" finds ${tool}`)
    else t.notOk(found.includes(tool), `"${query}" does not show ${tool}`)
  }
}

async function refused (t: Test, home: DemoHome, call: (tool: string, args: Record<string, unknown>) => Promise<ToolAnswer>, operation: Operation, code: string, why: string): Promise<ToolAnswer> {
  const before = houseFingerprint(home)
  const answer = await call(operation.tool, operation.attempt(home))
  t.equal(answer.code, code, `${operation.tool} ${operation.action}: ${why} (${answer.text.slice(0, 200)})`)
  t.equal(houseFingerprint(home), before, `${operation.tool} ${operation.action}: nothing reached the house`)
  return answer
}

t.test('every issue-32 operation, in every mode, for every kind of caller', async t => {
  const home = await startHome(t)
  const catalog = await loadToolCatalog(TOOLS_DIR)
  const callable: Callable = (options, levels) =>
    new Set(catalog.listFor(optionsSchema.parse({ ...options, tool_list: 'full' }), { id: 'matrix', name: 'matrix', levels }).tools.map(tool => tool.name))
  const addonMode = { SUPERVISOR_TOKEN: home.supervisorToken, SUPERVISOR_URL: home.supervisorUrl }
  let rows = 0

  for (const mode of ['core', 'full', 'search'] as const satisfies readonly ToolList[]) {
    await t.test(`tool_list ${mode}`, async t => {
      const options: Partial<Options> = { ...ALL_ON, tool_list: mode }
      const server = await startServer(t, { home, options, env: addonMode })
      for (const [index, caller] of (await callers(t, server)).entries()) {
        await t.test(caller.who, async t => {
          const listed = new Set((await caller.client.listTools()).tools.map(tool => tool.name))
          const may = callable(options, caller.levels)
          t.same([...listed].filter(name => !may.has(name) && name !== 'ha_search_tools' && name !== 'ha_call_tool'), [], 'lists only tools it may call')
          const call = async (tool: string, args: Record<string, unknown>): Promise<ToolAnswer> => await reach(caller.client, listed, tool, args)
          const row: Row = {
            t,
            home,
            server,
            tag: `${mode}-${index}`,
            index: rows++,
            mode,
            who: caller.who,
            call,
            async confirmed (tool, args) {
              const before = houseFingerprint(home)
              const asked = await call(tool, args)
              t.equal(asked.json?.confirmation_required, true, `${tool} asks first: ${asked.text.slice(0, 200)}`)
              t.equal(houseFingerprint(home), before, 'asking reached nothing')
              return await call(tool, { ...args, confirm_token: asked.json?.confirm_token })
            }
          }
          if (mode === 'search') t.ok([...listed].filter(name => name !== 'ha_search_tools' && name !== 'ha_call_tool').length <= 3, 'search lists three tools at most beside the meta tools')
          if (mode === 'full') t.notOk(listed.has('ha_call_tool'), 'full lists every tool it may call, so no meta tools')
          else await searchFinds(t, caller.client, may, tool => may.has(tool))
          for (const operation of EVERY_ROW) {
            const allowed = allowedFor(operation, caller.levels)
            // ha_manage_config is callable while any of its kinds is; its energy kind is checked by its call.
            if (operation.tool !== 'ha_manage_config') t.equal(may.has(operation.tool), holds(caller.levels, operation.needs[0] as readonly [string, Level]), `${operation.tool}: callable exactly when the level allows`)
            if (mode === 'full' && allowed) t.ok(listed.has(operation.tool), `full lists ${operation.tool}`)
            if (allowed) {
              await t.test(`${operation.tool} ${operation.action}`, async t => {
                if (caller.who === 'primary token' && operation.needs[0]?.[1] !== 'read' && operation.audited !== false) {
                  // The same path for every caller: the dry run is held once per mode.
                  const before = houseFingerprint(home)
                  const dry = await call(operation.tool, { ...operation.attempt(home), dry_run: true })
                  t.match(dry, { isError: false, json: { dry_run: true } }, `a dry run: ${dry.text.slice(0, 200)}`)
                  t.equal(houseFingerprint(home), before, 'a dry run reaches nothing')
                }
                const audit = server.app.services.policy.audit
                const mark = audit.recent(1)[0]
                await operation.run({ ...row, t })
                const lines = audit.recent(200)
                const fresh = mark === undefined ? lines : lines.slice(0, lines.indexOf(mark))
                if (operation.needs[0]?.[1] === 'read' || operation.audited === false) return
                t.ok(fresh.length > 0, 'the audit has it')
                t.same(fresh.filter(line => line.identity_name !== caller.auditName || line.tool === 'ha_call_tool'), [], 'under the caller\'s name and the tool that ran')
              })
            } else {
              const code = may.has(operation.tool) ? 'HAMCP_DENIED_LEVEL' : 'HAMCP_NOT_FOUND'
              await refused(t, home, call, operation, code, `level too low, ${code}`)
            }
          }
        })
      }

      await t.test('options off: nothing is a tool, nothing is found', async t => {
        const off: Partial<Options> = { tool_list: mode }
        const client = await connectClient(t, await startServer(t, { home, options: off, env: addonMode }))
        const listed = new Set((await client.listTools()).tools.map(tool => tool.name))
        const may = callable(off, FULL_ACCESS)
        if (listed.has('ha_search_tools')) await searchFinds(t, client, may, () => false)
        for (const operation of EVERY_ROW) {
          await refused(t, home, async (tool, args) => await reach(client, listed, tool, args), operation, 'HAMCP_NOT_FOUND', 'its option is off')
        }
      })

      await t.test('allow_config_write off: writes stay, every operation that needs manage is refused', async t => {
        const writesOnly: Partial<Options> = { ...options, allow_config_write: false }
        const client = await connectClient(t, await startServer(t, { home, options: writesOnly, env: addonMode }))
        const listed = new Set((await client.listTools()).tools.map(tool => tool.name))
        const may = callable(writesOnly, FULL_ACCESS)
        for (const operation of EVERY_ROW.filter(op => op.needs.some(([, level]) => level === 'manage'))) {
          // A tool of the manage kind is no tool; a write tool refuses the part that is configuration by its option.
          const code = may.has(operation.tool) ? 'HAMCP_DENIED_LEVEL' : 'HAMCP_NOT_FOUND'
          const answer = await refused(t, home, async (tool, args) => await reach(client, listed, tool, args), operation, code, 'allow_config_write is off')
          if (code === 'HAMCP_DENIED_LEVEL') t.match(answer.text, /allow_config_write/, 'the refusal names the option')
        }
      })

      await t.test('allow_addon_control off: the add-on operations are no tools', async t => {
        const noAddons: Partial<Options> = { ...options, allow_addon_control: false }
        const client = await connectClient(t, await startServer(t, { home, options: noAddons, env: addonMode }))
        const listed = new Set((await client.listTools()).tools.map(tool => tool.name))
        if (listed.has('ha_search_tools')) await searchFinds(t, client, callable(noAddons, FULL_ACCESS), tool => tool !== 'ha_manage_addon')
        for (const operation of EVERY_ROW.filter(op => op.option === 'allow_addon_control')) {
          // ha_call_service stays a tool; the add-on services are refused by their category's option.
          const code = operation.tool === 'ha_call_service' ? 'HAMCP_DENIED_LEVEL' : 'HAMCP_NOT_FOUND'
          await refused(t, home, async (tool, args) => await reach(client, listed, tool, args), operation, code, 'allow_addon_control is off')
        }
      })

      await t.test('service_denylist: an operation that is a Home Assistant service is refused as the service would be', async t => {
        const denied: Partial<Options> = { ...options, service_denylist: [...DEFAULT_SERVICE_DENYLIST, ...DENIED] }
        const client = await connectClient(t, await startServer(t, { home, options: denied, env: addonMode }))
        const listed = new Set((await client.listTools()).tools.map(tool => tool.name))
        for (const operation of EVERY_ROW.filter(op => op.deniedBy !== undefined)) {
          const answer = await refused(t, home, async (tool, args) => await reach(client, listed, tool, args), operation, 'HAMCP_DENIED_SERVICE', `denied by ${String(operation.deniedBy)}`)
          t.match(answer.text, `remove "${String(operation.deniedBy)}" from service_denylist`, 'the refusal names the entry to remove')
        }
      })
    })
  }
})

import { HaError, invalidFormat } from '../errors.ts'
import { checkSavePrefs, energyPrefs, validateEnergy } from '../energy.ts'
import { dashboardAt, dashboardListView, dashboards } from '../lovelace.ts'
import { fullTrace, shortTrace } from '../traces.ts'
import { isRecord } from '../util.ts'
import { relatedItems } from '../related.ts'
import { seedTraces } from '../seed-traces.ts'
import { validateConfig } from '../validate.ts'
import type { CommandTable } from './protocol.ts'

const BLUEPRINTS: Record<string, Record<string, unknown>> = {
  automation: {
    'homeassistant/motion_light.yaml': { metadata: { name: 'Motion-activated Light', description: 'Turn on a light when motion is detected.', domain: 'automation', source_url: 'https://github.com/home-assistant/core/blob/dev/homeassistant/components/automation/blueprints/motion_light.yaml', input: { motion_entity: { name: 'Motion Sensor', selector: { entity: { filter: [{ device_class: 'occupancy', domain: 'binary_sensor' }, { device_class: 'motion', domain: 'binary_sensor' }] } } }, light_target: { name: 'Light', selector: { target: { entity: [{ domain: 'light' }] } } }, no_motion_wait: { name: 'Wait time', default: 120, selector: { number: { min: 0, max: 3600, unit_of_measurement: 'seconds' } } } } } },
    'homeassistant/notify_leaving_zone.yaml': { metadata: { name: 'Zone Notification', description: 'Send a notification to a device when a person leaves a specific zone.', domain: 'automation', input: { person_entity: { name: 'Person', selector: { entity: { filter: [{ domain: 'person' }] } } }, zone_entity: { name: 'Zone', selector: { entity: { filter: [{ domain: 'zone' }] } } }, notify_device: { name: 'Device to notify', selector: { device: { filter: [{ integration: 'mobile_app' }] } } } } } },
    'community/low_battery.yaml': { error: "Failed to load blueprint: Invalid blueprint: extra keys not allowed @ data['blueprint']['inputs']" }
  },
  script: {
    'homeassistant/confirmable_notification.yaml': { metadata: { name: 'Confirmable Notification', description: 'A script that sends an actionable notification with a confirmation before running the specified action.', domain: 'script', input: { notify_device: { name: 'Device to notify', selector: { device: { filter: [{ integration: 'mobile_app' }] } } }, message: { name: 'Message', selector: { text: {} } } } } }
  }
}

const SEED_ISSUES = [
  { breaks_in_ha_version: '2027.1.0', created: '2026-11-20T08:00:00.000000+00:00', dismissed_version: null, domain: 'homeassistant', ignored: false, is_fixable: false, issue_domain: 'template', issue_id: 'deprecated_yaml_template', learn_more_url: 'https://www.home-assistant.io/integrations/template', severity: 'warning', translation_key: 'deprecated_yaml', translation_placeholders: { domain: 'template', integration_title: 'Template' } },
  { breaks_in_ha_version: null, created: '2026-11-28T21:14:02.000000+00:00', dismissed_version: null, domain: 'zha', ignored: false, is_fixable: true, issue_domain: null, issue_id: 'inconsistent_network_settings', learn_more_url: null, severity: 'error', translation_key: 'inconsistent_network_settings', translation_placeholders: null },
  { breaks_in_ha_version: null, created: '2026-11-01T10:00:00.000000+00:00', dismissed_version: '2026.11.0', domain: 'hassio', ignored: true, is_fixable: false, issue_domain: null, issue_id: 'unsupported_os_agent', learn_more_url: null, severity: 'warning', translation_key: 'unsupported_os_agent', translation_placeholders: null }
]

type Issue = typeof SEED_ISSUES[number]
/** Each house's own issue registry, so ignoring an issue in one test's home leaves the others alone. */
const issueRegistries = new WeakMap<object, Issue[]>()
export function issuesOf (house: object): Issue[] {
  let issues = issueRegistries.get(house)
  if (issues === undefined) {
    issues = SEED_ISSUES.map(issue => ({ ...issue }))
    issueRegistries.set(house, issues)
  }
  return issues
}

export const configCommands: CommandTable = {
  'trace/list': {
    keys: { optional: ['domain', 'item_id'] },
    handle: ({ rt, msg }) => {
      seedTraces(rt.house)
      const out: unknown[] = []
      for (const [key, traces] of rt.house.traces) {
        const [domain, item] = [key.split('.')[0], key.slice(key.indexOf('.') + 1)]
        if (msg.domain !== undefined && msg.domain !== domain) continue
        if (msg.item_id !== undefined && msg.item_id !== item) continue
        for (const trace of traces) out.push(shortTrace(trace))
      }
      return out
    }
  },
  'trace/get': {
    keys: { required: ['domain', 'item_id', 'run_id'] },
    handle: ({ rt, msg }) => {
      seedTraces(rt.house)
      const trace = rt.house.traces.get(`${String(msg.domain)}.${String(msg.item_id)}`)?.find(t => t.run_id === msg.run_id)
      if (trace === undefined) throw new HaError('not_found', 'The trace could not be found')
      return fullTrace(trace)
    }
  },
  'trace/contexts': {
    keys: { optional: ['domain', 'item_id'] },
    handle: ({ rt }) => {
      seedTraces(rt.house)
      const out: Record<string, unknown> = {}
      for (const traces of rt.house.traces.values()) for (const t of traces) out[t.context.id] = { run_id: t.run_id, domain: t.domain, item_id: t.item_id }
      return out
    }
  },
  'blueprint/list': {
    keys: { required: ['domain'] },
    handle: ({ msg }) => {
      if (msg.domain !== 'automation' && msg.domain !== 'script') throw invalidFormat(`value must be one of ['automation', 'script'] for dictionary value @ data['domain']. Got ${JSON.stringify(msg.domain)}`)
      return BLUEPRINTS[msg.domain]
    }
  },
  'automation/config': {
    keys: { required: ['entity_id'] },
    handle: ({ rt, msg }) => {
      const def = rt.house.home.automations.find(a => a.entity_id === msg.entity_id)
      if (def === undefined) throw new HaError('not_found', 'Entity not found')
      return { config: def.config }
    }
  },
  'script/config': {
    keys: { required: ['entity_id'] },
    handle: ({ rt, msg }) => {
      const def = rt.house.home.scripts.find(s => s.entity_id === msg.entity_id)
      if (def === undefined) throw new HaError('not_found', 'Entity not found')
      return { config: def.config }
    }
  },
  validate_config: { keys: { optional: ['triggers', 'conditions', 'actions', 'trigger', 'condition', 'action'] }, handle: ({ msg }) => validateConfig(msg) },
  'repairs/list_issues': { handle: ({ rt }) => ({ issues: issuesOf(rt.house) }) },
  // repairs/websocket_api.py ws_ignore_issue -> helpers/issue_registry.py async_ignore: the issue is looked up
  // by (domain, issue_id), a KeyError for an unknown one (answered unknown_error by the WebSocket layer);
  // ignoring sets dismissed_version to the running version, un-ignoring clears it.
  'repairs/ignore_issue': {
    keys: { required: ['domain', 'issue_id', 'ignore'] },
    handle: ({ rt, msg }) => {
      if (typeof msg.ignore !== 'boolean') throw invalidFormat(`expected bool for dictionary value @ data['ignore']. Got ${JSON.stringify(msg.ignore)}`)
      const issue = issuesOf(rt.house).find(i => i.domain === msg.domain && i.issue_id === msg.issue_id)
      if (issue === undefined) throw new HaError('unknown_error', 'Unknown error')
      issue.ignored = msg.ignore
      issue.dismissed_version = msg.ignore ? rt.options.haVersion : null
      return null
    }
  },
  'system_log/list': {
    handle: ({ rt }) => {
      const t = rt.house.home.startMs / 1000
      return [
        { name: 'homeassistant.components.zha.core.cluster_handlers', message: ['[0x1A2B:1:0x0006]: async_initialize: all attempts have failed: [DeliveryError(\'Failed to deliver packet: <TXStatus.MAC_CHANNEL_ACCESS_FAILURE: 225>\')]'], level: 'WARNING', source: ['components/zha/core/cluster_handlers/__init__.py', 532], timestamp: t - 120.5, exception: '', count: 4, first_occurred: t - 3600.2 },
        { name: 'homeassistant.components.nordpool', message: ['Error fetching nordpool data: Cannot connect to host dataportal-api.nordpoolgroup.com:443'], level: 'ERROR', source: ['helpers/update_coordinator.py', 383], timestamp: t - 30.1, exception: '', count: 12, first_occurred: t - 7200.9 },
        { name: 'homeassistant.components.automation.low_battery_alert', message: ['Low battery alert: Error executing script. Service not found for call_service at pos 1: Action notify.mobile_app_alice_phone not found'], level: 'ERROR', source: ['helpers/script.py', 2012], timestamp: t - 86_000, exception: 'Traceback (most recent call last):\n  File "/usr/src/homeassistant/homeassistant/helpers/script.py", line 2012, in _async_call_service\nhomeassistant.exceptions.ServiceNotFound: Action notify.mobile_app_alice_phone not found', count: 1, first_occurred: t - 86_000 }
      ]
    }
  },
  'lovelace/dashboards/list': { handle: ({ rt }) => [...dashboards(rt.house, rt.options.overview).values()].filter(d => d.url_path !== null).map(dashboardListView) },
  'lovelace/config': {
    keys: { optional: ['url_path', 'force'] },
    handle: ({ rt, msg }) => {
      const dashboard = dashboardAt(rt, msg.url_path)
      if (dashboard.config === null) throw new HaError('config_not_found', 'No config found.')
      return dashboard.config
    }
  },
  'lovelace/config/save': {
    keys: { required: ['config'], optional: ['url_path'] },
    handle: ({ rt, msg }) => {
      const dashboard = dashboardAt(rt, msg.url_path)
      if (dashboard.mode === 'yaml') throw new HaError('home_assistant_error', 'Not supported')
      if (!isRecord(msg.config)) throw invalidFormat("expected a dictionary for dictionary value @ data['config']")
      dashboard.config = msg.config
      rt.house.configWrites.push(`lovelace/config/save ${dashboard.url_path ?? 'lovelace'}`)
      rt.house.fire('lovelace_updated', { url_path: dashboard.url_path })
      return null
    }
  },
  // core frontend/storage.py (2025.12+): per-key system data; `core.default_panel` is the home-wide default dashboard.
  'frontend/get_system_data': {
    keys: { required: ['key'] },
    handle: ({ rt, msg }) => {
      if (rt.options.overview === 'legacy') throw new HaError('unknown_command', 'Unknown command.')
      return { value: msg.key === 'core' && rt.options.overview === 'migrated' ? { default_panel: 'lovelace' } : null }
    }
  },
  // core energy/websocket_api.py (demo/energy.ts).
  'energy/get_prefs': { handle: ({ rt }) => energyPrefs(rt.house) },
  'energy/save_prefs': {
    keys: { optional: ['energy_sources', 'device_consumption', 'device_consumption_water'] },
    handle: ({ rt, msg }) => {
      const prefs = energyPrefs(rt.house)
      Object.assign(prefs, structuredClone(checkSavePrefs(msg)))
      rt.house.configWrites.push('energy/save_prefs')
      return prefs
    }
  },
  'energy/validate': { handle: ({ rt }) => validateEnergy(rt.house) },
  'search/related': {
    keys: { required: ['item_type', 'item_id'] },
    handle: ({ rt, msg }) => relatedItems(rt.house, String(msg.item_type), String(msg.item_id))
  }
}

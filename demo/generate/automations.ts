import type { HomeBuilder } from './builder.ts'
import type { AutomationDef, SceneDef, ScriptDef } from './home-types.ts'
import { STATIC } from './profiles.ts'
import { isoTime } from '../util.ts'

export interface Anchors {
  bedroomLight: string
  hallwayLight: string
  livingLight: string
  hallwayMotion: string
  lock: string
  battery: string
}

interface Made { automations: AutomationDef[], scripts: ScriptDef[], scenes: SceneDef[] }

/** Automations (UI and YAML), scripts and scenes that point at real entities of the home. */
export function addAutomations (b: HomeBuilder, a: Anchors): Made {
  const automations: AutomationDef[] = []
  const ui = (id: string, alias: string, config: Record<string, unknown>, objectId: string): void => {
    automations.push({ entity_id: `automation.${objectId}`, id, source: 'ui', config: { id, alias, description: '', mode: 'single', ...config } })
  }
  ui('1700000000001', 'Wake up', {
    triggers: [{ trigger: 'time', at: '07:00:00' }],
    conditions: [],
    actions: [{ action: 'light.turn_on', target: { entity_id: a.bedroomLight }, data: { brightness_pct: 60 } }]
  }, 'wake_up')
  ui('1700000000002', 'Welcome home', {
    description: 'Hallway light when Alice arrives',
    triggers: [{ trigger: 'state', entity_id: 'person.alice', to: 'home' }],
    conditions: [{ condition: 'state', entity_id: 'sun.sun', state: 'below_horizon' }],
    actions: [{ action: 'light.turn_on', target: { entity_id: a.hallwayLight } }]
  }, 'welcome_home')
  ui('1700000000003', 'Hallway motion light', {
    mode: 'restart',
    triggers: [{ trigger: 'state', entity_id: a.hallwayMotion, to: 'on' }],
    conditions: [],
    actions: [{ action: 'light.turn_on', target: { entity_id: a.hallwayLight } }, { delay: { minutes: 2 } }, { action: 'light.turn_off', target: { entity_id: a.hallwayLight } }]
  }, 'hallway_motion_light')
  ui('1700000000004', 'Nuit — tout éteindre', {
    triggers: [{ trigger: 'time', at: '23:30:00' }],
    conditions: [],
    actions: [{ action: 'scene.turn_on', target: { entity_id: 'scene.good_night' } }]
  }, 'nuit_tout_eteindre')
  ui('1700000000006', 'Open the door for the cleaner', {
    triggers: [{ trigger: 'time', at: '09:00:00' }],
    conditions: [],
    actions: [{ choose: [{ conditions: [{ condition: 'state', entity_id: 'person.alice', state: 'not_home' }], sequence: [{ action: 'lock.unlock', target: { entity_id: a.lock } }] }] }, { action: 'lock.unlock', target: { entity_id: a.lock } }]
  }, 'open_door_for_cleaner')
  ui('1700000000005', 'Low battery alert', {
    triggers: [{ trigger: 'numeric_state', entity_id: a.battery, below: 15 }],
    conditions: [],
    actions: [{ action: 'notify.mobile_app_alice_phone', data: { message: 'Battery low' } }]
  }, 'low_battery_alert')
  automations.push({ entity_id: 'automation.garden_irrigation', id: null, source: 'yaml', config: { alias: 'Garden irrigation', triggers: [{ trigger: 'sun', event: 'sunrise' }], conditions: [], actions: [{ action: 'switch.turn_on', target: { entity_id: 'switch.irrigation' } }], mode: 'single' } })
  automations.push({ entity_id: 'automation.porch_light_legacy', id: 'porch_light_legacy', source: 'yaml', config: { id: 'porch_light_legacy', alias: 'Porch light (package)', triggers: [{ trigger: 'sun', event: 'sunset' }], conditions: [], actions: [{ action: 'light.turn_on', target: { entity_id: a.hallwayLight } }], mode: 'single' } })

  for (const def of automations) {
    const alias = String(def.config.alias)
    const on = def.entity_id !== 'automation.porch_light_legacy'
    const lastTriggered = isoTime(b.startMs - 3_600_000 * (3 + automations.indexOf(def)))
    const attributes: Record<string, unknown> = { ...(def.id === null ? {} : { id: def.id }), last_triggered: lastTriggered, mode: def.config.mode, current: 0 }
    b.addEntity({ domain: 'automation', key: '', name: alias, state: on ? 'on' : 'off', attributes, profile: STATIC }, null, { objectId: def.entity_id.slice(11), platform: 'automation' })
  }

  const scripts: ScriptDef[] = [
    { entity_id: 'script.good_night', source: 'ui', config: { alias: 'Good night', sequence: [{ action: 'light.turn_off', target: { entity_id: 'all' } }, { action: 'lock.lock', target: { entity_id: a.lock } }], mode: 'single', icon: 'mdi:weather-night' } },
    { entity_id: 'script.movie_time', source: 'ui', config: { alias: 'Movie time', fields: { brightness: { selector: { number: { min: 0, max: 100 } } } }, sequence: [{ action: 'light.turn_on', target: { entity_id: a.livingLight }, data: { brightness_pct: 20 } }], mode: 'restart' } },
    { entity_id: 'script.flash_hallway', source: 'yaml', config: { alias: 'Flash hallway', sequence: [{ action: 'light.toggle', target: { entity_id: a.hallwayLight } }], mode: 'single' } },
    // Owner-made scripts that reach the lock: directly, through another script, and through a template.
    { entity_id: 'script.let_guest_in', source: 'ui', config: { alias: 'Let the guest in', sequence: [{ action: 'lock.unlock', target: { entity_id: a.lock } }], mode: 'single' } },
    { entity_id: 'script.arrive_home', source: 'ui', config: { alias: 'Arrive home', sequence: [{ action: 'light.turn_on', target: { entity_id: a.hallwayLight } }, { action: 'script.let_guest_in' }], mode: 'single' } },
    { entity_id: 'script.door_by_template', source: 'ui', config: { alias: 'Door by template', sequence: [{ action: "{{ 'lock.' ~ states('input_select.door_action') }}", target: { entity_id: a.lock } }], mode: 'single' } },
    { entity_id: 'script.restart_everything', source: 'ui', config: { alias: 'Restart everything', sequence: [{ if: [{ condition: 'state', entity_id: 'sun.sun', state: 'below_horizon' }], then: [{ action: 'homeassistant.restart' }] }], mode: 'single' } }
  ]
  for (const def of scripts) {
    b.addEntity({ domain: 'script', key: '', name: String(def.config.alias), state: 'off', attributes: { last_triggered: null, mode: def.config.mode, current: 0 }, profile: STATIC }, null, { objectId: def.entity_id.slice(7), platform: 'script', uniqueId: def.entity_id.slice(7) })
  }

  const scenes: SceneDef[] = [
    { entity_id: 'scene.good_night', id: '1700000000100', name: 'Good night', entities: { [a.livingLight]: { state: 'off' }, [a.hallwayLight]: { state: 'off' }, [a.bedroomLight]: { state: 'on', brightness: 20 } } },
    { entity_id: 'scene.movie', id: '1700000000101', name: 'Movie', entities: { [a.livingLight]: { state: 'on', brightness: 40 } } },
    { entity_id: 'scene.welcome_guests', id: '1700000000102', name: 'Welcome guests', entities: { [a.hallwayLight]: { state: 'on' }, [a.lock]: { state: 'unlocked' } } }
  ]
  for (const def of scenes) {
    b.addEntity({ domain: 'scene', key: '', name: def.name, state: 'unknown', attributes: { id: def.id, entity_id: Object.keys(def.entities) }, profile: STATIC }, null, { objectId: def.entity_id.slice(6), platform: 'homeassistant' })
  }
  // An old-style group (group.*: its members in the `entity_id` attribute, homeassistant/components/group/
  // __init__.py) and a light group (an integration group of the `group` platform, homeassistant/components/
  // group/light.py), both of which Home Assistant expands to their members (helpers/group.py expand_entity_ids).
  b.addEntity({ domain: 'group', key: '', name: 'Doors', state: 'locked', attributes: { entity_id: [a.lock], order: 0, auto: false }, profile: STATIC }, null, { objectId: 'doors', platform: 'group' })
  b.addEntity({ domain: 'light', key: '', name: 'Downstairs lights', state: 'off', attributes: { entity_id: [a.livingLight, a.hallwayLight], supported_color_modes: ['brightness'], color_mode: null, brightness: null, supported_features: 0 }, profile: STATIC }, null, { objectId: 'downstairs_lights', platform: 'group' })
  return { automations, scripts, scenes }
}

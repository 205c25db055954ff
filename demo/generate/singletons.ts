import { isoTime } from '../util.ts'
import type { HomeBuilder } from './builder.ts'
import { STATIC, type EntitySpec } from './profiles.ts'

function spec (domain: string, name: string, state: string, attributes: Record<string, unknown>, extra: Partial<EntitySpec> = {}): EntitySpec {
  return { domain, key: '', name, state, attributes, profile: STATIC, ...extra }
}

const HOME = { latitude: 52.3731, longitude: 4.8922 }

/** Entities every home has once: presence, sun, weather, helpers, notify/tts, alarm, energy meters. */
export function addSingletons (b: HomeBuilder): void {
  const at = b.startMs
  b.addEntity(spec('sun', 'Sun', 'above_horizon', {
    next_dawn: isoTime(at + 14 * 3_600_000),
    next_dusk: isoTime(at + 5 * 3_600_000),
    next_midnight: isoTime(at + 9 * 3_600_000),
    next_noon: isoTime(at + 21 * 3_600_000),
    next_rising: isoTime(at + 15 * 3_600_000),
    next_setting: isoTime(at + 4 * 3_600_000),
    elevation: 23.4,
    azimuth: 201.7,
    rising: false
  }, { profile: { kind: 'toggle', states: ['below_horizon', 'above_horizon'], meanMinutes: 720 } }), null, { objectId: 'sun', platform: 'sun' })
  b.addEntity(spec('zone', 'Home', 'zoning', { ...HOME, radius: 100, passive: false, persons: ['person.alice'], editable: true, icon: 'mdi:home' }), null, { objectId: 'home', platform: 'zone' })
  b.addEntity(spec('zone', 'Work', '0', { latitude: 52.3676, longitude: 4.9041, radius: 150, passive: false, persons: [], editable: true, icon: 'mdi:briefcase' }), null, { objectId: 'work', platform: 'zone', uniqueId: 'work' })
  b.addEntity(spec('device_tracker', 'Alice Phone', 'home', { source_type: 'gps', ...HOME, gps_accuracy: 12, battery_level: 81 }, { profile: { kind: 'toggle', states: ['home', 'not_home', 'Work'], meanMinutes: 300 } }), null, { objectId: 'alice_phone', platform: 'mobile_app' })
  b.addEntity(spec('device_tracker', 'Bob Phone', 'not_home', { source_type: 'gps', latitude: 52.3601, longitude: 4.8852, gps_accuracy: 25, battery_level: 9 }, { profile: { kind: 'toggle', states: ['home', 'not_home'], meanMinutes: 400 } }), null, { objectId: 'bob_phone', platform: 'mobile_app' })
  b.addEntity(spec('person', 'Alice', 'home', { editable: true, id: 'alice', device_trackers: ['device_tracker.alice_phone'], ...HOME, gps_accuracy: 12, source: 'device_tracker.alice_phone', user_id: b.ownerUserId }, { profile: { kind: 'toggle', states: ['home', 'not_home'], meanMinutes: 300 } }), null, { objectId: 'alice', platform: 'person', aliases: ['Mum'] })
  b.addEntity(spec('person', 'Bob', 'not_home', { editable: true, id: 'bob', device_trackers: ['device_tracker.bob_phone'], latitude: 52.3601, longitude: 4.8852, gps_accuracy: 25, source: 'device_tracker.bob_phone', user_id: null }, { profile: { kind: 'toggle', states: ['home', 'not_home'], meanMinutes: 400 } }), null, { objectId: 'bob', platform: 'person' })
  b.addEntity(spec('weather', 'Home', 'partlycloudy', {
    temperature: 14.2,
    apparent_temperature: 12.9,
    dew_point: 8.1,
    temperature_unit: '°C',
    humidity: 71,
    cloud_coverage: 40,
    pressure: 1014.2,
    pressure_unit: 'hPa',
    wind_bearing: 240,
    wind_speed: 18.4,
    wind_speed_unit: 'km/h',
    visibility_unit: 'km',
    precipitation_unit: 'mm',
    attribution: 'Weather forecast from met.no',
    supported_features: 3
  }), null, { objectId: 'home', platform: 'met' })

  // Helpers made in Home Assistant's UI: a storage collection entity's unique_id is its item's id
  // (core input_number/__init__.py InputNumber.unique_id, and the same in each helper), which the
  // {type}/update and {type}/delete commands take (demo/ws/helpers.ts).
  b.addEntity(spec('input_boolean', 'Guest mode', 'off', { editable: true, icon: 'mdi:account-multiple' }, { profile: { kind: 'toggle', states: ['off', 'on'], meanMinutes: 2000 } }), null, { objectId: 'guest_mode', platform: 'input_boolean', uniqueId: 'guest_mode' })
  b.addEntity(spec('input_boolean', 'Vacances', 'off', { editable: true }), null, { objectId: 'vacances', platform: 'input_boolean', uniqueId: 'vacances', aliases: ['Holiday mode'] })
  b.addEntity(spec('input_number', 'Target temperature', '21.0', { initial: null, editable: true, min: 15, max: 25, step: 0.5, mode: 'slider', unit_of_measurement: '°C' }), null, { objectId: 'target_temperature', platform: 'input_number', uniqueId: 'target_temperature', areaId: 'living_room' })
  b.addEntity(spec('input_select', 'House mode', 'Home', { options: ['Home', 'Away', 'Night', 'Vacation'], editable: true }), null, { objectId: 'house_mode', platform: 'input_select', uniqueId: 'house_mode' })
  b.addEntity(spec('input_text', 'Welcome message', 'Willkommen zu Hause!', { editable: true, min: 0, max: 100, pattern: null, mode: 'text' }), null, { objectId: 'welcome_message', platform: 'input_text', uniqueId: 'welcome_message' })
  b.addEntity(spec('input_datetime', 'Alarm time', '07:00:00', { has_date: false, has_time: true, editable: true, hour: 7, minute: 0, second: 0, timestamp: 25200 }), null, { objectId: 'alarm_time', platform: 'input_datetime', uniqueId: 'alarm_time' })
  b.addEntity(spec('counter', 'Coffee cups', '3', { initial: 0, step: 1, minimum: 0, maximum: null, editable: true }), null, { objectId: 'coffee_cups', platform: 'counter', uniqueId: 'coffee_cups', areaId: 'kuche' })
  b.addEntity(spec('timer', 'Laundry', 'idle', { duration: '1:30:00', editable: true, restore: false }), null, { objectId: 'laundry', platform: 'timer', uniqueId: 'laundry', areaId: 'laundry' })

  b.addEntity(spec('todo', 'Shopping List', '3', { supported_features: 15 }), null, { objectId: 'shopping_list', platform: 'shopping_list' })
  b.addEntity(spec('todo', 'Chores', '2', { supported_features: 127 }), null, { objectId: 'chores', platform: 'local_todo' })
  b.addEntity(spec('calendar', 'Family', 'off', { message: 'Dentist', all_day: false, start_time: '', end_time: '', location: 'Prinsengracht 1', description: '', supported_features: 7 }), null, { objectId: 'family', platform: 'local_calendar' })
  b.addEntity(spec('calendar', 'Poubelles', 'off', { message: 'Recycling', all_day: true, start_time: '', end_time: '', location: '', description: '' }), null, { objectId: 'poubelles', platform: 'remote_calendar', aliases: ['Bins'] })
  b.addEntity(spec('notify', 'Kitchen display', 'unknown', { supported_features: 1 }), null, { objectId: 'kitchen_display', platform: 'lannouncer', areaId: 'kuche' })
  b.addEntity(spec('tts', 'Google Translate en com', 'unknown', {}), null, { objectId: 'google_translate_en_com', platform: 'google_translate' })
  b.addEntity(spec('alarm_control_panel', 'Home Alarm', 'disarmed', { code_format: 'number', changed_by: null, code_arm_required: true, supported_features: 63 }, { profile: { kind: 'toggle', states: ['disarmed', 'armed_home', 'armed_away'], meanMinutes: 900 } }), null, { objectId: 'home_alarm', platform: 'manual', labels: ['security', 'critical'] })
  b.addEntity(spec('update', 'Home Assistant Core Update', 'on', { installed_version: '2026.11.1', latest_version: '2026.11.2', title: 'Home Assistant Core', release_url: 'https://www.home-assistant.io/blog/', in_progress: false, update_percentage: null, auto_update: false, skipped_version: null, release_summary: null, supported_features: 11 }), null, { objectId: 'home_assistant_core_update', platform: 'hassio' })
  b.addEntity(spec('sensor', 'Grid consumption', '18204.431', { unit_of_measurement: 'kWh', device_class: 'energy', state_class: 'total_increasing' }, { deviceClass: 'energy', profile: { kind: 'energy', base: 18000, perHour: 0.45, decimals: 3 } }), null, { objectId: 'grid_consumption', platform: 'dsmr', labels: ['energy'] })
  b.addEntity(spec('sensor', 'Grid return', '2310.102', { unit_of_measurement: 'kWh', device_class: 'energy', state_class: 'total_increasing' }, { deviceClass: 'energy', profile: { kind: 'energy', base: 2300, perHour: 0.12, decimals: 3 } }), null, { objectId: 'grid_return', platform: 'dsmr', labels: ['energy'] })
  b.addEntity(spec('sensor', 'Solar production', '5120.77', { unit_of_measurement: 'kWh', device_class: 'energy', state_class: 'total_increasing' }, { deviceClass: 'energy', profile: { kind: 'energy', base: 5100, perHour: 0.3, decimals: 3 } }), null, { objectId: 'solar_production', platform: 'enphase_envoy', labels: ['energy'] })
  b.addEntity(spec('sensor', 'Gas consumption', '3021.5', { unit_of_measurement: 'm³', device_class: 'gas', state_class: 'total_increasing' }, { deviceClass: 'gas', profile: { kind: 'energy', base: 3000, perHour: 0.08, decimals: 2 } }), null, { objectId: 'gas_consumption', platform: 'dsmr', labels: ['energy'] })
  b.addEntity(spec('sensor', 'Outside temperature', '14.2', { unit_of_measurement: '°C', device_class: 'temperature', state_class: 'measurement' }, { deviceClass: 'temperature', profile: { kind: 'numeric', base: 12, amplitude: 5, noise: 0.6, decimals: 1 } }), null, { objectId: 'outside_temperature', platform: 'met', areaId: 'garden', aliases: ['Außentemperatur'] })
  b.addEntity(spec('sensor', 'Electricity price', 'unknown', { unit_of_measurement: 'EUR/kWh', state_class: 'measurement' }), null, { objectId: 'electricity_price', platform: 'nordpool' })
  b.addEntity(spec('sensor', 'Package tracker', '12', { unit_of_measurement: 'packages', packages: bigPackageList() }), null, { objectId: 'package_tracker', platform: 'parcelapp' })
}

/** One attribute well over 5000 characters, to exercise truncation downstream. */
function bigPackageList (): Array<Record<string, string>> {
  const carriers = ['PostNL', 'DHL', 'DPD', 'UPS', 'Deutsche Post', 'La Poste', 'ヤマト運輸']
  return Array.from({ length: 40 }, (_, i) => ({
    tracking_number: `3SABCD${String(100000 + i * 7919)}NL`,
    carrier: carriers[i % carriers.length] as string,
    description: `Order #${4200 + i}: replacement parts, batteries and a few things for the garden (item ${i + 1})`,
    status: i % 3 === 0 ? 'delivered' : 'in_transit'
  }))
}

/**
 * An add-on's update and a device firmware that supports backup and progress, as update/__init__.py shows
 * them (supported_features from update/const.py UpdateEntityFeature). Added after everything else, so
 * the random draws (and so every other entity) stay what they were before these two existed.
 */
export function addUpdateEntities (b: HomeBuilder): void {
  // The add-on's: unique_id `<slug>_version_latest`, platform hassio (hassio/entity.py HassioAddonEntity), how ha_manage_addon finds it.
  b.addEntity(spec('update', 'Studio Code Server Update', 'on', { installed_version: '5.19.3', latest_version: '5.20.0', title: 'Studio Code Server', release_url: 'https://github.com/hassio-addons/addon-vscode/releases/tag/v5.20.0', in_progress: false, update_percentage: null, auto_update: false, skipped_version: null, release_summary: 'Upgrades code-server to 4.99.', supported_features: 29 }), null, { objectId: 'studio_code_server_update', platform: 'hassio', uniqueId: 'a0d7b954_vscode_version_latest' })
  b.addEntity(spec('update', 'Zigbee coordinator firmware', 'on', { installed_version: '20240510', latest_version: '20241105', title: 'SLZB-06 core firmware', release_url: null, in_progress: false, update_percentage: null, auto_update: false, skipped_version: null, release_summary: 'Improves routing stability with many devices.', supported_features: 29, device_class: 'firmware' }, { deviceClass: 'firmware' }), null, { objectId: 'zigbee_coordinator_firmware', platform: 'smlight' })
}

import { pick } from '../util.ts'
import { STATIC, type EntitySpec } from './profiles.ts'

type Rng = () => number

export interface DeviceKind {
  id: string
  label: string
  manufacturer: string
  model: string
  platform: string
  build: (rng: Rng) => EntitySpec[]
}

function battery (rng: Rng, low: boolean): EntitySpec {
  const level = low ? 3 + Math.floor(rng() * 9) : 40 + Math.floor(rng() * 60)
  return {
    domain: 'sensor',
    key: 'battery',
    name: 'Battery',
    state: String(level),
    attributes: { unit_of_measurement: '%', device_class: 'battery', state_class: 'measurement' },
    entityCategory: 'diagnostic',
    deviceClass: 'battery',
    profile: { kind: 'numeric', base: level, amplitude: 0, noise: 0.2, decimals: 0, min: 0, max: 100 }
  }
}

function numeric (key: string, name: string, deviceClass: string, unit: string, base: number, amplitude: number, decimals: number, noise = amplitude / 5): EntitySpec {
  return {
    domain: 'sensor',
    key,
    name,
    state: base.toFixed(decimals),
    attributes: { unit_of_measurement: unit, device_class: deviceClass, state_class: 'measurement' },
    deviceClass,
    profile: { kind: 'numeric', base, amplitude, noise, decimals }
  }
}

function energy (base: number, perHour: number): EntitySpec {
  return {
    domain: 'sensor',
    key: 'energy',
    name: 'Energy',
    state: base.toFixed(3),
    attributes: { unit_of_measurement: 'kWh', device_class: 'energy', state_class: 'total_increasing' },
    deviceClass: 'energy',
    profile: { kind: 'energy', base, perHour, decimals: 3 }
  }
}

function binary (deviceClass: string, on: boolean, meanMinutes: number): EntitySpec {
  return {
    domain: 'binary_sensor',
    key: deviceClass,
    name: null,
    state: on ? 'on' : 'off',
    attributes: { device_class: deviceClass },
    deviceClass,
    profile: { kind: 'toggle', states: ['off', 'on'], meanMinutes }
  }
}

function light (rng: Rng): EntitySpec {
  const on = rng() < 0.4
  const colour = rng() < 0.6
  const modes = colour ? ['color_temp', 'hs'] : ['brightness']
  const attributes: Record<string, unknown> = colour
    ? { min_color_temp_kelvin: 2000, max_color_temp_kelvin: 6535, min_mireds: 153, max_mireds: 500, effect_list: ['none', 'colorloop'], supported_color_modes: modes }
    : { supported_color_modes: modes }
  if (on) {
    attributes.brightness = 50 + Math.floor(rng() * 205)
    if (colour) {
      attributes.color_mode = 'color_temp'
      attributes.color_temp_kelvin = 2700
      attributes.color_temp = 370
      attributes.hs_color = [27.0, 57.0]
      attributes.rgb_color = [255, 167, 89]
      attributes.xy_color = [0.526, 0.387]
      attributes.effect = 'none'
    } else {
      attributes.color_mode = 'brightness'
    }
  } else {
    attributes.color_mode = null
    attributes.brightness = null
  }
  attributes.supported_features = colour ? 44 : 32
  return { domain: 'light', key: '', name: null, state: on ? 'on' : 'off', attributes, profile: { kind: 'toggle', states: ['off', 'on'], meanMinutes: 180 } }
}

export const DEVICE_KINDS: DeviceKind[] = [
  { id: 'bulb', label: 'Ceiling Light', manufacturer: 'Signify', model: 'Hue White and Color A19', platform: 'hue', build: rng => [light(rng)] },
  { id: 'lamp', label: 'Lamp', manufacturer: 'IKEA of Sweden', model: 'TRADFRI bulb E27 WS', platform: 'zha', build: rng => [light(rng)] },
  {
    id: 'plug',
    label: 'Smart Plug',
    manufacturer: 'Shelly',
    model: 'Plus Plug S',
    platform: 'shelly',
    build: rng => {
      const on = rng() < 0.5
      return [
        { domain: 'switch', key: '', name: null, state: on ? 'on' : 'off', attributes: { device_class: 'outlet' }, deviceClass: 'outlet', profile: { kind: 'toggle', states: ['off', 'on'], meanMinutes: 240 } },
        numeric('power', 'Power', 'power', 'W', on ? 40 + Math.floor(rng() * 80) : 0.4, 20, 1),
        energy(10 + Math.floor(rng() * 400), 0.05 + rng() * 0.1),
        { domain: 'update', key: 'firmware', name: 'Firmware', state: 'off', attributes: { installed_version: '1.4.2', latest_version: '1.4.2', title: 'Shelly firmware', release_url: null, in_progress: false, auto_update: false, skipped_version: null, release_summary: null, supported_features: 5, device_class: 'firmware' }, entityCategory: 'config', deviceClass: 'firmware', profile: STATIC }
      ]
    }
  },
  {
    id: 'climate_sensor',
    label: 'Climate Sensor',
    manufacturer: 'Aqara',
    model: 'Temperature and Humidity Sensor T1',
    platform: 'zha',
    build: rng => [
      numeric('temperature', 'Temperature', 'temperature', '°C', 19 + Math.round(rng() * 40) / 10, 1.5, 1),
      numeric('humidity', 'Humidity', 'humidity', '%', 40 + Math.floor(rng() * 20), 6, 0),
      battery(rng, rng() < 0.12)
    ]
  },
  {
    id: 'motion',
    label: 'Motion Sensor',
    manufacturer: 'Philips',
    model: 'SML001',
    platform: 'hue',
    build: rng => [binary('motion', rng() < 0.2, 45), numeric('illuminance', 'Illuminance', 'illuminance', 'lx', 120, 100, 0), battery(rng, rng() < 0.15)]
  },
  {
    id: 'door',
    label: 'Door Sensor',
    manufacturer: 'Aqara',
    model: 'MCCGQ11LM',
    platform: 'zha',
    build: rng => [binary('door', rng() < 0.1, 120), battery(rng, rng() < 0.1)]
  },
  {
    id: 'blinds',
    label: 'Blinds',
    manufacturer: 'Somfy',
    model: 'Sonesse 30 WireFree',
    platform: 'somfy',
    build: rng => {
      const position = pick(rng, [0, 0, 35, 100, 100])
      return [{ domain: 'cover', key: '', name: null, state: position === 0 ? 'closed' : 'open', attributes: { current_position: position, device_class: 'blind', supported_features: 15 }, deviceClass: 'blind', profile: { kind: 'toggle', states: ['closed', 'open'], meanMinutes: 480 } }]
    }
  },
  {
    id: 'thermostat',
    label: 'Thermostat',
    manufacturer: 'ecobee',
    model: 'Smart Thermostat Premium',
    platform: 'ecobee',
    build: rng => {
      const current = 19 + Math.round(rng() * 30) / 10
      return [
        { domain: 'climate', key: '', name: null, state: pick(rng, ['heat', 'heat', 'off', 'auto']), attributes: { hvac_modes: ['off', 'heat', 'cool', 'auto'], min_temp: 7, max_temp: 35, target_temp_step: 0.5, preset_modes: ['home', 'away', 'sleep'], current_temperature: current, temperature: 21, preset_mode: 'home', hvac_action: 'heating', supported_features: 401 }, profile: { kind: 'toggle', states: ['heat', 'off'], meanMinutes: 600 } },
        { domain: 'number', key: 'temperature_offset', name: 'Temperature offset', state: '0.0', attributes: { min: -5, max: 5, step: 0.5, mode: 'box', unit_of_measurement: '°C' }, entityCategory: 'config', profile: STATIC }
      ]
    }
  },
  {
    id: 'lock',
    label: 'Front Door Lock',
    manufacturer: 'Nuki',
    model: 'Smart Lock 4.0 Pro',
    platform: 'nuki',
    build: rng => [{ domain: 'lock', key: '', name: null, state: pick(rng, ['locked', 'locked', 'unlocked']), attributes: { supported_features: 1 }, profile: { kind: 'toggle', states: ['locked', 'unlocked'], meanMinutes: 300 } }, battery(rng, rng() < 0.3)]
  },
  {
    id: 'speaker',
    label: 'Speaker',
    manufacturer: 'Sonos',
    model: 'Era 100',
    platform: 'sonos',
    build: rng => {
      const playing = rng() < 0.3
      return [{ domain: 'media_player', key: '', name: null, state: playing ? 'playing' : 'idle', attributes: { volume_level: 0.3, is_volume_muted: false, source_list: ['Line-in', 'TV', 'Radio 1'], media_content_type: playing ? 'music' : null, media_title: playing ? 'Clair de Lune' : null, media_artist: playing ? 'Claude Debussy' : null, device_class: 'speaker', supported_features: 4127295 }, deviceClass: 'speaker', profile: { kind: 'toggle', states: ['idle', 'playing', 'paused'], meanMinutes: 90 } }]
    }
  },
  {
    id: 'fan',
    label: 'Fan',
    manufacturer: 'Dyson',
    model: 'Pure Cool TP07',
    platform: 'dyson',
    build: rng => {
      const on = rng() < 0.3
      return [{ domain: 'fan', key: '', name: null, state: on ? 'on' : 'off', attributes: { percentage: on ? 50 : 0, percentage_step: 10, preset_modes: ['auto', 'sleep'], preset_mode: null, oscillating: false, supported_features: 59 }, profile: { kind: 'toggle', states: ['off', 'on'], meanMinutes: 200 } }]
    }
  },
  {
    id: 'vacuum',
    label: 'Robot Vacuum',
    manufacturer: 'Roborock',
    model: 'S8 Pro Ultra',
    platform: 'roborock',
    build: rng => [
      { domain: 'vacuum', key: '', name: null, state: 'docked', attributes: { fan_speed_list: ['quiet', 'balanced', 'turbo', 'max'], fan_speed: 'balanced', battery_level: 100, supported_features: 14204 }, profile: { kind: 'toggle', states: ['docked', 'cleaning', 'returning'], meanMinutes: 720 } },
      { domain: 'button', key: 'locate', name: 'Locate', state: 'unknown', attributes: {}, profile: STATIC },
      { domain: 'select', key: 'mop_intensity', name: 'Mop intensity', state: pick(rng, ['low', 'medium', 'high']), attributes: { options: ['low', 'medium', 'high'] }, entityCategory: 'config', profile: STATIC }
    ]
  },
  {
    id: 'camera',
    label: 'Camera',
    manufacturer: 'Reolink',
    model: 'E1 Zoom',
    platform: 'reolink',
    build: () => [
      { domain: 'camera', key: '', name: null, state: 'idle', attributes: { frontend_stream_type: 'hls', supported_features: 2 }, profile: STATIC },
      { domain: 'siren', key: 'siren', name: 'Siren', state: 'off', attributes: { supported_features: 3 }, profile: STATIC }
    ]
  },
  {
    id: 'doorbell',
    label: 'Doorbell',
    manufacturer: 'Reolink',
    model: 'Video Doorbell WiFi',
    platform: 'reolink',
    build: () => [
      { domain: 'event', key: 'ding', name: 'Ding', state: 'unknown', attributes: { event_types: ['ring'], event_type: null, device_class: 'doorbell' }, deviceClass: 'doorbell', profile: STATIC },
      { domain: 'button', key: 'restart', name: 'Restart', state: 'unknown', attributes: { device_class: 'restart' }, entityCategory: 'config', deviceClass: 'restart', profile: STATIC }
    ]
  },
  {
    id: 'satellite',
    label: 'Voice Assistant',
    manufacturer: 'Nabu Casa',
    model: 'Home Assistant Voice PE',
    platform: 'esphome',
    build: () => [
      { domain: 'assist_satellite', key: 'assist', name: 'Assist satellite', state: 'idle', attributes: { supported_features: 3 }, profile: STATIC },
      { domain: 'media_player', key: 'media', name: 'Media player', state: 'idle', attributes: { volume_level: 0.5, supported_features: 152461 }, profile: STATIC }
    ]
  },
  {
    id: 'tv',
    label: 'TV',
    manufacturer: 'LG',
    model: 'OLED55C3',
    platform: 'webostv',
    build: rng => [
      { domain: 'media_player', key: '', name: null, state: rng() < 0.3 ? 'on' : 'off', attributes: { device_class: 'tv', source_list: ['HDMI 1', 'Netflix'], supported_features: 24461 }, deviceClass: 'tv', profile: { kind: 'toggle', states: ['off', 'on'], meanMinutes: 150 } },
      { domain: 'remote', key: 'remote', name: 'Remote', state: 'on', attributes: { activity_list: ['Watch TV', 'PowerOff'], current_activity: 'Watch TV', supported_features: 4 }, profile: STATIC }
    ]
  },
  {
    id: 'water_heater',
    label: 'Water Heater',
    manufacturer: 'Ariston',
    model: 'Lydos Hybrid',
    platform: 'ariston',
    build: () => [{ domain: 'water_heater', key: '', name: null, state: 'eco', attributes: { min_temp: 40, max_temp: 65, operation_list: ['eco', 'performance', 'off'], operation_mode: 'eco', current_temperature: 51, temperature: 55, supported_features: 3 }, profile: STATIC }]
  }
]

/** Devices placed in every generated room, in order, before the rest of the catalogue cycles. */
export const ROOM_STARTER = ['bulb']

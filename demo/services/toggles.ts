import { entriesOf, reloadEntry } from '../config-entries.ts'
import { checkConfigService, reloadAllService, restartService } from '../core-config.ts'
import { HaError, invalidFormat } from '../errors.ts'
import type { HassState } from '../types.ts'
import { field, svc, type ServiceCall, type ServiceDef, type ServiceTable } from './registry.ts'

const ON_OFF_DOMAINS = ['light', 'switch', 'fan', 'input_boolean', 'siren', 'remote', 'automation', 'media_player', 'climate', 'humidifier', 'water_heater', 'vacuum']

function numberIn (data: Record<string, unknown>, key: string, min: number, max: number): number | undefined {
  const value = data[key]
  if (value === undefined) return undefined
  const n = typeof value === 'number' ? value : Number(value)
  if (typeof value === 'boolean' || Number.isNaN(n)) throw invalidFormat(`expected float for dictionary value @ data['${key}']. Got ${JSON.stringify(value)}`)
  if (n < min) throw invalidFormat(`value must be at least ${min} for dictionary value @ data['${key}']`)
  if (n > max) throw invalidFormat(`value must be at most ${max} for dictionary value @ data['${key}']`)
  return n
}

function lightOn (call: ServiceCall, entityId: string, state: HassState): void {
  const a = { ...state.attributes }
  const modes = Array.isArray(a.supported_color_modes) ? a.supported_color_modes as string[] : ['onoff']
  const d = call.data
  let brightness = typeof a.brightness === 'number' ? a.brightness : 255
  const pct = numberIn(d, 'brightness_pct', 0, 100)
  if (pct !== undefined) brightness = Math.round(pct * 255 / 100)
  const raw = numberIn(d, 'brightness', 0, 255)
  if (raw !== undefined) brightness = Math.round(raw)
  const step = numberIn(d, 'brightness_step_pct', -100, 100)
  if (step !== undefined) brightness = Math.max(0, Math.min(255, brightness + Math.round(step * 255 / 100)))
  if (brightness === 0) { lightOff(call, entityId, state); return }
  if (!modes.includes('onoff')) a.brightness = brightness
  const kelvin = numberIn(d, 'color_temp_kelvin', 1000, 40000)
  if (Array.isArray(d.rgb_color) && (modes.includes('hs') || modes.includes('rgb'))) {
    a.color_mode = modes.includes('rgb') ? 'rgb' : 'hs'
    a.rgb_color = d.rgb_color
    a.color_temp_kelvin = null
  } else if (Array.isArray(d.hs_color) && modes.includes('hs')) {
    a.color_mode = 'hs'
    a.hs_color = d.hs_color
    a.color_temp_kelvin = null
  } else if (kelvin !== undefined && modes.includes('color_temp')) {
    a.color_mode = 'color_temp'
    a.color_temp_kelvin = Math.round(kelvin)
    a.color_temp = Math.round(1_000_000 / kelvin)
  } else if (a.color_mode === null || a.color_mode === undefined) {
    a.color_mode = modes.includes('color_temp') ? 'color_temp' : (modes[0] ?? 'onoff')
    if (a.color_mode === 'color_temp') { a.color_temp_kelvin = 2700; a.color_temp = 370 }
  }
  if (typeof d.effect === 'string') a.effect = d.effect
  call.house.setState(entityId, 'on', a, call.context)
}

function lightOff (call: ServiceCall, entityId: string, state: HassState): void {
  const a = { ...state.attributes }
  for (const key of ['brightness', 'color_mode', 'color_temp_kelvin', 'color_temp', 'hs_color', 'rgb_color', 'xy_color', 'effect']) if (key in a) a[key] = null
  call.house.setState(entityId, 'off', a, call.context)
}

function simple (state: string) {
  return (call: ServiceCall, entityId: string): void => { call.house.updateState(entityId, { state }, call.context) }
}

function toggleWith (on: ServiceDef['perEntity'], off: ServiceDef['perEntity']): ServiceDef['perEntity'] {
  return (call, entityId, state) => (state.state === 'on' ? off : on)?.(call, entityId, state)
}

function onOff (domain: string, noun: string, on: ServiceDef['perEntity'] = simple('on'), off: ServiceDef['perEntity'] = simple('off'), onFields: Record<string, unknown> = {}): Record<string, ServiceDef> {
  return {
    turn_on: svc('Turn on', `Turns on ${noun}.`, onFields, { targetDomains: [domain], perEntity: on }),
    turn_off: svc('Turn off', `Turns off ${noun}.`, {}, { targetDomains: [domain], perEntity: off }),
    toggle: svc('Toggle', `Toggles ${noun}.`, {}, { targetDomains: [domain], perEntity: toggleWith(on, off) })
  }
}

function fanOn (call: ServiceCall, entityId: string, state: HassState): void {
  const pct = numberIn(call.data, 'percentage', 0, 100)
  const percentage = pct ?? (typeof state.attributes.percentage === 'number' && state.attributes.percentage > 0 ? state.attributes.percentage : 50)
  call.house.updateState(entityId, { state: percentage === 0 ? 'off' : 'on', attributes: { percentage, ...(typeof call.data.preset_mode === 'string' ? { preset_mode: call.data.preset_mode } : {}) } }, call.context)
}

function fanOff (call: ServiceCall, entityId: string): void {
  call.house.updateState(entityId, { state: 'off', attributes: { percentage: 0 } }, call.context)
}

/** homeassistant.turn_on/off/toggle dispatch to the entity's own domain behaviour. */
function generic (tables: () => ServiceTable, service: string): ServiceDef['perEntity'] {
  return (call, entityId, state) => {
    const domain = entityId.split('.')[0] as string
    const def = tables()[domain]?.[service]
    if (def?.perEntity === undefined || !ON_OFF_DOMAINS.includes(domain)) return undefined
    return def.perEntity({ ...call, domain }, entityId, state)
  }
}

function reloadConfigEntry (call: ServiceCall): void {
  const ids = new Set<string>()
  if (typeof call.data.entry_id === 'string') ids.add(call.data.entry_id)
  for (const entityId of call.entityIds) {
    const entryId = call.house.entities.get(entityId)?.config_entry_id
    if (entryId) ids.add(entryId)
  }
  // A ValueError, or UnknownEntry from async_reload: websocket_api/commands.py handle_call_service
  // answers any other exception as unknown_error with its text.
  if (ids.size === 0) throw new HaError('unknown_error', 'There were no matching config entries to reload')
  for (const id of ids) {
    const entry = entriesOf(call.house).entries.get(id)
    if (entry === undefined) throw new HaError('unknown_error', id)
    reloadEntry(call.house, entry)
  }
}

export function toggleServices (tables: () => ServiceTable): ServiceTable {
  const lightFields = {
    brightness_pct: field('Brightness', { number: { min: 0, max: 100, unit_of_measurement: '%' } }, { filter: { supported_color_modes: ['brightness', 'color_temp', 'hs', 'xy', 'rgb', 'rgbw', 'rgbww', 'white'] } }),
    color_temp_kelvin: field('Color temperature', { color_temp: { unit: 'kelvin', min: 2000, max: 6500 } }),
    rgb_color: field('Color', { color_rgb: {} }),
    transition: field('Transition', { number: { min: 0, max: 300, unit_of_measurement: 'seconds' } })
  }
  return {
    light: onOff('light', 'one or more lights and adjusts their properties', lightOn, lightOff, lightFields),
    switch: onOff('switch', 'a switch'),
    input_boolean: onOff('input_boolean', 'the helper'),
    siren: onOff('siren', 'the siren'),
    remote: onOff('remote', 'the device'),
    fan: {
      ...onOff('fan', 'the fan', fanOn, fanOff, { percentage: field('Percentage', { number: { min: 0, max: 100, unit_of_measurement: '%' } }) }),
      set_percentage: svc('Set speed', 'Sets the speed of a fan.', { percentage: field('Percentage', { number: { min: 0, max: 100 } }, { required: true }) }, { targetDomains: ['fan'], perEntity: fanOn }),
      set_preset_mode: svc('Set preset mode', 'Sets preset fan mode.', { preset_mode: field('Preset mode', { text: {} }, { required: true }) }, { targetDomains: ['fan'], perEntity: fanOn }),
      oscillate: svc('Oscillate', 'Controls the oscillation of a fan.', { oscillating: field('Oscillating', { boolean: {} }, { required: true }) }, { targetDomains: ['fan'], perEntity: (call, id) => { call.house.updateState(id, { attributes: { oscillating: call.data.oscillating === true } }, call.context) } })
    },
    homeassistant: {
      turn_on: svc('Generic turn on', 'Generic action to turn devices on under any domain.', {}, { targetDomains: [], perEntity: generic(tables, 'turn_on') }),
      turn_off: svc('Generic turn off', 'Generic action to turn devices off under any domain.', {}, { targetDomains: [], perEntity: generic(tables, 'turn_off') }),
      toggle: svc('Generic toggle', 'Generic action to toggle devices on/off under any domain.', {}, { targetDomains: [], perEntity: generic(tables, 'toggle') }),
      update_entity: svc('Update entity', 'Forces one or more entities to update their data.', {}, { targetDomains: [] }),
      // components/homeassistant/__init__.py async_handle_reload_config_entry: entry_id, or the entries of the targets.
      reload_config_entry: svc('Reload config entry', 'Reloads the given config entry.', { entry_id: field('Config entry ID', { config_entry: {} }) }, { targetDomains: [], run: reloadConfigEntry }),
      // demo/core-config.ts: each runs the configuration check first, as core does.
      reload_all: svc('Reload all', 'Reloads all YAML configuration that can be reloaded without restarting.', {}, { run: reloadAllService(tables) }),
      check_config: svc('Check configuration', 'Checks the Home Assistant YAML configuration files for errors.', {}, { run: checkConfigService }),
      restart: svc('Restart', 'Restarts Home Assistant.', {}, { run: restartService }),
      stop: svc('Stop', 'Stops Home Assistant.', {})
    }
  }
}

import { HaError } from '../errors.ts'
import { field, svc, type ServiceCall, type ServiceDef, type ServiceTable } from './registry.ts'

type PerEntity = NonNullable<ServiceDef['perEntity']>

function set (state?: string, attrs?: (call: ServiceCall) => Record<string, unknown>): PerEntity {
  return (call, entityId) => {
    call.house.updateState(entityId, { ...(state === undefined ? {} : { state }), ...(attrs === undefined ? {} : { attributes: attrs(call) }) }, call.context)
  }
}

function entitySvc (domain: string, name: string, description: string, perEntity: PerEntity, fields: Record<string, unknown> = {}): ServiceDef {
  return svc(name, description, fields, { targetDomains: [domain], perEntity })
}

const coverPosition: PerEntity = (call, entityId) => {
  const position = Math.max(0, Math.min(100, Number(call.data.position)))
  call.house.updateState(entityId, { state: position === 0 ? 'closed' : 'open', attributes: { current_position: position } }, call.context)
}

const codeCheck = (call: ServiceCall): void => {
  if (call.data.code !== undefined && String(call.data.code) !== '1234') {
    throw new HaError('service_validation_error', 'Validation error: Invalid alarm code provided', { key: 'invalid_code', domain: 'alarm_control_panel', placeholders: null })
  }
}

function alarm (target: string): PerEntity {
  return (call, entityId) => { codeCheck(call); call.house.updateState(entityId, { state: target, attributes: { changed_by: null } }, call.context) }
}

export function deviceServices (): ServiceTable {
  return {
    cover: {
      open_cover: entitySvc('cover', 'Open', 'Opens a cover.', set('open', () => ({ current_position: 100 }))),
      close_cover: entitySvc('cover', 'Close', 'Closes a cover.', set('closed', () => ({ current_position: 0 }))),
      stop_cover: entitySvc('cover', 'Stop', 'Stops the cover movement.', () => undefined),
      toggle: entitySvc('cover', 'Toggle', 'Toggles a cover open/closed.', (call, id, state) => set(state.state === 'closed' ? 'open' : 'closed', () => ({ current_position: state.state === 'closed' ? 100 : 0 }))(call, id, state)),
      set_cover_position: entitySvc('cover', 'Set position', 'Moves a cover to a specific position.', coverPosition, { position: field('Position', { number: { min: 0, max: 100, unit_of_measurement: '%' } }, { required: true }) })
    },
    lock: {
      lock: entitySvc('lock', 'Lock', 'Locks a lock.', set('locked'), { code: field('Code', { text: {} }) }),
      unlock: entitySvc('lock', 'Unlock', 'Unlocks a lock.', set('unlocked'), { code: field('Code', { text: {} }) }),
      open: entitySvc('lock', 'Open', 'Opens a lock.', set('open'), { code: field('Code', { text: {} }) })
    },
    climate: {
      set_temperature: entitySvc('climate', 'Set target temperature', 'Sets the temperature setpoint.', (call, id, state) => {
        set(typeof call.data.hvac_mode === 'string' ? call.data.hvac_mode : state.state, () => ({ temperature: Number(call.data.temperature) }))(call, id, state)
      }, { temperature: field('Target temperature', { number: { min: 0, max: 250, step: 0.1, mode: 'box' } }), hvac_mode: field('HVAC mode', { state: { attribute: 'hvac_mode' } }) }),
      set_hvac_mode: entitySvc('climate', 'Set HVAC mode', 'Sets HVAC operation mode.', (call, id, state) => {
        const mode = String(call.data.hvac_mode)
        const modes = state.attributes.hvac_modes as string[] | undefined
        if (modes !== undefined && !modes.includes(mode)) throw new HaError('service_validation_error', `Validation error: HVAC mode ${mode} is not valid. Valid HVAC modes are: ${modes.join(', ')}`, { key: 'not_valid_hvac_mode', domain: 'climate', placeholders: { mode, modes: modes.join(', ') } })
        set(mode)(call, id, state)
      }, { hvac_mode: field('HVAC mode', { state: { attribute: 'hvac_mode' } }, { required: true }) }),
      set_preset_mode: entitySvc('climate', 'Set preset mode', 'Sets preset mode.', set(undefined, call => ({ preset_mode: call.data.preset_mode })), { preset_mode: field('Preset mode', { text: {} }, { required: true }) }),
      turn_on: entitySvc('climate', 'Turn on', 'Turns climate device on.', set('heat')),
      turn_off: entitySvc('climate', 'Turn off', 'Turns climate device off.', set('off'))
    },
    media_player: {
      turn_on: entitySvc('media_player', 'Turn on', 'Turns on the power of the media player.', set('on')),
      turn_off: entitySvc('media_player', 'Turn off', 'Turns off the power of the media player.', set('off')),
      toggle: entitySvc('media_player', 'Toggle', 'Toggles a media player on/off.', (call, id, state) => set(state.state === 'off' ? 'on' : 'off')(call, id, state)),
      media_play: entitySvc('media_player', 'Play', 'Starts playing.', set('playing')),
      media_pause: entitySvc('media_player', 'Pause', 'Pauses.', set('paused')),
      media_stop: entitySvc('media_player', 'Stop', 'Stops playing.', set('idle')),
      media_play_pause: entitySvc('media_player', 'Play/Pause', 'Toggles play/pause.', (call, id, state) => set(state.state === 'playing' ? 'paused' : 'playing')(call, id, state)),
      volume_set: entitySvc('media_player', 'Set volume', 'Sets the volume level.', set(undefined, call => ({ volume_level: Number(call.data.volume_level) })), { volume_level: field('Level', { number: { min: 0, max: 1, step: 0.01 } }, { required: true }) }),
      volume_mute: entitySvc('media_player', 'Mute/unmute volume', 'Mutes or unmutes the media player.', set(undefined, call => ({ is_volume_muted: call.data.is_volume_muted === true })), { is_volume_muted: field('Muted', { boolean: {} }, { required: true }) }),
      select_source: entitySvc('media_player', 'Select source', 'Sends the media player the command to change input source.', set(undefined, call => ({ source: call.data.source })), { source: field('Source', { text: {} }, { required: true }) }),
      play_media: entitySvc('media_player', 'Play media', 'Starts playing specified media.', set('playing', call => ({ media_content_id: (call.data.media as Record<string, unknown> | undefined)?.media_content_id ?? call.data.media_content_id ?? null })), { media: field('Media', { media: {} }) })
    },
    vacuum: {
      start: entitySvc('vacuum', 'Start', 'Starts or resumes the cleaning task.', set('cleaning')),
      stop: entitySvc('vacuum', 'Stop', 'Stops the current cleaning task.', set('idle')),
      pause: entitySvc('vacuum', 'Pause', 'Pauses the cleaning task.', set('paused')),
      return_to_base: entitySvc('vacuum', 'Return to dock', 'Tells the vacuum cleaner to return to its dock.', set('returning')),
      locate: entitySvc('vacuum', 'Locate', 'Locates the vacuum cleaner robot.', () => undefined),
      set_fan_speed: entitySvc('vacuum', 'Set fan speed', 'Sets the fan speed of the vacuum cleaner.', set(undefined, call => ({ fan_speed: call.data.fan_speed })), { fan_speed: field('Fan speed', { text: {} }, { required: true }) })
    },
    water_heater: {
      set_temperature: entitySvc('water_heater', 'Set temperature', 'Sets the target temperature.', set(undefined, call => ({ temperature: Number(call.data.temperature) })), { temperature: field('Temperature', { number: { min: 0, max: 100 } }, { required: true }) }),
      set_operation_mode: entitySvc('water_heater', 'Set operation mode', 'Sets the operation mode.', (call, id, state) => set(String(call.data.operation_mode), () => ({ operation_mode: call.data.operation_mode }))(call, id, state), { operation_mode: field('Operation mode', { text: {} }, { required: true }) })
    },
    alarm_control_panel: {
      alarm_disarm: entitySvc('alarm_control_panel', 'Disarm', 'Disarms the alarm.', alarm('disarmed'), { code: field('Code', { text: {} }) }),
      alarm_arm_home: entitySvc('alarm_control_panel', 'Arm home', 'Arms the alarm in the home mode.', alarm('armed_home'), { code: field('Code', { text: {} }) }),
      alarm_arm_away: entitySvc('alarm_control_panel', 'Arm away', 'Arms the alarm in the away mode.', alarm('armed_away'), { code: field('Code', { text: {} }) }),
      alarm_arm_night: entitySvc('alarm_control_panel', 'Arm night', 'Arms the alarm in the night mode.', alarm('armed_night'), { code: field('Code', { text: {} }) }),
      alarm_trigger: entitySvc('alarm_control_panel', 'Trigger', 'Triggers the alarm manually.', alarm('triggered'), { code: field('Code', { text: {} }) })
    },
    button: { press: entitySvc('button', 'Press', 'Press the button entity.', (call, id) => { call.house.updateState(id, { state: new Date().toISOString().replace('Z', '+00:00') }, call.context) }) },
    select: { select_option: entitySvc('select', 'Select', 'Selects an option.', selectOption, { option: field('Option', { state: { attribute: 'options' } }, { required: true }) }) },
    number: { set_value: entitySvc('number', 'Set', 'Sets the value of a number.', (call, id) => { call.house.updateState(id, { state: String(call.data.value) }, call.context) }, { value: field('Value', { text: {} }, { required: true }) }) }
  }
}

export const selectOption: PerEntity = (call, entityId, state) => {
  const option = String(call.data.option)
  const options = state.attributes.options as string[] | undefined
  if (options !== undefined && !options.includes(option)) {
    throw new HaError('service_validation_error', `Validation error: Option ${option} is not valid for entity ${entityId}, valid options are: ${options.join(', ')}`, { key: 'not_valid_option', domain: entityId.split('.')[0] as string, placeholders: { entity_id: entityId, option, options: options.join(', ') } })
  }
  call.house.updateState(entityId, { state: option }, call.context)
}

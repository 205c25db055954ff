// Every described service can be called on a matching entity: it changes the house or answers with an
// HA-style validation error, never an internal error. Plus behaviours a user notices per domain.
import t from 'tap'
import { startDemoHome } from '../index.ts'
import { RawClient } from './fixtures/ws-client.ts'

function sampleValue (field: string, entityId: string | undefined, states: Map<string, any>, mediaPlayer: string): unknown {
  const state = entityId === undefined ? undefined : states.get(entityId)
  const domain = entityId?.split('.')[0]
  switch (field) {
    case 'option': return (state?.attributes.options as string[] | undefined)?.[1] ?? 'x'
    case 'options': return ['Un', 'Deux']
    case 'value': return domain === 'input_number' ? (state?.attributes.min as number) + 1 : domain === 'input_text' ? 'Grüße' : 3
    case 'percentage': return 30
    case 'preset_mode': return (state?.attributes.preset_modes as string[] | undefined)?.[0] ?? 'home'
    case 'oscillating': return true
    case 'position': return 55
    case 'temperature': return 21.5
    case 'hvac_mode': return 'heat'
    case 'volume_level': return 0.4
    case 'is_volume_muted': return true
    case 'source': return 'TV'
    case 'fan_speed': return 'turbo'
    case 'operation_mode': return 'performance'
    case 'item': return domain === 'todo' ? 'Milk' : 'x'
    case 'message': return 'Bonjour'
    case 'media_player_entity_id': return mediaPlayer
    case 'type': return 'daily'
    case 'scene_id': return 'made_by_test'
    case 'entities': return {}
    case 'notification_id': return 'demo'
    case 'summary': return 'Rendez-vous'
    case 'media': return { media_content_id: 'media-source://radio', media_content_type: 'music' }
    default: return undefined
  }
}

t.test('every service answers like HA', async t => {
  const home = await startDemoHome({ entities: 300 })
  t.teardown(() => home.close())
  const c = await RawClient.connect(home.url, home.token)
  t.teardown(() => c.close())
  const services = await c.ok({ type: 'get_services' }) as Record<string, Record<string, any>>
  const states = new Map((await c.ok({ type: 'get_states' }) as any[]).map(s => [s.entity_id, s]))
  const mediaPlayer = [...states.keys()].find(id => id.startsWith('media_player.')) as string
  let called = 0
  for (const [domain, list] of Object.entries(services)) {
    for (const [service, description] of Object.entries(list)) {
      if (domain === 'homeassistant' && (service === 'restart' || service === 'stop')) continue
      const targetDomain = description.target?.entity?.[0]?.domain?.[0] as string | undefined
      const entityId = targetDomain === undefined ? (description.target === undefined ? undefined : [...states.keys()].find(id => id.startsWith('light.'))) : [...states.keys()].find(id => id.startsWith(`${targetDomain}.`) && states.get(id).state !== 'unavailable')
      const data: Record<string, unknown> = {}
      for (const field of Object.keys(description.fields ?? {})) {
        const value = sampleValue(field, entityId, states, mediaPlayer)
        if (value !== undefined && (description.fields[field].required === true || ['option', 'value', 'message', 'item', 'type'].includes(field))) data[field] = value
      }
      const answer = await c.command({
        type: 'call_service',
        domain,
        service,
        service_data: data,
        ...(entityId === undefined ? {} : { target: { entity_id: entityId } }),
        ...(description.response === undefined ? {} : { return_response: true })
      })
      called++
      // Home Assistant's own answer to a reload of entities no config entry holds (a ValueError).
      if (domain === 'homeassistant' && service === 'reload_config_entry' && answer.success !== true) t.match(answer.error, { code: 'unknown_error', message: 'There were no matching config entries to reload' })
      else if (answer.success !== true) t.not(answer.error.code, 'unknown_error', `${domain}.${service}: ${answer.error.message}`)
    }
  }
  t.ok(called > 100, `${called} services called`)
  t.equal(home.serviceCalls.length, called, 'each call is recorded once')
})

t.test('domain behaviours a user notices', async t => {
  const home = await startDemoHome({ entities: 300, seed: 4 })
  t.teardown(() => home.close())
  const c = await RawClient.connect(home.url, home.token)
  t.teardown(() => c.close())
  const first = (domain: string): string => home.entityIds().find(id => id.startsWith(`${domain}.`) && home.getState(id)?.state !== 'unavailable') as string
  const call = async (domain: string, service: string, entityId: string, data: Record<string, unknown> = {}): Promise<any> =>
    await c.command({ type: 'call_service', domain, service, service_data: data, target: { entity_id: entityId } })

  const fan = first('fan')
  await call('fan', 'set_percentage', fan, { percentage: 70 })
  t.match(home.getState(fan), { state: 'on', attributes: { percentage: 70 } })
  await call('fan', 'turn_off', fan)
  t.match(home.getState(fan), { state: 'off', attributes: { percentage: 0 } })

  const light = first('light')
  await call('light', 'turn_on', light, { brightness_pct: 100 })
  t.equal(home.getState(light)?.attributes.brightness, 255)
  await call('light', 'turn_off', light)
  t.match(home.getState(light), { state: 'off', attributes: { brightness: null } })
  await call('homeassistant', 'toggle', light)
  t.equal(home.getState(light)?.state, 'on', 'homeassistant.toggle uses the light behaviour')

  const player = first('media_player')
  await call('media_player', 'volume_set', player, { volume_level: 0.25 })
  t.equal(home.getState(player)?.attributes.volume_level, 0.25)
  await call('media_player', 'media_play', player)
  t.equal(home.getState(player)?.state, 'playing')

  const alarm = 'alarm_control_panel.home_alarm'
  const wrong = await call('alarm_control_panel', 'alarm_arm_away', alarm, { code: '0000' })
  t.equal(wrong.error.code, 'service_validation_error')
  t.equal(home.getState(alarm)?.state, 'disarmed')
  await call('alarm_control_panel', 'alarm_arm_away', alarm, { code: '1234' })
  t.equal(home.getState(alarm)?.state, 'armed_away')

  await call('counter', 'increment', 'counter.coffee_cups')
  t.equal(home.getState('counter.coffee_cups')?.state, '4')
  await call('counter', 'reset', 'counter.coffee_cups')
  t.equal(home.getState('counter.coffee_cups')?.state, '0')
  const outOfRange = await call('input_number', 'set_value', 'input_number.target_temperature', { value: 99 })
  t.equal(outOfRange.error.code, 'service_validation_error')
  const badOption = await call('input_select', 'select_option', 'input_select.house_mode', { option: 'Party' })
  t.equal(badOption.error.code, 'service_validation_error')
  await call('input_select', 'select_next', 'input_select.house_mode')
  t.equal(home.getState('input_select.house_mode')?.state, 'Away')
  await call('input_datetime', 'set_datetime', 'input_datetime.alarm_time', { time: '06:45' })
  t.equal(home.getState('input_datetime.alarm_time')?.state, '06:45:00')

  const byArea = await c.ok({ type: 'call_service', domain: 'light', service: 'turn_off', target: { area_id: 'kuche' } })
  t.ok(byArea.context)
  t.ok(home.entityIds().filter(id => id.startsWith('light.kuche')).every(id => home.getState(id)?.state === 'off'), 'area targets reach the lights of the area')
  await c.ok({ type: 'call_service', domain: 'switch', service: 'turn_on', target: { device_id: home.entityIds().length > 0 ? (await c.ok({ type: 'config/entity_registry/get', entity_id: 'switch.irrigation' })).device_id : '' } })
  t.equal(home.getState('switch.irrigation')?.state, 'on', 'device targets (a child device) work')
  const floorOff = await c.ok({ type: 'call_service', domain: 'light', service: 'turn_on', target: { floor_id: 'premier_etage' } })
  t.ok(floorOff.context)
  t.ok(home.entityIds().filter(id => id.startsWith('light.master_bedroom')).every(id => home.getState(id)?.state === 'on'), 'floor targets')
  const vacuum = first('vacuum')
  if (vacuum !== undefined) {
    await call('vacuum', 'start', vacuum)
    t.equal(home.getState(vacuum)?.state, 'cleaning')
  }
  const deleted = await call('scene', 'delete', 'scene.movie')
  t.equal(deleted.error.code, 'service_validation_error', 'only scenes made by scene.create can be deleted')
})

t.test('entity_id is read like cv.comp_entity_ids: comma strings, case, all and none', async t => {
  const home = await startDemoHome({})
  t.teardown(() => home.close())
  const c = await RawClient.connect(home.url, home.token)
  t.teardown(() => c.close())
  const locks = home.entityIds().filter(id => id.startsWith('lock.'))
  for (const id of locks) home.setState(id, 'locked')
  for (const id of ['switch.irrigation', 'switch.spare_plug']) home.setState(id, 'on')

  await c.ok({ type: 'call_service', domain: 'switch', service: 'turn_off', service_data: { entity_id: 'switch.irrigation , SWITCH.SPARE_PLUG' } })
  t.equal(home.getState('switch.irrigation')?.state, 'off', 'a comma string is split and stripped')
  t.equal(home.getState('switch.spare_plug')?.state, 'off', 'and lower-cased')

  await c.ok({ type: 'call_service', domain: 'lock', service: 'unlock', target: { entity_id: 'none' } })
  t.ok(locks.every(id => home.getState(id)?.state === 'locked'), '"none" reaches nothing')
  await c.ok({ type: 'call_service', domain: 'lock', service: 'unlock', service_data: { entity_id: 'ALL' } })
  t.ok(locks.every(id => home.getState(id)?.state === 'unlocked'), '"all" reaches every entity of the service\'s domain')
  t.equal(home.getState('switch.irrigation')?.state, 'off', 'and nothing of another domain')

  const bad = await c.command({ type: 'call_service', domain: 'lock', service: 'lock', target: { entity_id: ['lock.front_door_lock', 'lock.x, lock.y'] } })
  t.equal(bad.error.code, 'invalid_format', 'list items are not split: one bad id fails the call')
  t.equal(home.getState('lock.front_door_lock')?.state, 'unlocked', 'and nothing happened')
})

t.test('target and service_data merge as homeassistant/core.py does: key by key, the target winning a shared key', async t => {
  const home = await startDemoHome({})
  t.teardown(() => home.close())
  const c = await RawClient.connect(home.url, home.token)
  t.teardown(() => c.close())
  for (const id of ['switch.irrigation', 'switch.spare_plug']) home.setState(id, 'on')

  await c.ok({ type: 'call_service', domain: 'switch', service: 'turn_off', target: { entity_id: 'switch.irrigation' }, service_data: { entity_id: 'switch.spare_plug' } })
  t.equal(home.getState('switch.irrigation')?.state, 'off', 'the target\'s entity_id is the one acted on')
  t.equal(home.getState('switch.spare_plug')?.state, 'on', 'the data\'s entity_id does not replace it')

  const light = home.entityIds().find(id => id.startsWith('light.living_room_ceiling')) as string
  home.setState(light, 'on')
  home.setState('switch.spare_plug', 'on')
  await c.ok({ type: 'call_service', domain: 'homeassistant', service: 'turn_off', target: { entity_id: 'switch.spare_plug' }, service_data: { area_id: 'living_room' } })
  t.equal(home.getState('switch.spare_plug')?.state, 'off', 'the target\'s entity is reached')
  t.equal(home.getState(light)?.state, 'off', 'and so is the area named only in the data')
})

t.test('groups stand for their members, as helpers/group.py expand_entity_ids says', async t => {
  const home = await startDemoHome({})
  t.teardown(() => home.close())
  const c = await RawClient.connect(home.url, home.token)
  t.teardown(() => c.close())
  home.setState('lock.front_door_lock', 'locked')
  await c.ok({ type: 'call_service', domain: 'lock', service: 'unlock', target: { entity_id: 'group.doors' } })
  t.equal(home.getState('lock.front_door_lock')?.state, 'unlocked', 'an old-style group reaches its lock')

  const members = home.getState('light.downstairs_lights')?.attributes.entity_id as string[]
  t.ok(members.length > 0, 'the light group lists its members')
  for (const id of members) home.setState(id, 'off')
  await c.ok({ type: 'call_service', domain: 'light', service: 'turn_on', target: { entity_id: 'light.downstairs_lights' } })
  t.ok(members.every(id => home.getState(id)?.state === 'on'), 'a light group turns its members on')
  t.equal(home.getState('light.downstairs_lights')?.state, 'on', 'and its own state follows')

  await c.ok({ type: 'call_service', domain: 'group', service: 'set', service_data: { object_id: 'loop_a', entities: ['group.loop_b', 'switch.irrigation'] } })
  await c.ok({ type: 'call_service', domain: 'group', service: 'set', service_data: { object_id: 'loop_b', entities: ['group.loop_a'] } })
  home.setState('switch.irrigation', 'on')
  await c.ok({ type: 'call_service', domain: 'switch', service: 'turn_off', target: { entity_id: 'group.loop_b' } })
  t.equal(home.getState('switch.irrigation')?.state, 'off', 'groups of groups expand, and a cycle ends')

  await c.ok({ type: 'call_service', domain: 'group', service: 'set', service_data: { object_id: 'doors', add_entities: ['switch.irrigation'] } })
  t.same(home.getState('group.doors')?.attributes.entity_id, ['lock.front_door_lock', 'switch.irrigation'], 'add_entities adds members')
})

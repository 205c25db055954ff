// What a write answer says each entity reached, and which domains a service acts on.
import t from 'tap'
import { alreadyAsAsked, describeState, settle } from '../../../src/policy/reached.ts'
import { serviceDomainsOf, type ServiceDescriptions } from '../../../src/policy/targets.ts'
import { fakeClock } from '../../helper.ts'

t.test('states in words', async t => {
  t.equal(describeState('light.kitchen', { state: 'on', attributes: { brightness: 196 } }), 'on, brightness 77 %')
  t.equal(describeState('light.kitchen', { state: 'off', attributes: { brightness: null } }), 'off')
  t.equal(describeState('cover.blind', { state: 'open', attributes: { current_position: 40 } }), 'open, position 40 %')
  t.equal(describeState('fan.ceiling', { state: 'on', attributes: { percentage: 33 } }), 'on, speed 33 %')
  t.equal(describeState('climate.living', { state: 'heat', attributes: { temperature: 21, current_temperature: 19.5 } }), 'heat, target 21°, now 19.5°')
  t.equal(describeState('media_player.tv', { state: 'playing', attributes: { volume_level: 0.4 } }), 'playing, volume 40 %')
  t.equal(describeState('input_number.target', { state: '22.5', attributes: { unit_of_measurement: '°C' } }), '22.5 °C')
})

t.test('settle waits for the call\'s context, bounded by the injected timer', async t => {
  const clock = fakeClock()
  const states = new Map([['light.a', { state: 'off', attributes: {}, context: { id: 'old' } }], ['light.b', { state: 'on', attributes: { brightness: 255 }, context: { id: 'old' } }]])
  const listeners = new Set<(id: string) => void>()
  const deps = { state: (id: string) => states.get(id), changes: (l: (id: string) => void) => { listeners.add(l); return () => { listeners.delete(l) } }, schedule: clock.schedule }
  const pending = settle(deps, ['light.a', 'light.b'], 'ctx')
  states.set('light.a', { state: 'on', attributes: { brightness: 128 }, context: { id: 'ctx' } })
  for (const l of listeners) l('light.a')
  t.same(clock.pending(), [1500], 'light.b never changes: the bound is what ends the wait')
  clock.advance(1500)
  const done = await pending
  t.same(done.states, { 'light.a': 'on, brightness 50 %', 'light.b': 'on, brightness 100 %' })
  t.same(done.unchanged, ['light.b'])
  t.equal(listeners.size, 0, 'the listener is removed')
})

t.test('service domains from get_services descriptions', async t => {
  const all = {
    light: { turn_on: { target: { entity: [{ domain: ['light'] }] } } },
    homeassistant: { turn_on: { target: { entity: [{}] } } },
    sonos: { join: { target: { entity: [{ integration: 'sonos', domain: ['media_player'] }] } } },
    logbook: { log: {} }
  } satisfies ServiceDescriptions
  t.same(serviceDomainsOf(all, 'light', 'turn_on'), ['light'])
  t.equal(serviceDomainsOf(all, 'homeassistant', 'turn_on'), 'any')
  t.same(serviceDomainsOf(all, 'sonos', 'join'), ['media_player'], 'an integration service acts on its platform\'s domain')
  t.equal(serviceDomainsOf(all, 'logbook', 'log'), 'none', 'no target: not an entity service')
  t.equal(serviceDomainsOf(all, 'light', 'explode'), undefined)
})

t.test('settle spends no wait on entities already as the call leaves them', async t => {
  const clock = fakeClock()
  const states = new Map([['light.a', { state: 'on', attributes: { brightness: 255 }, context: { id: 'old' } }], ['light.b', { state: 'off', attributes: {}, context: { id: 'old' } }]])
  const deps = { state: (id: string) => states.get(id), changes: () => () => {}, schedule: clock.schedule }
  const all = await settle(deps, ['light.a'], 'ctx', new Set(['light.a']))
  t.same(clock.pending(), [], 'nothing to wait for: no timer was set')
  t.same(all, { states: { 'light.a': 'on, brightness 100 %' }, unchanged: ['light.a'] })
  const some = settle(deps, ['light.a', 'light.b'], 'ctx', new Set(['light.a']))
  t.same(clock.pending(), [1500], 'light.b may still change: only it is waited for')
  clock.advance(1500)
  t.same((await some).unchanged, ['light.a', 'light.b'])
})

t.test('alreadyAsAsked: only when the pre-state says so for sure', async t => {
  const on = { state: 'on', attributes: { brightness: 255 } }
  t.ok(alreadyAsAsked({ domain: 'light', service: 'turn_on' }, 'light.a', on))
  t.ok(alreadyAsAsked({ domain: 'light', service: 'turn_on', data: { brightness: 255 } }, 'light.a', on), 'every given field already equal')
  t.notOk(alreadyAsAsked({ domain: 'light', service: 'turn_on', data: { brightness: 100 } }, 'light.a', on), 'a field that differs')
  t.notOk(alreadyAsAsked({ domain: 'light', service: 'turn_on', data: { transition: 2 } }, 'light.a', on), 'a field the state does not show')
  t.notOk(alreadyAsAsked({ domain: 'light', service: 'turn_off' }, 'light.a', on))
  t.notOk(alreadyAsAsked({ domain: 'light', service: 'toggle' }, 'light.a', on), 'toggle always changes something')
  t.ok(alreadyAsAsked({ domain: 'homeassistant', service: 'turn_off' }, 'switch.a', { state: 'off', attributes: {} }))
  t.ok(alreadyAsAsked({ domain: 'lock', service: 'lock' }, 'lock.a', { state: 'locked', attributes: {} }))
  t.notOk(alreadyAsAsked({ domain: 'media_player', service: 'turn_on' }, 'media_player.a', { state: 'on', attributes: {} }), 'a player may start playing')
  t.ok(alreadyAsAsked({ domain: 'input_select', service: 'select_option', data: { option: 'Away' } }, 'input_select.mode', { state: 'Away', attributes: {} }))
  t.notOk(alreadyAsAsked({ domain: 'input_number', service: 'set_value', data: { value: 3 } }, 'input_number.n', { state: '4', attributes: {} }))
  t.notOk(alreadyAsAsked({ domain: 'light', service: 'turn_on' }, 'light.gone', undefined))
})

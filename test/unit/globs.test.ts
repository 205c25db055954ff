// Entity and service globs (entity_allowlist, entity_denylist, service_denylist): the patterns owners
// know from shells and other tools, read by minimatch; every pattern that worked before still does.
import t from 'tap'
import { globMatch, matchesAny } from '../../src/globs.ts'

const CASES: Array<[pattern: string, value: string, matches: boolean, why: string]> = [
  // * as before: any run of characters, dots included, anchored at both ends, any case
  ['lock.*', 'lock.front_door', true, '* after the domain'],
  ['LOCK.*', 'lock.front_door', true, 'case does not matter'],
  ['light.*', 'LIGHT.Kitchen', true, 'nor in the value'],
  ['lock.*', 'xlock.front', false, 'anchored at the start'],
  ['light.kitchen', 'light.kitchen_2', false, 'anchored at the end'],
  ['*.secret', 'camera.secret', true, '* before the dot'],
  ['*door*', 'binary_sensor.front_door_contact', true, '* on both sides, across the dot'],
  ['recorder.purge*', 'recorder.purge_entities', true, 'a service prefix'],
  ['*_registry.delete', 'label_registry.delete', true, 'a pseudo-service family'],
  [' light.* ', 'light.kitchen', true, 'surrounding spaces are ignored'],
  // ? one character
  ['light.k?tchen', 'light.kitchen', true, '? is one character'],
  ['light.?', 'light.ab', false, '? is exactly one'],
  // [...] one of a set or range
  ['switch.plug_[12]', 'switch.plug_2', true, 'a set'],
  ['switch.plug_[12]', 'switch.plug_3', false, 'outside the set'],
  ['sensor.room_[a-c]', 'sensor.room_b', true, 'a range'],
  ['sensor.room_[!a]', 'sensor.room_b', true, 'a negated set'],
  // {a,b} alternatives
  ['{lock,alarm_control_panel}.*', 'alarm_control_panel.home', true, 'either domain'],
  ['{lock,alarm_control_panel}.*', 'light.home', false, 'neither'],
  ['cover.garage_{left,right}', 'cover.garage_right', true, 'alternatives at the end'],
  // nothing turns a list entry into "everything but": ! and # are literal
  ['!lock.*', 'light.kitchen', false, 'a leading ! does not negate'],
  ['#lock.*', 'lock.front', false, 'a leading # is a character, not a comment']
]

t.test('patterns', async t => {
  for (const [pattern, value, matches, why] of CASES) {
    t.equal(globMatch(pattern, value), matches, `${pattern} ${matches ? 'matches' : 'does not match'} ${value}: ${why}`)
  }
})

t.test('a list matches when any pattern does', async t => {
  t.ok(matchesAny(['x.*', '{camera,lock}.*'], 'camera.porch'))
  t.notOk(matchesAny([], 'anything'))
})

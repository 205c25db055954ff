// Effective membership (src/policy/targets.ts effectiveMembers), held to Home Assistant's target
// resolution (homeassistant/helpers/target.py) on a hand-made registry, and to the demo home's.
import t from 'tap'
import { effectiveArea, effectiveMembers, type MembershipRegistry } from '../../../src/policy/targets.ts'
import { House } from '../../../demo/house.ts'
import { generateHome } from '../../../demo/generate/home.ts'
import { Services } from '../../../demo/services/index.ts'

const registry: MembershipRegistry = {
  areas: new Map([
    ['hall', { area_id: 'hall', name: 'Hall', floor_id: 'ground', labels: [] }],
    ['kitchen', { area_id: 'kitchen', name: 'Kitchen', floor_id: 'ground', labels: ['tidy'] }],
    ['attic', { area_id: 'attic', name: 'Attic', floor_id: 'top', labels: [] }]
  ]),
  floors: new Map([['ground', { floor_id: 'ground', name: 'Ground' }], ['top', { floor_id: 'top', name: 'Top' }]]),
  labels: new Map([['critical', { label_id: 'critical', name: 'Critical' }], ['tidy', { label_id: 'tidy', name: 'Tidy' }]]),
  devices: new Map([
    ['door', { id: 'door', area_id: 'hall', labels: ['critical'] }],
    ['hub', { id: 'hub', area_id: 'attic', labels: [] }],
    ['child', { id: 'child', area_id: null, labels: [], parent_device_id: 'hub' }],
    ['zigbee', { id: 'zigbee', area_id: null, labels: [], parent_device_id: null, via_device_id: 'hub' }]
  ]),
  entities: new Map([
    ['lock.door', { entity_id: 'lock.door', device_id: 'door', area_id: null, labels: [] }],
    ['sensor.door_battery', { entity_id: 'sensor.door_battery', device_id: 'door', area_id: null, labels: [], entity_category: 'diagnostic' }],
    ['light.door_porch', { entity_id: 'light.door_porch', device_id: 'door', area_id: 'kitchen', labels: [] }],
    ['switch.hidden', { entity_id: 'switch.hidden', device_id: 'door', area_id: null, labels: [], hidden_by: 'user' }],
    ['sensor.child', { entity_id: 'sensor.child', device_id: 'child', area_id: null, labels: [] }],
    ['light.behind_hub', { entity_id: 'light.behind_hub', device_id: 'zigbee', area_id: null, labels: [] }],
    ['light.kitchen', { entity_id: 'light.kitchen', device_id: null, area_id: 'kitchen', labels: [] }]
  ])
}
const members = (selection: Parameters<typeof effectiveMembers>[1], primaryOnly = true): string[] => [...effectiveMembers(registry, selection, { primaryOnly })].sort()

t.test('Home Assistant\'s rules, one by one', async t => {
  t.same(members({ area_id: ['hall'] }), ['lock.door'], 'an entity without an area sits in its device\'s; one with its own area does not')
  t.same(members({ area_id: ['hall'] }, false), ['lock.door', 'sensor.door_battery', 'switch.hidden'], 'deletes read hidden and diagnostic members too')
  t.same(members({ area_id: ['kitchen'] }), ['light.door_porch', 'light.kitchen'], 'an entity\'s own area wins over its device\'s')
  t.same(members({ floor_id: ['ground'] }), ['light.door_porch', 'light.kitchen', 'lock.door'], 'a floor holds its areas')
  t.same(members({ label_id: ['critical'] }), ['light.door_porch', 'lock.door'], 'a label on a device reaches all the device\'s entities')
  t.same(members({ label_id: ['tidy'] }), ['light.door_porch', 'light.kitchen'], 'a label on an area reaches the area')
  t.same(members({ device_id: ['hub'] }), ['sensor.child'], 'a device brings its child devices')
  t.same(members({ area_id: ['attic'] }), ['sensor.child'], 'a child device without an area is in its parent\'s area; a device behind a hub (via_device_id) is not')
  t.same(members({ floor_id: ['top'] }), ['sensor.child'], 'and so on its parent\'s floor')
  t.equal(effectiveArea(registry, 'sensor.child'), 'attic')
  t.equal(effectiveArea(registry, 'light.behind_hub'), null, 'nothing through via_device_id')
  t.equal(effectiveArea(registry, 'lock.door'), 'hall')
  t.equal(effectiveArea(registry, 'light.door_porch'), 'kitchen')
})

t.test('the demo home resolves every area, floor, label and device the same way', async t => {
  const house = new House(generateHome({ entities: 400, seed: 7, startMs: Date.now() }))
  const services = new Services(house)
  const view = house as unknown as MembershipRegistry
  const withState = (ids: Iterable<string>): string[] => [...ids].filter(id => house.states.has(id)).sort()
  const cases: Array<[string, string]> = [
    ...[...house.areas.keys()].map(id => ['area_id', id] as [string, string]),
    ...[...house.floors.keys()].map(id => ['floor_id', id] as [string, string]),
    ...[...house.labels.keys()].map(id => ['label_id', id] as [string, string]),
    ...[...house.devices.keys()].slice(0, 40).map(id => ['device_id', id] as [string, string])
  ]
  let compared = 0
  for (const [field, id] of cases) {
    const demo = services.resolveTargets({ [field]: id }, undefined).sort()
    const ours = withState(effectiveMembers(view, { [field]: [id] }, { primaryOnly: true }))
    t.same(ours, demo, `${field} ${id}`)
    compared++
  }
  t.ok(compared > 20, `${compared} selections compared`)
})

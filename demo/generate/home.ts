import { epochSeconds } from '../util.ts'
import type { AreaEntry, DeviceEntry } from '../types.ts'
import { addAutomations } from './automations.ts'
import { HomeBuilder, type EntityExtras } from './builder.ts'
import { DEVICE_KINDS, ROOM_STARTER, type DeviceKind } from './catalog.ts'
import type { CalendarEvent, GeneratedHome, TodoItem } from './home-types.ts'
import { AREA_SEEDS, extraAreaSeed, FLOOR_SEEDS, LABEL_SEEDS, makeArea } from './places.ts'
import { STATIC, type EntitySpec } from './profiles.ts'
import { addSingletons, addUpdateEntities } from './singletons.ts'

export interface GenerateOptions { entities: number, seed: number, startMs: number }

const KIND_BY_ID = new Map(DEVICE_KINDS.map(kind => [kind.id, kind]))

function kindFor (slot: number, areaIndex: number): DeviceKind {
  const id = ROOM_STARTER[slot]
  if (id !== undefined) return KIND_BY_ID.get(id) as DeviceKind
  return DEVICE_KINDS[(slot + areaIndex) % DEVICE_KINDS.length] as DeviceKind
}

function labelsFor (spec: EntitySpec): string[] {
  if (spec.domain === 'light') return ['lighting']
  if (spec.deviceClass === 'battery') return ['battery_powered']
  if (spec.deviceClass === 'energy') return ['energy']
  if (spec.domain === 'lock') return ['security', 'critical']
  return []
}

/** Builds the whole home from the seed; the same options always give the same home. */
export function generateHome (opts: GenerateOptions): GeneratedHome {
  const b = new HomeBuilder(opts.seed, opts.startMs)
  const createdAt = epochSeconds(opts.startMs - 90 * 86_400_000)
  const floors = FLOOR_SEEDS.map(seed => ({ ...seed, aliases: [...seed.aliases], created_at: createdAt, modified_at: createdAt }))
  const labels = LABEL_SEEDS.map(seed => ({ ...seed, created_at: createdAt, modified_at: createdAt }))
  const areaCount = Math.max(AREA_SEEDS.length, Math.ceil(opts.entities / 40))
  const areas: AreaEntry[] = AREA_SEEDS.map(seed => makeArea(seed, createdAt))
  for (let i = AREA_SEEDS.length; i < areaCount; i++) areas.push(makeArea(extraAreaSeed(i + 1), createdAt))

  const add = (spec: EntitySpec, device: DeviceEntry | null, extras: EntityExtras = {}): string =>
    b.addEntity(spec, device, { ...extras, labels: extras.labels ?? labelsFor(spec) })
  const addDeviceOf = (kind: DeviceKind, name: string, areaId: string | null, via: string | null = null): string[] => {
    const device = b.addDevice({ name, manufacturer: kind.manufacturer, model: kind.model, platform: kind.platform, areaId, viaDeviceId: kind.platform === 'zha' ? via : null })
    return kind.build(b.rng).map(spec => add(spec, device))
  }

  // Hubs and special devices first so the tricky cases exist at every size.
  const coordinator = b.addDevice({ name: 'Zigbee Coordinator', manufacturer: 'Nabu Casa', model: 'Home Assistant Connect ZBT-1', platform: 'zha', areaId: 'laundry' })
  add({ domain: 'sensor', key: 'rssi', name: 'Signal strength', state: '-61', attributes: { unit_of_measurement: 'dBm', device_class: 'signal_strength', state_class: 'measurement' }, entityCategory: 'diagnostic', deviceClass: 'signal_strength', profile: STATIC }, coordinator, { disabledBy: 'integration' })
  const multi = b.addDevice({ name: 'Shelly Pro 2PM', manufacturer: 'Shelly', model: 'Pro 2PM', platform: 'shelly', areaId: 'garage', labels: ['energy'] })
  for (const channel of [1, 2]) {
    const child = b.addDevice({ name: `Shelly Pro 2PM Channel ${channel}`, manufacturer: 'Shelly', model: 'Pro 2PM', platform: 'shelly', areaId: null, parentDeviceId: multi.id })
    add({ domain: 'switch', key: '', name: null, state: channel === 1 ? 'on' : 'off', attributes: {}, profile: { kind: 'toggle', states: ['off', 'on'], meanMinutes: 300 } }, child, channel === 2 ? { objectId: 'irrigation', aliases: [null, 'Sprinklers'] } : {})
  }
  const spare = b.addDevice({ name: 'Spare Plug', manufacturer: 'TP-Link', model: 'Tapo P110', platform: 'tplink', areaId: null })
  add({ domain: 'switch', key: '', name: null, state: 'off', attributes: { device_class: 'outlet' }, profile: STATIC }, spare, { hiddenBy: 'user' })
  add({ domain: 'sensor', key: 'energy', name: 'Energy', state: '0.410', attributes: { unit_of_measurement: 'kWh', device_class: 'energy', state_class: 'total_increasing' }, deviceClass: 'energy', profile: STATIC }, spare, { disabledBy: 'user' })
  const garageDoor = b.addDevice({ name: 'Garage Door Sensor', manufacturer: 'Aqara', model: 'MCCGQ11LM', platform: 'zha', areaId: 'garage', viaDeviceId: coordinator.id })
  add({ domain: 'binary_sensor', key: 'door', name: null, state: 'unavailable', attributes: { device_class: 'garage_door' }, deviceClass: 'garage_door', profile: STATIC }, garageDoor)
  add({ domain: 'sensor', key: 'battery', name: 'Battery', state: 'unavailable', attributes: { unit_of_measurement: '%', device_class: 'battery', state_class: 'measurement' }, entityCategory: 'diagnostic', deviceClass: 'battery', profile: STATIC }, garageDoor)
  const frontLock = addDeviceOf(KIND_BY_ID.get('lock') as DeviceKind, 'Front Door Lock', 'hallway')
  const [hallwayMotion, , hallwayBattery] = addDeviceOf(KIND_BY_ID.get('motion') as DeviceKind, 'Hallway Motion Sensor', 'hallway', coordinator.id)

  addSingletons(b)
  const firstLight = new Map<string, string>()
  const reserved = 20 // automations, scripts, scenes and groups added below
  for (let slot = 0; b.entities.length + reserved < opts.entities || slot === 0; slot++) {
    for (let i = 0; i < areas.length && b.entities.length + reserved < Math.max(opts.entities, 1); i++) {
      const area = areas[i] as AreaEntry
      const kind = kindFor(slot, i)
      const ids = addDeviceOf(kind, `${area.name} ${kind.label}`, area.area_id, coordinator.id)
      const light = ids.find(id => id.startsWith('light.'))
      if (light !== undefined && !firstLight.has(area.area_id)) firstLight.set(area.area_id, light)
    }
  }
  const anyLight = firstLight.values().next().value ?? 'light.living_room_ceiling_light'
  const made = addAutomations(b, {
    bedroomLight: firstLight.get('master_bedroom') ?? anyLight,
    hallwayLight: firstLight.get('hallway') ?? anyLight,
    livingLight: firstLight.get('living_room') ?? anyLight,
    hallwayMotion: hallwayMotion as string,
    lock: frontLock[0] as string,
    battery: hallwayBattery as string
  })
  applyTrickyTouches(b, areas)
  addUpdateEntities(b)

  return {
    startMs: opts.startMs,
    seed: opts.seed,
    ownerUserId: b.ownerUserId,
    floors,
    areas,
    labels,
    devices: b.devices,
    entities: b.entities,
    states: b.states,
    profiles: b.profiles,
    ...made,
    calendars: makeCalendars(opts.startMs),
    todos: makeTodos(),
    configEntries: [...b.configEntries.values()]
  }
}

function applyTrickyTouches (b: HomeBuilder, areas: AreaEntry[]): void {
  const kitchenLight = b.entities.find(e => e.entity_id.startsWith('light.kuche'))
  if (kitchenLight !== undefined) kitchenLight.aliases = ['Kitchen light', 'Lumière de la cuisine']
  const livingLamp = b.entities.find(e => e.entity_id.startsWith('light.living_room_lamp'))
  if (livingLamp !== undefined) livingLamp.area_id = 'he_shi' // entity moved, device stayed
  const stateOf = new Map(b.states.map(s => [s.entity_id, s]))
  const illuminance = b.entities.find(e => e.entity_id.endsWith('_illuminance'))
  const illuminanceState = illuminance === undefined ? undefined : stateOf.get(illuminance.entity_id)
  if (illuminanceState !== undefined) illuminanceState.state = 'unknown'
  const kitchen = areas.find(a => a.area_id === 'kuche')
  const kitchenTemp = b.entities.find(e => e.entity_id.startsWith('sensor.kuche_climate_sensor_temperature'))
  if (kitchen !== undefined && kitchenTemp !== undefined) kitchen.temperature_entity_id = kitchenTemp.entity_id
}

/** Calendar times as Python's isoformat() gives them: no microseconds when there are none. */
const eventTime = (ms: number): string => new Date(ms).toISOString().replace('.000Z', '+00:00')

function makeCalendars (startMs: number): Map<string, CalendarEvent[]> {
  const day = 86_400_000
  const midnight = Math.floor(startMs / day) * day
  const timed = (uid: string, summary: string, offsetDays: number, hour: number, hours: number, extra: Partial<CalendarEvent> = {}): CalendarEvent =>
    ({ uid, summary, start: eventTime(midnight + offsetDays * day + hour * 3_600_000), end: eventTime(midnight + offsetDays * day + (hour + hours) * 3_600_000), all_day: false, ...extra })
  const allDay = (uid: string, summary: string, offsetDays: number): CalendarEvent => {
    const date = new Date(midnight + offsetDays * day).toISOString().slice(0, 10)
    const next = new Date(midnight + (offsetDays + 1) * day).toISOString().slice(0, 10)
    return { uid, summary, start: date, end: next, all_day: true }
  }
  return new Map([
    ['calendar.family', [
      timed('fam-1', 'Dentist', 1, 9, 1, { location: 'Prinsengracht 1', description: 'Élodie, check-up' }),
      timed('fam-2', 'Football practice', 2, 17, 1.5),
      timed('fam-3', 'Dîner chez Mamie', 4, 18, 3, { location: 'Utrecht' }),
      timed('fam-4', 'Plumber', -1, 13, 2),
      allDay('fam-5', 'School holiday', 6),
      timed('fam-6', 'Piano lesson', 3, 16, 1, { rrule: 'FREQ=WEEKLY;COUNT=10' })
    ]],
    ['calendar.poubelles', [allDay('bin-1', 'Recycling', 1), allDay('bin-2', 'Organic waste', 3), allDay('bin-3', 'Residual waste', 8)]]
  ])
}

function makeTodos (): Map<string, TodoItem[]> {
  return new Map([
    ['todo.shopping_list', [
      { uid: 'shop-1', summary: 'Milk', status: 'needs_action' },
      { uid: 'shop-2', summary: 'Crème fraîche', status: 'needs_action' },
      { uid: 'shop-3', summary: 'AA batteries', status: 'needs_action', description: 'For the motion sensors' },
      { uid: 'shop-4', summary: 'Bread', status: 'completed' }
    ]],
    ['todo.chores', [
      { uid: 'chore-1', summary: 'Descale the coffee machine', status: 'needs_action', due: '2026-12-05' },
      { uid: 'chore-2', summary: 'Replace hallway smoke detector battery', status: 'needs_action' },
      { uid: 'chore-3', summary: 'Clean the gutters', status: 'completed' }
    ]]
  ])
}

import { HaError, invalidFormat, requiredKey } from '../errors.ts'
import type { House } from '../house.ts'
import { addRuntimeEntity, removeRuntimeEntity } from '../runtime-entities.ts'
import { slugify } from '../util.ts'
import type { CommandContext, CommandTable } from './protocol.ts'

const DOMAINS = ['input_boolean', 'input_number', 'input_select', 'input_text', 'input_datetime', 'input_button', 'counter', 'timer', 'schedule'] as const
const DAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday']
type Item = Record<string, unknown> & { id: string, name: string }

const stores = new WeakMap<House, Map<string, Map<string, Item>>>()

function store (house: House, domain: string): Map<string, Item> {
  let all = stores.get(house)
  if (all === undefined) {
    all = new Map()
    stores.set(house, all)
    for (const d of DOMAINS) {
      const items = new Map<string, Item>()
      for (const [id, state] of house.states) {
        if (!id.startsWith(`${d}.`)) continue
        const { friendly_name: name, editable: _editable, ...rest } = state.attributes
        items.set(id.slice(d.length + 1), { id: id.slice(d.length + 1), name: String(name ?? id), ...rest })
      }
      all.set(d, items)
    }
  }
  return all.get(domain) as Map<string, Item>
}

/** Validates a create/update payload the way each helper's schema does and returns item fields and state. */
function shape (domain: string, msg: Record<string, unknown>): { fields: Record<string, unknown>, state: string, attributes: Record<string, unknown> } {
  const fields: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(msg)) if (key !== 'id' && key !== 'type' && key !== `${domain}_id`) fields[key] = value
  const icon = typeof msg.icon === 'string' ? { icon: msg.icon } : {}
  switch (domain) {
    case 'input_number': {
      if (typeof msg.min !== 'number') throw requiredKey('min')
      if (typeof msg.max !== 'number') throw requiredKey('max')
      if (msg.min >= msg.max) throw invalidFormat(`Maximum (${msg.max}) is not greater than minimum (${msg.min})`)
      const step = typeof msg.step === 'number' ? msg.step : 1
      const initial = typeof msg.initial === 'number' ? msg.initial : msg.min
      return { fields: { step, mode: 'slider', ...fields }, state: initial.toFixed(1), attributes: { initial: msg.initial ?? null, editable: true, min: msg.min, max: msg.max, step, mode: msg.mode ?? 'slider', ...(typeof msg.unit_of_measurement === 'string' ? { unit_of_measurement: msg.unit_of_measurement } : {}), ...icon } }
    }
    case 'input_select': {
      if (!Array.isArray(msg.options) || msg.options.length === 0) throw invalidFormat("length of value must be at least 1 for dictionary value @ data['options']")
      const options = msg.options.map(String)
      if (new Set(options).size !== options.length) throw invalidFormat('Duplicate options are not allowed')
      return { fields, state: typeof msg.initial === 'string' ? msg.initial : options[0] as string, attributes: { options, editable: true, ...icon } }
    }
    case 'input_text':
      return { fields: { min: 0, max: 100, mode: 'text', ...fields }, state: typeof msg.initial === 'string' ? msg.initial : '', attributes: { editable: true, min: msg.min ?? 0, max: msg.max ?? 100, pattern: msg.pattern ?? null, mode: msg.mode ?? 'text', ...icon } }
    case 'input_datetime': {
      const hasDate = msg.has_date === true
      const hasTime = msg.has_time === true
      if (!hasDate && !hasTime) throw invalidFormat('Entity needs at least a date or a time')
      return { fields, state: hasDate && hasTime ? '1970-01-01 00:00:00' : hasDate ? '1970-01-01' : '00:00:00', attributes: { has_date: hasDate, has_time: hasTime, editable: true, ...icon } }
    }
    case 'counter':
      return { fields: { initial: 0, step: 1, minimum: null, maximum: null, restore: true, ...fields }, state: String(msg.initial ?? 0), attributes: { initial: msg.initial ?? 0, step: msg.step ?? 1, minimum: msg.minimum ?? null, maximum: msg.maximum ?? null, editable: true, ...icon } }
    case 'timer':
      return { fields: { duration: '0:00:00', ...fields }, state: 'idle', attributes: { duration: typeof msg.duration === 'string' ? msg.duration : '0:00:00', editable: true, restore: false, ...icon } }
    case 'schedule': {
      // core schedule/__init__.py: each day a list of {from, to} (HH:MM[:SS]), from before to, none overlapping.
      for (const day of DAYS) {
        const blocks = msg[day] ?? []
        if (!Array.isArray(blocks)) throw invalidFormat(`expected list for dictionary value @ data['${day}']`)
        const spans = blocks.map((block: unknown) => {
          const { from, to } = (block ?? {}) as { from?: unknown, to?: unknown }
          if (typeof from !== 'string' || !/^\d{1,2}:\d{2}(:\d{2})?$/.test(from)) throw invalidFormat(`Invalid time specified: ${String(from)} for dictionary value @ data['${day}'][0]['from']`)
          if (typeof to !== 'string' || !/^\d{1,2}:\d{2}(:\d{2})?$/.test(to)) throw invalidFormat(`Invalid time specified: ${String(to)} for dictionary value @ data['${day}'][0]['to']`)
          const [start, end] = [from.padStart(8, '0'), to === '24:00' || to === '24:00:00' ? '24:00:00' : to.padStart(8, '0')]
          if (start >= end) throw invalidFormat(`Invalid time range, from ${from} is after ${to} for dictionary value @ data['${day}']`)
          return [start, end] as const
        }).sort((a, b) => a[0] < b[0] ? -1 : 1)
        for (let i = 1; i < spans.length; i++) if ((spans[i] as readonly string[])[0] as string < ((spans[i - 1] as readonly string[])[1] as string)) throw invalidFormat(`Overlapping times found in schedule for dictionary value @ data['${day}']`)
      }
      return { fields: { ...Object.fromEntries(DAYS.map(day => [day, []])), ...fields }, state: 'off', attributes: { editable: true, ...icon } }
    }
    case 'input_button':
      return { fields, state: 'unknown', attributes: { editable: true, ...icon } }
    default:
      return { fields, state: msg.initial === true ? 'on' : 'off', attributes: { editable: true, ...icon } }
  }
}

function create (domain: string) {
  return ({ rt, msg }: CommandContext): Item => {
    if (typeof msg.name !== 'string' || msg.name.trim() === '') throw requiredKey('name')
    const items = store(rt.house, domain)
    let id = slugify(msg.name)
    for (let n = 2; items.has(id) || rt.house.entities.has(`${domain}.${id}`); n++) id = `${slugify(msg.name)}_${n}`
    const { fields, state, attributes } = shape(domain, msg)
    const item: Item = { ...fields, id, name: msg.name }
    items.set(id, item)
    const entityId = `${domain}.${id}`
    addRuntimeEntity(rt.house, entityId, id, msg.name, state, attributes)
    return item
  }
}

function update (domain: string) {
  return ({ rt, msg }: CommandContext): Item => {
    const id = String(msg[`${domain}_id`])
    const items = store(rt.house, domain)
    const item = items.get(id)
    if (item === undefined) throw new HaError('not_found', `Unable to find ${domain}_id ${id}`)
    const merged = { ...item, ...msg }
    const { fields, attributes } = shape(domain, merged)
    const next: Item = { ...fields, id, name: String(merged.name) }
    items.set(id, next)
    const entityId = `${domain}.${id}`
    const state = rt.house.states.get(entityId)
    if (state !== undefined) rt.house.setState(entityId, state.state, { ...attributes, friendly_name: next.name }, rt.house.newContext(rt.house.userId))
    return next
  }
}

function remove (domain: string) {
  return ({ rt, msg }: CommandContext): null => {
    const id = String(msg[`${domain}_id`])
    const items = store(rt.house, domain)
    if (!items.delete(id)) throw new HaError('not_found', `Unable to find ${domain}_id ${id}`)
    const entityId = `${domain}.${id}`
    removeRuntimeEntity(rt.house, entityId)
    return null
  }
}

export const helperCommands: CommandTable = Object.fromEntries(DOMAINS.flatMap(domain => [
  [`${domain}/list`, { handle: ({ rt }: CommandContext) => [...store(rt.house, domain).values()] }],
  [`${domain}/create`, { handle: create(domain) }],
  [`${domain}/update`, { keys: { required: [`${domain}_id`], optional: ['name', 'icon', 'initial', 'min', 'max', 'step', 'mode', 'unit_of_measurement', 'options', 'pattern', 'has_date', 'has_time', 'minimum', 'maximum', 'restore', 'duration', ...DAYS] }, handle: update(domain) }],
  [`${domain}/delete`, { keys: { required: [`${domain}_id`] }, handle: remove(domain) }]
]))

import type { DemoEntry } from './config-entries.ts'
import type { House } from './house.ts'
import { addRuntimeEntity } from './runtime-entities.ts'
import { renderTemplate } from './template/index.ts'
import { slugify } from './util.ts'

/**
 * The entities a helper's config entry sets up, and the states its platform computes from the house.
 * Each computation cites the platform file of core it follows; they compute the state once, at setup
 * (an options change reloads the entry and computes again): the demo does not track sources live.
 */

export interface HelperState { state: string, attributes: Record<string, unknown> }

/** One entity of a helper entry: its domain, a key when the entry has several, its name, its state. */
export interface HelperEntity { domain: string, key?: string, name: string, compute: (house: House) => HelperState }

/**
 * entity_registry.async_get_or_create (unique id: the entry id, or "<entry id>_<key>"; a new entity id
 * from the name, suffixed _2, _3... when taken) and the entity's state written at setup.
 */
export function setUpEntities (house: House, entry: DemoEntry, platform: string, entities: HelperEntity[]): void {
  for (const entity of entities) {
    const uniqueId = entity.key === undefined ? entry.entry_id : `${entry.entry_id}_${entity.key}`
    const { state, attributes } = entity.compute(house)
    let registered
    for (const candidate of house.entities.values()) {
      if (candidate.config_entry_id === entry.entry_id && candidate.unique_id === uniqueId) { registered = candidate; break }
    }
    if (registered === undefined) {
      addRuntimeEntity(house, freeEntityId(house, entity.domain, entity.name), uniqueId, entity.name, state, attributes, { platform, config_entry_id: entry.entry_id })
    } else if (registered.disabled_by === null) {
      registered.original_name = entity.name
      house.setState(registered.entity_id, state, { ...attributes, friendly_name: registered.name ?? entity.name })
    }
  }
}

/** entity_platform's async_generate_entity_id: domain.slug(name), then _2, _3... past ids in use. */
export function freeEntityId (house: House, domain: string, name: string): string {
  const base = `${domain}.${slugify(name)}`
  let id = base
  for (let n = 2; house.entities.has(id) || house.states.has(id); n++) id = `${base}_${n}`
  return id
}

/** A source entity's numeric state, or undefined (unknown, unavailable, text). */
export function numberOf (house: House, entityId: unknown): number | undefined {
  if (typeof entityId !== 'string') return undefined
  const raw = house.states.get(entityId)?.state
  if (raw === undefined || raw.trim() === '') return undefined
  const value = Number(raw)
  return Number.isFinite(value) ? value : undefined
}

/** A template's rendered text, or undefined when rendering fails (the entity becomes unavailable). */
export function renderedText (house: House, template: unknown): string | undefined {
  if (typeof template !== 'string') return undefined
  try { return renderTemplate(house, template).text.trim() } catch { return undefined }
}

/** template/helpers result_as_boolean over cv.boolean: true, yes, on, enable, a non-zero number. */
export function templateTruth (text: string | undefined): boolean {
  if (text === undefined) return false
  const lower = text.toLowerCase()
  if (['1', 'true', 'yes', 'on', 'enable'].includes(lower)) return true
  const number = Number(lower)
  return lower !== '' && Number.isFinite(number) && number !== 0
}

/** A copy of the attributes with the options' optional keys that are set (unit, device class...). */
export function setKeys (options: Record<string, unknown>, keys: string[]): Record<string, unknown> {
  return Object.fromEntries(keys.filter(k => options[k] !== undefined && options[k] !== null && options[k] !== '').map(k => [k, options[k]]))
}

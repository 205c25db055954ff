import { UserError } from '../../src/errors.ts'
import type { EntityRow } from '../../src/home/catalog.ts'
import { fold } from '../../src/home/text.ts'
import type { HomeView } from '../../src/home/view.ts'

/** Compact row used by every entity list: small on purpose. */
export function compactRow (row: EntityRow): Record<string, unknown> {
  const out: Record<string, unknown> = { entity_id: row.entity_id, name: row.name, state: row.state }
  if (row.area) out.area = row.area
  return out
}

/** Visible entities matching every word of `query`, best first. */
export function searchRows (home: HomeView, query: string): EntityRow[] {
  return home.search(query).rows
}

/** Finds an area by id or name (case- and accent-insensitive); throws a helpful error otherwise. */
export function resolveArea (home: HomeView, area: string): string {
  const registries = home.registries
  if (registries.areas.has(area)) return area
  const wanted = fold(area.trim())
  for (const entry of registries.areas.values()) {
    if (fold(entry.name) === wanted || entry.aliases.some(a => fold(a) === wanted)) return entry.area_id
  }
  throw new UserError(`Unknown area "${area}".`, 'Call ha_list_areas to see area ids and names.')
}

export function resolveFloor (home: HomeView, floor: string): string {
  const registries = home.registries
  if (registries.floors.has(floor)) return floor
  const wanted = fold(floor.trim())
  for (const entry of registries.floors.values()) {
    if (fold(entry.name) === wanted || entry.aliases.some(a => fold(a) === wanted)) return entry.floor_id
  }
  throw new UserError(`Unknown floor "${floor}".`, 'Call ha_list_floors to see floor ids and names.')
}

export function resolveLabel (home: HomeView, label: string): string {
  const registries = home.registries
  if (registries.labels.has(label)) return label
  const wanted = fold(label.trim())
  for (const entry of registries.labels.values()) {
    if (fold(entry.name) === wanted) return entry.label_id
  }
  throw new UserError(`Unknown label "${label}".`, 'Call ha_list_labels to see label ids and names.')
}

/** The visible row for an id, or a not-found error that never reveals hidden entities. */
export function requireEntity (home: HomeView, entityId: string): EntityRow {
  const row = home.entity(entityId)
  if (!row) throw new UserError(`Entity ${entityId} not found.`, 'Use ha_search_entities to find the right entity_id.')
  return row
}

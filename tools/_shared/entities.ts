import { UserError } from '../../src/errors.ts'
import type { EntityRow } from '../../src/home/entities.ts'
import { fold } from '../../src/home/text.ts'
import type { HomeView } from '../../src/home/view.ts'

/** The compact row of every entity list: small on purpose. */
export function compactRow (row: EntityRow): Record<string, string> {
  const out: Record<string, string> = { entity_id: row.entity_id, name: row.name, state: row.state }
  if (row.area) out.area = row.area
  return out
}

/** Visible entities matching every word of `query`, best first. */
export function searchRows (home: HomeView, query: string): EntityRow[] {
  return home.search(query).rows
}

/**
 * Finds a registry entry by id, name or alias (case- and accent-insensitive) and returns its id;
 * otherwise a helpful error naming the tool that lists them.
 */
function resolveNamed<T extends { name: string, aliases?: string[] }> (entries: Map<string, T>, value: string, what: string, lister: string): string {
  if (entries.has(value)) return value
  const wanted = fold(value.trim())
  for (const [id, entry] of entries) {
    if (fold(entry.name) === wanted || entry.aliases?.some(alias => fold(alias) === wanted)) return id
  }
  throw new UserError('HAMCP_NOT_FOUND', `Unknown ${what} "${value}".`, `Call ${lister} to see ${what} ids and names.`)
}

export function resolveArea (home: HomeView, area: string): string {
  return resolveNamed(home.registries.areas, area, 'area', 'ha_list_areas')
}

export function resolveFloor (home: HomeView, floor: string): string {
  return resolveNamed(home.registries.floors, floor, 'floor', 'ha_list_floors')
}

export function resolveLabel (home: HomeView, label: string): string {
  return resolveNamed(home.registries.labels, label, 'label', 'ha_list_labels')
}

import { z } from 'zod'
import { UserError } from '../../src/errors.ts'
import type { HomeView } from '../../src/home/view.ts'

/** One entity id or a short list of them; ids are checked in the handler, keeping the schema small. */
export const entityIdsArg = (max: number, what = 'Entity id') =>
  z.union([z.string().trim().min(1), z.array(z.string().trim().min(1)).min(1).max(max)])
    .describe(`${what}, or a list.`)

/** Normalises one-or-many ids, drops duplicates, and refuses ids that are unknown or hidden. */
export function visibleIds (home: HomeView, value: string | string[]): string[] {
  const ids = [...new Set(Array.isArray(value) ? value : [value])]
  const missing = ids.filter(id => !home.entity(id))
  if (missing.length) {
    throw new UserError('HAMCP_ENTITY_NOT_FOUND', `Entity ${missing.join(', ')} not found.`, 'Use ha_search_entities to find the right entity_id.')
  }
  return ids
}

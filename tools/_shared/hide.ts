import type { HomeView } from '../../src/home/view.ts'
import { HIDDEN } from '../../src/home/visibility.ts'

/**
 * filter_reads for structures from Home Assistant (configs, traces): hidden entity ids are dropped
 * from lists and masked in values and text, so an item that touches a hidden entity can still be
 * shown without naming it.
 */
export function hideEntities (home: HomeView, value: unknown): unknown {
  if (!home.visibility.active) return value
  const walk = (node: unknown): unknown => {
    if (typeof node === 'string') return home.visible(node) ? home.scrub(node) : HIDDEN
    if (Array.isArray(node)) return node.filter(item => typeof item !== 'string' || home.visible(item)).map(walk)
    if (node !== null && typeof node === 'object') {
      return Object.fromEntries(Object.entries(node).map(([key, item]) => [key, walk(item)]))
    }
    return node
  }
  return walk(value)
}

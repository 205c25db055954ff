import { fold } from '../../home/text.ts'
import type { ToolContext } from '../runtime/define-tool.ts'

export const COMPLETION_CAP = 50

export interface Candidate { value: string, label?: string }

/**
 * Ranks candidates for what the user typed: value prefix first, then a word of the label starting with
 * it, then a substring anywhere. Case- and accent-insensitive; at most 50 values.
 */
export function rankCompletions (candidates: Iterable<Candidate>, typed: string): string[] {
  const wanted = fold(typed.trim())
  if (!wanted) return [...candidates].map(c => c.value).sort().slice(0, COMPLETION_CAP)
  const tiers: string[][] = [[], [], []]
  for (const candidate of candidates) {
    const value = fold(candidate.value)
    const label = fold(candidate.label ?? '')
    if (value.startsWith(wanted) || value.slice(value.indexOf('.') + 1).startsWith(wanted)) tiers[0]?.push(candidate.value)
    else if (label.startsWith(wanted) || label.split(/[\s_-]+/).some(word => word.startsWith(wanted))) tiers[1]?.push(candidate.value)
    else if (value.includes(wanted) || label.includes(wanted)) tiers[2]?.push(candidate.value)
  }
  return tiers.flatMap(tier => tier.sort()).slice(0, COMPLETION_CAP)
}

/** Visible entities (optionally of one domain) as completion candidates. */
export function entityCandidates (ctx: ToolContext, domain?: string): Candidate[] {
  return ctx.home.entities()
    .filter(row => domain === undefined || row.domain === domain)
    .map(row => ({ value: row.entity_id, label: row.name }))
}

export function areaCandidates (ctx: ToolContext): Candidate[] {
  return [...ctx.home.registries.areas.values()].map(area => ({ value: area.area_id, label: [area.name, ...area.aliases].join(' ') }))
}

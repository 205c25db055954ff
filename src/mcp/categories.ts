import type { Level } from '../auth/identity.ts'
import type { ToolKind } from './define-tool.ts'

/**
 * Tools whose argument picks what they change, each value filed under its own category: a token with
 * dashboards at read cannot save a dashboard through ha_manage_config, whatever it may do with scenes.
 */
export const ARGUMENT_CATEGORIES: Readonly<Record<string, { field: string, byValue: Readonly<Record<string, string>> }>> = {
  ha_manage_config: { field: 'kind', byValue: { scene: 'scenes', calendar: 'calendar', dashboard: 'dashboards', backup: 'system', energy: 'environment' } }
}

/** The level a tool of this kind needs. */
export function levelNeeded (kind: ToolKind): Level {
  return kind === 'camera' ? 'read' : kind
}

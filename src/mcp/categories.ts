import type { Level } from '../auth/identity.ts'
import type { ToolKind } from './define-tool.ts'

/** Folders that group tools by what they do rather than by subject: their tools are sorted by name. */
const MIXED_FOLDERS = new Set(['write', 'config'])
const BY_NAME: Array<[RegExp, string]> = [
  [/automation|script|blueprint/, 'automations'],
  [/dashboard/, 'dashboards'],
  [/notification|announce/, 'notify'],
  [/todo|calendar/, 'calendar'],
  [/scene/, 'scenes'],
  [/backup/, 'system']
]

/**
 * The category a named token's level applies to: the tool's folder under tools/ (entities, history,
 * automations...), except that the runtime-write and config-write folders are split by subject.
 */
export function categoryOf (toolName: string, folder: string): string {
  if (!MIXED_FOLDERS.has(folder)) return folder
  return BY_NAME.find(([pattern]) => pattern.test(toolName))?.[1] ?? (folder === 'config' ? 'config' : 'services')
}

/**
 * Tools whose argument picks what they change, each value filed under its own category: a token with
 * dashboards at read cannot save a dashboard through ha_manage_config, whatever it may do with scenes.
 */
export const ARGUMENT_CATEGORIES: Readonly<Record<string, { field: string, byValue: Readonly<Record<string, string>> }>> = {
  ha_manage_config: { field: 'kind', byValue: { scene: 'scenes', calendar: 'calendar', dashboard: 'dashboards', backup: 'system' } }
}

/** The level a tool of this kind needs. */
export function levelNeeded (kind: ToolKind): Level {
  return kind === 'camera' ? 'read' : kind
}

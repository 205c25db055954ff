/**
 * Services that tools use beyond reading the home (the guarded write path, the audit, undo...).
 * Each plugin that provides one adds an optional field here; the registry passes what exists.
 */
export interface ToolServices {
  [name: string]: unknown
}

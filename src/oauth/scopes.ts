import type { Scope } from '../auth/identity.ts'
import type { Options } from '../options.ts'

/** The OAuth scopes, one per named-token level (camera being its own category). */
export const OAUTH_SCOPES: readonly Scope[] = ['read', 'write', 'manage', 'camera']

export const SCOPE_MEANING: Record<Scope, string> = {
  read: 'read the home: states, history, areas, devices, automations',
  write: 'control devices and run scripts (service calls)',
  manage: 'change the configuration: automations, scripts, dashboards',
  camera: 'see camera snapshots'
}

const SCOPE_OPTION: Record<Scope, keyof Options | null> = { read: null, write: 'allow_write', manage: 'allow_config_write', camera: 'allow_camera' }

/** Whether the add-on options let this scope do anything today (a grant keeps it; the options cap it). */
export function scopeEnabled (scope: Scope, options: Options): boolean {
  const option = SCOPE_OPTION[scope]
  return option === null || options[option] === true
}

export function isScope (value: string): value is Scope {
  return (OAUTH_SCOPES as readonly string[]).includes(value)
}

/** A space-separated scope string as a list; unknown names are returned separately. */
export function parseScope (value: string | undefined): { scopes: Scope[], unknown: string[] } {
  const words = (value ?? '').split(' ').filter(Boolean)
  const scopes = [...new Set(words.filter(isScope))]
  return { scopes: OAUTH_SCOPES.filter(s => scopes.includes(s)), unknown: words.filter(w => !isScope(w)) }
}

export function formatScope (scopes: readonly Scope[]): string {
  return OAUTH_SCOPES.filter(s => scopes.includes(s)).join(' ')
}

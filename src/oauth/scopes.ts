import { GRANTED_LEVELS, SCOPES, type Scope } from '../auth/identity.ts'

/**
 * The OAuth scopes, one per named-token level (camera being its own category). Levels include the
 * ones below them, as on the Tokens tab: a set of scopes always holds every level up to its highest
 * (`read write manage`, never `read manage`), so what is granted is exactly what the token can do.
 */
export const OAUTH_SCOPES: readonly Scope[] = SCOPES

/** The levels a sign-in chooses between, lowest first; camera is ticked on top. */
export const LEVEL_SCOPES = GRANTED_LEVELS
export type LevelScope = typeof LEVEL_SCOPES[number]

export const SCOPE_MEANING: Record<Scope, string> = {
  read: 'read the home: states, history, areas, devices, automations',
  write: 'read, and control devices and run scripts (service calls)',
  manage: 'read, control, and change the configuration: automations, scripts, dashboards',
  camera: 'see camera snapshots'
}

export { scopeEnabled } from '../auth/identity.ts'

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

/** The highest level a set of scopes holds with every level below it, or null when it holds none. */
export function levelOfScopes (scopes: readonly Scope[]): LevelScope | null {
  let level: LevelScope | null = null
  for (const candidate of LEVEL_SCOPES) {
    if (!scopes.includes(candidate)) break
    level = candidate
  }
  return level
}

/** The scopes of a level (every level up to it), with camera when asked. */
export function scopesForLevel (level: LevelScope | null, camera: boolean): Scope[] {
  const upTo = level === null ? [] : LEVEL_SCOPES.slice(0, LEVEL_SCOPES.indexOf(level) + 1)
  return [...upTo, ...(camera ? ['camera' as const] : [])]
}

/** Whether a set of scopes is one a level can be: no level without the ones below it. */
export function scopesClosed (scopes: readonly Scope[]): boolean {
  const level = levelOfScopes(scopes)
  return LEVEL_SCOPES.every(s => scopes.includes(s) === (level !== null && LEVEL_SCOPES.indexOf(s) <= LEVEL_SCOPES.indexOf(level)))
}

/** Asked scopes as a level: the highest level asked brings the ones below it (`manage` is `read write manage`). */
export function closeScopes (scopes: readonly Scope[]): Scope[] {
  const top = [...LEVEL_SCOPES].reverse().find(s => scopes.includes(s)) ?? null
  return scopesForLevel(top, scopes.includes('camera'))
}

export const SCOPES_NOT_CLOSED = 'levels include the ones below them: manage needs write and read, write needs read. Choose one level (read, write or manage), camera on top.'

/**
 * What the owner chose: one level (`level`) and camera, or a list of scopes that must already be a
 * level (a list like read+manage is refused, never widened or narrowed). Limited to what was asked.
 */
export function chosenScopes (choice: { level?: string, scopes?: readonly string[], camera?: boolean }, asked: readonly Scope[]): { scopes: Scope[] } | { error: string } {
  const listed = (choice.scopes ?? []).filter(isScope)
  let scopes: Scope[]
  if (choice.level !== undefined && choice.level !== '') {
    if (choice.level !== 'none' && !(LEVEL_SCOPES as readonly string[]).includes(choice.level)) return { error: `unknown level ${choice.level}: choose read, write or manage` }
    scopes = scopesForLevel(choice.level === 'none' ? null : choice.level as LevelScope, choice.camera === true || listed.includes('camera'))
  } else {
    if (!scopesClosed(listed)) return { error: SCOPES_NOT_CLOSED }
    scopes = [...listed]
  }
  if (scopes.some(s => !asked.includes(s))) return { error: `the client did not ask for ${scopes.filter(s => !asked.includes(s)).join(' ')}` }
  return { scopes: OAUTH_SCOPES.filter(s => scopes.includes(s)) }
}

import { z } from 'zod'
import type { Options } from '../options.ts'

/** The levels a grant can hold, lowest first; each is also an OAuth scope. */
export const GRANTED_LEVELS = ['read', 'write', 'manage'] as const

/** OAuth scopes and the legacy flat token scopes: one per level, camera being its own category. */
export const SCOPES = [...GRANTED_LEVELS, 'camera'] as const
export type Scope = typeof SCOPES[number]
export const scopeSchema = z.enum(SCOPES)

/** The add-on option that turns each scope on; read needs none. */
export const SCOPE_OPTION: Readonly<Record<Scope, keyof Options | null>> = { read: null, write: 'allow_write', manage: 'allow_config_write', camera: 'allow_camera' }

/** Whether the add-on options let this scope do anything today (a grant keeps it; the options cap it). */
export function scopeEnabled (scope: Scope, options: Options): boolean {
  const option = SCOPE_OPTION[scope]
  return option === null || options[option] === true
}

/** What a token may do in one tool category; each level includes the ones below it. */
export const LEVELS = ['none', ...GRANTED_LEVELS] as const
export type Level = typeof LEVELS[number]
export const levelSchema = z.enum(LEVELS)

/**
 * Level per tool category (`entities`, `automations`, `camera`...). `*` covers every category not
 * named, except `camera`, which is only ever granted by name.
 */
export type Levels = Readonly<Record<string, Level>>

/** A category name a token's levels may use: `*` or a tool folder's name. */
export const CATEGORY_PATTERN = /^(\*|[a-z_]{1,32})$/

/** Who is calling: the primary token, a named token from the ingress page, or an OAuth sign-in. */
export interface Identity {
  /** Stable id used to bind confirmations and undo history: `primary`, `token:<id>` or `oauth:<grant>`. */
  id: string
  /** Human name shown in the audit and on the ingress page. */
  name: string
  levels: Levels
  /** Optional extra entity lists of a named token, applied on top of the options. */
  entityAllowlist?: string[]
  entityDenylist?: string[]
  /**
   * Which of the identity's credentials was presented, when it has several at once (an OAuth
   * sign-in's access tokens): what a stream opened with it ends with (src/auth/revocations.ts).
   */
  credential?: string
  /** When that credential stops working (an access token's expiry); a stream it opened ends then. */
  expiresAt?: number
}

export const ALL_LEVELS: Levels = { '*': 'manage', camera: 'manage' }

export const PRIMARY_IDENTITY: Identity = { id: 'primary', name: 'primary token', levels: ALL_LEVELS }

export function isLevel (value: unknown): value is Level {
  return typeof value === 'string' && (LEVELS as readonly string[]).includes(value)
}

export function levelRank (level: Level): number {
  return LEVELS.indexOf(level)
}

/** The level a set of levels gives one category. */
export function levelIn (levels: Levels, category: string): Level {
  return levels[category] ?? (category === 'camera' ? 'none' : levels['*'] ?? 'none')
}

/**
 * Flat scopes as levels: read/write/manage for every category, camera for the camera. A level counts
 * only with every level below it (read+manage is read): never more than what was granted.
 */
export function levelsFromScopes (scopes: readonly Scope[]): Levels {
  let top: Level = 'none'
  for (const level of GRANTED_LEVELS) {
    if (!scopes.includes(level)) break
    top = level
  }
  return { '*': top, ...(scopes.includes('camera') ? { camera: 'read' } : {}) }
}

/** The identity of a credential holding these scopes (an OAuth grant). */
export function identityForScopes (id: string, name: string, scopes: readonly Scope[]): Identity {
  return { id, name, levels: levelsFromScopes(scopes) }
}

/** A stable text for a set of levels (cache keys, logs). */
export function levelsKey (levels: Levels): string {
  return Object.keys(levels).sort().map(category => `${category}:${levels[category] ?? 'none'}`).join(',')
}

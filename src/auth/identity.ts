/** Tool categories a token can be given; each is still capped by the allow_* options. */
export type Scope = 'read' | 'write' | 'manage' | 'camera'

/** Who is calling: the primary token, or one of the named tokens created on the ingress page. */
export interface Identity {
  /** Stable id used to bind confirmations and undo history: `primary` or `token:<id>`. */
  id: string
  /** Human name shown in the audit and on the ingress page. */
  name: string
  scopes: ReadonlySet<Scope>
  /** Optional extra entity lists of a named token, applied on top of the options. */
  entityAllowlist?: string[]
  entityDenylist?: string[]
}

export const ALL_SCOPES: ReadonlySet<Scope> = new Set<Scope>(['read', 'write', 'manage', 'camera'])

export const PRIMARY_IDENTITY: Identity = { id: 'primary', name: 'primary token', scopes: ALL_SCOPES }

/** The identity of a credential holding these scopes (an OAuth grant). */
export function identityForScopes (id: string, name: string, scopes: readonly Scope[]): Identity {
  return { id, name, scopes: new Set(scopes.filter(s => ALL_SCOPES.has(s))) }
}

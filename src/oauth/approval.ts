import type { Scope } from '../auth/identity.ts'
import type { AuditApi } from '../policy/types.ts'
import type { AuthorizationServer } from './authorization-server.ts'
import type { AuthorizationRequest } from './requests.ts'
import { chosenScopes } from './scopes.ts'

/** What the owner chose: one level and camera on top, or a list of scopes that is already a level. */
export interface ScopeChoice {
  level?: string
  camera?: boolean
  scopes?: readonly string[]
}

export interface SignInAnswer {
  action: 'approve' | 'deny'
  choice?: ScopeChoice
  /** Who answered, as the audit names them. */
  by: { id: string, name: string }
  /** Stored on the grant: the Tokens tab's "approved by". */
  approvedBy: string
}

export type SignInResult =
  /** The request is answered; `redirect` takes the browser back to the client. */
  | { settled: true, approved: boolean, scopes: Scope[], redirect: string }
  /** The choice cannot be granted (the owner chooses again); nothing was answered. */
  | { settled: false, error: string }

export const NOTHING_CHOSEN = 'choose a level (read, write or manage) or the camera, or deny the sign-in'

/**
 * The one way a waiting sign-in is answered, on the consent page and on the Sign-ins tab alike. The
 * grant is exactly what the owner chose (src/oauth/scopes.ts: a level with the ones below it, camera on
 * top), never wider than the client asked; a mixed set like read+manage, a scope the client did not
 * ask for, or an empty choice is refused rather than narrowed or widened. Every answer is audited
 * with the same words.
 */
export function answerSignIn (server: AuthorizationServer, audit: AuditApi | undefined, request: AuthorizationRequest, answer: SignInAnswer): SignInResult {
  if (answer.action === 'deny') {
    const redirect = server.deny(request)
    record(audit, request, answer.by, [])
    return { settled: true, approved: false, scopes: [], redirect }
  }
  const choice = chosenScopes(answer.choice ?? {}, request.scopes)
  if ('error' in choice) return { settled: false, error: `Nothing was granted: ${choice.error}` }
  if (choice.scopes.length === 0) return { settled: false, error: `Nothing was granted: ${NOTHING_CHOSEN}` }
  const redirect = server.issueCode(request, choice.scopes, answer.approvedBy)
  record(audit, request, answer.by, choice.scopes)
  return { settled: true, approved: true, scopes: choice.scopes, redirect }
}

function record (audit: AuditApi | undefined, request: AuthorizationRequest, by: SignInAnswer['by'], granted: Scope[]): void {
  const client = `"${request.clientName}" (${request.redirectHost})`
  audit?.record({
    tool: 'oauth_sign_in',
    identity: by.id,
    identity_name: by.name,
    outcome: granted.length > 0 ? 'allowed' : 'refused',
    reason: granted.length > 0 ? `signed in ${client} with ${granted.join(' ')}` : `denied the sign-in of ${client}`
  })
}

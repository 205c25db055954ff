/**
 * The contract of the guarded write path, shared by every write tool, the audit and the ingress page.
 * Implemented in src/policy/guard.ts (WriteGuard) and src/policy/audit.ts (AuditLog).
 */
import type { Identity } from '../auth/identity.ts'
import type { Revert } from './undo.ts'

export interface ServiceTarget {
  entity_id?: string | string[]
  device_id?: string | string[]
  area_id?: string | string[]
  floor_id?: string | string[]
  label_id?: string | string[]
}

/** One write as the guard sees it. Runtime writes are service calls; config writes carry `config`. */
export interface WriteRequest {
  /** Tool that asked, for the audit. */
  tool: string
  domain: string
  service: string
  target?: ServiceTarget
  data?: Record<string, unknown>
  dryRun?: boolean
  confirmToken?: string
  returnResponse?: boolean
  /** Config edits (automations, scripts, dashboards): always confirmed, preview shown, base hash bound. */
  config?: {
    /** Full YAML or unified diff shown to the human before confirming. */
    preview: string
    /** Hash of the config being replaced; a change between preview and confirmation is refused. */
    baseHash?: string
    /** The item edited (an entity id, a dashboard), so a refusal can say it changed meanwhile. */
    subject?: string
    /** Entities the new config touches, checked against the lists like targets. */
    entities?: string[]
  }
  /**
   * The call as the caller asked for it, when `target`/`data` carry values the tool derived from the
   * house (a registry edit's affected entities): the confirmation is bound to this instead of them.
   */
  asked?: unknown
  /**
   * What the tool read to build the preview, as named facts (`"area x used by devices" -> "d1, d2"`). A
   * confirmation holds only while these are unchanged; otherwise the answer is HAMCP_CONFLICT with a new preview.
   */
  basis?: Record<string, string>
  /** Always ask for a confirmation, showing this preview (ha_undo forcing over newer work). */
  confirmPreview?: string
  /** Performs the write when it is not a plain call_service (config writes through REST). */
  execute?: () => Promise<unknown>
  /** Remember prior states for ha_undo; defaults to true for plain service calls, false with `execute`. */
  undoable?: boolean
  /** Config writes that ha_undo can reverse: builds the revert from the write's result, once it succeeded. */
  revert?: (result: unknown) => Revert | undefined
}

/** What a human is shown before a sensitive write. */
export interface ConfirmPreview {
  tool: string
  domain: string
  service: string
  entities: string[]
  preview: string
}

/**
 * A yes the human gave to a question asked outside the guard for a confirm token the guard issued (a
 * 2026-07-28 confirming round, src/mcp/confirm-rounds.ts): the guard redeems the token exactly like
 * one sent as `confirm_token`, and audits the confirmation with `via`.
 */
export interface GivenYes { token: string, via: 'round' }

/** What a confirmer answers; see WriteRunContext. */
export type ConfirmAnswer = boolean | 'unavailable' | GivenYes

/** Per-call extras. A session whose client supports elicitation passes a confirmer that asks the human. */
export interface WriteRunContext {
  /**
   * Resolves true only when the human accepted; false (declined, cancelled, no answer) is an audited
   * refusal; 'unavailable' (the client could not be asked after all) falls back to a confirm token;
   * a GivenYes redeems the token the yes was given for.
   */
  confirmer?: (preview: ConfirmPreview) => Promise<ConfirmAnswer>
}

export type WriteOutcome =
  | {
    status: 'done'
    result: unknown
    undo_available?: boolean
    /** Entities the call acted on (named ones in the service's domains and those its indirect targets reach). */
    reached?: string[]
    /** Each reached entity's state afterwards, in words ("on, brightness 77 %"). */
    states?: Record<string, string>
    /** Reached entities whose state the call did not change. */
    unchanged?: string[]
  }
  | { status: 'dry_run', would_call: { domain: string, service: string, target?: ServiceTarget, data?: Record<string, unknown> }, reaches?: string[], notes?: string[] }
  | { status: 'confirmation_required', confirm_token: string, expires_in_s: number, preview: string, how: string }

export type AuditOutcome = 'allowed' | 'refused' | 'dry_run' | 'confirmation_asked' | 'confirmation_given' | 'failed'

/** One JSON line per write attempt. Never holds a secret (no token, no confirm token). */
export interface AuditEntry {
  time: string
  tool: string
  identity: string
  identity_name: string
  outcome: AuditOutcome
  domain?: string
  service?: string
  entities?: string[]
  /** The target as sent to Home Assistant (entity_id split and lower-cased). */
  target?: ServiceTarget
  reason?: string
  /** Short hash of the call fingerprint: ties a confirmation_asked line to its confirmation_given. */
  ref?: string
  /**
   * How a confirmation was given: `token` (a confirm_token sent back), `elicitation` (a session's
   * client asked its user), `round` (a 2026-07-28 `input_required` round answered yes).
   */
  via?: 'token' | 'elicitation' | GivenYes['via']
}

export interface WriteGuardApi {
  run: (identity: Identity, request: WriteRequest, context?: WriteRunContext) => Promise<WriteOutcome>
}

export interface AuditApi {
  record: (entry: Omit<AuditEntry, 'time'>) => void
  recent: (limit?: number) => AuditEntry[]
}

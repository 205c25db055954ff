/**
 * The contract of the guarded write path, shared by every write tool, the audit and the ingress page.
 * Implemented in src/policy/guard.ts (WriteGuard) and src/policy/audit.ts (AuditLog).
 */
import type { Identity } from '../auth/identity.ts'
import type { Revert, UndoPlan, UndoRecord } from './undo.ts'

export interface ServiceTarget {
  entity_id?: string | string[]
  device_id?: string | string[]
  area_id?: string | string[]
  floor_id?: string | string[]
  label_id?: string | string[]
}

/** What every write kind carries: who asks, and the guard's standard arguments. */
interface WriteBase {
  /** Tool that asked, for the audit. */
  tool: string
  dryRun?: boolean
  confirmToken?: string | undefined
  /**
   * The call as the caller asked for it, when the request carries values the tool derived from the
   * house (a registry edit's affected entities): the confirmation is bound to this instead of them.
   */
  asked?: unknown
  /**
   * What the tool read to build the preview, as named facts (`"area x used by devices" -> "d1, d2"`). A
   * confirmation holds only while these are unchanged; otherwise the answer is HAMCP_CONFLICT with a new preview.
   */
  basis?: Record<string, string>
}

/**
 * A Home Assistant service call (`call_service`). Rules: `service_denylist` on `domain.service`; the
 * entity lists on every entity in target and data; area/device/floor/label/`all` targets refused while
 * a list is set; the target resolved first (no silent success); `confirm_domains` on the domain and on
 * every entity it reaches. Undo remembers the states it changes; the answer says what each reached
 * entity became.
 */
export interface ServiceCallWrite extends WriteBase {
  kind: 'service'
  domain: string
  service: string
  target?: ServiceTarget
  data?: Record<string, unknown>
  returnResponse?: boolean
  /** Remember the prior states for ha_undo (default true). */
  undoable?: boolean
  /** The option undoing it needs when the call is a manage tool's (ha_manage_update's skip): allow_write otherwise. */
  undoNeeds?: 'allow_config_write'
  /** Always confirmed with this text (stopping or updating an add-on), on top of confirm_domains. */
  confirm?: string
}

/**
 * What a write is called in the audit, in its dry run and by `service_denylist`: the Home Assistant
 * service it is or stands for, or, when no service does what it does, the Home Assistant request it
 * sends as Home Assistant names it (`repairs/ignore_issue`, `energy/save_prefs`,
 * `config/config_entries/entry`): an operation, which no service_denylist entry matches.
 */
export type WriteName = { domain: string, service: string } | { operation: string }

/**
 * A change made with a WebSocket command. Either it stands for a service of an entity's domain (a
 * calendar event, a helper created or deleted) and has that service's rules (`domain.service` through
 * `service_denylist`, the entity lists, `confirm_domains`), or no service does it (ignoring a repair)
 * and it is named by its `operation`. An always-asked confirmation when `confirm` is set (a delete,
 * bound to the item's hash).
 */
export type CommandWrite = CommandWriteBase & ({ domain: string, service: string, operation?: undefined } | { operation: string, domain?: undefined, service?: undefined })

interface CommandWriteBase extends WriteBase {
  kind: 'command'
  target?: ServiceTarget
  data?: Record<string, unknown>
  confirm?: ConfirmedEdit
  execute: () => Promise<unknown>
  /** Makes it undoable: how to reverse it, from its result (undefined: this one cannot be). */
  revert?: (result: unknown) => Revert | undefined
}

/**
 * An edit of Home Assistant's configuration: an automation, script, scene or dashboard. Always
 * confirmed, its preview shown, bound to the hash of the config it replaces. The services the config
 * calls (`action:`, `perform_action`, `scene:`) pass `service_denylist`, a templated one is refused,
 * every entity it names passes the lists. `domain.action` (automation.update, lovelace.add_card,
 * scene.delete) names it in the audit and in `service_denylist` (so `lovelace.*` forbids dashboard
 * edits), as documented for owners, though no Home Assistant service is called.
 */
export interface ConfigWrite extends WriteBase {
  kind: 'config'
  domain: string
  action: string
  /** An edit that is no Home Assistant config of an entity's domain (the energy settings): the request that saves it, which names it instead of domain.action. */
  operation?: string
  /** Everything the confirmation is bound to, walked for the calls inside. */
  data: Record<string, unknown>
  confirm: ConfirmedEdit
  execute: () => Promise<unknown>
  revert?: (result: unknown) => Revert | undefined
}

/**
 * A registry edit (areas, floors, labels, categories, zones, entities, devices). `service_denylist`
 * sees it as `registry.action` (`area_registry.delete`, `zone.create`, `entity_registry.update`), as
 * documented for owners. Every entity it touches passes the lists; only deletes, bulk edits and
 * renames (`confirm`) are confirmed, bound to `asked` and `basis`. Undo replays the commands `undo`
 * gives, after the edit and after a partial failure too.
 */
export interface RegistryWrite extends WriteBase {
  kind: 'registry'
  registry: string
  action: string
  /** A change no registry command makes (an integration's config entry): the request it sends, which names it instead of registry.action. */
  operation?: string
  entities: string[]
  /** The edit as text for the audit's binding (registry values name areas and labels, not targets). */
  data: Record<string, unknown>
  confirm?: string
  execute: () => Promise<unknown>
  /** The undo of what was applied so far; called once the edit finished or failed part way. */
  undo: () => Promise<UndoPlan | undefined>
}

/**
 * A Supervisor job (a backup). `service_denylist` sees it as `supervisor.action` (`backup.*` and
 * `hassio.*` do not apply: no Home Assistant service is called), as documented for owners;
 * `confirm_domains` containing `supervisor` asks for a confirmation.
 */
export interface SupervisorWrite extends WriteBase {
  kind: 'supervisor'
  action: string
  data: Record<string, unknown>
  execute: () => Promise<unknown>
}

/**
 * ha_undo putting one record back. Its entities pass the lists and `confirm_domains` again, each
 * service it calls passes `service_denylist`; a config change's undo is always confirmed, and so is
 * any undo that would overwrite newer work (`overwrites`, shown in the preview).
 */
export interface UndoWrite extends WriteBase {
  kind: 'undo'
  record: UndoRecord
  /** What changed since the write, which the undo would overwrite: it then needs the user's yes. */
  overwrites?: string[]
}

/** A confirmed edit's preview and what it is bound to. */
export interface ConfirmedEdit {
  /** Full YAML or unified diff shown to the human before confirming. */
  preview: string
  /** Hash of the config being replaced; a change between preview and confirmation is refused. */
  baseHash?: string
  /** The item edited (an entity id, a dashboard), so a refusal can say it changed meanwhile. */
  subject?: string
  /** Entities the new config touches, checked against the lists like targets. */
  entities?: string[]
}

/** One write as the guard sees it: each kind says what it targets and which rules apply. */
export type WriteRequest = ServiceCallWrite | CommandWrite | ConfigWrite | RegistryWrite | SupervisorWrite | UndoWrite
export type WriteKind = WriteRequest['kind']

/** What a human is shown before a sensitive write. */
export type ConfirmPreview = { tool: string, entities: string[], preview: string } & WriteName

/**
 * A yes the human gave to a question asked outside the guard for a confirm token the guard issued (a
 * 2026-07-28 confirming round, src/mcp/runtime/confirm-rounds.ts): the guard redeems the token exactly like
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
  /**
   * `confirm_with: owner`: runs this same tool call again, carrying the owner's grant, once the owner
   * approved it (src/mcp/runtime/owner-rerun.ts); answers the call's error, if it ended in one.
   */
  rerun?: (grant: OwnerGrant) => Promise<RerunFailure | undefined>
  /** Set only on such a re-run: the approval it carries. Made in-process; nothing a client sends becomes one. */
  ownerGrant?: OwnerGrant
}

/** The owner's approval of one waiting call, as the re-run carries it; the guard leaves the outcome in it. */
export interface OwnerGrant {
  ref: string
  via: OwnerVia
  decidedBy: string
  outcome?: WriteOutcome
}

/** A re-run that ended in an error result: its code and words, as the assistant will get them. */
export interface RerunFailure { code: string, message: string, hint?: string }

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
  | { status: 'dry_run', would_call: WriteName & { target?: ServiceTarget, data?: Record<string, unknown> }, reaches?: string[], notes?: string[] }
  | { status: 'confirmation_required', confirm_token: string, expires_in_s: number, preview: string, how: string }
  /** `confirm_with: owner`: nothing ran; the owner approves or denies it outside the client (src/policy/approvals.ts). */
  | { status: 'awaiting_owner', confirm_token: string, expires_in_s: number, preview: string, how: string }

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
  /** A write no Home Assistant service does: the request it sent (WriteName). */
  operation?: string
  entities?: string[]
  /** The target as sent to Home Assistant (entity_id split and lower-cased). */
  target?: ServiceTarget
  reason?: string
  /** Short hash of the call fingerprint: ties a confirmation_asked line to its confirmation_given. */
  ref?: string
  /**
   * How a confirmation was given: `token` (a confirm_token sent back: the assistant was trusted to ask),
   * `elicitation` (a session's client asked its user), `round` (a 2026-07-28 `input_required` round
   * answered yes), `owner_panel` / `owner_notification` (`confirm_with: owner`: the owner approved on the
   * status page, or from the mobile app's notification).
   */
  via?: 'token' | 'elicitation' | GivenYes['via'] | OwnerVia
  /** The Home Assistant user who approved or denied it (`confirm_with: owner`). */
  decided_by?: string
}

/** Where the owner approved a call under `confirm_with: owner`. */
export type OwnerVia = 'owner_panel' | 'owner_notification'

export interface WriteGuardApi {
  run: (identity: Identity, request: WriteRequest, context?: WriteRunContext) => Promise<WriteOutcome>
}

export interface AuditApi {
  record: (entry: Omit<AuditEntry, 'time'>) => void
  recent: (limit?: number) => AuditEntry[]
}

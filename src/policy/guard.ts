import type { Identity } from '../auth/identity.ts'
import { UserError, type UserErrorCode } from '../errors.ts'
import type { Options } from '../options.ts'
import { callFingerprint, ConfirmStore, stableJson, type ConfirmBase, type RedeemVerdict } from './confirm.ts'
import { matchesAny } from './globs.ts'
import { domainOf } from '../home/entities.ts'
import { normaliseTarget, requestTargets } from './targets.ts'
import type { AuditApi, AuditEntry, ConfirmPreview, ServiceTarget, WriteGuardApi, WriteOutcome, WriteRequest, WriteRunContext } from './types.ts'
import { priorState, type UndoRecord, type UndoStore } from './undo.ts'

type Command = (message: { type: string, [key: string]: unknown }) => Promise<unknown>

export interface WriteGuardDeps {
  /** Sends one WebSocket command to Home Assistant. */
  command: Command
  /** The live options (read on every call). */
  options: () => Pick<Options, 'entity_allowlist' | 'entity_denylist' | 'service_denylist' | 'confirm_domains'>
  audit: AuditApi
  confirms?: ConfirmStore
  undo?: UndoStore
  /** Current state of an entity, to remember before a write. */
  state?: (entityId: string) => { state: string, attributes: Record<string, unknown> } | undefined
  /** Entities that area/device/floor/label targets reach, to remember before a write. */
  expandTarget?: (target: ServiceTarget, domain: string) => string[]
  now?: () => number
}

const REFUSAL_MESSAGES: Record<Exclude<RedeemVerdict, 'ok'>, string> = {
  unknown: 'this confirm_token is unknown or was already used (tokens are single use)',
  expired: 'this confirm_token has expired (tokens last 5 minutes)',
  mismatch: 'the call differs from the one this confirm_token was issued for',
  changed: 'the item was changed in Home Assistant after the preview was shown, so that confirmation no longer applies; nothing was written',
  other_identity: 'this confirm_token was issued to another client token'
}

/**
 * The one guarded path every write goes through, in this order: service denylist, entity lists,
 * indirect targeting, dry run, confirmation, the call, the audit line. Each attempt leaves exactly one
 * audit line, and nothing reaches Home Assistant unless every rule passed.
 */
export class WriteGuard implements WriteGuardApi {
  readonly #deps: WriteGuardDeps
  readonly #confirms: ConfirmStore
  readonly #now: () => number

  constructor (deps: WriteGuardDeps) {
    this.#deps = deps
    this.#confirms = deps.confirms ?? new ConfirmStore({ now: deps.now })
    this.#now = deps.now ?? Date.now
  }

  async run (identity: Identity, request: WriteRequest, context: WriteRunContext = {}): Promise<WriteOutcome> {
    const options = this.#deps.options()
    const target = normaliseTarget(request.target)
    const { entities, indirect } = requestTargets({ ...request, target })
    const fingerprint = callFingerprint({ tool: request.tool, domain: request.domain, service: request.service, target, data: request.data, baseHash: request.config?.baseHash })
    const base = { tool: request.tool, identity: identity.id, identity_name: identity.name, domain: request.domain, service: request.service, entities, ref: fingerprint.slice(0, 12) }
    const audit = (outcome: AuditEntry['outcome'], extra: Partial<AuditEntry> = {}): void => { this.#deps.audit.record({ ...base, outcome, ...extra }) }
    const refuse = (reason: string, message: string, hint: string): never => {
      audit('refused', { reason })
      throw new UserError(refusalCode(reason), message, hint)
    }
    const service = `${request.domain}.${request.service}`

    // 1. Services refused in any context.
    if (matchesAny(options.service_denylist, service)) {
      refuse('service_denylist', `${service} is refused by the service_denylist option.`, 'The add-on owner must remove it from service_denylist; no argument makes this call pass.')
    }

    // 2. Every entity the call names, in target, data and config, passes both the global and the token's lists.
    for (const entityId of entities) {
      const rule = entityRefusal(entityId, options, identity)
      if (rule) refuse(rule, `${entityId} is refused by ${rule}.`, rule.endsWith('allowlist') ? 'Only entities matching the allowlist can be written; ask the owner to extend it.' : 'Denied entities can never be written; pick another entity.')
    }

    // 3. Area/device/floor/label targets could reach entities the lists would refuse.
    const listsActive = [options.entity_allowlist, options.entity_denylist, identity.entityAllowlist ?? [], identity.entityDenylist ?? []].some(list => list.length > 0)
    if (listsActive && indirect.length > 0) {
      refuse('indirect_target', `Targeting by ${indirect.join(', ')} is refused while entity allow/deny lists are set.`, 'Target the entities explicitly with entity_id (ha_search_entities finds them).')
    }

    const wouldCall = { domain: request.domain, service: request.service, ...(target ? { target } : {}), ...(request.data && Object.keys(request.data).length > 0 ? { data: request.data } : {}) }

    // 4. A dry run stops here, having checked everything but the confirmation.
    if (request.dryRun === true) {
      audit('dry_run')
      const needs = this.#needsConfirmation(request, entities, options.confirm_domains)
      return { status: 'dry_run', would_call: wouldCall, ...(needs ? { notes: ['The real call will need a confirmation.'] } : {}) }
    }

    // 5. Sensitive domains and every config edit need a human's yes: elicitation when the session offers it, else a token.
    let via: AuditEntry['via']
    if (this.#needsConfirmation(request, entities, options.confirm_domains)) {
      const preview = request.config?.preview ?? `${service}${target ? ` on ${stableJson(target)}` : ''}${wouldCall.data ? ` with ${stableJson(wouldCall.data)}` : ''}`
      const shown: ConfirmPreview = { tool: request.tool, domain: request.domain, service: request.service, entities, preview }
      const answer = context.confirmer && !request.confirmToken
        ? await context.confirmer(shown).catch(() => 'unavailable' as const)
        : 'unavailable'
      if (answer !== 'unavailable') {
        if (answer !== true) refuse('declined', `The confirmation for ${service} was declined.`, 'Nothing was changed. Ask the user before trying again.')
        via = 'elicitation'
      } else if (request.confirmToken === undefined || request.confirmToken === '') {
        const token = this.#confirms.issue(identity.id, fingerprint, confirmBase(request))
        audit('confirmation_asked')
        return {
          status: 'confirmation_required',
          confirm_token: token,
          expires_in_s: Math.round(this.#confirms.ttlMs / 1000),
          preview,
          how: 'Show the preview to the user; if they agree, call again with exactly the same arguments plus confirm_token.'
        }
      } else {
        const verdict = this.#confirms.redeem(identity.id, request.confirmToken, fingerprint, confirmBase(request))
        if (verdict !== 'ok') {
          refuse(`confirm_token_${verdict}`, `Refused: ${REFUSAL_MESSAGES[verdict]}.`, 'Call again without confirm_token to get a fresh one, then confirm with the same arguments.')
        }
        via = 'token'
      }
    }

    // 6. The call, remembering what it is about to change so ha_undo can put it back.
    const undoable = request.undoable ?? (request.execute === undefined && request.config === undefined)
    const before = undoable ? this.#statesBefore(request, entities, target) : undefined
    let result: unknown
    try {
      result = request.execute
        ? await request.execute()
        : await this.#deps.command({
          type: 'call_service',
          domain: request.domain,
          service: request.service,
          ...(request.data && Object.keys(request.data).length > 0 ? { service_data: request.data } : {}),
          ...(target ? { target } : {}),
          ...(request.returnResponse === true ? { return_response: true } : {})
        })
    } catch (err) {
      audit('failed', { reason: String((err as Error).message ?? err).slice(0, 300), ...(via ? { via } : {}) })
      throw err
    }

    // 7. The audit line.
    if (before) this.#deps.undo?.remember(identity.id, before)
    if (via) audit('confirmation_given', { via })
    else audit('allowed')
    return { status: 'done', result, ...(before ? { undo_available: true } : {}) }
  }

  #needsConfirmation (request: WriteRequest, entities: string[], confirmDomains: readonly string[]): boolean {
    if (request.config) return true
    if (matchesAny(confirmDomains, request.domain)) return true
    return entities.some(entityId => matchesAny(confirmDomains, domainOf(entityId)))
  }

  #statesBefore (request: WriteRequest, entities: string[], target: ServiceTarget | undefined): UndoRecord | undefined {
    const { undo, state } = this.#deps
    if (!undo || !state) return undefined
    const ids = new Set(entities)
    if (target && this.#deps.expandTarget && (target.area_id || target.device_id || target.floor_id || target.label_id)) {
      for (const id of this.#deps.expandTarget(target, request.domain)) ids.add(id)
    }
    const states = [...ids].slice(0, 200).flatMap(id => {
      const current = state(id)
      return current ? [priorState(id, current.state, current.attributes)] : []
    })
    if (states.length === 0) return undefined
    return { tool: request.tool, call: `${request.domain}.${request.service}`, at: this.#now(), states }
  }
}

function confirmBase (request: WriteRequest): ConfirmBase | undefined {
  const config = request.config
  return config?.subject !== undefined && config.baseHash !== undefined ? { subject: config.subject, hash: config.baseHash } : undefined
}

/** The stable code a client reads for each audit reason of a refusal. */
function refusalCode (reason: string): UserErrorCode {
  if (reason === 'service_denylist') return 'HAMCP_DENIED_SERVICE'
  if (reason.includes('entity_')) return 'HAMCP_DENIED_ENTITY'
  if (reason === 'indirect_target') return 'HAMCP_DENIED_TARGET'
  if (reason === 'declined') return 'HAMCP_CONFIRMATION_DECLINED'
  if (reason === 'confirm_token_changed') return 'HAMCP_CONFLICT'
  if (reason.startsWith('confirm_token_')) return 'HAMCP_CONFIRM_TOKEN_INVALID'
  return 'HAMCP_INVALID_ARGUMENT'
}

/** Which list refuses an entity, if any: denylists win, a non-empty allowlist denies what it does not name. */
export function entityRefusal (entityId: string, options: Pick<Options, 'entity_allowlist' | 'entity_denylist'>, identity: Pick<Identity, 'entityAllowlist' | 'entityDenylist'>): string | undefined {
  if (matchesAny(options.entity_denylist, entityId)) return 'entity_denylist'
  if (identity.entityDenylist && matchesAny(identity.entityDenylist, entityId)) return 'the token\'s entity_denylist'
  if (options.entity_allowlist.length > 0 && !matchesAny(options.entity_allowlist, entityId)) return 'entity_allowlist'
  if (identity.entityAllowlist && identity.entityAllowlist.length > 0 && !matchesAny(identity.entityAllowlist, entityId)) return 'the token\'s entity_allowlist'
  return undefined
}

import type { Identity } from '../auth/identity.ts'
import { UserError, type UserErrorCode } from '../errors.ts'
import type { Options } from '../options.ts'
import { domainOf } from '../home/entities.ts'
import { callerErrorOf } from '../ha/service-errors.ts'
import { callFingerprint, ConfirmStore, stableJson, type RedeemVerdict, type Shown } from './confirm.ts'
import { configCalls } from './config-calls.ts'
import { matchesAny } from '../globs.ts'
import { assertBounded } from './input-checks.ts'
import { alreadyAsAsked, settle, type ReachedState, type Schedule } from './reached.ts'
import { INDIRECT_TARGET_FIELDS, readCall, resolveTarget, type CallTargets, type HouseIndex } from './targets.ts'
import type { AuditApi, AuditEntry, ConfirmPreview, WriteGuardApi, WriteOutcome, WriteRequest, WriteRunContext } from './types.ts'
import { LEFT_BY_WRITE, priorState, stateFacts, type UndoRecord, type UndoStore } from './undo.ts'

type Command = (message: { type: string, [key: string]: unknown }) => Promise<unknown>

/** From this many entities a confirmed config change is a bulk one, and its instructions offer a backup first. */
export const BULK_ENTITIES = 10

export interface WriteGuardDeps {
  /** Sends one WebSocket command to Home Assistant. */
  command: Command
  /** The live options (read on every call). */
  options: () => Pick<Options, 'entity_allowlist' | 'entity_denylist' | 'service_denylist' | 'confirm_domains'>
  audit: AuditApi
  confirms?: ConfirmStore
  undo?: UndoStore
  /** Current state of an entity, to remember before a write. */
  state?: (entityId: string) => ReachedState | undefined
  /** Calls the listener with the entity id of each state change, so a write can report what it did. */
  changes?: (listener: (entityId: string) => void) => () => void
  /** Timers (a fake clock in tests) and how long a write waits for the states it caused. */
  schedule?: Schedule
  settleMs?: number
  /** The house's entities and registries: what `all` and area/device/floor/label targets reach. */
  house?: HouseIndex
  now?: () => number
}

const REFUSAL_MESSAGES: Record<Exclude<RedeemVerdict, 'ok' | 'conflict'>, string> = {
  unknown: 'this confirm_token is unknown or was already used (tokens are single use)',
  expired: 'this confirm_token has expired (tokens last 5 minutes)',
  mismatch: 'the call differs from the one this confirm_token was issued for',
  other_identity: 'this confirm_token was issued to another client token'
}

/** Most entities whose state a service call's confirmation is bound to. */
const SHOWN_STATES = 200

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
    const service = `${request.domain}.${request.service}`
    const early = { tool: request.tool, identity: identity.id, identity_name: identity.name, domain: request.domain, service: request.service }

    // 0. Every id read as Home Assistant will read it, every free-form object bounded, before any rule.
    let call: CallTargets
    let nestedServices: string[] = []
    let templatedServices: string[] = []
    try {
      assertBounded(request.data, 'data')
      call = readCall(request)
      if (request.config) {
        const nested = configCalls(request.data)
        nestedServices = [...nested.services].sort()
        templatedServices = [...nested.templatedServices].sort()
        for (const id of nested.entities) call.entities.add(id)
        if (nested.templatedTargets.size > 0) call.indirect.add('a template')
      }
    } catch (err) {
      this.#deps.audit.record({ ...early, outcome: 'refused', reason: (err as { code?: string }).code ?? 'invalid_arguments' })
      throw err
    }
    const { target, data } = call
    const entities = [...call.entities].sort()
    const indirect = [...call.indirect].sort()
    // The call as asked: what a confirmation approves, together with what its preview showed (`shown` below).
    const fingerprint = request.asked === undefined
      ? callFingerprint({ tool: request.tool, domain: request.domain, service: request.service, target, data })
      : callFingerprint({ tool: request.tool, domain: request.domain, service: request.service, data: { asked: request.asked } })
    const base = { ...early, entities, ...(target ? { target } : {}), ref: fingerprint.slice(0, 12) }
    const refuseWith = (reason: string, problem: { code: UserErrorCode, message: string, hint: string }): never => {
      audit('refused', { reason })
      throw new UserError(problem.code, problem.message, problem.hint)
    }
    const audit = (outcome: AuditEntry['outcome'], extra: Partial<AuditEntry> = {}): void => { this.#deps.audit.record({ ...base, outcome, ...extra }) }
    const refuse = (reason: string, message: string, hint: string): never => {
      audit('refused', { reason })
      throw new UserError(refusalCode(reason), message, hint)
    }

    // 1. Services refused in any context, also when a written automation or script would call them.
    if (matchesAny(options.service_denylist, service)) {
      refuse('service_denylist', `${service} is refused by the service_denylist option.`, 'The add-on owner must remove it from service_denylist; no argument makes this call pass.')
    }
    for (const inner of nestedServices) {
      if (matchesAny(options.service_denylist, inner)) {
        refuse('service_denylist', `The config calls ${inner}, which is refused by the service_denylist option.`, 'Remove that action; the add-on never writes an automation or script that calls a denied service.')
      }
    }
    if (templatedServices.length > 0 && options.service_denylist.length > 0) {
      refuse('templated_action', `The config picks its action with a template (${templatedServices.slice(0, 3).join(', ')}), which cannot be checked against service_denylist.`, 'Name each action literally, e.g. action: light.turn_on.')
    }

    // 2. Every entity the call names, in target, data and config, passes both the global and the token's lists.
    for (const entityId of entities) {
      const rule = entityRefusal(entityId, options, identity)
      if (rule) refuse(rule, `${entityId} is refused by ${rule}.`, rule.endsWith('allowlist') ? 'Only entities matching the allowlist can be written; ask the owner to extend it.' : 'Denied entities can never be written; pick another entity.')
    }

    // 3. Area/device/floor/label targets, `all`/`none` and templates could reach entities the lists would refuse.
    const listsActive = [options.entity_allowlist, options.entity_denylist, identity.entityAllowlist ?? [], identity.entityDenylist ?? []].some(list => list.length > 0)
    if (listsActive && indirect.length > 0) {
      refuse('indirect_target', `Targeting by ${indirect.join(', ')} is refused while entity allow/deny lists are set.`, 'Target the entities explicitly with entity_id (ha_search_entities finds them).')
    }

    // 4. Every target resolved before the call: what does not exist is refused, never a silent success.
    const aim = call.aim
    const aimsIndirectly = aim !== undefined && (aim.entity_id === 'all' || INDIRECT_TARGET_FIELDS.some(key => aim[key] !== undefined && aim[key] !== 'none'))
    const plainCall = request.execute === undefined && request.config === undefined
    let reach: string[] | undefined = aimsIndirectly ? undefined : entities
    let reached: string[] | undefined
    if (plainCall && aim !== undefined && this.#deps.house) {
      const resolution = await resolveTarget(this.#deps.house, aim, request.domain, request.service)
      if (resolution.problem) refuseWith(resolution.problem.code === 'HAMCP_WRONG_DOMAIN' ? 'wrong_domain' : 'target_not_found', resolution.problem)
      if (resolution.complete) {
        reached = resolution.reached
        reach = [...new Set([...entities, ...reached])].sort()
        base.entities = reached
      }
    }
    const wouldCall = { domain: request.domain, service: request.service, ...(target ? { target } : {}), ...(data && Object.keys(data).length > 0 ? { data } : {}) }

    // 4. A dry run stops here, having checked everything but the confirmation.
    if (request.dryRun === true) {
      audit('dry_run')
      const needs = this.#needsConfirmation(request, entities, reach, options.confirm_domains)
      return { status: 'dry_run', would_call: wouldCall, ...(reached ? { reaches: reached } : aimsIndirectly && reach ? { reaches: reach } : {}), ...(needs ? { notes: ['The real call will need a confirmation.'] } : {}) }
    }

    // 5. Sensitive domains and every config edit need a human's yes: elicitation when the session offers it, else a token.
    let via: AuditEntry['via']
    if (this.#needsConfirmation(request, entities, reach, options.confirm_domains)) {
      const preview = request.config?.preview ?? request.confirmPreview ?? `${service}${target ? ` on ${stableJson(target)}` : ''}${wouldCall.data ? ` with ${stableJson(wouldCall.data)}` : ''}${aimsIndirectly ? `\n${reachLine(reach)}` : ''}`
      const shown: ConfirmPreview = { tool: request.tool, domain: request.domain, service: request.service, entities: reach ?? entities, preview }
      const answer = context.confirmer && !request.confirmToken
        ? await context.confirmer(shown).catch(() => 'unavailable' as const)
        : 'unavailable'
      const given = typeof answer === 'object' ? answer : undefined
      if (answer !== 'unavailable' && given === undefined) {
        if (answer !== true) refuse('declined', `The confirmation for ${service} was declined.`, 'Nothing was changed. Ask the user before trying again.')
        via = 'elicitation'
      } else if (given === undefined && (request.confirmToken === undefined || request.confirmToken === '')) {
        const token = this.#confirms.create({ identityId: identity.id, call: fingerprint, shown: this.#shown(request, reach ?? entities, aimsIndirectly), preview })
        audit('confirmation_asked')
        return {
          status: 'confirmation_required',
          confirm_token: token,
          expires_in_s: Math.round(this.#confirms.ttlMs / 1000),
          preview,
          how: `Show the preview to the user; if they agree, call again with exactly the same arguments plus confirm_token.${request.config && entities.length >= BULK_ENTITIES ? ` This changes ${entities.length} entities: offer a backup first (ha_manage_config, kind backup).` : ''}`
        }
      } else {
        const shownNow = this.#shown(request, reach ?? entities, aimsIndirectly)
        const consumed = this.#confirms.consume(identity.id, given?.token ?? request.confirmToken ?? '', { call: fingerprint, shown: shownNow, preview })
        if (consumed.verdict === 'conflict') {
          // Same call, but the preview it was shown with no longer holds: a fresh preview and token, nothing written.
          audit('refused', { reason: 'confirm_token_conflict' })
          const token = this.#confirms.create({ identityId: identity.id, call: fingerprint, shown: shownNow, preview })
          throw conflictError(request.config?.subject ?? 'What the preview showed', consumed.changes, preview, token, Math.round(this.#confirms.ttlMs / 1000))
        }
        if (consumed.verdict !== 'ok') {
          refuse(`confirm_token_${consumed.verdict}`, `Refused: ${REFUSAL_MESSAGES[consumed.verdict]}.`, 'Call again without confirm_token to get a fresh one, then confirm with the same arguments.')
        }
        via = given?.via ?? 'token'
      }
    } else if (request.confirmToken !== undefined && request.confirmToken !== '') {
      // A token presented to a write that needs no yes is still checked: one issued for another call
      // (an undo of another record, another target) is refused, never silently ignored.
      const preview = request.config?.preview ?? request.confirmPreview ?? ''
      const consumed = this.#confirms.consume(identity.id, request.confirmToken, { call: fingerprint, shown: this.#shown(request, reach ?? entities, aimsIndirectly), preview })
      if (consumed.verdict !== 'ok' && consumed.verdict !== 'conflict') {
        refuse(`confirm_token_${consumed.verdict}`, `Refused: ${REFUSAL_MESSAGES[consumed.verdict]}.`, 'Call again without confirm_token to get a fresh one, then confirm with the same arguments.')
      }
    }

    // 6. The call, remembering what it is about to change so ha_undo can put it back.
    const undoable = request.undoable ?? (request.execute === undefined && request.config === undefined)
    const before = undoable ? this.#statesBefore(request, reach ?? entities) : undefined
    const already = reached && plainCall ? this.#alreadyAsAsked(request, reached, data) : undefined
    let result: unknown
    try {
      result = request.execute
        ? await request.execute()
        : await this.#deps.command({
          type: 'call_service',
          domain: request.domain,
          service: request.service,
          ...(data && Object.keys(data).length > 0 ? { service_data: data } : {}),
          ...(target ? { target } : {}),
          ...(request.returnResponse === true ? { return_response: true } : {})
        })
    } catch (err) {
      // Home Assistant's validation errors and unknown services are the caller's to fix, and say so.
      const callers = request.execute ? undefined : callerErrorOf(err, service)
      audit('failed', { reason: `${callers ? `${callers.code}: ` : ''}${String((err as Error).message ?? err)}`.slice(0, 300), ...(via ? { via } : {}) })
      throw callers ?? err
    }

    // 7. The audit line.
    const revert = request.revert?.(result)
    const remembered = (before && this.#checked(before, result)) ?? (revert && this.#deps.undo ? { tool: request.tool, call: service, at: this.#now(), states: [], revert, ...(revert.wrote && revert.current ? { wrote: revert.wrote, current: revert.current } : {}) } : undefined)
    if (remembered) this.#deps.undo?.remember(identity.id, remembered)
    // An undoable kind of write that this time cannot be undone: undo must not revert an older one instead.
    else if (request.revert) this.#deps.undo?.forget(identity.id)
    if (via) audit('confirmation_given', { via })
    else audit('allowed')
    const effect = reached && plainCall ? await this.#effect(reached, result, already) : undefined
    return { status: 'done', result, ...(effect ?? {}), ...(remembered ? { undo_available: true } : {}) }
  }

  /** What the call did to the entities it reached, once Home Assistant reported their states (bounded wait). */
  async #effect (reached: string[], result: unknown, already?: ReadonlySet<string>): Promise<{ reached: string[], states?: Record<string, string>, unchanged?: string[] }> {
    const { state, changes } = this.#deps
    if (!state || !changes || reached.length === 0) return { reached }
    const contextId = (result as { context?: { id?: unknown } } | null)?.context?.id
    const settled = await settle({ state, changes, schedule: this.#deps.schedule, settleMs: this.#deps.settleMs }, reached, typeof contextId === 'string' ? contextId : undefined, already)
    return { reached, states: settled.states, unchanged: settled.unchanged }
  }

  /**
   * What a preview showed, as facts a confirmation is bound to (with its text): the config's hash, what the
   * tool read to build it (`basis`), the entities an indirect target reaches and, for service calls,
   * the current state of each entity the call reaches.
   */
  #shown (request: WriteRequest, reach: string[], aimsIndirectly: boolean): Shown {
    const shown: Shown = { ...request.basis }
    if (request.config?.baseHash !== undefined) shown[`${request.config.subject ?? `${request.domain}.${request.service}`} (config hash)`] = request.config.baseHash.slice(0, 16)
    if (aimsIndirectly) shown['reached entities'] = reach.join(', ') || 'none'
    if (request.config === undefined && this.#deps.state) {
      for (const id of reach.slice(0, SHOWN_STATES)) shown[`${id} state`] = this.#deps.state(id)?.state ?? 'absent'
    }
    return shown
  }

  #needsConfirmation (request: WriteRequest, entities: string[], reach: string[] | undefined, confirmDomains: readonly string[]): boolean {
    if (request.config || request.confirmPreview !== undefined) return true
    if (matchesAny(confirmDomains, request.domain)) return true
    // Reach unknown (registries unavailable): an indirect target might reach a sensitive domain.
    if (reach === undefined) return confirmDomains.length > 0
    return [...entities, ...reach].some(entityId => matchesAny(confirmDomains, domainOf(entityId)))
  }

  /** A service call's undo record, told how to see what changed since: states carrying another context than the call's. */
  #checked (record: UndoRecord, result: unknown): UndoRecord {
    const contextId = (result as { context?: { id?: unknown } } | null)?.context?.id
    const { state } = this.#deps
    if (typeof contextId !== 'string' || !state) return record
    const wrote = Object.fromEntries(record.states.map(prior => [prior.entity_id, LEFT_BY_WRITE]))
    return { ...record, wrote, current: async () => stateFacts(record.states, contextId, state) }
  }

  /** The reached entities that already are as the call would leave them, read before it is sent. */
  #alreadyAsAsked (request: { domain: string, service: string }, reached: string[], data: Record<string, unknown> | undefined): Set<string> | undefined {
    const { state } = this.#deps
    if (!state) return undefined
    return new Set(reached.filter(id => alreadyAsAsked({ domain: request.domain, service: request.service, ...(data ? { data } : {}) }, id, state(id))))
  }

  #statesBefore (request: WriteRequest, ids: string[]): UndoRecord | undefined {
    const { undo, state } = this.#deps
    if (!undo || !state) return undefined
    const states = ids.slice(0, 200).flatMap(id => {
      const current = state(id)
      return current ? [priorState(id, current.state, current.attributes)] : []
    })
    if (states.length === 0) return undefined
    return { tool: request.tool, call: `${request.domain}.${request.service}`, at: this.#now(), states }
  }
}

/** HAMCP_CONFLICT for a confirmation whose preview no longer holds, carrying the fresh preview and its token. */
function conflictError (subject: string, changes: string[], preview: string, token: string, expiresInS: number): UserError {
  const what = `Changed since: ${changes.join('; ')}.`
  return new UserError(
    'HAMCP_CONFLICT',
    `${subject} was changed in Home Assistant after the preview was shown, so that confirmation no longer applies; nothing was written. ${what}\nNew preview:\n${preview}`,
    `Show the new preview to the user; if they agree, call again with the same arguments and confirm_token ${token} (valid ${expiresInS} s).`,
    { confirm_token: token, preview, changes, expires_in_seconds: expiresInS }
  )
}

/** The entities an indirect target reaches, named for the human who confirms. */
function reachLine (reach: string[] | undefined): string {
  if (reach === undefined) return 'Reaches: unknown (the registries could not be read), so this asks anyway.'
  if (reach.length === 0) return 'Reaches: no entity.'
  const shown = reach.slice(0, 25)
  return `Reaches ${reach.length} ${reach.length === 1 ? 'entity' : 'entities'}: ${shown.join(', ')}${reach.length > shown.length ? `, and ${reach.length - shown.length} more` : ''}.`
}

/** The stable code a client reads for each audit reason of a refusal. */
function refusalCode (reason: string): UserErrorCode {
  if (reason === 'service_denylist' || reason === 'templated_action') return 'HAMCP_DENIED_SERVICE'
  if (reason.includes('entity_')) return 'HAMCP_DENIED_ENTITY'
  if (reason === 'indirect_target') return 'HAMCP_DENIED_TARGET'
  if (reason === 'declined') return 'HAMCP_CONFIRMATION_DECLINED'
  if (reason === 'confirm_token_conflict') return 'HAMCP_CONFLICT'
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

import { realClock } from '../clock.ts'
import type { Identity } from '../auth/identity.ts'
import { UserError, type UserErrorCode } from '../errors.ts'
import type { Options } from '../options.ts'
import { domainOf } from '../home/entities.ts'
import { callerErrorOf } from '../ha/service-errors.ts'
import { MAX_APPROVALS, MAX_WAITING_PER_IDENTITY, OwnerApprovals } from './approvals.ts'
import { callFingerprint, changedFacts, changedSincePreview, ConfirmStore, stableJson, type RedeemVerdict, type Shown } from './confirm.ts'
import { configCalls, picksByAgent } from './config-calls.ts'
import { firstMatch, matchesAny } from '../globs.ts'
import { assertBounded } from './input-checks.ts'
import { alreadyAsAsked, settle, type ReachedState, type Schedule } from './reached.ts'
import { expandMembers, MAX_MEMBERS } from './expand.ts'
import { runsStarted, startsRuns, walkRuns, type RunReach } from './runs.ts'
import { walkWrappers } from './wrappers.ts'
import { INDIRECT_TARGET_FIELDS, readCall, resolveTarget, type CallTargets, type HouseIndex } from './targets.ts'
import type { AuditApi, AuditEntry, CommandWrite, ConfigWrite, ConfirmedEdit, ConfirmPreview, OwnerGrant, RegistryWrite, ServiceCallWrite, ServiceTarget, SupervisorWrite, UndoWrite, WriteGuardApi, WriteName, WriteOutcome, WriteRequest, WriteRunContext } from './types.ts'
import { priorState, revertUndo, statesUndo, type PriorState, type Revert, type UndoPlan, type UndoStore } from './undo.ts'

type Command = (message: { type: string, [key: string]: unknown }) => Promise<unknown>

/** From this many entities a confirmed config change is a bulk one, and its instructions offer a backup first. */
export const BULK_ENTITIES = 10

export interface WriteGuardDeps {
  /** Sends one WebSocket command to Home Assistant. */
  command: Command
  /** The live options (read on every call). */
  options: () => Pick<Options, 'entity_allowlist' | 'entity_denylist' | 'service_denylist' | 'confirm_domains'> & Partial<Pick<Options, 'confirm_with'>>
  audit: AuditApi
  confirms?: ConfirmStore
  /** Calls waiting for the owner's approval (`confirm_with: owner`). */
  approvals?: OwnerApprovals
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

/** A refusal as decided by a rule: the audit's reason and the client's code, said once, where it is decided. */
interface Refusal { code: UserErrorCode, reason: string, message: string, hint: string }

/**
 * What one write kind asks of the guard, built by that kind's function below (`planOf`): what it names
 * in the audit, what it targets, which services the denylist sees, how it is confirmed and undone.
 */
interface Plan {
  /** The service a service call makes (what confirm_domains, target resolution and runs read); a registry's or a config's documented name; empty for an operation. */
  domain: string
  service: string
  /** What messages and previews call the write: `domain.service`, or its operation (WriteName). */
  name: string
  /** Names `service_denylist` is matched against: the service itself, or a registry's, a config kind's or the Supervisor's documented name; none for an operation. */
  denylisted: string[]
  /** Services the write makes Home Assistant call (inside a config, or an undo's restore calls): each through `service_denylist`. */
  inner: string[]
  /** Services a config picks by template: refused while `service_denylist` is set. */
  templated: string[]
  read: CallTargets
  /** Service calls only: resolve the target before sending, and report what each reached entity became. */
  resolves: boolean
  /** What the named entities stand for (group members, scene entities) passes the rules too. */
  expands?: boolean
  /** An edit always confirmed with this preview, bound to its hash instead of entity states. */
  edit?: ConfirmedEdit
  /** Always confirmed with this preview, still bound to the states it reaches (an undo over newer work). */
  forced?: string
  send: () => Promise<unknown>
  /** Service calls: Home Assistant's refusals of the call are the caller's to fix. */
  callersError?: (err: unknown) => UserError | undefined
  /**
   * What ha_undo can take back afterwards; undefined: this kind leaves the last record alone. A function
   * answering undefined: this write could not be undone, so undo must not revert an older one instead.
   */
  undo?: (result: unknown, failed: boolean) => Promise<UndoPlan | undefined>
}

/** `service_denylist`, a config's inner and templated calls, the entity lists, indirect targets: the first that refuses. */
function ruleRefusal (plan: Plan, entities: string[], indirect: string[], options: ReturnType<WriteGuardDeps['options']>, identity: Identity): Refusal | undefined {
  const denied = (message: string, hint: string): Refusal => ({ code: 'HAMCP_DENIED_SERVICE', reason: 'service_denylist', message, hint })
  for (const name of plan.denylisted) {
    const entry = firstMatch(options.service_denylist, name)
    if (entry !== undefined) return denied(`${name} is refused by the service_denylist option (entry "${entry}").`, `The add-on owner must remove "${entry}" from service_denylist; no argument makes this call pass.`)
  }
  for (const inner of plan.inner) {
    if (matchesAny(options.service_denylist, inner)) {
      return plan.domain === 'undo'
        ? denied(`Undoing it calls ${inner}, which is refused by the service_denylist option.`, 'The add-on owner must remove it from service_denylist; restore it by hand in Home Assistant otherwise.')
        : denied(`The config calls ${inner}, which is refused by the service_denylist option.`, 'Remove that action; the add-on never writes an automation or script that calls a denied service.')
    }
  }
  if (plan.templated.length > 0 && options.service_denylist.length > 0) {
    return { code: 'HAMCP_DENIED_SERVICE', reason: 'templated_action', message: `The config picks its action with a template (${plan.templated.slice(0, 3).join(', ')}), which cannot be checked against service_denylist.`, hint: 'Name each action literally, e.g. action: light.turn_on.' }
  }
  for (const entityId of entities) {
    const rule = entityRefusal(entityId, options, identity)
    if (rule) return { code: 'HAMCP_DENIED_ENTITY', reason: rule, message: `${entityId} is refused by ${rule}.`, hint: rule.endsWith('allowlist') ? 'Only entities matching the allowlist can be written; ask the owner to extend it.' : 'Denied entities can never be written; pick another entity.' }
  }
  if (entityListsActive(options, identity) && indirect.length > 0) {
    return { code: 'HAMCP_DENIED_TARGET', reason: 'indirect_target', message: `Targeting by ${indirect.join(', ')} is refused while entity allow/deny lists are set.`, hint: 'Target the entities explicitly with entity_id (ha_search_entities finds them).' }
  }
  return undefined
}

/** Whether any entity list applies to this caller: the options' or its named token's own. */
export function entityListsActive (options: Pick<Options, 'entity_allowlist' | 'entity_denylist'>, identity: Identity): boolean {
  return [options.entity_allowlist, options.entity_denylist, identity.entityAllowlist ?? [], identity.entityDenylist ?? []].some(list => list.length > 0)
}

/**
 * What refuses a run of owner-made scripts and automations, from their static walk: a denied service
 * they call; what a template or an unreadable config hides while service_denylist or an entity list
 * could apply to it; a templated or indirect target while an entity list could.
 */
function runRefusal (walk: RunReach, options: Pick<Options, 'service_denylist'>, listsActive: boolean): Refusal | undefined {
  for (const [service, where] of walk.services) {
    if (matchesAny(options.service_denylist, service)) return { code: 'HAMCP_DENIED_SERVICE', reason: 'service_denylist', message: `${where} calls ${service}, which is refused by the service_denylist option.`, hint: 'The add-on owner must remove it from service_denylist, or change what the script or automation calls in Home Assistant.' }
  }
  const unknowable = walk.unknowableCalls[0]
  if (unknowable !== undefined && (options.service_denylist.length > 0 || listsActive)) {
    return { code: 'HAMCP_DENIED_SERVICE', reason: 'unknowable_run', message: `Refused: ${unknowable}, so what it calls cannot be checked against ${options.service_denylist.length > 0 ? 'service_denylist' : 'the entity lists'}.`, hint: 'The owner can allow it by emptying service_denylist and the entity lists, or by making the script or automation name its actions literally in a UI-managed config.' }
  }
  if (!listsActive) return undefined
  const templated = walk.unknowableTargets[0]
  if (templated !== undefined) return { code: 'HAMCP_DENIED_TARGET', reason: 'unknowable_target', message: `Refused: a template picks the targets of ${templated}, so which entities it reaches is unknowable while entity allow/deny lists are set.`, hint: 'The owner can allow it by removing the entity lists, or by naming the entities literally in the script or automation.' }
  const indirect = walk.indirect[0]
  if (indirect !== undefined) return { code: 'HAMCP_DENIED_TARGET', reason: 'indirect_target', message: `Refused: ${indirect} targets entities indirectly, which is refused while entity allow/deny lists are set.`, hint: 'The owner can allow it by removing the entity lists, or by naming the entities literally in the script or automation.' }
  return undefined
}

/** One call on its way through the guard: what `#attempt` read from it, and what each later step adds. */
interface Attempt {
  identity: Identity
  request: WriteRequest
  plan: Plan
  label: WriteName
  /** The ids the write names, sorted; `indirect`: the target fields it aims by (area, device...). */
  entities: string[]
  indirect: string[]
  fingerprint: string
  /** One audit line for this call, with its tool, identity, label, entities, target and ref. */
  audit: (outcome: AuditEntry['outcome'], extra?: Partial<AuditEntry>) => void
  /** Audits the refusal and throws it to the caller. */
  refuse: (refusal: Refusal) => never
  /** Once the target is resolved, the audit names the entities it reached instead of the ones named. */
  auditReached: (reached: string[]) => void
  /** Aims by area, device, floor, label or `all`. */
  aimsIndirectly: boolean
  /** Every entity the write may reach; undefined while an indirect target is unresolved. */
  reach: string[] | undefined
  /** What a service call's target resolved to, when it resolved completely. */
  reached: string[] | undefined
  /** Entities reached through another one (a group's members, a scene's entities, what a script does), each with that one. */
  through: Map<string, string>
  /** A script or automation the call starts picks its targets by template: what it reaches is not known. */
  reachUnknown: boolean
  /** What decides the reach when it is not known, for the question. */
  unknownBy: string
  /** The call as a dry run reports it. */
  wouldCall: WriteName & { target?: ServiceTarget, data?: Record<string, unknown> }
}

const tokenRefusal = (verdict: Exclude<RedeemVerdict, 'ok' | 'conflict'>): Refusal => ({
  code: 'HAMCP_CONFIRM_TOKEN_INVALID',
  reason: `confirm_token_${verdict}`,
  message: `Refused: ${REFUSAL_MESSAGES[verdict]}.`,
  hint: 'Call again without confirm_token to get a fresh one, then confirm with the same arguments.'
})

/**
 * The one guarded path every write goes through, in this order: the write's kind says what it targets
 * and which rules apply (`planOf`); then service denylist, entity lists, indirect targeting, target
 * resolution, dry run, confirmation, the write, its undo record, the audit line. Each attempt leaves
 * exactly one audit line, and nothing reaches Home Assistant unless every rule passed.
 */
export class WriteGuard implements WriteGuardApi {
  readonly #deps: WriteGuardDeps
  readonly #confirms: ConfirmStore
  readonly #approvals: OwnerApprovals
  readonly #now: () => number

  constructor (deps: WriteGuardDeps) {
    this.#deps = deps
    this.#confirms = deps.confirms ?? new ConfirmStore({ now: deps.now })
    this.#approvals = deps.approvals ?? new OwnerApprovals({ now: deps.now })
    this.#now = deps.now ?? realClock.now
  }

  async run (identity: Identity, request: WriteRequest, context: WriteRunContext = {}): Promise<WriteOutcome> {
    const options = this.#deps.options()
    const attempt = this.#attempt(identity, request)
    const ruled = ruleRefusal(attempt.plan, attempt.entities, attempt.indirect, options, identity)
    if (ruled) attempt.refuse(ruled)
    await this.#resolve(attempt)
    await this.#reachThrough(attempt, options, identity)
    const { plan, entities, reach } = attempt
    const needsYes = plan.edit !== undefined || plan.forced !== undefined || needsConfirmation(plan.domain, entities, attempt.reachUnknown ? undefined : reach, options.confirm_domains)
    if (request.dryRun === true) return dryRun(attempt, needsYes)
    const yes = await this.#confirm(attempt, needsYes, context, options.confirm_with === 'owner')
    if ('status' in yes) return yes
    const outcome = await this.#execute(attempt, yes.via, yes.decidedBy)
    // A re-run on the owner's approval: the approval keeps what the call did, for the assistant's next call.
    if (context.ownerGrant) context.ownerGrant.outcome = outcome
    return outcome
  }

  /**
   * Reads the write as its kind says (every id as Home Assistant will read it, every free-form object
   * bounded) before any rule; a write that cannot be read is audited as refused. The call's
   * fingerprint is what a confirmation approves, together with what its preview showed.
   */
  #attempt (identity: Identity, request: WriteRequest): Attempt {
    const label = writeLabel(request)
    const early = { tool: request.tool, identity: identity.id, identity_name: identity.name, ...label }
    let plan: Plan
    try {
      plan = this.#planOf(request)
    } catch (err) {
      this.#deps.audit.record({ ...early, outcome: 'refused', reason: (err as { code?: string }).code ?? 'invalid_arguments' })
      throw err
    }
    const { target, data, aim } = plan.read
    const entities = [...plan.read.entities].sort()
    const fingerprint = request.asked === undefined
      ? callFingerprint({ tool: request.tool, ...label, target, data })
      : callFingerprint({ tool: request.tool, ...label, data: { asked: request.asked } })
    const base = { ...early, entities, ...(target ? { target } : {}), ref: fingerprint.slice(0, 12) }
    const audit = (outcome: AuditEntry['outcome'], extra: Partial<AuditEntry> = {}): void => { this.#deps.audit.record({ ...base, outcome, ...extra }) }
    const aimsIndirectly = aim !== undefined && (aim.entity_id === 'all' || INDIRECT_TARGET_FIELDS.some(key => aim[key] !== undefined && aim[key] !== 'none'))
    return {
      identity,
      request,
      plan,
      label,
      entities,
      indirect: [...plan.read.indirect].sort(),
      fingerprint,
      audit,
      refuse: refusal => {
        audit('refused', { reason: refusal.reason })
        throw new UserError(refusal.code, refusal.message, refusal.hint)
      },
      auditReached: reached => { base.entities = reached },
      aimsIndirectly,
      reach: aimsIndirectly ? undefined : entities,
      reached: undefined,
      through: new Map(),
      reachUnknown: false,
      unknownBy: 'a template or a config that cannot be read',
      wouldCall: { ...label, ...(target ? { target } : {}), ...(data && Object.keys(data).length > 0 ? { data } : {}) }
    }
  }

  /** Every target resolved before the call: what does not exist is refused, never a silent success. */
  async #resolve (attempt: Attempt): Promise<void> {
    const { plan, entities } = attempt
    const aim = plan.read.aim
    if (!plan.resolves || aim === undefined || !this.#deps.house) return
    const resolution = await resolveTarget(this.#deps.house, aim, plan.domain, plan.service)
    if (resolution.problem) attempt.refuse({ ...resolution.problem, reason: resolution.problem.code === 'HAMCP_WRONG_DOMAIN' ? 'wrong_domain' : 'target_not_found' })
    if (resolution.complete) {
      attempt.reached = resolution.reached
      attempt.reach = [...new Set([...entities, ...resolution.reached])].sort()
      attempt.auditReached(resolution.reached)
    }
  }

  /**
   * What the call reaches through what it names, before the entity lists and confirm_domains apply: the
   * scripts and automations it starts, walked statically (src/policy/runs.ts), then the members of every
   * group and scene among all of it. Each entity found passes the lists as if the call had named it; a
   * denied service a script calls is refused; what a template or an unreadable config hides is refused
   * while a rule could apply to it, and asks for a yes while confirm_domains could.
   */
  async #reachThrough (attempt: Attempt, options: ReturnType<WriteGuardDeps['options']>, identity: Identity): Promise<void> {
    const { plan } = attempt
    const house = this.#deps.house
    const listsActive = entityListsActive(options, identity)
    if (plan.resolves && picksByAgent(`${plan.domain}.${plan.service}`)) {
      if (listsActive) attempt.refuse({ code: 'HAMCP_DENIED_TARGET', reason: 'unknowable_target', message: `Refused: ${plan.domain}.${plan.service} hands the text to Home Assistant's conversation agent, which picks the entities it acts on, so what it reaches cannot be checked against the entity lists.`, hint: 'Call the service the sentence means on the entities themselves (e.g. light.turn_on with target.entity_id).' })
      attempt.reachUnknown = true
      attempt.unknownBy = 'Home Assistant\'s conversation agent, from the text'
    }
    if (plan.expands !== true || !house) return
    const found = new Map<string, string>()
    const named = attempt.entities
    const resolved = attempt.reached ?? []
    if (plan.resolves && startsRuns(plan.domain, plan.service) && house.runConfig) {
      // A group's member scripts start too (homeassistant.turn_on expands groups before it calls script.turn_on).
      const grouped = expandMembers(id => house.state?.(id), [...new Set([...named, ...resolved])]).via.keys()
      const starts = attempt.reached === undefined && attempt.aimsIndirectly ? undefined : runsStarted(plan.domain, plan.service, [...new Set([...named, ...resolved, ...grouped])])
      const walk = starts === undefined
        ? { services: new Map<string, string>(), entities: new Map<string, string>(), indirect: [], unknowableCalls: ['the scripts it starts could not be resolved'], unknowableTargets: [] }
        : await walkRuns(house, house.runConfig, starts)
      const refusal = runRefusal(walk, options, listsActive)
      if (refusal) attempt.refuse(refusal)
      if (walk.unknowableCalls.length > 0 || walk.unknowableTargets.length > 0) attempt.reachUnknown = true
      for (const [id, where] of walk.entities) if (!named.includes(id)) found.set(id, where)
    }
    if (house.wrapper) {
      // A switch_as_x or UI template entity among what the call reaches acts on other entities (src/policy/wrappers.ts).
      const grouped = expandMembers(id => house.state?.(id), [...new Set([...named, ...resolved, ...found.keys()])]).via.keys()
      const walk = await walkWrappers(house, house.wrapper, [...new Set([...named, ...resolved, ...found.keys(), ...grouped])])
      const refusal = runRefusal(walk, options, listsActive)
      if (refusal) attempt.refuse(refusal)
      if (walk.unknowableCalls.length > 0 || walk.unknowableTargets.length > 0) attempt.reachUnknown = true
      for (const [id, where] of walk.entities) if (!named.includes(id) && !found.has(id)) found.set(id, where)
    }
    // What an area, a label or `all` resolved to is expanded too: a scene found that way still sets its entities.
    const members = expandMembers(id => house.state?.(id), [...new Set([...named, ...found.keys(), ...(attempt.aimsIndirectly ? resolved : [])])])
    for (const [id, via] of members.via) if (!found.has(id)) found.set(id, found.get(via) ?? via)
    if (members.truncated) {
      if (listsActive) attempt.refuse({ code: 'HAMCP_DENIED_TARGET', reason: 'unknowable_target', message: `Refused: the groups and scenes this call names hold more than ${MAX_MEMBERS} entities, too many to check against the entity lists.`, hint: 'Target the entities, or a smaller group, explicitly.' })
      attempt.reachUnknown = true
    }
    // What the target resolved to beyond the names (an old-style group's members) is checked like the rest.
    if (!attempt.aimsIndirectly) for (const id of resolved) if (!named.includes(id) && !found.has(id)) found.set(id, 'the target')
    if (found.size === 0) return
    attempt.through = found
    if (attempt.reach !== undefined) attempt.reach = [...new Set([...attempt.reach, ...found.keys()])].sort()
    if (attempt.reached !== undefined) attempt.reached = [...new Set([...attempt.reached, ...found.keys()])].sort()
    // The audit line, a refusal's included, lists what was reached this way.
    attempt.auditReached(attempt.reached ?? [...new Set([...attempt.entities, ...found.keys()])].sort())
    for (const [id, via] of found) {
      const rule = entityRefusal(id, options, identity)
      if (rule) attempt.refuse({ code: 'HAMCP_DENIED_ENTITY', reason: rule, message: `${id}, reached through ${via}, is refused by ${rule}.`, hint: rule.endsWith('allowlist') ? 'Only entities matching the allowlist can be written, also through groups, scenes and scripts; ask the owner to extend it.' : 'Denied entities can never be written, also through groups, scenes, scripts and automations; pick another target.' })
    }
  }

  /**
   * Sensitive domains, every config edit and forced undos need a human's yes: asked when the client
   * can be, else a confirm token. Answers how the yes was given (none needed: `via` undefined), or the
   * outcome that asks for a token. A token presented to a write that needs no yes is still checked.
   */
  async #confirm (attempt: Attempt, needsYes: boolean, context: WriteRunContext, byOwner: boolean): Promise<{ via: AuditEntry['via'], decidedBy?: string } | WriteOutcome> {
    const { identity, request, plan, label, entities, fingerprint, audit, refuse, aimsIndirectly, reach, wouldCall, through } = attempt
    const { target } = plan.read
    const reachesMore = aimsIndirectly || through.size > 0
    const members = through.size > 0 ? `\n${throughLine(through)}${attempt.reachUnknown ? `\nWhat else it reaches is decided by ${attempt.unknownBy}.` : ''}` : attempt.reachUnknown ? `\nWhat it reaches is decided by ${attempt.unknownBy}.` : ''
    const preview = plan.edit?.preview ?? plan.forced ?? `${plan.name}${target ? ` on ${stableJson(target)}` : ''}${wouldCall.data ? ` with ${stableJson(wouldCall.data)}` : ''}${aimsIndirectly ? `\n${reachLine(reach)}` : ''}${members}`
    const shownNow = (): Shown => this.#shown(plan, request.basis, reach ?? entities, reachesMore)
    const redeem = (token: string): { verdict: 'ok' } | { verdict: 'conflict', changes: string[] } => {
      const consumed = this.#confirms.consume(identity.id, token, { call: fingerprint, shown: shownNow(), preview })
      if (consumed.verdict === 'ok' || consumed.verdict === 'conflict') return consumed
      return refuse(tokenRefusal(consumed.verdict))
    }
    const presented = request.confirmToken === undefined || request.confirmToken === '' ? undefined : request.confirmToken
    if (!needsYes) {
      // One issued for another call (an undo of another record, another target) is refused, never silently ignored.
      if (presented !== undefined) redeem(presented)
      return { via: undefined }
    }
    // The owner's approval re-runs the call: it runs only as it was previewed, whatever the option says now.
    if (context.ownerGrant) return this.#granted(attempt, context.ownerGrant, preview, shownNow())
    // Under confirm_with: owner nothing the client sends is a yes: no token, no elicitation, no round.
    if (byOwner) return this.#askOwner(attempt, preview, shownNow(), presented, context)
    const shown: ConfirmPreview = { tool: request.tool, ...label, entities: reach ?? entities, preview }
    const answer = context.confirmer && presented === undefined
      ? await context.confirmer(shown).catch(() => 'unavailable' as const)
      : 'unavailable'
    const given = typeof answer === 'object' ? answer : undefined
    const token = given?.token ?? presented
    if (answer === true) return { via: 'elicitation' }
    if (answer === false) refuse({ code: 'HAMCP_CONFIRMATION_DECLINED', reason: 'declined', message: `The confirmation for ${plan.name} was declined.`, hint: 'Nothing was changed. Ask the user before trying again.' })
    if (token === undefined) {
      const issued = this.#confirms.create({ identityId: identity.id, call: fingerprint, shown: shownNow(), preview })
      audit('confirmation_asked')
      return {
        status: 'confirmation_required',
        confirm_token: issued,
        expires_in_s: Math.round(this.#confirms.ttlMs / 1000),
        preview,
        how: `Show the preview to the user; if they agree, call again with exactly the same arguments plus confirm_token.${plan.edit && entities.length >= BULK_ENTITIES ? ` This changes ${entities.length} entities: offer a backup first (ha_manage_config, kind backup).` : ''}`
      }
    }
    const consumed = redeem(token)
    if (consumed.verdict === 'conflict') {
      // Same call, but the preview it was shown with no longer holds: a fresh preview and token, nothing written.
      audit('refused', { reason: 'confirm_token_conflict' })
      const fresh = this.#confirms.create({ identityId: identity.id, call: fingerprint, shown: shownNow(), preview })
      throw conflictError(plan.edit?.subject ?? 'What the preview showed', consumed.changes, preview, fresh, Math.round(this.#confirms.ttlMs / 1000))
    }
    return { via: given?.via ?? 'token' }
  }

  /**
   * `confirm_with: owner`: a call that needs a yes waits for the owner (status page, Home Assistant
   * notification). The client's token only reads the outcome: still waiting, what the approved call did,
   * denied, expired. Nothing runs here; the approval re-runs the call (`context.rerun`).
   */
  #askOwner (attempt: Attempt, preview: string, shown: Shown, presented: string | undefined, context: WriteRunContext): WriteOutcome {
    const { identity, request, label, fingerprint, audit, refuse, entities, reach } = attempt
    const what = nameOf(label)
    if (presented !== undefined) {
      const polled = this.#approvals.poll(identity.id, presented, fingerprint)
      switch (polled.verdict) {
        case 'waiting': return awaitingOwner(polled.ref, polled.expiresInS, polled.preview)
        case 'done': return polled.outcome
        case 'failed': throw polled.error
        case 'denied': throw new UserError('HAMCP_CONFIRMATION_DECLINED', `The owner (${polled.decidedBy}) denied ${what}; nothing was changed.`, 'Tell the user; do not ask again unless they want to.')
        case 'expired': throw new UserError('HAMCP_CONFIRM_TOKEN_INVALID', `The owner did not approve ${what} in time (an approval waits ${Math.round(this.#approvals.ttlMs / 60_000)} minutes); nothing was changed.`, 'Call again without confirm_token to ask the owner again.')
        case 'mismatch': return refuse(tokenRefusal('mismatch'))
        case 'unknown': return refuse(tokenRefusal('unknown'))
      }
    }
    const rerun = context.rerun
    if (!rerun) return refuse({ code: 'HAMCP_NOT_SUPPORTED', reason: 'owner_approval_unavailable', message: `${what} needs the owner's approval (confirm_with: owner), which this way of calling cannot wait for.`, hint: 'Call it through the MCP endpoint.' })
    const asked = this.#approvals.ask({
      identityId: identity.id,
      identityName: identity.name,
      tool: request.tool,
      name: nameOf(label),
      entities: reach ?? entities,
      preview,
      call: fingerprint,
      shown,
      execute: async grant => {
        const carried: OwnerGrant = { ...grant }
        const failure = await rerun(carried)
        if (failure) throw new UserError(failure.code as UserErrorCode, failure.message, failure.hint)
        if (!carried.outcome) throw new UserError('HAMCP_CONFLICT', `${what} did not run: the call no longer matched what the owner approved.`, 'Call again without confirm_token to ask the owner again.')
        return carried.outcome
      },
      ended: (how, decidedBy) => { audit('refused', { reason: how === 'denied' ? 'denied_by_owner' : `owner_approval_${how}`, ...(decidedBy === undefined ? {} : { decided_by: decidedBy }) }) }
    })
    if ('full' in asked) {
      return refuse(asked.full === 'identity'
        ? { code: 'HAMCP_LIMIT_REACHED', reason: 'owner_approvals_full', message: `${MAX_WAITING_PER_IDENTITY} calls of this client already wait for the owner's approval.`, hint: 'Wait until the owner decides on those (or they expire), then ask again.' }
        : { code: 'HAMCP_LIMIT_REACHED', reason: 'owner_approvals_full', message: `${MAX_APPROVALS} calls wait for the owner's approval already, from all clients together.`, hint: 'Tell the user: the owner must decide on those on the add-on\'s page (or they expire) before anything else can be asked.' })
    }
    if (asked.fresh) audit('confirmation_asked', { reason: 'awaiting_owner' })
    return awaitingOwner(asked.ref, asked.expiresInS, preview)
  }

  /** The re-run an owner's approval started: the same identity and call, and the preview still true, or nothing runs. */
  #granted (attempt: Attempt, grant: OwnerGrant, preview: string, shown: Shown): { via: AuditEntry['via'], decidedBy: string } {
    const { identity, fingerprint, plan, audit, refuse } = attempt
    const approved = this.#approvals.running(grant.ref, identity.id, fingerprint)
    if (!approved) return refuse(tokenRefusal('mismatch'))
    const changes = changedFacts(approved.shown, shown)
    if (changes.length > 0 || approved.preview !== preview) {
      audit('refused', { reason: 'owner_approval_conflict', via: grant.via, decided_by: grant.decidedBy })
      const what = changes.length > 0 ? changes.join('; ') : 'the preview reads differently now'
      throw new UserError('HAMCP_CONFLICT', `${changedSincePreview(plan.edit?.subject ?? 'What the owner approved')} Changed since: ${what}.`, 'Call again without confirm_token to ask the owner again with the new preview.', { changes })
    }
    return { via: grant.via, decidedBy: grant.decidedBy }
  }

  /**
   * The write, remembering what it is about to change so ha_undo can put it back; then its undo record
   * and its audit line, and what it did to the entities it reached.
   */
  async #execute (attempt: Attempt, via: AuditEntry['via'], decidedBy?: string): Promise<WriteOutcome> {
    const { identity, request, plan, label, entities, audit, reach, reached } = attempt
    const before = request.kind === 'service' && request.undoable !== false ? this.#statesBefore(reach ?? entities) : undefined
    const already = reached && plan.resolves ? this.#alreadyAsAsked(plan, reached, plan.read.data) : undefined
    let result: unknown
    try {
      result = await plan.send()
    } catch (err) {
      const callers = plan.callersError?.(err)
      audit('failed', { reason: `${callers ? `${callers.code}: ` : ''}${String((err as Error).message ?? err)}`.slice(0, 300), ...(via ? { via } : {}) })
      // A registry edit that failed part way: what it applied can be undone (nothing applied: the last record stays).
      const partial = request.kind === 'registry' ? await plan.undo?.(undefined, true) : undefined
      if (partial) await this.#remember(identity, request.tool, label, partial)
      throw callers ?? err
    }
    const contextId = (result as { context?: { id?: unknown } } | null)?.context?.id
    const undoPlan = before && request.kind === 'service'
      ? statesUndo(before, `${request.domain}.${request.service}`, request.undoNeeds, typeof contextId === 'string' ? contextId : undefined, this.#deps.state, this.#deps.command)
      : await plan.undo?.(result, false)
    const undoable = before !== undefined || plan.undo !== undefined
    const remembered = undoable ? await this.#remember(identity, request.tool, label, undoPlan) : false
    if (via) audit('confirmation_given', { via, ...(decidedBy === undefined ? {} : { decided_by: decidedBy }) })
    else audit('allowed')
    const effect = reached && plan.resolves ? await this.#effect(reached, result, already) : undefined
    return { status: 'done', result, ...(effect ?? {}), ...(remembered ? { undo_available: true } : {}) }
  }

  /** Keeps the identity's undo record, stamped with the guard's clock; none: the last one is dropped, never undone instead. */
  async #remember (identity: Identity, tool: string, label: WriteName, plan: UndoPlan | undefined): Promise<boolean> {
    const { undo } = this.#deps
    if (!undo) return false
    if (plan === undefined) {
      undo.forget(identity.id)
      return false
    }
    undo.remember(identity.id, { tool, call: nameOf(label), at: this.#now(), ...plan })
    return true
  }

  /** Dispatches on the write's kind: each says what it targets and which rules apply. */
  #planOf (request: WriteRequest): Plan {
    switch (request.kind) {
      case 'service': return this.#servicePlan(request)
      case 'command': return commandPlan(request)
      case 'config': return configPlan(request)
      case 'registry': return registryPlan(request)
      case 'supervisor': return supervisorPlan(request)
      case 'undo': return undoPlan(request)
    }
  }

  #servicePlan (request: ServiceCallWrite): Plan {
    assertBounded(request.data, 'data')
    const read = readCall(request)
    const service = `${request.domain}.${request.service}`
    return {
      domain: request.domain,
      service: request.service,
      name: service,
      denylisted: [service],
      inner: [],
      templated: [],
      read,
      resolves: true,
      expands: true,
      ...(request.confirm === undefined ? {} : { forced: request.confirm }),
      send: async () => await this.#deps.command({
        type: 'call_service',
        domain: request.domain,
        service: request.service,
        ...(read.data && Object.keys(read.data).length > 0 ? { service_data: read.data } : {}),
        ...(read.target ? { target: read.target } : {}),
        ...(request.returnResponse === true ? { return_response: true } : {})
      }),
      callersError: err => callerErrorOf(err, service)
    }
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
   * tool read to build it (`basis`), the entities an indirect target reaches and, unless it is a config
   * edit, the current state of each entity the write reaches.
   */
  #shown (plan: Plan, basis: Record<string, string> | undefined, reach: string[], aimsIndirectly: boolean): Shown {
    const shown: Shown = { ...basis }
    if (plan.edit?.baseHash !== undefined) shown[`${plan.edit.subject ?? plan.name} (config hash)`] = plan.edit.baseHash.slice(0, 16)
    if (aimsIndirectly) shown['reached entities'] = reach.join(', ') || 'none'
    if (plan.edit === undefined && this.#deps.state) {
      for (const id of reach.slice(0, SHOWN_STATES)) shown[`${id} state`] = this.#deps.state(id)?.state ?? 'absent'
    }
    return shown
  }

  /** The reached entities that already are as the call would leave them, read before it is sent. */
  #alreadyAsAsked (plan: Plan, reached: string[], data: Record<string, unknown> | undefined): Set<string> | undefined {
    const { state } = this.#deps
    if (!state) return undefined
    return new Set(reached.filter(id => alreadyAsAsked({ domain: plan.domain, service: plan.service, ...(data ? { data } : {}) }, id, state(id))))
  }

  #statesBefore (ids: string[]): PriorState[] | undefined {
    const { undo, state } = this.#deps
    if (!undo || !state) return undefined
    return ids.slice(0, 200).flatMap(id => {
      const current = state(id)
      return current ? [priorState(id, current.state, current.attributes)] : []
    })
  }
}

/** A dry run stops before the confirmation, having checked everything else. */
function dryRun (attempt: Attempt, needsYes: boolean): WriteOutcome {
  const { reach, reached } = attempt
  attempt.audit('dry_run')
  return { status: 'dry_run', would_call: attempt.wouldCall, ...(reached ? { reaches: reached } : (attempt.aimsIndirectly || attempt.through.size > 0) && reach ? { reaches: reach } : {}), ...(needsYes ? { notes: ['The real call will need a confirmation.'] } : {}) }
}

/** What the audit line and a dry run name a write (WriteName): its service, its kind's documented name, or its operation. */
export function writeLabel (request: WriteRequest): WriteName {
  switch (request.kind) {
    case 'service': return { domain: request.domain, service: request.service }
    case 'command': return request.operation === undefined ? { domain: request.domain, service: request.service } : { operation: request.operation }
    case 'config': return request.operation === undefined ? { domain: request.domain, service: request.action } : { operation: request.operation }
    case 'registry': return request.operation === undefined ? { domain: request.registry, service: request.action } : { operation: request.operation }
    case 'supervisor': return { domain: 'supervisor', service: request.action }
    // ha_undo is the add-on's own: no service and no single request (its restore calls are checked one by one).
    case 'undo': return { operation: `undo ${request.record.call}` }
  }
}

/** A write's name as text: `domain.service`, or its operation. */
export function nameOf (label: WriteName): string {
  return 'operation' in label && label.operation !== undefined ? label.operation : `${(label as { domain: string }).domain}.${(label as { service: string }).service}`
}

/** Whether confirm_domains asks for a yes: the write's domain, or any entity it names or reaches. */
function needsConfirmation (domain: string, entities: string[], reach: string[] | undefined, confirmDomains: readonly string[]): boolean {
  if (matchesAny(confirmDomains, domain)) return true
  // Reach unknown (registries unavailable): an indirect target might reach a sensitive domain.
  if (reach === undefined) return confirmDomains.length > 0
  return [...entities, ...reach].some(entityId => matchesAny(confirmDomains, domainOf(entityId)))
}

const revertOf = (revert: ((result: unknown) => Revert | undefined) | undefined): Plan['undo'] =>
  revert && (async result => { const r = revert(result); return r && revertUndo(r) })

function commandPlan (request: CommandWrite): Plan {
  assertBounded(request.data, 'data')
  const name = nameOf(writeLabel(request))
  return {
    domain: request.domain ?? '',
    service: request.service ?? '',
    name,
    // An operation is no service: no service_denylist entry names it.
    denylisted: request.operation === undefined ? [name] : [],
    inner: [],
    templated: [],
    read: readCall({ target: request.target, data: request.data, entities: request.confirm?.entities }),
    resolves: false,
    expands: true,
    ...(request.confirm ? { edit: request.confirm } : {}),
    send: request.execute,
    ...(request.revert ? { undo: revertOf(request.revert) } : {})
  }
}

function configPlan (request: ConfigWrite): Plan {
  assertBounded(request.data, 'data')
  const read = readCall({ data: request.data, entities: request.confirm.entities })
  const nested = configCalls(request.data)
  for (const id of nested.entities) read.entities.add(id)
  if (nested.templatedTargets.size > 0) read.indirect.add('a template')
  if (nested.agentPicked.size > 0) read.indirect.add('a conversation agent')
  return {
    domain: request.domain,
    service: request.action,
    name: nameOf(writeLabel(request)),
    // Its name as owners write it in service_denylist (`lovelace.*`, `scene.delete`), though no service is called; none for an operation.
    denylisted: request.operation === undefined ? [`${request.domain}.${request.action}`] : [],
    inner: [...nested.services].sort(),
    templated: [...nested.templatedServices].sort(),
    read,
    resolves: false,
    expands: true,
    edit: request.confirm,
    send: request.execute,
    ...(request.revert ? { undo: revertOf(request.revert) } : {})
  }
}

function registryPlan (request: RegistryWrite): Plan {
  return {
    domain: request.registry,
    service: request.action,
    name: nameOf(writeLabel(request)),
    denylisted: request.operation === undefined ? [`${request.registry}.${request.action}`] : [],
    inner: [],
    templated: [],
    read: readCall({ ...(request.entities.length > 0 ? { target: { entity_id: request.entities } } : {}), data: request.data, entities: request.confirm === undefined ? undefined : request.entities }),
    resolves: false,
    ...(request.confirm === undefined ? {} : { edit: { preview: request.confirm, entities: request.entities } }),
    send: request.execute,
    undo: async () => await request.undo()
  }
}

function supervisorPlan (request: SupervisorWrite): Plan {
  assertBounded(request.data, 'data')
  return { domain: 'supervisor', service: request.action, name: `supervisor.${request.action}`, denylisted: [`supervisor.${request.action}`], inner: [], templated: [], read: readCall({ data: request.data }), resolves: false, send: request.execute }
}

function undoPlan (request: UndoWrite): Plan {
  const { record, overwrites = [] } = request
  const lost = overwrites.length > 0 ? `\nThis overwrites what changed in Home Assistant since that write:\n${overwrites.map(c => `- ${c}`).join('\n')}\nOnly confirm if the user wants the older values back anyway.` : ''
  const preview = `Undo of ${record.call}: ${record.preview}${lost}`
  return {
    domain: 'undo',
    service: record.needs === 'allow_write' ? 'restore' : 'revert',
    name: nameOf(writeLabel(request)),
    denylisted: [],
    inner: record.services,
    templated: [],
    read: readCall({ ...(record.entities.length > 0 ? { target: { entity_id: record.entities } } : {}), data: { undo: record.call, at: record.at } }),
    resolves: false,
    ...(record.alwaysConfirm ? { edit: { preview, entities: record.entities } } : lost !== '' ? { forced: preview } : {}),
    // Confirmed with the changes shown, the undo may overwrite them.
    send: async () => await record.run(overwrites.length > 0)
  }
}

/** `confirm_with: owner`: what the client gets while the owner has not decided. */
function awaitingOwner (ref: string, expiresInS: number, preview: string): WriteOutcome {
  return {
    status: 'awaiting_owner',
    confirm_token: ref,
    expires_in_s: expiresInS,
    preview,
    how: 'Nothing was done yet: the add-on\'s owner must approve this on the add-on\'s status page or from the Home Assistant notification; you cannot approve it. Tell the user, then call again with exactly the same arguments plus confirm_token to learn the outcome (still waiting, done, denied or expired).'
  }
}

/** HAMCP_CONFLICT for a confirmation whose preview no longer holds, carrying the fresh preview and its token. */
function conflictError (subject: string, changes: string[], preview: string, token: string, expiresInS: number): UserError {
  const what = `Changed since: ${changes.join('; ')}.`
  return new UserError(
    'HAMCP_CONFLICT',
    `${changedSincePreview(subject)} ${what}\nNew preview:\n${preview}`,
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

/** The entities reached through a group, scene, script or automation, each with what it was reached through. */
function throughLine (through: ReadonlyMap<string, string>): string {
  const all = [...through].sort(([a], [b]) => a.localeCompare(b))
  const shown = all.slice(0, 25).map(([id, via]) => `${id} (through ${via})`)
  return `Also reaches ${all.length} ${all.length === 1 ? 'entity' : 'entities'}: ${shown.join(', ')}${all.length > shown.length ? `, and ${all.length - shown.length} more` : ''}.`
}

/** Which list refuses an entity, if any: denylists win, a non-empty allowlist denies what it does not name. */
export function entityRefusal (entityId: string, options: Pick<Options, 'entity_allowlist' | 'entity_denylist'>, identity: Pick<Identity, 'entityAllowlist' | 'entityDenylist'>): string | undefined {
  if (matchesAny(options.entity_denylist, entityId)) return 'entity_denylist'
  if (identity.entityDenylist && matchesAny(identity.entityDenylist, entityId)) return 'the token\'s entity_denylist'
  if (options.entity_allowlist.length > 0 && !matchesAny(options.entity_allowlist, entityId)) return 'entity_allowlist'
  if (identity.entityAllowlist && identity.entityAllowlist.length > 0 && !matchesAny(identity.entityAllowlist, entityId)) return 'the token\'s entity_allowlist'
  return undefined
}

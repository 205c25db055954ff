import { randomBytes } from 'node:crypto'
import { realClock } from '../clock.ts'
import type { Shown } from './confirm.ts'
import type { Schedule } from './reached.ts'
import type { OwnerVia, WriteOutcome } from './types.ts'

/** How long the owner has to decide; a decided approval's outcome is kept as long again for the assistant to learn it. */
export const APPROVAL_TTL_MS = 10 * 60_000
/** Approvals one identity may have waiting at once: each one notifies the owner, so a client cannot flood their phone. */
export const MAX_WAITING_PER_IDENTITY = 5
/** Approvals kept in all, decided ones included (the oldest decided go first). */
export const MAX_APPROVALS = 100
/** How much of its preview a decided approval keeps, for the page. */
const DECIDED_PREVIEW_CHARS = 2000

export type ApprovalState = 'waiting' | 'running' | 'done' | 'failed' | 'denied' | 'expired' | 'revoked'
export type Decision = 'approve' | 'deny'

/** What the guard hands over when a call needs the owner's yes (`confirm_with: owner`). */
export interface ApprovalRequest {
  identityId: string
  identityName: string
  tool: string
  /** What the write is called (`domain.service`, or its operation). */
  name: string
  entities: string[]
  /** The text the owner sees: exactly what will be done. */
  preview: string
  /** Fingerprint of the call as asked: only the same call learns the outcome, or runs on the approval. */
  call: string
  /** What the preview showed (src/policy/confirm.ts): the approval holds only while it still does. */
  shown: Shown
  /** Runs the call again as previewed, every rule and the preview checked again; its outcome, or its error. */
  execute: (grant: { ref: string, via: OwnerVia, decidedBy: string }) => Promise<WriteOutcome>
  /** Audits an approval that ends without running. */
  ended: (how: 'denied' | 'expired' | 'revoked', decidedBy?: string) => void
}

/** An approval as the status page shows it (no secret: neither the assistant's token nor the phone's action). */
export interface ApprovalView {
  id: string
  state: ApprovalState
  asked_by: string
  tool: string
  call: string
  entities: string[]
  preview: string
  asked_at: string
  expires_at: string
  decided_by?: string
  via?: OwnerVia
  /** A failed run: why (the code and message the assistant gets too). */
  error?: string
}

interface Entry extends ApprovalRequest {
  /** Shown on the status page, used by its buttons. */
  id: string
  /** What the assistant holds (its confirm_token): it only ever learns the outcome with it. */
  ref: string
  /** Only in the phone notification's action ids: the assistant never sees it. */
  secret: string
  state: ApprovalState
  askedAt: number
  expiresAt: number
  /** Kept until then once decided, for the assistant's next call. */
  keepUntil: number
  decidedBy?: string
  via?: OwnerVia
  outcome?: WriteOutcome
  error?: unknown
  cancelExpiry: () => void
}

/** Where approvals are announced to the owner and withdrawn once decided or expired (src/policy/approval-notices.ts). */
export interface ApprovalNotices {
  announce: (approval: ApprovalView, secret: string) => void
  withdraw: (approval: ApprovalView, secret: string) => void
}

/** What the assistant learns by presenting its token again with the same call. */
export type PollResult =
  | { verdict: 'waiting', ref: string, expiresInS: number, preview: string }
  | { verdict: 'done', outcome: WriteOutcome }
  | { verdict: 'failed', error: unknown }
  | { verdict: 'denied', decidedBy: string }
  | { verdict: 'expired' | 'unknown' | 'mismatch' }

/** `full`: this identity has MAX_WAITING_PER_IDENTITY waiting (`identity`), or MAX_APPROVALS wait in all (`owner`). */
export type AskResult = { ref: string, expiresInS: number, fresh: boolean } | { full: 'identity' | 'owner' }

export interface OwnerApprovalsOptions {
  now?: () => number
  schedule?: Schedule
  ttlMs?: number
  notices?: ApprovalNotices
}

/**
 * Calls waiting for the owner (`confirm_with: owner`). Nothing the assistant sends can approve one: the
 * assistant holds a `ref` that only reads the outcome; the status page decides by `id` (the panel is
 * reached through Home Assistant's admin-only ingress) and the mobile app's notification by a `secret`
 * sent to the phones alone. An approval runs the call once, as the guard previewed it; denied, expired
 * or run, its notifications are withdrawn.
 */
export class OwnerApprovals {
  readonly ttlMs: number
  readonly #now: () => number
  readonly #schedule: Schedule
  #notices: ApprovalNotices | undefined
  #alive: (identityId: string) => boolean = () => true
  /** Oldest first. */
  readonly #entries = new Map<string, Entry>()

  constructor (options: OwnerApprovalsOptions = {}) {
    this.ttlMs = options.ttlMs ?? APPROVAL_TTL_MS
    this.#now = options.now ?? realClock.now
    this.#schedule = options.schedule ?? realClock.schedule
    this.#notices = options.notices
  }

  /** Wires where approvals are announced (built after the store: the notices decide through it). */
  useNotices (notices: ApprovalNotices): void {
    this.#notices = notices
  }

  /**
   * Wires how to tell whether the identity that asked can still act. A credential's death is announced
   * (`revoke`), but a sign-in that simply ran out is found by the OAuth sweep only within its minute:
   * a decision checks it again, so an approval never runs for a credential already dead.
   */
  useLiveness (alive: (identityId: string) => boolean): void {
    this.#alive = alive
  }

  /** A new approval for the owner, or the one already waiting for the same call of the same identity. */
  ask (request: ApprovalRequest): AskResult {
    this.#sweep()
    const now = this.#now()
    const waiting = [...this.#entries.values()].filter(e => e.identityId === request.identityId && e.state === 'waiting')
    const same = waiting.find(e => e.call === request.call && e.preview === request.preview)
    if (same) return { ref: same.ref, expiresInS: Math.round((same.expiresAt - now) / 1000), fresh: false }
    if (waiting.length >= MAX_WAITING_PER_IDENTITY) return { full: 'identity' }
    if (this.#entries.size >= MAX_APPROVALS) {
      const oldestDecided = [...this.#entries.values()].find(e => e.state !== 'waiting' && e.state !== 'running')
      if (!oldestDecided) return { full: 'owner' }
      this.#entries.delete(oldestDecided.id)
    }
    const entry: Entry = {
      ...request,
      id: randomBytes(8).toString('hex'),
      ref: randomBytes(16).toString('hex'),
      secret: randomBytes(16).toString('hex'),
      state: 'waiting',
      askedAt: now,
      expiresAt: now + this.ttlMs,
      keepUntil: now + 2 * this.ttlMs,
      cancelExpiry: () => {}
    }
    entry.cancelExpiry = this.#schedule(() => { this.#expire(entry) }, this.ttlMs)
    this.#entries.set(entry.id, entry)
    this.#notices?.announce(viewOf(entry), entry.secret)
    return { ref: entry.ref, expiresInS: Math.round(this.ttlMs / 1000), fresh: true }
  }

  /**
   * The outcome for the assistant that holds `ref`: another identity's token is unknown to it (and left
   * as it is), another call with it is a mismatch. An outcome is told once, then forgotten.
   */
  poll (identityId: string, ref: string, call: string): PollResult {
    const entry = [...this.#entries.values()].find(e => e.ref === ref)
    if (!entry || entry.identityId !== identityId) return { verdict: 'unknown' }
    if (entry.call !== call) return { verdict: 'mismatch' }
    if (entry.state === 'waiting' || entry.state === 'running') {
      return { verdict: 'waiting', ref, expiresInS: Math.max(0, Math.round((entry.expiresAt - this.#now()) / 1000)), preview: entry.preview }
    }
    this.#entries.delete(entry.id)
    switch (entry.state) {
      case 'done': return { verdict: 'done', outcome: entry.outcome as WriteOutcome }
      case 'failed': return { verdict: 'failed', error: entry.error }
      case 'denied': return { verdict: 'denied', decidedBy: entry.decidedBy ?? 'the owner' }
      case 'expired': case 'revoked': return { verdict: 'expired' }
    }
  }

  /** Newest first: what waits, then what was decided lately. */
  list (): ApprovalView[] {
    this.#sweep()
    return [...this.#entries.values()].reverse().map(viewOf)
  }

  /**
   * The owner's decision on the status page (by id) or from a phone (by secret): the approval as it ends,
   * `decided` false when it was no longer waiting; undefined: no such approval.
   */
  async decide (key: { id: string } | { secret: string }, decision: Decision, via: OwnerVia, decidedBy: string): Promise<{ approval: ApprovalView, decided: boolean } | undefined> {
    this.#sweep()
    const entry = 'id' in key ? this.#entries.get(key.id) : [...this.#entries.values()].find(e => e.secret === key.secret)
    if (!entry) return undefined
    if (entry.state === 'waiting' && !this.#alive(entry.identityId)) this.revoke(entry.identityId)
    if (entry.state !== 'waiting') return { approval: viewOf(entry), decided: false }
    entry.cancelExpiry()
    entry.decidedBy = decidedBy
    entry.keepUntil = this.#now() + this.ttlMs
    this.#notices?.withdraw(viewOf(entry), entry.secret)
    if (decision === 'deny') {
      entry.state = 'denied'
      entry.ended('denied', decidedBy)
      release(entry)
      return { approval: viewOf(entry), decided: true }
    }
    entry.state = 'running'
    entry.via = via
    try {
      entry.outcome = await entry.execute({ ref: entry.ref, via, decidedBy })
      entry.state = 'done'
    } catch (err) {
      entry.error = err
      entry.state = 'failed'
    }
    release(entry)
    return { approval: viewOf(entry), decided: true }
  }

  /** The approval a re-run carries, while it runs: same identity, same call; what its preview showed. */
  running (ref: string, identityId: string, call: string): { shown: Shown, preview: string } | undefined {
    const entry = [...this.#entries.values()].find(e => e.ref === ref)
    if (entry?.state !== 'running' || entry.identityId !== identityId || entry.call !== call) return undefined
    return { shown: entry.shown, preview: entry.preview }
  }

  /**
   * The credential that asked is dead (revoked, replaced, its sign-in ended: src/auth/revocations.ts):
   * what it left waiting can no longer be approved, and its notifications go.
   */
  revoke (identityId: string): void {
    for (const entry of this.#entries.values()) {
      if (entry.identityId !== identityId || entry.state !== 'waiting') continue
      entry.cancelExpiry()
      entry.state = 'revoked'
      this.#notices?.withdraw(viewOf(entry), entry.secret)
      entry.ended('revoked')
      release(entry)
    }
  }

  /** Approvals still waiting (for tests and the status page's badge). */
  waiting (): number {
    return [...this.#entries.values()].filter(e => e.state === 'waiting').length
  }

  #expire (entry: Entry): void {
    if (entry.state !== 'waiting') return
    entry.state = 'expired'
    this.#notices?.withdraw(viewOf(entry), entry.secret)
    entry.ended('expired')
    release(entry)
  }

  #sweep (): void {
    const now = this.#now()
    for (const [id, entry] of this.#entries) {
      if (entry.state === 'waiting' && entry.expiresAt <= now) this.#expire(entry)
      if (entry.state !== 'waiting' && entry.state !== 'running' && entry.keepUntil <= now) this.#entries.delete(id)
    }
  }
}

const alreadyDecided = async (): Promise<never> => { throw new Error('this approval was already decided') }
const nothingLeft = (): void => {}

/** A decided approval keeps only what the page and the assistant's next call show: not the call it could run again. */
function release (entry: Entry): void {
  entry.shown = {}
  if (entry.preview.length > DECIDED_PREVIEW_CHARS) entry.preview = `${entry.preview.slice(0, DECIDED_PREVIEW_CHARS)}…`
  entry.execute = alreadyDecided
  entry.ended = nothingLeft
}

function viewOf (entry: Entry): ApprovalView {
  const error = entry.error as { code?: unknown, message?: unknown } | undefined
  return {
    id: entry.id,
    state: entry.state,
    asked_by: entry.identityName,
    tool: entry.tool,
    call: entry.name,
    entities: entry.entities.slice(0, 50),
    preview: entry.preview,
    asked_at: new Date(entry.askedAt).toISOString(),
    expires_at: new Date(entry.expiresAt).toISOString(),
    ...(entry.decidedBy === undefined ? {} : { decided_by: entry.decidedBy }),
    ...(entry.via === undefined ? {} : { via: entry.via }),
    ...(error === undefined ? {} : { error: `${typeof error.code === 'string' ? `${error.code}: ` : ''}${String(error.message ?? error)}`.slice(0, 300) })
  }
}

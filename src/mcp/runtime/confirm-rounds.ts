/**
 * Confirmations as multi-round-trip results (MCP 2026-07-28). A write that needs a human's yes
 * answers `input_required` with one elicitation ("Confirm this action? …") and a `requestState`;
 * the client asks its user and retries the same call with the answer and the state, and the write
 * runs inside that one tool call. No confirm token ever reaches the model.
 *
 * It is the confirm-token flow underneath, so both eras share one store and one audit: the first
 * round lets the guard issue its token (bound to the identity, the call and what the preview showed),
 * which stays here, server-side, under a random nonce; the retry redeems it, and the guard checks
 * again that the call and what it would change are the ones previewed. The `requestState` names only
 * the nonce, the identity, the tool and a hash of the arguments, sealed with an HMAC under a key that
 * lives as long as the process, and expires with the token. A tampered, expired, foreign or replayed
 * state is refused before the tool runs (-32602 "Invalid or expired requestState").
 */
import { realClock } from '../../clock.ts'
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto'
import { inputRequired, inputResponse, ProtocolError, ProtocolErrorCode, type ServerContext } from '@modelcontextprotocol/server'
import { LRUCache } from 'lru-cache'
import type { Identity } from '../../auth/identity.ts'
import { MAX_PENDING_PER_IDENTITY, stableJson } from '../../policy/confirm.ts'
import type { ConfirmAnswer, ConfirmPreview } from '../../policy/types.ts'
import { fitText } from '../../shape.ts'
import type { ToolCallResult } from './invoke.ts'

/** The single question a confirmation asks (elicitation form mode allows flat primitive fields only). */
export const CONFIRM_SCHEMA = {
  type: 'object' as const,
  properties: {
    confirm: { type: 'boolean' as const, title: 'Confirm', description: 'Yes to let the assistant do this now; anything else refuses it.' }
  },
  required: ['confirm']
}

/**
 * The most a question may take in an answer, in UTF-8 JSON: with the requestState and the schema, an
 * `input_required` answer stays under the 15 KB answer cap. The call and its target lead the preview,
 * so a shortened question loses only the tail of its data, and says so.
 */
export const QUESTION_MAX_BYTES = 12_000

/** As long as a confirm token lives. */
export const ROUND_TTL_MS = 5 * 60_000

interface Sealed { n: string, i: string, t: string, a: string, e: number }
interface Pending { token: string, identityId: string, expiresAt: number }

export interface ModernConfirmations {
  /** The SDK's `requestState.verify` hook: returns the sealed payload, or throws to refuse the round. */
  verify: (state: string, ctx: ServerContext) => Sealed
  mint: (identityId: string, tool: string, args: unknown, token: string) => string
  /** Takes the token a sealed state stands for; undefined once taken (single use) or expired. */
  take: (payload: Sealed) => string | undefined
  readonly size: number
}

export interface ModernConfirmationsOptions {
  now?: () => number
  ttlMs?: number
  /** The HMAC key; a fresh random one per process unless a test brings its own. */
  key?: Buffer
  /** Pending rounds kept per identity (the oldest goes first), as the guard pools its confirm tokens. */
  maxPendingPerIdentity?: number
}

const b64 = (buffer: Buffer): string => buffer.toString('base64url')

/** Hash of the arguments a confirmation is for, without the token the retry may carry. */
function argsHash (args: unknown): string {
  const { confirm_token: _token, ...rest } = (args ?? {}) as Record<string, unknown>
  return createHash('sha256').update(stableJson(rest)).digest('hex')
}

function identityIdOf (ctx: ServerContext): string | undefined {
  return (ctx.http?.authInfo?.extra?.identity as Identity | undefined)?.id
}

export function createModernConfirmations (options: ModernConfirmationsOptions = {}): ModernConfirmations {
  const now = options.now ?? realClock.now
  const ttlMs = options.ttlMs ?? ROUND_TTL_MS
  const key = options.key ?? randomBytes(32)
  const maxPerIdentity = options.maxPendingPerIdentity ?? MAX_PENDING_PER_IDENTITY
  // One pool per identity: no client can push out another's pending yes by asking many rounds.
  const pools = new Map<string, LRUCache<string, Pending>>()
  const poolOf = (identityId: string): LRUCache<string, Pending> => {
    let pool = pools.get(identityId)
    if (!pool) pools.set(identityId, pool = new LRUCache<string, Pending>({ max: maxPerIdentity }))
    return pool
  }
  const sign = (body: string): Buffer => createHmac('sha256', key).update(body).digest()

  return {
    get size () {
      let total = 0
      for (const pool of pools.values()) total += pool.size
      return total
    },
    mint (identityId, tool, args, token) {
      const nonce = b64(randomBytes(16))
      const expiresAt = now() + ttlMs
      const pool = poolOf(identityId)
      for (const [old, entry] of pool.entries()) if (entry.expiresAt <= now()) pool.delete(old)
      pool.set(nonce, { token, identityId, expiresAt })
      const body = b64(Buffer.from(JSON.stringify({ n: nonce, i: identityId, t: tool, a: argsHash(args), e: expiresAt } satisfies Sealed)))
      return `${body}.${b64(sign(body))}`
    },
    verify (state, ctx) {
      const [body, mac, extra] = state.split('.')
      if (body === undefined || mac === undefined || extra !== undefined) throw new Error('malformed state')
      const expected = sign(body)
      const given = Buffer.from(mac, 'base64url')
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw new Error('bad signature')
      const payload = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as Sealed
      if (!(payload.e > now())) throw new Error('expired')
      if (payload.i !== identityIdOf(ctx)) throw new Error('issued to another identity')
      if (pools.get(payload.i)?.has(payload.n) !== true) throw new Error('already used')
      return payload
    },
    take (payload) {
      const pool = pools.get(payload.i)
      const entry = pool?.get(payload.n)
      pool?.delete(payload.n)
      if (pool?.size === 0) pools.delete(payload.i)
      if (!entry || entry.expiresAt <= now() || entry.identityId !== payload.i) return undefined
      return entry.token
    }
  }
}

/** Whether the request's `_meta` envelope declares form elicitation. */
function canElicit (ctx: ServerContext): boolean {
  const envelope = ctx.mcpReq.envelope as Record<string, { elicitation?: { form?: unknown, url?: unknown } } | undefined> | undefined
  const elicitation = envelope?.['io.modelcontextprotocol/clientCapabilities']?.elicitation
  if (elicitation === undefined || elicitation === null) return false
  return elicitation.form !== undefined || elicitation.url === undefined
}

export type RunWith = (args: unknown, confirmer?: (preview: ConfirmPreview) => Promise<ConfirmAnswer>) => Promise<ToolCallResult>

/**
 * The confirmation a result asks for, when it carries a confirm token: a write's
 * `confirmation_required`, or a HAMCP_CONFLICT whose fresh preview needs a new yes (what the first
 * question showed changed before the answer; an undo that would overwrite newer work).
 */
function askedFor (result: ToolCallResult, shown: ConfirmPreview): { token: string, message: string } | undefined {
  const structured = result.structuredContent as { confirmation_required?: unknown, confirm_token?: unknown, error?: { code?: unknown, details?: { confirm_token?: unknown, preview?: unknown, changes?: unknown } } } | undefined
  if (structured?.confirmation_required === true && typeof structured.confirm_token === 'string') {
    return { token: structured.confirm_token, message: fitText(`Confirm this action? ${shown.preview}`, QUESTION_MAX_BYTES) }
  }
  const error = structured?.error
  const details = error?.details
  if (result.isError !== true || error?.code !== 'HAMCP_CONFLICT' || typeof details?.confirm_token !== 'string') return undefined
  const changes = Array.isArray(details.changes) ? details.changes.map(String) : []
  const preview = typeof details.preview === 'string' ? details.preview : shown.preview
  return { token: details.confirm_token, message: fitText(`${changes.length > 0 ? `Changed in Home Assistant since: ${changes.join('; ')}. ` : ''}Confirm this action? ${preview}`, QUESTION_MAX_BYTES) }
}

/**
 * One round of a tools/call on the 2026-07-28 era. Without state: run the call; a write that needs a
 * confirmation comes back with the guard's token, which becomes an `input_required` round (when the
 * client can be asked). With state (already verified by the SDK's hook): the user's answer decides;
 * yes redeems the token (audited `via: 'round'`), anything else is the guard's audited refusal. A yes
 * to a question whose facts changed meanwhile is asked again with the new preview, never answered
 * with a token for the model to carry.
 */
export async function modernConfirmation (confirmations: ModernConfirmations, ctx: ServerContext, identity: Identity, tool: string, args: unknown, run: RunWith): Promise<ToolCallResult | ReturnType<typeof inputRequired>> {
  const payload = ctx.mcpReq.requestState<Sealed>()
  let shown: ConfirmPreview | undefined
  const asRound = (result: ToolCallResult, asked: unknown): ToolCallResult | ReturnType<typeof inputRequired> => {
    const question = shown && askedFor(result, shown)
    if (question === undefined) return result
    return inputRequired({
      inputRequests: { confirm: inputRequired.elicit({ message: question.message, requestedSchema: CONFIRM_SCHEMA }) },
      requestState: confirmations.mint(identity.id, tool, asked, question.token)
    })
  }
  if (payload === undefined) {
    return asRound(await run(args, canElicit(ctx) ? async preview => { shown = preview; return 'unavailable' } : undefined), args)
  }
  // Spent on its first presentation whatever the verdict, like the token it stands for.
  const token = confirmations.take(payload)
  if (token === undefined || payload.t !== tool || payload.a !== argsHash(args)) {
    throw new ProtocolError(ProtocolErrorCode.InvalidParams, 'Invalid or expired requestState', { reason: 'invalid_request_state', code: 'HAMCP_CONFIRM_TOKEN_INVALID' })
  }
  const answer = inputResponse(ctx.mcpReq.inputResponses, 'confirm') as { kind: string, action?: string, content?: { confirm?: unknown } }
  const yes = answer.kind === 'elicit' && answer.action === 'accept' && answer.content?.confirm === true
  // A confirm token carried in the arguments must neither stand in for the round's nor turn a no into a write.
  const { confirm_token: _smuggled, ...asked } = (args ?? {}) as Record<string, unknown>
  if (yes) return asRound(await run(asked, async preview => { shown = preview; return { token, via: 'round' } }), args)
  // No, cancelled or no answer: the guard refuses and audits it, exactly like a declined elicitation.
  return await run(asked, async () => false)
}

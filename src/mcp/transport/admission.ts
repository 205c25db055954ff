/**
 * What the /mcp route admits, decided without Fastify so each rule reads (and is tested) on its own:
 * a body's parse, the refusal for a request the framework itself turned down, a POST's era and
 * headers (the rules of era.ts, in the order the route applies them), and a 2026-07-28
 * `subscriptions/listen` stream's admission with the bookkeeping it lives by (at most
 * MAX_LISTENS_PER_TOKEN per identity, ended when its credential dies). routes/mcp.ts only hands
 * requests in and writes the refusals out.
 */
import type { Identity } from '../../auth/identity.ts'
import type { RefusalCode } from '../../errors.ts'
import { checkBody, decideEra, HEADER_MISMATCH, LEGACY_PROTOCOL_VERSIONS, SUPPORTED_PROTOCOL_VERSIONS, type McpBodyCheck } from './era.ts'
import { ProtocolErrorCode, RpcRefusal } from './rpc-error.ts'

/**
 * The largest /mcp body: 1 MB. The largest valid call is far smaller (a write's data is at most 64 KB,
 * a target field 100 ids), and each body is held several times over while it is read, parsed and
 * checked: 4 MB bodies of refused calls took the process past its 150 MB budget.
 */
export const BODY_LIMIT = 1024 * 1024

/** Listen streams one token may hold at once, so that no token takes all of the server's (MAX_LISTEN_STREAMS). */
export const MAX_LISTENS_PER_TOKEN = 8
/** A listen request's body lives as long as its stream: 64 KB, not 1 MB (64 streams of 4 MB passed the 256 MB heap). */
export const LISTEN_BODY_LIMIT = 64 * 1024

/** A body as JSON, or a JSON-RPC parse error (not the framework's generic 400). */
export function parseBody (text: string): unknown {
  try {
    return JSON.parse(text)
  } catch (err) {
    throw new RpcRefusal(400, ProtocolErrorCode.ParseError, 'HAMCP_PARSE_ERROR', 'Parse error: the body is not valid JSON', { cause: err })
  }
}

export function unsupportedMedia (): RpcRefusal {
  return new RpcRefusal(415, -32000, 'HAMCP_UNSUPPORTED_MEDIA_TYPE', 'Unsupported Media Type: send Content-Type: application/json')
}

/**
 * A failed /mcp request as the refusal to answer: ours as raised, the framework's own (a body over
 * BODY_LIMIT, a content type no parser reads, any other 4xx) in JSON-RPC form; undefined for anything
 * else, which is a bug (answered `internalError()` and logged by the route).
 */
export function requestRefusal (error: Error & { statusCode?: number, code?: string }): RpcRefusal | undefined {
  if (error instanceof RpcRefusal) return error
  if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') return new RpcRefusal(413, -32000, 'HAMCP_TOO_LARGE', `Request body larger than ${BODY_LIMIT / 1024 / 1024} MB.`)
  if (error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') return unsupportedMedia()
  if ((error.statusCode ?? 500) < 500) return new RpcRefusal(error.statusCode ?? 400, ProtocolErrorCode.InvalidRequest, 'HAMCP_INVALID_REQUEST', error.message)
  return undefined
}

/** The answer to a request that failed for a reason of ours (a bug, logged by the route). */
export function internalError (): RpcRefusal {
  return new RpcRefusal(500, ProtocolErrorCode.InternalError, 'HAMCP_INTERNAL', 'Internal error')
}

/** The headers of one POST the rules read, as received (a repeated header joined with commas). */
export interface PostHeaders {
  accept?: string
  protocolVersion?: string
  method?: string
  name?: string
}

export type PostAdmission =
  | { refused: RpcRefusal, id?: unknown }
  | { era: 'legacy', messages: Extract<McpBodyCheck, { ok: true }>['messages'], batch: boolean }
  | { era: 'modern', method: string | undefined, messages: Extract<McpBodyCheck, { ok: true }>['messages'], batch: boolean }

/** Our code for a refusal the 2026-07-28 rules decide (era.ts), by its JSON-RPC code. */
function eraRefusalCode (rpcCode: number): RefusalCode {
  if (rpcCode === HEADER_MISMATCH) return 'HAMCP_HEADER_MISMATCH'
  if (rpcCode === ProtocolErrorCode.UnsupportedProtocolVersion) return 'HAMCP_UNSUPPORTED_PROTOCOL_VERSION'
  return 'HAMCP_INVALID_REQUEST'
}

/**
 * A POST's admission, in order: what it accepts in answer, whether its body is JSON-RPC within the
 * caps, its era with the 2026-07-28 header/body agreement, and a 2025-era MCP-Protocol-Version the
 * server speaks. A refusal carries the request's id when the era rules echo it.
 */
export function admitPost (body: unknown, headers: PostHeaders): PostAdmission {
  if (headers.accept && !/application\/json|\*\/\*|application\/\*/i.test(headers.accept)) {
    return { refused: new RpcRefusal(406, -32000, 'HAMCP_NOT_ACCEPTABLE', 'Not Acceptable: this server answers with application/json') }
  }
  const checked = checkBody(body)
  if (!checked.ok) return { refused: new RpcRefusal(400, ProtocolErrorCode.InvalidRequest, 'HAMCP_INVALID_REQUEST', checked.message) }
  const decision = decideEra(body, { protocolVersion: headers.protocolVersion, method: headers.method, name: headers.name })
  if (decision.era === 'reject') {
    const data = typeof decision.data === 'object' && decision.data !== null ? decision.data as Record<string, unknown> : undefined
    return { refused: new RpcRefusal(decision.status, decision.code, eraRefusalCode(decision.code), decision.message, { data }), id: (body as { id?: unknown }).id }
  }
  const version = headers.protocolVersion
  if (decision.era === 'legacy' && version !== undefined && !LEGACY_PROTOCOL_VERSIONS.includes(version)) {
    return { refused: new RpcRefusal(400, -32000, 'HAMCP_UNSUPPORTED_PROTOCOL_VERSION', `Unsupported MCP-Protocol-Version ${version}; supported: ${SUPPORTED_PROTOCOL_VERSIONS.join(', ')}`) }
  }
  if (decision.era === 'legacy') return { era: 'legacy', messages: checked.messages, batch: checked.batch }
  return { era: 'modern', method: decision.method, messages: checked.messages, batch: checked.batch }
}

/** The response a listen stream is written to: ended to end the stream, 'close' once it is gone. */
export interface ListenStream {
  end: () => void
  once: (event: 'close', listener: () => void) => unknown
}

export interface ListenAdmissionOptions {
  /** Whether the identity may read the resource at `uri` (its token's level). */
  mayRead: (uri: string, identity: Identity) => boolean
  /** Resources one stream may list: as many as a 2025 session may subscribe to (src/sessions/subscriptions.ts). */
  maxSubscriptions: number
  /** Ends a stream when the credential that opened it dies (src/auth/revocations.ts). */
  revocations: { hold: (identity: Identity, end: (reason: string) => void) => () => void }
}

/** The open 2026-07-28 listen streams, by identity, and the rules a new one must pass. */
export class ListenAdmission {
  readonly #options: ListenAdmissionOptions
  readonly #byIdentity = new Map<string, Set<ListenStream>>()

  constructor (options: ListenAdmissionOptions) {
    this.#options = options
  }

  /** Streams `identity` holds open now. */
  heldBy (identity: Identity): number {
    return this.#byIdentity.get(identity.id)?.size ?? 0
  }

  /**
   * Admits one `subscriptions/listen` request (its parsed body) on `stream`, or answers why not: a
   * body over LISTEN_BODY_LIMIT, more than `maxSubscriptions` resources, a resource the identity may
   * not read, or MAX_LISTENS_PER_TOKEN streams already open. An admitted stream counts against its
   * identity until it closes, and is ended (after `onRevoked`) the moment its credential stops working:
   * revoked, replaced, expired.
   */
  admit (body: unknown, identity: Identity, stream: ListenStream, onRevoked?: (reason: string) => void): RpcRefusal | undefined {
    if (JSON.stringify(body).length > LISTEN_BODY_LIMIT) {
      return new RpcRefusal(413, -32600, 'HAMCP_TOO_LARGE', `Request body larger than ${LISTEN_BODY_LIMIT / 1024} KB for subscriptions/listen.`)
    }
    const uris = (body as { params?: { notifications?: { resourceSubscriptions?: unknown } } }).params?.notifications?.resourceSubscriptions
    const max = this.#options.maxSubscriptions
    if (Array.isArray(uris) && uris.length > max) {
      return new RpcRefusal(200, -32602, 'HAMCP_LIMIT_REACHED', `Invalid params: at most ${max} resourceSubscriptions per listen stream`)
    }
    const denied = Array.isArray(uris) ? uris.find(uri => typeof uri === 'string' && !this.#options.mayRead(uri, identity)) : undefined
    if (denied !== undefined) {
      return new RpcRefusal(200, -32602, 'HAMCP_DENIED_LEVEL', `Invalid params: this token's level does not allow reading ${String(denied)}`)
    }
    const owner = identity.id
    const held = this.#byIdentity.get(owner) ?? new Set<ListenStream>()
    if (held.size >= MAX_LISTENS_PER_TOKEN) {
      return new RpcRefusal(200, -32603, 'HAMCP_LIMIT_REACHED', `Subscription limit reached: this token already holds ${MAX_LISTENS_PER_TOKEN} listen streams; close one first`)
    }
    this.#byIdentity.set(owner, held.add(stream))
    const release = this.#options.revocations.hold(identity, reason => {
      onRevoked?.(reason)
      stream.end()
    })
    stream.once('close', () => {
      release()
      held.delete(stream)
      if (held.size === 0 && this.#byIdentity.get(owner) === held) this.#byIdentity.delete(owner)
    })
    return undefined
  }
}

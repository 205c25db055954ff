/**
 * Stateless Streamable HTTP without per-request construction: one SDK Server lives as long as the
 * app, and each HTTP POST hands its JSON-RPC messages to a small in-process transport that gives each
 * a private id, lets the Server answer, and routes the answer back to that HTTP response. Concurrent
 * clients reusing the same JSON-RPC ids never collide, and nothing is rebuilt per request: that is
 * what keeps a call's cost flat (SPEC section 15).
 */
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js'
import { ErrorCode, JSONRPCMessageSchema, SUPPORTED_PROTOCOL_VERSIONS, type JSONRPCMessage, type MessageExtraInfo } from '@modelcontextprotocol/sdk/types.js'
import type { Identity } from '../auth/identity.ts'
import { authInfoOf, buildServer, type McpServerDeps } from './handlers.ts'

export { SUPPORTED_PROTOCOL_VERSIONS }

/** Routes each request's answer back to whoever asked, under a private id. */
class StatelessMux implements Transport {
  onmessage?: (message: JSONRPCMessage, extra?: MessageExtraInfo) => void
  onclose?: () => void
  onerror?: (error: Error) => void
  #pending = new Map<number, (message: JSONRPCMessage) => void>()
  #nextId = 1

  async start (): Promise<void> {}

  async close (): Promise<void> {
    for (const resolve of this.#pending.values()) {
      resolve({ jsonrpc: '2.0', id: 0, error: { code: ErrorCode.InternalError, message: 'Server shutting down' } })
    }
    this.#pending.clear()
    this.onclose?.()
  }

  async send (message: JSONRPCMessage): Promise<void> {
    // Only answers have a destination; notifications about a request (progress, logs) have no
    // stream to travel on in stateless JSON mode and are dropped.
    if ('id' in message && ('result' in message || 'error' in message)) {
      const resolve = this.#pending.get(message.id as number)
      if (resolve) {
        this.#pending.delete(message.id as number)
        resolve(message)
      }
    }
  }

  /** Resolves with the answer to a request, or undefined for a notification or a response. */
  async dispatch (message: JSONRPCMessage, extra: MessageExtraInfo, cancelled: AbortSignal): Promise<JSONRPCMessage | undefined> {
    if (!('method' in message) || !('id' in message)) {
      this.onmessage?.(message, extra)
      return undefined
    }
    const privateId = this.#nextId++
    return await new Promise(resolve => {
      this.#pending.set(privateId, answer => resolve({ ...answer, id: message.id } as JSONRPCMessage))
      const onCancel = (): void => {
        if (!this.#pending.has(privateId)) return
        this.#pending.delete(privateId)
        this.onmessage?.({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: privateId, reason: 'client went away' } })
        resolve(undefined)
      }
      cancelled.addEventListener('abort', onCancel, { once: true })
      this.onmessage?.({ ...message, id: privateId }, extra)
    })
  }
}

export type McpBodyCheck = { ok: true, messages: JSONRPCMessage[], batch: boolean } | { ok: false, message: string }

/** Checks that a parsed body is one JSON-RPC message (or a batch of them, which older clients send). */
export function checkBody (body: unknown): McpBodyCheck {
  const batch = Array.isArray(body)
  const items = batch ? body : [body]
  if (items.length === 0) return { ok: false, message: 'Invalid Request: empty batch' }
  const messages: JSONRPCMessage[] = []
  for (const item of items) {
    const parsed = JSONRPCMessageSchema.safeParse(item)
    if (!parsed.success) return { ok: false, message: 'Invalid Request: not a JSON-RPC 2.0 message' }
    messages.push(parsed.data)
  }
  return { ok: true, messages, batch }
}

export interface McpEndpoint {
  /** Answers the messages of one POST: the answers to its requests, in order (empty: 202). */
  handle: (messages: JSONRPCMessage[], identity: Identity, cancelled: AbortSignal) => Promise<JSONRPCMessage[]>
  close: () => Promise<void>
}

export async function createMcpEndpoint (deps: McpServerDeps): Promise<McpEndpoint> {
  const server = buildServer(deps)
  const mux = new StatelessMux()
  await server.connect(mux)
  return {
    async handle (messages, identity, cancelled) {
      const extra: MessageExtraInfo = { authInfo: authInfoOf(identity) }
      const answers = await Promise.all(messages.map(message => mux.dispatch(message, extra, cancelled)))
      return answers.filter((answer): answer is JSONRPCMessage => answer !== undefined)
    },
    async close () {
      await server.close()
    }
  }
}

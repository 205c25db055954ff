/**
 * The only module that touches the MCP SDK (v1 line), so a move to SDK v2 stays contained here.
 *
 * Stateless serving without per-request construction: one low-level `Server` lives as long as the
 * app, with handlers that only wire cached answers (tool listings and JSON Schemas computed once at
 * start). Each HTTP POST hands its JSON-RPC message to a small in-process transport that gives it a
 * private id, lets the Server answer, and routes the answer back to that HTTP response. Concurrent
 * clients reusing the same JSON-RPC ids never collide, and nothing is rebuilt per request: that is
 * what keeps a call's cost flat (SPEC section 15). The caller's identity travels with each message.
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js'
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js'
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv-provider.js'
import {
  CallToolRequestSchema, CompleteRequestSchema, ErrorCode, GetPromptRequestSchema, JSONRPCMessageSchema,
  ListPromptsRequestSchema, ListResourcesRequestSchema, ListResourceTemplatesRequestSchema, ListToolsRequestSchema,
  McpError, ReadResourceRequestSchema, SUPPORTED_PROTOCOL_VERSIONS,
  type JSONRPCMessage, type MessageExtraInfo
} from '@modelcontextprotocol/sdk/types.js'
import type { Identity } from '../auth/identity.ts'
import { isUserError } from '../errors.ts'
import type { Options } from '../options.ts'
import { invokeTool, type CallReport } from './invoke.ts'
import type { ToolCatalog } from './registry.ts'
import { ResourceNotFound, type ContextFactory, type McpSurface } from './surface.ts'

export { SUPPORTED_PROTOCOL_VERSIONS }

/** -32002 is "resource not found" in protocol 2025-11-25. */
const RESOURCE_NOT_FOUND = -32002

export interface McpServerDeps {
  name: string
  version: string
  instructions: string
  catalog: ToolCatalog
  options: Options
  surface: McpSurface
  context: ContextFactory
  onCall?: (report: CallReport) => void
}

type Extra = { authInfo?: { extra?: Record<string, unknown> }, signal: AbortSignal }

function identityOf (extra: Extra): Identity {
  const identity = extra.authInfo?.extra?.identity as Identity | undefined
  // The route authenticates every request before it gets here; reaching this is a wiring bug.
  if (!identity) throw new Error('MCP request without an authenticated identity')
  return identity
}

function buildServer (deps: McpServerDeps): Server {
  const server = new Server({ name: deps.name, version: deps.version, title: 'Home Assistant' }, {
    capabilities: { tools: { listChanged: false }, resources: {}, prompts: {}, completions: {} },
    instructions: deps.instructions,
    jsonSchemaValidator: new AjvJsonSchemaValidator()
  })
  server.setRequestHandler(ListToolsRequestSchema, (_request, extra) => deps.catalog.listFor(deps.options, identityOf(extra)))
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const identity = identityOf(extra)
    const tool = deps.catalog.find(request.params.name, deps.options, identity)
    if (!tool) {
      throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${request.params.name}. Call tools/list to see the tools this token may use.`)
    }
    return await invokeTool(tool, request.params.arguments, deps.context(identity, extra.signal), deps.onCall)
  })
  server.setRequestHandler(ListResourcesRequestSchema, (_request, extra) => ({ resources: deps.surface.resources(deps.context(identityOf(extra))) }))
  server.setRequestHandler(ListResourceTemplatesRequestSchema, () => ({ resourceTemplates: deps.surface.resourceTemplates() }))
  server.setRequestHandler(ReadResourceRequestSchema, async (request, extra) => {
    try {
      return await deps.surface.readResource(request.params.uri, deps.context(identityOf(extra), extra.signal))
    } catch (err) {
      if (err instanceof ResourceNotFound) throw new McpError(RESOURCE_NOT_FOUND, err.message, { uri: request.params.uri })
      if (isUserError(err)) throw new McpError(ErrorCode.InvalidParams, err.message)
      throw err
    }
  })
  server.setRequestHandler(ListPromptsRequestSchema, () => ({ prompts: deps.surface.prompts() }))
  server.setRequestHandler(GetPromptRequestSchema, async (request, extra) => {
    try {
      return await deps.surface.getPrompt(request.params.name, request.params.arguments ?? {}, deps.context(identityOf(extra), extra.signal))
    } catch (err) {
      if (isUserError(err) || (err instanceof Error && err.message.startsWith('Unknown prompt'))) throw new McpError(ErrorCode.InvalidParams, err.message)
      throw err
    }
  })
  server.setRequestHandler(CompleteRequestSchema, async (request, extra) => {
    const values = await deps.surface.complete(request.params.ref, request.params.argument, deps.context(identityOf(extra), extra.signal), request.params.context?.arguments)
    const capped = values.slice(0, 50)
    return { completion: { values: capped, total: values.length, hasMore: values.length > capped.length } }
  })
  return server
}

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
      const extra: MessageExtraInfo = { authInfo: { token: identity.id, clientId: identity.id, scopes: [...identity.scopes], extra: { identity } } }
      const answers = await Promise.all(messages.map(message => mux.dispatch(message, extra, cancelled)))
      return answers.filter((answer): answer is JSONRPCMessage => answer !== undefined)
    },
    async close () {
      await server.close()
    }
  }
}

/**
 * The only module that touches the MCP SDK (v1 line), so a move to SDK v2 stays contained here.
 *
 * Stateless serving without per-request construction: one low-level `Server` lives as long as the
 * app, with handlers that only wire cached answers (tool listings and JSON Schemas computed once at
 * start). Each HTTP POST hands its JSON-RPC message to a small in-process transport that gives it a
 * private id, lets the Server answer, and routes the answer back to that HTTP response. Concurrent
 * clients reusing the same JSON-RPC ids never collide, and nothing is rebuilt per request: that is
 * what keeps a call's cost flat (SPEC section 15). The caller's identity travels with each message.
 *
 * Sessions (enable_sessions) are the exception: each gets its own Server, built from the same cached
 * handlers plus subscriptions and elicitation, behind the SDK's Streamable HTTP transport.
 */
import type { IncomingMessage, ServerResponse } from 'node:http'
import { Server } from '@modelcontextprotocol/sdk/server/index.js'
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js'
import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js'
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js'
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv-provider.js'
import {
  CallToolRequestSchema, CompleteRequestSchema, ErrorCode, GetPromptRequestSchema, JSONRPCMessageSchema,
  ListPromptsRequestSchema, ListResourcesRequestSchema, ListResourceTemplatesRequestSchema, ListToolsRequestSchema,
  McpError, ReadResourceRequestSchema, SubscribeRequestSchema, SUPPORTED_PROTOCOL_VERSIONS, UnsubscribeRequestSchema,
  type JSONRPCMessage, type MessageExtraInfo
} from '@modelcontextprotocol/sdk/types.js'
import type { Identity } from '../auth/identity.ts'
import { isUserError } from '../errors.ts'
import { rpcErrorBody, userMcpError } from './rpc-error.ts'
import type { Options } from '../options.ts'
import type { WriteRunContext } from '../policy/types.ts'
import type { ToolContext } from './define-tool.ts'
import { invokeTool, type CallReport } from './invoke.ts'
import type { ToolCatalog } from './registry.ts'
import { ResourceNotFound, type McpSurface } from './surface.ts'

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
  /** The tool context for a caller; a session whose client can be asked passes a confirmer for writes. */
  context: (identity: Identity, signal?: AbortSignal, confirmer?: Confirmer) => ToolContext
  onCall?: (report: CallReport) => void
}

type Confirmer = NonNullable<WriteRunContext['confirmer']>
type Extra = { authInfo?: { extra?: Record<string, unknown> }, signal: AbortSignal, requestId: string | number }

/** What a session server adds to the shared handlers. */
interface SessionExtras {
  confirmerFor: (extra: Extra) => Confirmer | undefined
  subscribe: (uri: string, ctx: ToolContext) => Promise<void>
  unsubscribe: (uri: string) => void
}

function identityOf (extra: Extra): Identity {
  const identity = extra.authInfo?.extra?.identity as Identity | undefined
  // The route authenticates every request before it gets here; reaching this is a wiring bug.
  if (!identity) throw new Error('MCP request without an authenticated identity')
  return identity
}

function resourceError (err: unknown, uri: string): unknown {
  if (err instanceof ResourceNotFound) return new McpError(RESOURCE_NOT_FOUND, err.message, { uri })
  if (isUserError(err)) return userMcpError(err)
  return err
}

function buildServer (deps: McpServerDeps, session?: (server: Server) => SessionExtras): Server {
  const server = new Server({ name: deps.name, version: deps.version, title: 'Home Assistant' }, {
    capabilities: { tools: { listChanged: false }, resources: session ? { subscribe: true } : {}, prompts: {}, completions: {} },
    instructions: deps.instructions,
    jsonSchemaValidator: new AjvJsonSchemaValidator()
  })
  const extras = session?.(server)
  server.setRequestHandler(ListToolsRequestSchema, (_request, extra) => deps.catalog.listFor(deps.options, identityOf(extra)))
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const identity = identityOf(extra)
    const tool = deps.catalog.find(request.params.name, deps.options, identity)
    if (!tool) {
      throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${request.params.name}. Call tools/list to see the tools this token may use.`, { code: 'HAMCP_NOT_FOUND' })
    }
    return await invokeTool(tool, request.params.arguments, deps.context(identity, extra.signal, extras?.confirmerFor(extra)), deps.onCall)
  })
  server.setRequestHandler(ListResourcesRequestSchema, (_request, extra) => ({ resources: deps.surface.resources(deps.context(identityOf(extra))) }))
  server.setRequestHandler(ListResourceTemplatesRequestSchema, () => ({ resourceTemplates: deps.surface.resourceTemplates() }))
  server.setRequestHandler(ReadResourceRequestSchema, async (request, extra) => {
    try {
      return await deps.surface.readResource(request.params.uri, deps.context(identityOf(extra), extra.signal))
    } catch (err) {
      if (err instanceof ResourceNotFound) throw new McpError(RESOURCE_NOT_FOUND, err.message, { uri: request.params.uri })
      if (isUserError(err)) throw userMcpError(err)
      throw err
    }
  })
  if (extras) {
    server.setRequestHandler(SubscribeRequestSchema, async (request, extra) => {
      try {
        await extras.subscribe(request.params.uri, deps.context(identityOf(extra), extra.signal))
        return {}
      } catch (err) {
        throw resourceError(err, request.params.uri)
      }
    })
    server.setRequestHandler(UnsubscribeRequestSchema, (request) => {
      try {
        extras.unsubscribe(request.params.uri)
        return {}
      } catch (err) {
        throw resourceError(err, request.params.uri)
      }
    })
  }
  server.setRequestHandler(ListPromptsRequestSchema, () => ({ prompts: deps.surface.prompts() }))
  server.setRequestHandler(GetPromptRequestSchema, async (request, extra) => {
    try {
      return await deps.surface.getPrompt(request.params.name, request.params.arguments ?? {}, deps.context(identityOf(extra), extra.signal))
    } catch (err) {
      if (isUserError(err)) throw userMcpError(err)
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

function authInfoOf (identity: Identity): AuthInfo {
  return { token: identity.id, clientId: identity.id, scopes: [...identity.scopes], extra: { identity } }
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

/** The single question a confirmation asks (elicitation form mode allows flat primitive fields only). */
const CONFIRM_SCHEMA = {
  type: 'object' as const,
  properties: {
    confirm: { type: 'boolean' as const, title: 'Confirm', description: 'Yes to let the assistant do this now; anything else refuses it.' }
  },
  required: ['confirm']
}
/** A human may take a while to answer; as long as a confirm token would live. */
const CONFIRM_TIMEOUT_MS = 5 * 60_000

export interface SessionServerHooks {
  subscribe: (uri: string, ctx: ToolContext) => Promise<void>
  unsubscribe: (uri: string) => void
  /** Called when the session's transport closes, whatever closed it (DELETE, close()). */
  onClosed: () => void
}

export interface McpSession {
  readonly id: string
  /** True once the initialize that opens the session succeeded. */
  readonly initialized: boolean
  /** Serves one HTTP request of this session (POST, GET stream, DELETE); writes the response itself. */
  handle: (req: IncomingMessage, res: ServerResponse, identity: Identity, body?: unknown) => Promise<void>
  resourceUpdated: (uri: string) => void
  /** Ends the client's notification stream (shutdown), leaving requests in flight to finish. */
  closeStream: () => void
  close: () => Promise<void>
}

/**
 * One long-lived MCP session: its own Server (the same cached handlers as the stateless endpoint, plus
 * subscriptions and confirmations by elicitation) behind the SDK's Streamable HTTP transport with SSE
 * responses, so the server can ask the client a question in the middle of a tool call.
 */
export async function createSessionServer (deps: McpServerDeps, id: string, hooks: SessionServerHooks): Promise<McpSession> {
  let initialized = false
  // A client that declared elicitation but fails to answer gets confirm tokens from then on.
  let elicitationBroken = false
  const server = buildServer(deps, session => ({
    confirmerFor: extra => {
      if (elicitationBroken || session.getClientCapabilities()?.elicitation?.form === undefined) return undefined
      return async preview => {
        try {
          const answer = await session.elicitInput(
            { mode: 'form', message: `Confirm this action? ${preview.preview}`, requestedSchema: CONFIRM_SCHEMA },
            { relatedRequestId: extra.requestId, signal: extra.signal, timeout: CONFIRM_TIMEOUT_MS }
          )
          return answer.action === 'accept' && answer.content?.confirm === true
        } catch (err) {
          // No answer in time is a refusal; a client that cannot be asked falls back to a confirm token.
          if (err instanceof McpError && (err.code === ErrorCode.RequestTimeout || err.code === ErrorCode.ConnectionClosed)) return false
          elicitationBroken = true
          return 'unavailable'
        }
      }
    },
    subscribe: hooks.subscribe,
    unsubscribe: hooks.unsubscribe
  }))
  const transport = new StreamableHTTPServerTransport({
    sessionIdGenerator: () => id,
    onsessioninitialized: () => { initialized = true }
  })
  server.onclose = hooks.onClosed
  await server.connect(transport)
  return {
    id,
    get initialized () { return initialized },
    async handle (req, res, identity, body) {
      (req as IncomingMessage & { auth?: AuthInfo }).auth = authInfoOf(identity)
      try {
        await transport.handleRequest(req, res, body)
      } catch (err) {
        // The transport gave up mid-way: never leave the client hanging on a half-written response.
        if (!res.headersSent) {
          res.writeHead(500, { 'content-type': 'application/json' })
          res.end(JSON.stringify(rpcErrorBody(ErrorCode.InternalError, 'Internal error')))
        } else {
          res.destroy(err as Error)
        }
      }
    },
    resourceUpdated (uri) {
      server.sendResourceUpdated({ uri }).catch(() => {
        // The client is gone or not listening; it re-reads when it comes back.
      })
    },
    closeStream () {
      transport.closeStandaloneSSEStream()
    },
    async close () {
      await server.close()
    }
  }
}

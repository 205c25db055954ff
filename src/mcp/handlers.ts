/**
 * The MCP request handlers, shared by the stateless endpoint (stateless.ts) and sessions (session.ts).
 * These three files are the only ones that touch the MCP SDK (v1 line), so a move to SDK v2 stays
 * contained here. The handlers only wire cached answers: tool listings and JSON Schemas are computed
 * once at start, so nothing is rebuilt per request. The caller's identity travels with each message.
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js'
import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js'
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv-provider.js'
import {
  CallToolRequestSchema, CompleteRequestSchema, ErrorCode, GetPromptRequestSchema,
  ListPromptsRequestSchema, ListResourcesRequestSchema, ListResourceTemplatesRequestSchema, ListToolsRequestSchema,
  McpError, ReadResourceRequestSchema, SubscribeRequestSchema, UnsubscribeRequestSchema
} from '@modelcontextprotocol/sdk/types.js'
import type { Identity } from '../auth/identity.ts'
import { isUserError } from '../errors.ts'
import { userMcpError } from './rpc-error.ts'
import type { Options } from '../options.ts'
import type { WriteRunContext } from '../policy/types.ts'
import type { ToolContext } from './define-tool.ts'
import { invokeTool, type CallReport } from './invoke.ts'
import type { ToolCatalog } from './registry.ts'
import { ResourceNotFound, type McpSurface } from './surface.ts'

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

export type Confirmer = NonNullable<WriteRunContext['confirmer']>
export type Extra = { authInfo?: { extra?: Record<string, unknown> }, signal: AbortSignal, requestId: string | number }

/** What a session server adds to the shared handlers. */
export interface SessionExtras {
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

/** One low-level SDK Server with every handler wired; a session adds subscriptions and elicitation. */
export function buildServer (deps: McpServerDeps, session?: (server: Server) => SessionExtras): Server {
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

export function authInfoOf (identity: Identity): AuthInfo {
  return { token: identity.id, clientId: identity.id, scopes: Object.entries(identity.levels).map(([category, level]) => `${category}:${level}`), extra: { identity } }
}

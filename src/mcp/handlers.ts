/**
 * src/mcp/ is the MCP layer, in three folders: runtime/ (what a tool is and how a call runs),
 * transport/ (how messages travel: the eras, the stateless endpoint, sessions, streams) and content/
 * (prompts, resources, completions, instructions). This file joins them.
 *
 * The MCP request handlers, shared by the stateless endpoint (transport/stateless.ts) and sessions
 * (transport/session.ts). Seven files touch the MCP SDK (v2 line, `@modelcontextprotocol/server` and
 * `/node`): this one, transport/era.ts, transport/stateless.ts, transport/session.ts,
 * transport/rpc-error.ts, transport/stream-gate.ts (the SDK's event bus types) and
 * runtime/confirm-rounds.ts, all in src/mcp/
 * (test/packaging/sdk-files.test.ts keeps the list true). The handlers only wire cached answers:
 * tool listings and JSON Schemas are computed once at start, so nothing is rebuilt per request. The
 * caller's identity travels with each message.
 *
 * One handler set serves both protocol eras: `legacy` (2024-11-05 .. 2025-11-25, opened by
 * `initialize`) and `modern` (2026-07-28: no handshake, a `_meta` envelope on every request,
 * `resultType`, cache hints, confirmations as `input_required` results).
 */
import { ProtocolError, ProtocolErrorCode, Server, type AuthInfo, type CacheHint, type ServerContext } from '@modelcontextprotocol/server'
import { z } from 'zod'
import type { Identity } from '../auth/identity.ts'
import { isHomeAssistantError, isUserError } from '../errors.ts'
import { userMcpError } from './transport/rpc-error.ts'
import type { Options } from '../options.ts'
import type { WriteRunContext } from '../policy/types.ts'
import type { ToolContext } from './runtime/define-tool.ts'
import { errorResult, invokeTool, type CallReport, type ToolCallResult } from './runtime/invoke.ts'
import { CALL_TOOL } from './runtime/meta-tools.ts'
import type { LoadedTool, ToolCatalog } from './runtime/registry.ts'
import { ResourceNotFound, type McpSurface } from './content/surface.ts'
import { modernConfirmation, type ModernConfirmations } from './runtime/confirm-rounds.ts'
import { withOwnerRerun } from './runtime/owner-rerun.ts'
import { LEGACY_PROTOCOL_VERSIONS, MODERN_PROTOCOL_VERSION, RESOURCE_NOT_FOUND, type Era } from './transport/era.ts'

/**
 * How long a 2026-07-28 client may reuse a list (`ttlMs`, `cacheScope`). Every list is private: the
 * tools, resources and prompts a client sees depend on its token (tools/list filters by the token's
 * category levels), so a shared cache must never hand one client's list to another. Tools and
 * prompts change only with the add-on's options (a restart); resources follow the home's areas.
 */
export const CACHE_HINTS: Record<'tools/list' | 'prompts/list' | 'resources/list' | 'resources/templates/list' | 'resources/read' | 'server/discover', CacheHint> = {
  'server/discover': { ttlMs: 300_000, cacheScope: 'private' },
  'tools/list': { ttlMs: 300_000, cacheScope: 'private' },
  'prompts/list': { ttlMs: 300_000, cacheScope: 'private' },
  'resources/templates/list': { ttlMs: 300_000, cacheScope: 'private' },
  'resources/list': { ttlMs: 60_000, cacheScope: 'private' },
  // Live state: read it again every time.
  'resources/read': { ttlMs: 0, cacheScope: 'private' }
}

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
export type Extra = ServerContext

/** What a session server adds to the shared handlers. */
export interface SessionExtras {
  confirmerFor: (extra: Extra) => Confirmer | undefined
  subscribe: (uri: string, ctx: ToolContext) => Promise<void>
  unsubscribe: (uri: string) => void
}

function identityOf (extra: Extra): Identity {
  const identity = extra.http?.authInfo?.extra?.identity as Identity | undefined
  // The route authenticates every request before it gets here; reaching this is a wiring bug.
  if (!identity) throw new Error('MCP request without an authenticated identity')
  return identity
}

/**
 * A failure under resources or prompts as a JSON-RPC error with our code. A protocol error (the SDK's
 * own, or ours) passes as it is; anything else is a bug: logged in full, answered as a generic
 * internal error (HAMCP_INTERNAL on the way out) so its message never reaches the client.
 */
function methodError (err: unknown, log: ToolContext['log']): unknown {
  if (isUserError(err)) return userMcpError(err)
  if (isHomeAssistantError(err)) return new ProtocolError(ProtocolErrorCode.InternalError, err.message, { code: err.code })
  if (err instanceof ProtocolError) return err
  log.error({ err }, 'MCP request failed')
  return new ProtocolError(ProtocolErrorCode.InternalError, 'Internal error; the add-on log has the details.')
}

function resourceError (err: unknown, uri: string, log: ToolContext['log']): unknown {
  if (err instanceof ResourceNotFound) return new ProtocolError(RESOURCE_NOT_FOUND, err.message, { uri, code: 'HAMCP_NOT_FOUND' })
  return methodError(err, log)
}

const callArguments = z.object({ name: z.string(), arguments: z.record(z.string(), z.unknown()).optional() })

/**
 * The tool ha_call_tool names and its arguments, or the answer that refuses it: malformed arguments,
 * ha_call_tool itself, or a name this caller may not call (answered as an unknown one, so a refusal
 * never tells a token which tools exist beyond its reach).
 */
function callTarget (deps: McpServerDeps, raw: unknown, identity: Identity): { tool: LoadedTool, args: unknown } | { refused: ToolCallResult } {
  const parsed = callArguments.safeParse(raw ?? {})
  if (!parsed.success) {
    return { refused: errorResult('HAMCP_INVALID_ARGUMENT', `Invalid arguments for ${CALL_TOOL}: name (a tool name) and arguments (an object) are expected.`, 'Call ha_search_tools for the tool and its input schema.') }
  }
  const { name, arguments: args = {} } = parsed.data
  const tool = name === CALL_TOOL ? undefined : deps.catalog.find(name, deps.options, identity)
  if (!tool) {
    return { refused: errorResult('HAMCP_NOT_FOUND', `Unknown tool: ${name.slice(0, 64)}.`, 'Call ha_search_tools to find the tools this token may use.') }
  }
  return { tool, args }
}

export interface BuildOptions {
  era: Era
  /** A session adds subscriptions and elicitation (2025 era only). */
  session?: (server: Server) => SessionExtras
  /** Confirmations by `input_required` rounds (2026 era). */
  confirmations?: ModernConfirmations
}

/** One low-level SDK Server with every handler wired, for one era; a session adds subscriptions and elicitation. */
export function buildServer (deps: McpServerDeps, build: BuildOptions): Server {
  const { era, session, confirmations } = build
  const server = new Server({ name: deps.name, version: deps.version, title: 'Home Assistant' }, {
    // 2026-07-28 subscribes on a subscriptions/listen stream (stateless.ts); 2025 inside a session.
    // A session also logs (MCP logging) what happens to the Home Assistant connection: it has a stream to say it on.
    capabilities: { tools: { listChanged: false }, resources: session || era === 'modern' ? { subscribe: true } : {}, prompts: {}, completions: {}, ...(session ? { logging: {} } : {}) },
    instructions: deps.instructions,
    ...(era === 'modern'
      ? { supportedProtocolVersions: [MODERN_PROTOCOL_VERSION, ...LEGACY_PROTOCOL_VERSIONS], cacheHints: CACHE_HINTS, ...(confirmations ? { requestState: { verify: confirmations.verify } } : {}) }
      : { supportedProtocolVersions: [...LEGACY_PROTOCOL_VERSIONS], inputRequired: { legacyShim: false } })
  })
  const extras = session?.(server)
  server.setRequestHandler('tools/list', (_request, extra) => deps.catalog.listFor(deps.options, identityOf(extra)) as never)
  server.setRequestHandler('tools/call', async (request, extra) => {
    const identity = identityOf(extra)
    const called = deps.catalog.find(request.params.name, deps.options, identity)
    if (!called) {
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown tool: ${request.params.name}. Call tools/list to see the tools this token may use.`, { code: 'HAMCP_NOT_FOUND' })
    }
    // ha_call_tool {name, arguments} is the call of the named tool: from here on it is that call, with its
    // guard, confirmations, rounds, owner approval, audit and codes, on this one path.
    const target = called.definition.name === CALL_TOOL ? callTarget(deps, request.params.arguments, identity) : { tool: called, args: request.params.arguments }
    if ('refused' in target) {
      deps.onCall?.({ tool: CALL_TOOL, identity: identity.id, ok: false, ms: 0 })
      return target.refused as never
    }
    const { tool, args: asked } = target
    // Every call can be run again on the owner's approval (confirm_with: owner), without the request's signal.
    const contextFor = (args: unknown, confirmer?: Confirmer): ToolContext =>
      withOwnerRerun(deps.context(identity, extra.mcpReq.signal, confirmer), tool, args, () => deps.context(identity), deps.onCall)
    if (confirmations) {
      return await modernConfirmation(confirmations, extra, identity, tool.definition.name, asked, async (args, confirmer) =>
        await invokeTool(tool, args, contextFor(args, confirmer), deps.onCall)) as never
    }
    return await invokeTool(tool, asked, contextFor(asked, extras?.confirmerFor(extra)), deps.onCall) as never
  })
  server.setRequestHandler('resources/list', (_request, extra) => ({ resources: deps.surface.resources(deps.context(identityOf(extra))) }))
  server.setRequestHandler('resources/templates/list', () => ({ resourceTemplates: deps.surface.resourceTemplates() }))
  server.setRequestHandler('resources/read', async (request, extra) => {
    const ctx = deps.context(identityOf(extra), extra.mcpReq.signal)
    try {
      return await deps.surface.readResource(request.params.uri, ctx)
    } catch (err) {
      throw resourceError(err, request.params.uri, ctx.log)
    }
  })
  if (extras) {
    server.setRequestHandler('resources/subscribe', async (request, extra) => {
      const identity = identityOf(extra)
      const ctx = deps.context(identity, extra.mcpReq.signal)
      try {
        // Reading it first refuses what the token may not read, with the same answer as resources/read.
        if (!deps.surface.mayRead(request.params.uri, identity)) await deps.surface.readResource(request.params.uri, ctx)
        await extras.subscribe(request.params.uri, ctx)
        return {}
      } catch (err) {
        throw resourceError(err, request.params.uri, ctx.log)
      }
    })
    server.setRequestHandler('resources/unsubscribe', (request, extra) => {
      try {
        extras.unsubscribe(request.params.uri)
        return {}
      } catch (err) {
        throw resourceError(err, request.params.uri, deps.context(identityOf(extra)).log)
      }
    })
  }
  server.setRequestHandler('prompts/list', () => ({ prompts: deps.surface.prompts() }))
  server.setRequestHandler('prompts/get', async (request, extra) => {
    const ctx = deps.context(identityOf(extra), extra.mcpReq.signal)
    try {
      return await deps.surface.getPrompt(request.params.name, request.params.arguments ?? {}, ctx)
    } catch (err) {
      throw methodError(err, ctx.log)
    }
  })
  server.setRequestHandler('completion/complete', async (request, extra) => {
    const values = await deps.surface.complete(request.params.ref, request.params.argument, deps.context(identityOf(extra), extra.mcpReq.signal), request.params.context?.arguments)
    const capped = values.slice(0, 50)
    return { completion: { values: capped, total: values.length, hasMore: values.length > capped.length } }
  })
  return server
}

export function authInfoOf (identity: Identity): AuthInfo {
  return { token: identity.id, clientId: identity.id, scopes: Object.entries(identity.levels).map(([category, level]) => `${category}:${level}`), extra: { identity } }
}

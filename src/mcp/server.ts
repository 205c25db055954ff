/**
 * The only module that touches the MCP SDK (v1 line). Everything it serves is computed elsewhere and
 * cached: the tool listings, their JSON Schemas, the resource and prompt lists. A stateless request
 * gets a fresh low-level `Server` and transport that only wire those cached answers.
 */
import type { IncomingMessage, ServerResponse } from 'node:http'
import { Server } from '@modelcontextprotocol/sdk/server/index.js'
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js'
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv-provider.js'
import {
  CallToolRequestSchema, CompleteRequestSchema, ErrorCode, GetPromptRequestSchema, ListPromptsRequestSchema,
  ListResourcesRequestSchema, ListResourceTemplatesRequestSchema, ListToolsRequestSchema, McpError,
  ReadResourceRequestSchema, SUPPORTED_PROTOCOL_VERSIONS
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

// One validator for every request: building an Ajv instance per request costs milliseconds.
const sharedValidator = new AjvJsonSchemaValidator()

function buildServer (deps: McpServerDeps, identity: Identity): Server {
  const server = new Server({ name: deps.name, version: deps.version, title: 'Home Assistant' }, {
    capabilities: { tools: { listChanged: false }, resources: {}, prompts: {}, completions: {} },
    instructions: deps.instructions,
    jsonSchemaValidator: sharedValidator
  })
  server.setRequestHandler(ListToolsRequestSchema, () => deps.catalog.listFor(deps.options, identity))
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const tool = deps.catalog.find(request.params.name, deps.options, identity)
    if (!tool) {
      throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${request.params.name}. Call tools/list to see the tools this token may use.`)
    }
    return await invokeTool(tool, request.params.arguments, deps.context(identity, extra.signal), deps.onCall)
  })
  server.setRequestHandler(ListResourcesRequestSchema, () => ({ resources: deps.surface.resources(deps.context(identity)) }))
  server.setRequestHandler(ListResourceTemplatesRequestSchema, () => ({ resourceTemplates: deps.surface.resourceTemplates() }))
  server.setRequestHandler(ReadResourceRequestSchema, async (request, extra) => {
    try {
      return await deps.surface.readResource(request.params.uri, deps.context(identity, extra.signal))
    } catch (err) {
      if (err instanceof ResourceNotFound) throw new McpError(RESOURCE_NOT_FOUND, err.message, { uri: request.params.uri })
      if (isUserError(err)) throw new McpError(ErrorCode.InvalidParams, err.message)
      throw err
    }
  })
  server.setRequestHandler(ListPromptsRequestSchema, () => ({ prompts: deps.surface.prompts() }))
  server.setRequestHandler(GetPromptRequestSchema, async (request, extra) => {
    try {
      return await deps.surface.getPrompt(request.params.name, request.params.arguments ?? {}, deps.context(identity, extra.signal))
    } catch (err) {
      if (isUserError(err) || (err instanceof Error && err.message.startsWith('Unknown prompt'))) throw new McpError(ErrorCode.InvalidParams, err.message)
      throw err
    }
  })
  server.setRequestHandler(CompleteRequestSchema, async (request, extra) => {
    const values = await deps.surface.complete(request.params.ref, request.params.argument, deps.context(identity, extra.signal), request.params.context?.arguments)
    const capped = values.slice(0, 50)
    return { completion: { values: capped, total: values.length, hasMore: values.length > capped.length } }
  })
  return server
}

/**
 * Serves one stateless POST: a server and a transport that live exactly as long as the response.
 * `body` is the already-parsed JSON (Fastify consumed the stream).
 */
export async function handleStatelessRequest (deps: McpServerDeps, identity: Identity, req: IncomingMessage, res: ServerResponse, body: unknown): Promise<void> {
  const server = buildServer(deps, identity)
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true })
  res.on('close', () => {
    transport.close().catch(() => {})
    server.close().catch(() => {})
  })
  await server.connect(transport)
  await transport.handleRequest(req, res, body)
}

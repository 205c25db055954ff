/**
 * The MCP content (src/mcp/content/): what the server offers beside its tools. This file describes
 * resources, prompts and completions without the MCP SDK, as plain provider objects; home-resources.ts,
 * home-prompts.ts and home-completions.ts serve them for the home, home-surface.ts joins them into the
 * one surface that src/mcp/handlers.ts turns into protocol handlers, and instructions.ts is what the
 * server tells the model on initialize.
 */
import type { Identity } from '../../auth/identity.ts'
import { UserError } from '../../errors.ts'
import type { ToolContext } from '../runtime/define-tool.ts'

export interface ResourceInfo { uri: string, name: string, title?: string, description?: string, mimeType?: string }
export interface ResourceTemplateInfo { uriTemplate: string, name: string, title?: string, description?: string, mimeType?: string }
export interface ResourceContents { contents: Array<{ uri: string, mimeType?: string, text: string }>, [key: string]: unknown }

export interface PromptArgumentInfo { name: string, description?: string, required?: boolean }
export interface PromptInfo { name: string, title?: string, description?: string, arguments?: PromptArgumentInfo[] }
export interface PromptMessages {
  [key: string]: unknown
  description?: string
  messages: Array<{ role: 'user' | 'assistant', content: { type: 'text', text: string } }>
}

export type CompletionRef = { type: 'ref/prompt', name: string } | { type: 'ref/resource', uri: string }

export interface McpSurface {
  resources: (ctx: ToolContext) => ResourceInfo[]
  resourceTemplates: () => ResourceTemplateInfo[]
  /** Throws a `ResourceNotFound` for an unknown URI. */
  readResource: (uri: string, ctx: ToolContext) => Promise<ResourceContents>
  prompts: () => PromptInfo[]
  /** Throws a UserError for an unknown prompt or bad arguments. */
  getPrompt: (name: string, args: Record<string, string>, ctx: ToolContext) => Promise<PromptMessages>
  /**
   * Whether this identity's levels let it read `uri` (resources/read, resources/subscribe and
   * subscriptions/listen ask; resources/list shows only these): a resource needs the read level of the
   * tools that read the same facts.
   */
  mayRead: (uri: string, identity: Identity) => boolean
  /** At most 50 values. */
  complete: (ref: CompletionRef, argument: { name: string, value: string }, ctx: ToolContext, context?: Record<string, string>) => Promise<string[]>
}

export class ResourceNotFound extends Error {
  constructor (uri: string) {
    super(`Resource not found: ${uri}`)
    this.name = 'ResourceNotFound'
  }
}

/** Until a provider is plugged in, the server offers none of these. */
export const EMPTY_SURFACE: McpSurface = {
  resources: () => [],
  resourceTemplates: () => [],
  readResource: async (uri) => { throw new ResourceNotFound(uri) },
  mayRead: () => false,
  prompts: () => [],
  getPrompt: async (name) => { throw new UserError('HAMCP_NOT_FOUND', `Unknown prompt: ${name}.`) },
  complete: async () => []
}

export type ContextFactory = (identity: Identity, signal?: AbortSignal) => ToolContext

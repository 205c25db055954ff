import type { z } from 'zod'
import { SCOPE_OPTION, SCOPES, scopeEnabled, type Identity, type Scope } from '../../auth/identity.ts'
import type { Clock } from '../../clock.ts'
import type { HomeAssistant } from '../../ha/index.ts'
import type { HomeView } from '../../home/view.ts'
import type { AppLogger } from '../../logger.ts'
import type { Options } from '../../options.ts'
import type { ToolServices } from './services.ts'

/**
 * read: never changes the home. write: service-level writes (allow_write). manage: configuration
 * writes such as automations and dashboards (allow_config_write). camera: snapshots (allow_camera).
 * A kind is the scope it needs (KIND_GATE), so the two are one list.
 */
export type ToolKind = Scope

export interface ToolAnnotations {
  title: string
  readOnlyHint: boolean
  destructiveHint: boolean
  idempotentHint: boolean
  openWorldHint: boolean
}

/** The languages of the add-on's panel and translations/, in which each tool declares its search keywords. */
export const KEYWORD_LANGUAGES = ['en', 'de', 'fr', 'es', 'nl'] as const
export type KeywordLanguage = typeof KEYWORD_LANGUAGES[number]

/** What a handler gets. No Fastify, no MCP SDK: just the home and the services around it. */
export interface ToolContext {
  /** Filtered, in-memory reads (filter_reads applied). */
  home: HomeView
  /** The raw connection, for commands; results that carry entities must be filtered through `home`. */
  ha: HomeAssistant
  options: Options
  identity: Identity
  log: AppLogger
  /** The one clock (src/clock.ts): a tool's "now", deadlines and waits read it, never the wall clock directly. */
  clock: Clock
  services: ToolServices
  signal?: AbortSignal
}

/** What a tool's handler gets: the context plus the tool's own name, for audit lines and write requests. */
export interface ToolCallContext extends ToolContext {
  tool: string
}

/** A result with explicit MCP content (images); anything else a handler returns is sent as JSON. */
export interface RawToolResult {
  raw: true
  content: Array<{ type: 'text', text: string } | { type: 'image', data: string, mimeType: string }>
  structuredContent?: Record<string, unknown>
  isError?: boolean
}

export interface ToolDefinition<Input extends z.ZodObject = z.ZodObject> {
  name: string
  title: string
  description: string
  input: Input
  kind: ToolKind
  /**
   * The category a named token's or an OAuth grant's level applies to (entities, automations, camera...),
   * and the folder under tools/ the module lives in. ha_manage_config's kinds each add their own
   * (ARGUMENT_CATEGORIES in src/mcp/runtime/categories.ts).
   */
  category: string
  /**
   * An everyday tool is one an owner reaches for every week (find a device, read its history, switch it,
   * edit an automation): tool_list `core` lists these, the others are found through ha_search_tools.
   */
  everyday: boolean
  /**
   * One of at most three everyday tools that tool_list `search` still lists beside ha_search_tools and
   * ha_call_tool, for small local models that handle few tools.
   */
  essential?: boolean
  /**
   * How owners ask for this tool, in the panel's five languages: words and synonyms that are not in the
   * name, title or description, for ha_search_tools (src/mcp/runtime/tool-search.ts). Never sent in tools/list.
   */
  keywords: Readonly<Record<KeywordLanguage, string>>
  /** Hints that differ from what the kind implies. */
  hints?: Partial<Omit<ToolAnnotations, 'title'>>
  /** Extra rule on top of the kind's gate, e.g. hidden when filter_reads is on. */
  enabled?: (options: Options) => boolean
  /** Also listed when this other kind's option is on: ha_undo serves writes and config writes. */
  alsoKind?: ToolKind
  /** Defaults to true: the handler needs a live Home Assistant. */
  needsHomeAssistant?: boolean
  handler: (ctx: ToolCallContext, args: z.infer<Input>) => Promise<unknown>
}

/** Typed identity helper: one tool, one module, one default export. */
export function defineTool<Input extends z.ZodObject> (definition: ToolDefinition<Input>): ToolDefinition<Input> {
  return definition
}

/** Each kind's option and scope: the scope of the same name and the option that turns it on. */
export const KIND_GATE = Object.fromEntries(SCOPES.map(kind => [kind, { option: SCOPE_OPTION[kind], scope: kind }])) as Record<ToolKind, { option: keyof Options | null, scope: Scope }>

/** Annotations follow from the kind, so none is ever forgotten. */
export function annotationsFor (tool: Pick<ToolDefinition, 'title' | 'kind' | 'hints'>): ToolAnnotations {
  const readOnly = tool.kind === 'read' || tool.kind === 'camera'
  return {
    title: tool.title,
    readOnlyHint: readOnly,
    destructiveHint: !readOnly,
    idempotentHint: readOnly,
    // Open, the spec's default and mcp-ha's hint: Home Assistant acts through integrations on devices,
    // cloud services and people, and what a tool reads (calendar events, notification and log text,
    // names) comes from them, so a client that guards against text from outside should guard here.
    openWorldHint: true,
    ...tool.hints
  }
}

export function toolEnabled (tool: Pick<ToolDefinition, 'kind' | 'enabled' | 'alsoKind'>, options: Options): boolean {
  if (!scopeEnabled(tool.kind, options) && (tool.alsoKind === undefined || !scopeEnabled(tool.alsoKind, options))) return false
  return tool.enabled ? tool.enabled(options) : true
}

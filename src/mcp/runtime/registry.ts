/**
 * The tool runtime (src/mcp/runtime/) and its catalogue. The runtime owns what a tool is and what
 * happens to it between its module under tools/ and its answer, without the MCP SDK (confirm-rounds.ts
 * aside): the definition (define-tool.ts); this catalogue, which loads and checks every module and
 * says which tools a caller sees and may call; the schema clients read (client-schema.ts); argument
 * reading (arguments.ts); permissions by category (categories.ts); the call with its answer cap
 * (invoke.ts); the meta tools and their search (meta-tools.ts, tool-search.ts); confirmation rounds and
 * the owner's re-run (confirm-rounds.ts, owner-rerun.ts); the tools' services (services.ts) and the
 * usage counters (usage.ts).
 */
import { readdirSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { z } from 'zod'
import { levelIn, levelRank, levelsKey, type Identity } from '../../auth/identity.ts'
import { ARGUMENT_CATEGORIES, levelNeeded } from './categories.ts'
import type { Options } from '../../options.ts'
import { compactSchema } from './client-schema.ts'
import { annotationsFor, KEYWORD_LANGUAGES, KIND_GATE, toolEnabled, type ToolAnnotations, type ToolDefinition } from './define-tool.ts'
import { CALL_TOOL, metaToolDefinitions, SEARCH_TOOLS } from './meta-tools.ts'
import { ToolIndex } from './tool-search.ts'

export const TOOL_NAME_PATTERN = /^[a-z0-9_]{1,64}$/
/** A tool's category: a token level's key (CATEGORY_PATTERN without `*`) and a folder name. */
const TOOL_CATEGORY_PATTERN = /^[a-z_]{1,32}$/
const KINDS = new Set(Object.keys(KIND_GATE))

export interface LoadedTool {
  definition: ToolDefinition
  /** The category a named token's level applies to: the definition's own. */
  category: string
  /** A tool whose argument picks the category of each call (ha_manage_config's kind), else undefined. */
  byArgument?: { field: string, byValue: Readonly<Record<string, string>> }
  annotations: ToolAnnotations
  /** JSON Schema of the input, computed once. */
  inputSchema: Record<string, unknown>
  /** The tools/list entry, computed once. */
  listing: { name: string, title: string, description: string, inputSchema: Record<string, unknown>, annotations?: Partial<ToolAnnotations> }
}

/** The write arguments every write tool shares; the server instructions and each confirmation answer explain them. */
const STANDARD_ARGS = ['dry_run', 'confirm_token']
/** The paging pair every list tool shares, explained once in the server instructions: bounds and the page size's default say the rest. */
const PAGING_ARGS = ['limit', 'offset']

/** Lists the arguments many tools share without their text: said once in the instructions, not in every tool. */
function bareSharedArgs (schema: Record<string, unknown>): Record<string, unknown> {
  const properties = schema.properties as Record<string, Record<string, unknown>> | undefined
  if (!properties) return schema
  const bare = { ...properties }
  for (const name of STANDARD_ARGS) {
    const property = bare[name]
    if (property && typeof property.type === 'string') bare[name] = { type: property.type }
  }
  for (const name of PAGING_ARGS) {
    const property = bare[name]
    if (property) {
      const { description: _, ...rest } = property
      // Paging starts at offset 0 wherever next_offset does not say otherwise.
      if (name === 'offset' && rest.default === 0) delete rest.default
      bare[name] = rest
    }
  }
  return { ...schema, properties: bare }
}

/**
 * Hints as sent: only where they differ from the spec's defaults (readOnlyHint false, destructiveHint
 * true, idempotentHint false, openWorldHint true), which carries the same meaning in fewer bytes; a
 * tool whose hints are all the defaults (a destructive write) sends none, as an empty object would say.
 * Read tools always say readOnlyHint true. The definitions keep every hint explicit (annotationsFor);
 * only the wire form is compact.
 */
function listedAnnotations (annotations: ToolAnnotations): { annotations?: Partial<ToolAnnotations> } {
  const listed: Partial<ToolAnnotations> = {}
  if (annotations.readOnlyHint) listed.readOnlyHint = true
  else {
    if (!annotations.destructiveHint) listed.destructiveHint = false
    if (annotations.idempotentHint) listed.idempotentHint = true
  }
  if (!annotations.openWorldHint) listed.openWorldHint = false
  return Object.keys(listed).length > 0 ? { annotations: listed } : {}
}

/** The tool modules under `dir`, in load order: what the registry imports and what the build bundles as entries. */
export function toolFiles (dir: string): string[] {
  const files: string[] = []
  for (const name of readdirSync(dir).sort()) {
    if (name.startsWith('_') || name.startsWith('.')) continue
    const path = join(dir, name)
    if (statSync(path).isDirectory()) files.push(...toolFiles(path))
    else if (/\.(ts|js)$/.test(name) && !/\.(d|test)\.(ts|js)$/.test(name)) files.push(path)
  }
  return files
}

/** Checks one definition; throws a message naming the file and the rule it breaks. */
export function checkDefinition (tool: ToolDefinition, where: string): LoadedTool {
  const fail = (why: string): never => { throw new Error(`${where}: ${why}`) }
  if (!tool || typeof tool !== 'object') fail('must default-export defineTool({...})')
  if (!TOOL_NAME_PATTERN.test(tool.name ?? '')) fail(`tool name "${tool.name}" must match ${TOOL_NAME_PATTERN}`)
  if (!tool.title?.trim()) fail('title is empty')
  if (!tool.description?.trim()) fail('description is empty')
  if (!KINDS.has(tool.kind)) fail(`kind "${tool.kind}" is not one of ${[...KINDS].join(', ')}`)
  if (typeof tool.category !== 'string' || !TOOL_CATEGORY_PATTERN.test(tool.category)) fail(`category "${String(tool.category)}" must match ${TOOL_CATEGORY_PATTERN}`)
  if (typeof tool.everyday !== 'boolean') fail('everyday must be true or false')
  if (tool.essential === true && !tool.everyday) fail('an essential tool must be everyday')
  if (!tool.keywords || KEYWORD_LANGUAGES.some(language => typeof tool.keywords[language] !== 'string')) fail(`keywords needs a string for each of ${KEYWORD_LANGUAGES.join(', ')}`)
  if (typeof tool.handler !== 'function') fail('handler is not a function')
  if (!(tool.input instanceof z.ZodObject)) fail('input must be a z.object(...)')
  let inputSchema: Record<string, unknown>
  try {
    inputSchema = z.toJSONSchema(tool.input, { io: 'input', unrepresentable: 'throw' }) as Record<string, unknown>
  } catch (err) {
    return fail(`input schema does not compile to JSON Schema: ${(err as Error).message}`)
  }
  delete inputSchema.$schema
  // Checked on the JSON Schema the model actually receives, whatever the zod wrapping order.
  const properties = (inputSchema.properties ?? {}) as Record<string, { description?: string, anyOf?: Array<{ description?: string }> }>
  for (const field of Object.keys(tool.input.shape)) {
    const property = properties[field]
    if (!property?.description && !property?.anyOf?.some(branch => branch.description)) fail(`input field "${field}" has no .describe(): the model reads those`)
  }
  for (const key of ['anyOf', 'oneOf', 'allOf']) {
    if (key in inputSchema) fail(`input schema has a top-level ${key}; clients reject that`)
  }
  const annotations = annotationsFor(tool)
  const byArgument = ARGUMENT_CATEGORIES[tool.name]
  if (byArgument) {
    const values = (properties[byArgument.field] as { enum?: unknown[] } | undefined)?.enum ?? []
    const unfiled = values.filter(value => typeof value !== 'string' || !(value in byArgument.byValue))
    if (values.length === 0 || unfiled.length > 0) fail(`every value of "${byArgument.field}" needs a category in src/mcp/runtime/categories.ts (missing: ${unfiled.join(', ') || 'the field is no enum'})`)
  }
  return {
    definition: tool,
    category: tool.category,
    ...(byArgument ? { byArgument } : {}),
    annotations,
    inputSchema,
    // The title is the SDK's top-level field (Home Assistant's client shows it since 2026.10, a search
    // result needs it); annotations.title would say it twice. tools/list is paid by the model in every
    // conversation: test/catalog.test.ts holds each tool_list mode to its byte budget.
    listing: { name: tool.name, title: tool.title, description: tool.description, inputSchema: bareSharedArgs(compactSchema(inputSchema) as Record<string, unknown>), ...listedAnnotations(annotations) }
  }
}

/** How many everyday tools declare themselves essential: tool_list search lists at most these. */
export const ESSENTIAL_MAX = 3

type Listing = LoadedTool['listing']

/** The checked set of every tool module, independent of options. */
export class ToolCatalog {
  readonly tools: LoadedTool[]
  readonly byName: Map<string, LoadedTool>
  /** ha_search_tools and ha_call_tool (src/mcp/runtime/meta-tools.ts), listed when the caller may call a tool that is not. */
  readonly meta: LoadedTool[]
  readonly #index: ToolIndex<LoadedTool>
  // Keyed by the options object, then by the caller's levels: one catalogue may serve apps with different options.
  #listings = new WeakMap<Options, Map<string, { tools: Listing[], names: Set<string> }>>()

  constructor (tools: LoadedTool[]) {
    this.tools = [...tools].sort((a, b) => a.definition.name.localeCompare(b.definition.name))
    this.byName = new Map()
    for (const tool of this.tools) {
      if (this.byName.has(tool.definition.name)) throw new Error(`duplicate tool name ${tool.definition.name}`)
      this.byName.set(tool.definition.name, tool)
    }
    const essential = this.tools.filter(tool => tool.definition.essential === true).map(tool => tool.definition.name)
    if (essential.length > ESSENTIAL_MAX) throw new Error(`at most ${ESSENTIAL_MAX} tools may be essential: ${essential.join(', ')}`)
    this.meta = metaToolDefinitions((query, limit, ctx) => this.search(query, limit, ctx.options, ctx.identity)).map(tool => checkDefinition(tool, 'src/mcp/runtime/meta-tools.ts'))
    for (const tool of this.meta) {
      if (this.byName.has(tool.definition.name)) throw new Error(`duplicate tool name ${tool.definition.name}`)
    }
    this.#index = new ToolIndex(this.tools)
  }

  /** Is this tool registered for these options and this caller (for a multi-kind tool: for one of its kinds at least)? */
  allowed (tool: LoadedTool, options: Options, identity: Identity): boolean {
    if (!toolEnabled(tool.definition, options)) return false
    if (tool.byArgument) return allowedValues(tool, identity).length > 0
    return levelRank(levelIn(identity.levels, tool.category)) >= levelRank(levelNeeded(tool.definition.kind))
  }

  /**
   * The tools/list result for these options and caller, computed once per combination. Every tool the
   * caller may call under tool_list full; the everyday ones under core; at most the essential ones under
   * search. ha_search_tools and ha_call_tool come with them whenever a tool the caller may call is left out.
   */
  listFor (options: Options, identity: Identity): { tools: Listing[] } {
    return this.#listed(options, identity)
  }

  #listed (options: Options, identity: Identity): { tools: Listing[], names: Set<string> } {
    const key = levelsKey(identity.levels)
    let byScopes = this.#listings.get(options)
    if (!byScopes) {
      byScopes = new Map()
      this.#listings.set(options, byScopes)
    }
    let listing = byScopes.get(key)
    if (!listing) {
      const callable = this.tools.filter(t => this.allowed(t, options, identity))
      const mode = options.tool_list
      const shown = mode === 'full' ? callable : callable.filter(t => mode === 'core' ? t.definition.everyday : t.definition.essential === true)
      const listed = shown.length < callable.length ? [...shown, ...this.meta].sort((a, b) => a.definition.name.localeCompare(b.definition.name)) : shown
      // ha_call_tool can do what the tools it may run do: read-only when every one of them is.
      const readOnly = callable.every(t => t.annotations.readOnlyHint)
      const entry = (t: LoadedTool): Listing => t.definition.name === CALL_TOOL && readOnly ? { ...t.listing, annotations: { readOnlyHint: true } } : listingFor(t, identity)
      listing = { tools: listed.map(entry), names: new Set(listed.map(t => t.definition.name)) }
      byScopes.set(key, listing)
    }
    return listing
  }

  /**
   * The tool a tools/call by this name runs: any tool the caller may call, listed or not (a name
   * ha_search_tools gave works called directly too), and the meta tools while they are listed.
   */
  find (name: string, options: Options, identity: Identity): LoadedTool | undefined {
    const tool = this.byName.get(name)
    if (tool) return this.allowed(tool, options, identity) ? tool : undefined
    if (name !== SEARCH_TOOLS && name !== CALL_TOOL) return undefined
    return this.#listed(options, identity).names.has(name) ? this.meta.find(t => t.definition.name === name) : undefined
  }

  /** ha_search_tools: the tools/list entries of the best matches among the tools this caller may call. */
  search (query: string, limit: number, options: Options, identity: Identity): Listing[] {
    return this.#index.rank(query, limit, tool => this.allowed(tool, options, identity)).map(tool => listingFor(tool, identity))
  }
}

/** The values of a multi-kind tool's argument this caller's levels allow (each value by its own category). */
export function allowedValues (tool: LoadedTool, identity: Identity): string[] {
  if (!tool.byArgument) return []
  const needed = levelRank(levelNeeded(tool.definition.kind))
  return Object.entries(tool.byArgument.byValue).filter(([, category]) => levelRank(levelIn(identity.levels, category)) >= needed).map(([value]) => value)
}

/**
 * Why this call is beyond the caller's level for the category its argument picks (ha_manage_config
 * with kind dashboard and dashboards at read), or undefined when it is within it.
 */
export function argumentRefusal (tool: LoadedTool, args: Record<string, unknown>, identity: Identity): string | undefined {
  if (!tool.byArgument) return undefined
  const value = args[tool.byArgument.field]
  if (typeof value !== 'string' || allowedValues(tool, identity).includes(value)) return undefined
  const category = tool.byArgument.byValue[value] ?? 'unknown'
  return `${tool.definition.name} with ${tool.byArgument.field} ${value} needs the ${category} category at ${levelNeeded(tool.definition.kind)}; this token has it at ${levelIn(identity.levels, category)}.`
}

/** The tools/list entry as this caller may use it: a multi-kind tool lists only the kinds its levels allow. */
function listingFor (tool: LoadedTool, identity: Identity): Listing {
  if (!tool.byArgument) return tool.listing
  const allowed = allowedValues(tool, identity)
  const field = tool.byArgument.field
  const properties = tool.listing.inputSchema.properties as Record<string, { enum?: unknown[] }> | undefined
  const property = properties?.[field]
  if (!properties || !property?.enum || property.enum.length === allowed.length) return tool.listing
  return { ...tool.listing, inputSchema: { ...tool.listing.inputSchema, properties: { ...properties, [field]: { ...property, enum: property.enum.filter(v => allowed.includes(v as string)) } } } }
}

/** Loads every tool module under `dir`, the tool directory the app passes in (folders and files starting with `_` hold shared helpers). */
export async function loadToolCatalog (dir: string): Promise<ToolCatalog> {
  const loaded: LoadedTool[] = []
  for (const file of toolFiles(dir)) {
    const module = await import(pathToFileURL(file).href) as { default?: ToolDefinition }
    loaded.push(checkDefinition(module.default as ToolDefinition, file))
  }
  return new ToolCatalog(loaded)
}

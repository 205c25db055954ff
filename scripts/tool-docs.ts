import { KIND_GATE } from '../src/mcp/runtime/define-tool.ts'
import { loadToolCatalog, type LoadedTool } from '../src/mcp/runtime/registry.ts'
import { DEFAULT_OPTIONS, type Options } from '../src/options.ts'
import { TOOLS_DIR } from '../app/tools-dir.ts'

export const TOOL_DOCS_PATH = 'docs/reference/tools.md'

type Schema = Record<string, unknown>

function cell (text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\s*\n\s*/g, ' ')
}

/** A short human type for one JSON Schema property. */
function typeOf (schema: Schema): string {
  if (Array.isArray(schema.enum)) return schema.enum.map(v => `\`${String(v)}\``).join(' \\| ')
  const variants = (schema.anyOf ?? schema.oneOf) as Schema[] | undefined
  if (Array.isArray(variants)) return [...new Set(variants.map(typeOf))].join(' or ')
  if (schema.type === 'array') {
    const items = schema.items as Schema | undefined
    const size = schema.maxItems !== undefined ? ` (${schema.minItems ?? 0}-${String(schema.maxItems)})` : ''
    return `${items ? typeOf(items) : 'any'}[]${size}`
  }
  const type = typeof schema.type === 'string' ? schema.type : 'any'
  if ((type === 'number' || type === 'integer') && (schema.minimum !== undefined || schema.maximum !== undefined)) {
    return `${type} ${String(schema.minimum ?? '')}-${String(schema.maximum ?? '')}`
  }
  return type === 'object' && schema.additionalProperties !== undefined ? 'object' : type
}

function parameterTable (tool: LoadedTool): string[] {
  const properties = (tool.inputSchema.properties ?? {}) as Record<string, Schema>
  const required = new Set((tool.inputSchema.required ?? []) as string[])
  const names = Object.keys(properties)
  if (names.length === 0) return ['No parameters.']
  const lines = ['| parameter | type | required | default | description |', '|---|---|---|---|---|']
  for (const name of names) {
    const schema = properties[name] as Schema
    const fallback = schema.default === undefined ? '' : `\`${JSON.stringify(schema.default)}\``
    lines.push(`| \`${name}\` | ${cell(typeOf(schema))} | ${required.has(name) ? 'yes' : 'no'} | ${cell(fallback)} | ${cell(String(schema.description ?? ''))} |`)
  }
  return lines
}

/** Which option exposes the tool, including extra rules such as "hidden under filter_reads". */
function gateText (tool: LoadedTool): string {
  const option = KIND_GATE[tool.definition.kind].option
  const also = tool.definition.alsoKind ? KIND_GATE[tool.definition.alsoKind].option : null
  const parts = [option ? `needs \`${option}\`${also ? ` or \`${also}\`` : ''}` : 'always available']
  const enabled = tool.definition.enabled
  if (enabled) {
    const base: Options = { ...DEFAULT_OPTIONS, allow_write: true, allow_config_write: true, allow_camera: true }
    if (enabled(base) && !enabled({ ...base, filter_reads: true, entity_denylist: ['*'] })) parts.push('hidden when `filter_reads` is on')
    else if (!enabled(base)) parts.push(enabled({ ...base, allow_addon_control: true }) ? 'and `allow_addon_control`' : 'off unless an extra option is set')
    else parts.push('has an extra rule')
  }
  return parts.join('; ')
}

/** The whole reference page, deterministic for a given set of tool modules. */
export async function renderToolDocs (dir = TOOLS_DIR): Promise<string> {
  const catalog = await loadToolCatalog(dir)
  const byGroup = new Map<string, LoadedTool[]>()
  for (const tool of catalog.tools) byGroup.set(tool.category, [...(byGroup.get(tool.category) ?? []), tool])
  const ordered = [...byGroup.keys()].sort()
  const out: string[] = [
    '# Tool reference',
    '',
    '<!-- Generated from the modules under tools/ by `npm run docs:tools`; do not edit by hand. -->',
    '',
    `${catalog.tools.length} tools, by category (the key of a token's level, and the folder under tools/). Read tools are always available; the others appear only when their option is on (and the caller's token allows it). Under \`tool_list: core\` (the default) tools/list shows the tools marked everyday, and \`ha_search_tools\` and \`ha_call_tool\` find and run the others (docs/configuration.md).`,
    '',
    '| category | tools |',
    '|---|---|',
    ...ordered.map(group => `| ${group} | ${(byGroup.get(group) ?? []).map(t => `[\`${t.definition.name}\`](#${t.definition.name})`).join(', ')} |`)
  ]
  for (const group of ordered) {
    out.push('', `## ${group}`)
    for (const tool of byGroup.get(group) ?? []) {
      const { name, title, kind, description, everyday } = tool.definition
      out.push('', `### ${name}`, '', `**${title}** · kind \`${kind}\`${everyday ? ' · everyday' : ''} · ${gateText(tool)}${tool.annotations.readOnlyHint ? ' · read-only' : ''}${tool.annotations.destructiveHint ? ' · may change the home' : ''}`, '', description, '', ...parameterTable(tool))
    }
  }
  return `${out.join('\n')}\n`
}

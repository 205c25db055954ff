import { z } from 'zod'
import { UserError } from '../../src/errors.ts'
import type { ToolContext } from '../../src/mcp/runtime/define-tool.ts'
import { isRecord } from '../../src/shape.ts'

/**
 * A config entry as `config_entries/get` answers it (core components/config/config_entries.py,
 * ConfigEntry.as_json_fragment; the frontend's src/data/config_entries.ts ConfigEntry): the fields the
 * integration tools read, everything else let through.
 */
const entrySchema = z.looseObject({
  entry_id: z.string(),
  domain: z.string(),
  title: z.string(),
  source: z.string().catch('user'),
  state: z.string(),
  supports_options: z.boolean().catch(false),
  supports_reconfigure: z.boolean().catch(false),
  disabled_by: z.string().nullish().transform(v => v ?? null),
  reason: z.string().nullish().transform(v => v ?? null)
})
export type ConfigEntry = z.infer<typeof entrySchema>

/** A flow Home Assistant started by itself (a discovery), from `config_entries/flow/progress`. */
const flowSchema = z.looseObject({
  flow_id: z.string(),
  handler: z.string(),
  step_id: z.string().catch(''),
  context: z.looseObject({ source: z.string().catch(''), title_placeholders: z.record(z.string(), z.unknown()).nullish() }).catch({ source: '' })
})
export type DiscoveryFlow = z.infer<typeof flowSchema>

/**
 * Helpers Home Assistant sets up through a config flow (each core components/<type>/config_flow.py, a
 * SchemaConfigFlowHandler of helpers/schema_config_entry_flow.py): one config entry whose options hold
 * the helper's fields, changed through its options flow, removed with the entry. The helper tools own
 * them: they check the entities and actions a helper's options name.
 */
export const FLOW_HELPER_TYPES = ['template', 'group', 'utility_meter', 'derivative', 'min_max', 'threshold', 'integration', 'statistics', 'trend', 'random', 'filter', 'tod', 'switch_as_x', 'history_stats'] as const
export type FlowHelperType = typeof FLOW_HELPER_TYPES[number]

export const isFlowHelperType = (type: string): type is FlowHelperType => (FLOW_HELPER_TYPES as readonly string[]).includes(type)

/** config/config_entries.py ERROR_STATES, as the frontend's src/data/config_entries.ts lists them. */
export const ERROR_STATES = ['setup_error', 'migration_error', 'setup_retry']

/** An ignored discovery is kept as a config entry of this source (core config_entries.py SOURCE_IGNORE). */
export const IGNORED = 'ignore'

function listOf<T> (schema: z.ZodType<T>, value: unknown): T[] {
  if (!Array.isArray(value)) return []
  return value.flatMap(item => { const parsed = schema.safeParse(item); return parsed.success ? [parsed.data] : [] })
}

export async function configEntries (ctx: Pick<ToolContext, 'ha'>, domain?: string): Promise<ConfigEntry[]> {
  return listOf(entrySchema, await ctx.ha.command({ type: 'config_entries/get', ...(domain === undefined ? {} : { domain }) }))
}

export async function discoveryFlows (ctx: Pick<ToolContext, 'ha'>): Promise<DiscoveryFlow[]> {
  return listOf(flowSchema, await ctx.ha.command({ type: 'config_entries/flow/progress' }))
}

/** The one entry an id names, or HAMCP_NOT_FOUND with the ids that exist. */
export async function requireConfigEntry (ctx: Pick<ToolContext, 'ha'>, entryId: string): Promise<ConfigEntry> {
  const entries = await configEntries(ctx)
  const entry = entries.find(e => e.entry_id === entryId)
  if (entry === undefined) throw new UserError('HAMCP_NOT_FOUND', `No config entry ${entryId}.`, 'ha_list_integrations gives the entry_id of each integration.')
  return entry
}

/** An entry an action can work on: not an ignored discovery (those are only listed). */
export async function usableEntry (ctx: Pick<ToolContext, 'ha'>, entryId: string): Promise<ConfigEntry> {
  const entry = await requireConfigEntry(ctx, entryId)
  if (entry.source === IGNORED) throw new UserError('HAMCP_NOT_SUPPORTED', `${entry.entry_id} is an ignored discovery, not a set-up integration.`, 'Home Assistant offers it again once the owner removes the ignore in Settings > Devices & services > Ignored.')
  return entry
}

/** A flow's name as the frontend shows it: its title placeholder `name`, else its integration. */
export function flowName (flow: DiscoveryFlow): string {
  const name = isRecord(flow.context.title_placeholders) ? flow.context.title_placeholders.name : undefined
  return typeof name === 'string' ? name : flow.handler
}

/** The devices and entities that belong to an entry (the registries' config_entries / config_entry_id), visible ones only. */
export function entryMembers (ctx: Pick<ToolContext, 'home'>, entryId: string): { devices: string[], entities: string[] } {
  const registries = ctx.home.registries
  const entities: string[] = []
  const withVisible = new Set<string>()
  for (const entry of registries.entities.values()) {
    if (entry.config_entry_id !== entryId || !ctx.home.visible(entry.entity_id)) continue
    entities.push(entry.entity_id)
    if (entry.device_id) withVisible.add(entry.device_id)
  }
  const hiding = ctx.home.visibility.active
  const devices = [...registries.devices.values()]
    .filter(device => device.config_entries.includes(entryId) && (!hiding || withVisible.has(device.id)))
    .map(device => device.id)
  return { devices, entities: entities.sort() }
}

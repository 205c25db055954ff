import { UserError } from '../../src/errors.ts'
import type { ToolCallContext } from '../../src/mcp/runtime/define-tool.ts'
import type { UndoPlan } from '../../src/policy/undo.ts'
import { formatOutcome, guardedWrite } from './write.ts'
import { relatedConfigs } from './related.ts'
import { configEntries, usableEntry, type ConfigEntry } from './config-entries.ts'

/**
 * What an integration's entry takes with it: every device and entity registered to it (hidden ones
 * too: the entity lists apply to them all) and the automations, scripts and scenes that use them
 * (search/related on the entry, core components/search).
 */
export interface EntryReach { devices: string[], entities: string[], uses: Record<string, string[]> }

export async function entryReach (ctx: ToolCallContext, entry: ConfigEntry): Promise<EntryReach> {
  const snapshot = await ctx.ha.registries.snapshot()
  const entities = [...snapshot.entities.values()].filter(e => e.config_entry_id === entry.entry_id).map(e => e.entity_id).sort()
  const devices = [...snapshot.devices.values()].filter(d => d.config_entries.includes(entry.entry_id)).map(d => d.id)
  return { devices, entities, uses: await relatedConfigs(ctx, 'config_entry', entry.entry_id) }
}

/** "3 devices, 12 entities, used by 2 automations (automation.x, automation.y)", ids visible to this caller only. */
export function reachText (ctx: ToolCallContext, reach: EntryReach): string {
  const visible = (ids: string[]): string[] => ids.filter(id => ctx.home.visible(id))
  const entities = visible(reach.entities)
  const uses = Object.entries(reach.uses).map(([what, ids]) => { const shown = visible(ids); return shown.length === 0 ? '' : `${shown.length} ${what} (${shown.slice(0, 10).join(', ')}${shown.length > 10 ? ', ...' : ''})` }).filter(Boolean)
  return `${reach.devices.length} devices, ${entities.length} entities${entities.length > 0 ? ` (${entities.slice(0, 10).join(', ')}${entities.length > 10 ? ', ...' : ''})` : ''}${uses.length > 0 ? `; used by ${uses.join(', ')}` : ''}`
}

export interface IntegrationWrite {
  action: string
  /**
   * The Home Assistant request it sends, which names it in the audit: `config_entries/disable`,
   * `config_entries/ignore_flow`, `config/config_entries/entry` (a delete), `config/config_entries/flow`,
   * `config/config_entries/options/flow`. No service does it, so service_denylist does not apply.
   */
  operation: string
  entry?: ConfigEntry
  /** Entities the change stops, starts or reconfigures: each passes the entity lists. */
  entities: string[]
  change: Record<string, unknown>
  /** Always confirmed, with this text (disable, delete). */
  confirm?: string
  /** What the preview was built from: a confirmation holds only while it is unchanged. */
  basis?: Record<string, string>
  dryRun: boolean
  confirmToken: string | undefined
  execute: () => Promise<unknown>
  undo?: (result: unknown) => UndoPlan | undefined
  /** The answer once done, from the execute's result. */
  done: (result: unknown) => Promise<Record<string, unknown>> | Record<string, unknown>
  /** Extra fields of a dry run and of a confirmation question. */
  report?: Record<string, unknown>
}

/**
 * An integration change through the one guarded write path: named by the request it sends (no
 * service does it), the entry's entities through the entity lists and confirm_domains, a confirmation
 * where asked, one audit line, and its undo record.
 */
export async function runIntegrationWrite (ctx: ToolCallContext, write: IntegrationWrite): Promise<Record<string, unknown>> {
  // The guard asks for the undo record once execute finished: it is built from what execute answered.
  let result: unknown
  const outcome = await guardedWrite(ctx, {
    kind: 'registry',
    tool: ctx.tool,
    registry: 'config_entries',
    action: write.action,
    operation: write.operation,
    entities: write.entities,
    data: { change: JSON.stringify(write.change) },
    asked: write.change,
    ...(write.basis === undefined ? {} : { basis: write.basis }),
    dryRun: write.dryRun,
    ...(write.confirmToken === undefined ? {} : { confirmToken: write.confirmToken }),
    ...(write.confirm === undefined ? {} : { confirm: write.confirm }),
    execute: async () => (result = await write.execute()),
    undo: async () => write.undo?.(result)
  })
  if (outcome.status === 'dry_run') return { dry_run: true, would: write.change, ...(write.confirm === undefined ? {} : { needs_confirmation: true }), ...write.report }
  if (outcome.status !== 'done') return { ...formatOutcome(outcome), ...write.report }
  return { success: true, ...(await write.done(outcome.result)), ...(outcome.undo_available ? { undo_available: true } : {}) }
}

export function needs (value: string | undefined, what: string, action: string): string {
  if (value === undefined) throw new UserError('HAMCP_INVALID_ARGUMENT', `${action} needs ${what}.`, 'ha_list_integrations gives entry_id (and flow_id with include_discovered).')
  return value
}

/**
 * Reloads one config entry (ha_manage_integration reload, ha_restart reload with entry_id). It is Home
 * Assistant's own service, so service_denylist and confirm_domains read it exactly as for ha_call_service.
 */
export async function reloadEntry (ctx: ToolCallContext, entryId: string, args: { dry_run: boolean, confirm_token?: string | undefined }): Promise<Record<string, unknown>> {
  const entry = await usableEntry(ctx, entryId)
  if (entry.disabled_by !== null) throw new UserError('HAMCP_INVALID_ARGUMENT', `${entry.title} is disabled: a reload does not start it.`, 'Use ha_manage_integration action enable.')
  const outcome = await guardedWrite(ctx, {
    kind: 'service',
    tool: ctx.tool,
    domain: 'homeassistant',
    service: 'reload_config_entry',
    data: { entry_id: entry.entry_id },
    undoable: false,
    dryRun: args.dry_run,
    confirmToken: args.confirm_token
  })
  if (outcome.status !== 'done') return formatOutcome(outcome)
  const now = (await configEntries(ctx)).find(e => e.entry_id === entry.entry_id)
  return { success: true, entry_id: entry.entry_id, title: entry.title, state: now?.state, ...(now?.reason ? { reason: now.reason } : {}) }
}

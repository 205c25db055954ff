import { z } from 'zod'
import { UserError } from '../../src/errors.ts'
import { defineTool, type ToolCallContext } from '../../src/mcp/runtime/define-tool.ts'
import { stableJson } from '../../src/policy/confirm.ts'
import type { UndoPlan } from '../../src/policy/undo.ts'
import { freeFormArg } from '../_shared/args.ts'
import { confirmTokenArg, dryRunArg } from '../_shared/write.ts'
import { configEntries, discoveryFlows, flowName, isFlowHelperType, requireConfigEntry, usableEntry, type ConfigEntry } from '../_shared/config-entries.ts'
import { abortFlow, configFlowPath, currentValues, flowRequest, formFields, optionsFlowPath, ownerStep, factValue, readOptionValues, shownFields, shownValue, walkFlow, type FlowStep } from '../_shared/data-entry-flows.ts'
import { entryReach, needs, reachText, reloadEntry, runIntegrationWrite } from '../_shared/integration-writes.ts'

const ACTIONS = ['reload', 'enable', 'disable', 'delete', 'options', 'accept_discovery', 'ignore_discovery'] as const

interface Args { entry_id?: string | undefined, flow_id?: string | undefined, options?: Record<string, unknown> | undefined, dry_run: boolean, confirm_token?: string | undefined }

const idArg = (description: string) => z.string().trim().min(1).max(64).regex(/^[A-Za-z0-9_-]+$/, 'an id as ha_list_integrations gives it').optional().describe(description)

async function activeEntry (ctx: ToolCallContext, args: Args, action: string): Promise<ConfigEntry> {
  return await usableEntry(ctx, needs(args.entry_id, 'entry_id', action))
}

/** Reads an entry's disabled_by now: what an enable or disable left, for ha_undo to compare. */
async function disabledFact (ctx: ToolCallContext, entryId: string): Promise<Record<string, string>> {
  const entry = (await configEntries(ctx)).find(e => e.entry_id === entryId)
  return { [`config entry ${entryId} disabled_by`]: entry === undefined ? 'gone' : stableJson(entry.disabled_by) }
}

function disabledUndo (ctx: ToolCallContext, entry: ConfigEntry, entities: string[], to: 'user' | null, wrote: Record<string, string>): UndoPlan {
  return {
    needs: 'allow_config_write',
    preview: `${to === null ? 'Enable' : 'Disable'} ${entry.title} (${entry.domain}) again.`,
    // Disabling stops devices: asked again even as an undo.
    alwaysConfirm: to !== null,
    entities,
    // config_entries/disable is no service: nothing for service_denylist to check.
    services: [],
    wrote,
    current: async () => await disabledFact(ctx, entry.entry_id),
    run: async () => {
      await ctx.ha.command({ type: 'config_entries/disable', entry_id: entry.entry_id, disabled_by: to })
      return { entry_id: entry.entry_id, disabled_by: to }
    }
  }
}

async function setDisabled (ctx: ToolCallContext, args: Args, disable: boolean): Promise<Record<string, unknown>> {
  const action = disable ? 'disable' : 'enable'
  const entry = await activeEntry(ctx, args, action)
  if ((entry.disabled_by !== null) === disable) throw new UserError('HAMCP_INVALID_ARGUMENT', `${entry.title} is already ${disable ? 'disabled' : 'enabled'}.`)
  const reach = await entryReach(ctx, entry)
  const to = disable ? 'user' : null
  return await runIntegrationWrite(ctx, {
    action,
    operation: 'config_entries/disable',
    entities: reach.entities,
    change: { action, entry_id: entry.entry_id },
    ...(disable ? { confirm: `Disable ${entry.title} (${entry.domain}): stops ${reachText(ctx, reach)}. Enable it again with action enable, or ha_undo.` } : {}),
    basis: { [`config entry ${entry.entry_id} disabled_by`]: stableJson(entry.disabled_by), [`config entry ${entry.entry_id} reaches`]: stableJson(reach) },
    dryRun: args.dry_run,
    confirmToken: args.confirm_token,
    report: { entry_id: entry.entry_id, title: entry.title, stops: disable ? reachText(ctx, reach) : undefined },
    execute: async () => await ctx.ha.command({ type: 'config_entries/disable', entry_id: entry.entry_id, disabled_by: to }),
    undo: result => result === undefined ? undefined : disabledUndo(ctx, entry, reach.entities, disable ? null : 'user', { [`config entry ${entry.entry_id} disabled_by`]: stableJson(to) }),
    done: async result => ({ entry_id: entry.entry_id, title: entry.title, disabled_by: to, state: (await configEntries(ctx)).find(e => e.entry_id === entry.entry_id)?.state, ...(isRestart(result) ? { require_restart: true } : {}) })
  })
}

const isRestart = (result: unknown): boolean => typeof result === 'object' && result !== null && (result as { require_restart?: unknown }).require_restart === true

/**
 * A helper's options name entities and actions (a template switch's turn_on) that the helper tools
 * check and the options walk here does not: its options and its delete go through those tools, under
 * their names in service_denylist (`template.update`, `template.delete`).
 */
function helperTool (entry: ConfigEntry, tool: 'ha_update_helper' | 'ha_delete_helper'): void {
  if (!isFlowHelperType(entry.domain)) return
  throw new UserError('HAMCP_NOT_SUPPORTED', `${entry.title} is a ${entry.domain} helper: ${tool} ${tool === 'ha_update_helper' ? 'changes its options' : 'deletes it'}, checking the entities and actions it names.`, `Call ${tool} with the entity_id of one of its entities (ha_list_integrations shows its entity count; ha_search_entities finds them).`)
}

async function remove (ctx: ToolCallContext, args: Args): Promise<Record<string, unknown>> {
  const entry = await requireConfigEntry(ctx, needs(args.entry_id, 'entry_id', 'delete'))
  helperTool(entry, 'ha_delete_helper')
  const reach = await entryReach(ctx, entry)
  return await runIntegrationWrite(ctx, {
    action: 'delete',
    operation: 'config/config_entries/entry',
    entities: reach.entities,
    change: { action: 'delete', entry_id: entry.entry_id },
    confirm: `Delete ${entry.title} (${entry.domain}) for good: removes ${reachText(ctx, reach)}. ha_undo cannot bring it back: it must be set up again in Home Assistant.`,
    basis: { [`config entry ${entry.entry_id}`]: stableJson(entry), [`config entry ${entry.entry_id} reaches`]: stableJson(reach) },
    dryRun: args.dry_run,
    confirmToken: args.confirm_token,
    report: { entry_id: entry.entry_id, title: entry.title, removes: reachText(ctx, reach) },
    execute: async () => await flowRequest(ctx, 'DELETE', `/api/config/config_entries/entry/${entry.entry_id}`),
    done: result => ({ entry_id: entry.entry_id, deleted: entry.title, ...(isRestart(result) ? { require_restart: true } : {}), undo: 'none: set it up again in Home Assistant' })
  })
}

async function options (ctx: ToolCallContext, args: Args): Promise<Record<string, unknown>> {
  const entry = await activeEntry(ctx, args, 'options')
  helperTool(entry, 'ha_update_helper')
  if (!entry.supports_options) throw new UserError('HAMCP_NOT_SUPPORTED', `${entry.title} (${entry.domain}) has no options.`)
  const step = await flowRequest(ctx, 'POST', optionsFlowPath(), { handler: entry.entry_id, show_advanced_options: false })
  const path = optionsFlowPath(step.flow_id)
  let submitted = false
  try {
    const stop = ownerStep(step, `the options of ${entry.title}`)
    if (stop) throw stop
    const fields = formFields(step)
    const before = currentValues(fields)
    const form = { entry_id: entry.entry_id, title: entry.title, step: step.step_id, fields: shownFields(fields) }
    if (args.options === undefined) return { ...form, note: 'Pass options with the fields to change; dry_run shows the change first.' }
    const unknown = Object.keys(args.options).filter(key => !fields.some(f => f.name === key))
    if (unknown.length > 0) throw new UserError('HAMCP_INVALID_ARGUMENT', `${entry.title}'s options have no ${unknown.join(', ')}.`, `Fields: ${fields.map(f => f.name).join(', ')}.`)
    const after = { ...before, ...args.options }
    const changed = Object.keys(args.options).filter(key => stableJson(before[key]) !== stableJson(after[key]))
    if (changed.length === 0) throw new UserError('HAMCP_INVALID_ARGUMENT', 'Nothing to change: the options already have these values.')
    const diff = Object.fromEntries(changed.map(key => [key, { before: shownValue(fields, key, before[key] ?? null), after: shownValue(fields, key, after[key]) }]))
    const reach = await entryReach(ctx, entry)
    return await runIntegrationWrite(ctx, {
      action: 'options',
      operation: 'config/config_entries/options/flow',
      entities: reach.entities,
      change: { action: 'options', entry_id: entry.entry_id, options: args.options },
      basis: Object.fromEntries(changed.map(key => [`config entry ${entry.entry_id} option ${key}`, factValue(fields, key, before[key])])),
      dryRun: args.dry_run,
      confirmToken: args.confirm_token,
      report: { ...form, changes: diff },
      execute: async () => { submitted = true; return await finishOptions(ctx, step, after, entry.title) },
      undo: result => result === undefined ? undefined : optionsUndo(ctx, entry, reach.entities, fields, Object.fromEntries(changed.map(key => [key, before[key]])), Object.fromEntries(changed.map(key => [key, after[key]]))),
      done: () => ({ entry_id: entry.entry_id, title: entry.title, changes: diff })
    })
  } finally {
    if (!submitted) await abortFlow(ctx, path)
  }
}

/** Submits the options form (and any form after it) through the one flow walker; the flow's own validation errors are the caller's to fix. */
async function finishOptions (ctx: ToolCallContext, step: FlowStep, values: Record<string, unknown>, title: string): Promise<FlowStep> {
  const what = `the options of ${title}`
  const end = await walkFlow(ctx, optionsFlowPath, step, { what, form: fields => Object.fromEntries(fields.filter(f => f.name in values).map(f => [f.name, values[f.name]])) })
  if (end.step.type === 'create_entry') return end.step
  throw new UserError('HAMCP_INVALID_ARGUMENT', `Home Assistant ended ${what} without saving them${end.step.reason ? `: ${end.step.reason}` : ''}.`, 'The owner can look at them in Settings > Devices & services > Configure.', { reason: end.step.reason ?? '' })
}

function optionsUndo (ctx: ToolCallContext, entry: ConfigEntry, entities: string[], fields: Parameters<typeof shownValue>[0], before: Record<string, unknown>, after: Record<string, unknown>): UndoPlan {
  const facts = (values: Record<string, unknown>): Record<string, string> => Object.fromEntries(Object.keys(before).map(key => [`config entry ${entry.entry_id} option ${key}`, factValue(fields, key, values[key])]))
  return {
    needs: 'allow_config_write',
    preview: `Set the options of ${entry.title} back: ${Object.entries(before).map(([k, v]) => `${k} ${JSON.stringify(shownValue(fields, k, v ?? null))}`).join(', ')}.`,
    alwaysConfirm: false,
    entities,
    services: [],
    wrote: facts(after),
    current: async () => facts((await readOptionValues(ctx, entry.entry_id, false)).values),
    run: async () => {
      const step = await flowRequest(ctx, 'POST', optionsFlowPath(), { handler: entry.entry_id, show_advanced_options: false })
      await finishOptions(ctx, step, { ...currentValues(formFields(step)), ...before }, entry.title)
      return { entry_id: entry.entry_id, options: Object.fromEntries(Object.entries(before).map(([k, v]) => [k, shownValue(fields, k, v)])) }
    }
  }
}

async function discovery (ctx: ToolCallContext, args: Args, accept: boolean): Promise<Record<string, unknown>> {
  const action = accept ? 'accept_discovery' : 'ignore_discovery'
  const flowId = needs(args.flow_id, 'flow_id', action)
  const flow = (await discoveryFlows(ctx)).find(f => f.flow_id === flowId)
  if (flow === undefined) throw new UserError('HAMCP_NOT_FOUND', `No discovered integration waits under flow ${flowId}.`, 'ha_list_integrations with include_discovered lists them.')
  const name = flowName(flow)
  const base = { action, operation: accept ? 'config/config_entries/flow' : 'config_entries/ignore_flow', entities: [], dryRun: args.dry_run, confirmToken: args.confirm_token, report: { flow_id: flowId, domain: flow.handler, name } }
  if (!accept) {
    return await runIntegrationWrite(ctx, {
      ...base,
      change: { action, flow_id: flowId },
      execute: async () => await ctx.ha.command({ type: 'config_entries/ignore_flow', flow_id: flowId, title: name }),
      done: () => ({ ignored: name, domain: flow.handler })
    })
  }
  const step = await flowRequest(ctx, 'GET', configFlowPath(flowId))
  const fields = formFields(step)
  const given = args.options ?? {}
  const missing = fields.filter(f => f.required && f.current === undefined && given[f.name] === undefined).map(f => f.name)
  const stop = ownerStep(step, `the discovered ${name} (${flow.handler})`, missing)
  if (stop) throw stop
  const values = { ...currentValues(fields), ...given }
  return await runIntegrationWrite(ctx, {
    ...base,
    change: { action, flow_id: flowId, fields: Object.keys(given).sort() },
    report: { ...base.report, fields: fields.map(f => f.name) },
    execute: async () => await flowRequest(ctx, 'POST', configFlowPath(flowId), values),
    done: result => {
      const next = result as FlowStep
      if (next.type === 'create_entry') return { added: next.title ?? name, domain: flow.handler, entry_id: (next.result as { entry_id?: string } | undefined)?.entry_id }
      if (next.type === 'abort') return { added: false, reason: next.reason }
      throw ownerStep(next, `the discovered ${name}`) ?? new UserError('HAMCP_INVALID_ARGUMENT', `Home Assistant asks again: ${JSON.stringify(next.errors ?? {})}.`, 'Fix those fields in options and call again.')
    }
  })
}

export default defineTool({
  name: 'ha_manage_integration',
  title: 'Manage integrations',
  description: 'Reload, enable, disable, delete an integration, change its options; accept or ignore a discovery.',
  kind: 'manage',
  category: 'integrations',
  everyday: false,
  keywords: {
    en: 'integration reload restart turn off disable enable remove delete uninstall options configure accept discovery add discovered ignore bridge hue',
    de: 'integration neu laden neustarten deaktivieren aktivieren entfernen löschen optionen konfigurieren entdeckung annehmen ignorieren bridge',
    fr: 'intégration recharger redémarrer désactiver activer supprimer retirer options configurer accepter découverte ignorer pont',
    es: 'integración recargar reiniciar desactivar activar eliminar quitar opciones configurar aceptar descubrimiento ignorar puente',
    nl: 'integratie herladen herstarten uitschakelen inschakelen verwijderen opties configureren ontdekking accepteren negeren bridge'
  },
  input: z.object({
    action: z.enum(ACTIONS).describe('Action.'),
    entry_id: idArg('Entry id.'),
    flow_id: idArg('Flow id.'),
    options: freeFormArg().optional().describe('Fields to set (options, a discovery\'s form).'),
    dry_run: dryRunArg(),
    confirm_token: confirmTokenArg()
  }),
  async handler (ctx, args) {
    switch (args.action) {
      case 'reload': return await reloadEntry(ctx, needs(args.entry_id, 'entry_id', 'reload'), args)
      case 'enable': return await setDisabled(ctx, args, false)
      case 'disable': return await setDisabled(ctx, args, true)
      case 'delete': return await remove(ctx, args)
      case 'options': return await options(ctx, args)
      case 'accept_discovery': return await discovery(ctx, args, true)
      case 'ignore_discovery': return await discovery(ctx, args, false)
    }
  }
})

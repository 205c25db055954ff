import { UserError } from '../../src/errors.ts'
import { domainOf, ENTITY_ID } from '../../src/home/entities.ts'
import type { ToolCallContext, ToolContext } from '../../src/mcp/runtime/define-tool.ts'
import { CONFIG_ENTRY_OWNER, operationRefusal } from '../../src/mcp/runtime/categories.ts'
import { isTemplate } from '../../src/policy/config-calls.ts'
import { entityListsActive, entityRefusal } from '../../src/policy/guard.ts'
import { configFact, editedSinceWrite, type Revert } from '../../src/policy/undo.ts'
import { isRecord } from '../../src/shape.ts'
import { configEntries, isFlowHelperType, type ConfigEntry, type FlowHelperType } from '../_shared/config-entries.ts'
import { runConfigWrite } from '../_shared/config-write.ts'
import { configHash, toYaml } from '../_shared/config-yaml.ts'
import { slugify } from '../_shared/config-store.ts'
import {
  configFlowPath, currentValues, fieldList, flowRequest, formFields, optionsFlowPath, readOptionValues, shownFields,
  walkFlow, type FlowAnswers, type FlowStep, type FormField, type FormSeen
} from '../_shared/data-entry-flows.ts'
import { unifiedDiff } from '../_shared/line-diff.ts'

interface Guard { dry_run: boolean, confirm_token?: string | undefined }

/** A config-flow helper found from one of its entities. */
export interface FlowHelper { entityId: string, type: FlowHelperType, entry: ConfigEntry, entities: string[] }

/** Config entries are ha_manage_integration's: the same category, level and option, whichever tool changes them. */
function requireEntryRights (ctx: ToolContext, what: string): void {
  const refusal = operationRefusal(what, CONFIG_ENTRY_OWNER, ctx.identity, ctx.options)
  if (refusal) throw new UserError('HAMCP_DENIED_LEVEL', refusal.message, refusal.hint)
}

/** Every entity id an options object names, at any depth (a source, members, the switch it wraps): each passes the entity lists. */
function namedEntities (value: unknown, into = new Set<string>()): string[] {
  if (typeof value === 'string') {
    const id = value.trim().toLowerCase()
    if (!isTemplate(value) && ENTITY_ID.test(id) && /^[a-z]/.test(id)) into.add(id)
  } else if (Array.isArray(value)) {
    for (const item of value) namedEntities(item, into)
  } else if (isRecord(value)) {
    for (const item of Object.values(value)) namedEntities(item, into)
  }
  return [...into].sort()
}

const holdsTemplate = (value: unknown): boolean =>
  isTemplate(value) || (Array.isArray(value) ? value.some(holdsTemplate) : isRecord(value) && Object.values(value).some(holdsTemplate))

/**
 * A template reads whatever entity it names when Home Assistant renders it, so no entity list can be
 * checked against it: refused while one applies to this caller (as a templated target is).
 */
function refuseUncheckableTemplates (ctx: ToolContext, values: Record<string, unknown>): void {
  if (!holdsTemplate(values) || !entityListsActive(ctx.options, ctx.identity)) return
  throw new UserError('HAMCP_DENIED_TARGET', 'The helper holds a template, which can read any entity once Home Assistant renders it: refused while entity allow/deny lists are set.', 'Create template helpers in Home Assistant, or ask the owner to remove the entity lists.')
}

/** The domain of the entity each config-flow helper with a fixed one makes (each core <type>/sensor.py or binary_sensor.py). */
const FLOW_HELPER_DOMAIN: Partial<Record<FlowHelperType, string>> = Object.fromEntries([
  ...['utility_meter', 'derivative', 'min_max', 'integration', 'statistics', 'filter', 'history_stats'].map(type => [type, 'sensor']),
  ...['threshold', 'trend', 'tod'].map(type => [type, 'binary_sensor'])
])

/**
 * The entity id a new helper gets, as Home Assistant makes it from the name (entity_platform's
 * async_generate_entity_id; a storage helper's id is the name's slug, helpers/collection.py): its kind's
 * domain (template, group, random), its target domain (switch_as_x, named after the switch it wraps),
 * the helper type's domain otherwise. Undefined when it cannot be told (no kind given yet).
 */
export function newHelperEntity (type: string, name: string, options: Record<string, unknown>): string | undefined {
  const flow = isFlowHelperType(type)
  const domain = !flow ? type : FLOW_HELPER_DOMAIN[type] ?? (type === 'switch_as_x' ? options.target_domain : options.kind)
  const named = type === 'switch_as_x' && typeof options.entity_id === 'string' ? options.entity_id.split('.')[1] ?? '' : name
  const id = `${typeof domain === 'string' ? domain.trim().toLowerCase() : ''}.${slugify(named)}`
  return ENTITY_ID.test(id) ? id : undefined
}

/**
 * A helper whose entity the caller's entity lists (the add-on's, or a named token's own) refuse could
 * be neither used nor deleted by its creator: refused before anything reaches Home Assistant.
 */
export function refuseUnusableHelper (ctx: ToolContext, type: string, name: string, options: Record<string, unknown>): void {
  const entityId = newHelperEntity(type, name, options)
  const rule = entityId === undefined ? undefined : entityRefusal(entityId, ctx.options, ctx.identity)
  if (rule === undefined || entityId === undefined) return
  throw new UserError('HAMCP_DENIED_ENTITY', `The new helper's entity would be ${entityId}, which ${rule} refuses: you could neither use nor delete it.`, rule.endsWith('allowlist') ? 'Pick a name (or kind) whose entity id the allowlist allows, or ask the owner to extend it.' : 'Pick another name (or kind), or ask the owner to change the denylist.', { entity_id: entityId, reason: rule })
}

/** An entity registry entry's id, as an entity selector takes it (cv.entity_ids_or_uuids, fake_uuid4_hex). */
const REGISTRY_ID = /^[0-9a-f]{32}$/

/** Every registry-id-shaped string an options object holds, at any depth. */
function registryIds (value: unknown, into = new Set<string>()): Set<string> {
  if (typeof value === 'string') {
    if (REGISTRY_ID.test(value.trim())) into.add(value.trim())
  } else if (Array.isArray(value)) {
    for (const item of value) registryIds(item, into)
  } else if (isRecord(value)) {
    for (const item of Object.values(value)) registryIds(item, into)
  }
  return into
}

/**
 * A helper reads an entity given by its registry entry's id as that entity (group/<platform>.py,
 * switch_as_x/__init__.py: er.async_validate_entity_ids), so such an id would pass every entity rule
 * and the audit unnamed: refused, whatever the lists, save a device's id (a template's device_id).
 */
function refuseRegistryIds (ctx: ToolContext, values: Record<string, unknown>): void {
  const devices = ctx.home.registries.devices
  const ids = [...registryIds(values)].filter(id => !devices.has(id))
  if (ids.length === 0) return
  throw new UserError('HAMCP_INVALID_ARGUMENT', `Name entities by their entity id, not by a registry id (${ids.slice(0, 3).join(', ')}).`, 'ha_search_entities finds an entity\'s id (light.kitchen).', { registry_ids: ids.slice(0, 10) })
}

/** The entry's facts ha_undo compares and a confirmation is bound to: an options change moves modified_at. */
const entryHash = (entry: ConfigEntry | undefined): string | undefined =>
  entry === undefined ? undefined : configHash({ title: entry.title, modified_at: entry.modified_at, disabled_by: entry.disabled_by })

async function entryNow (ctx: ToolContext, entryId: string): Promise<ConfigEntry | undefined> {
  return (await configEntries(ctx)).find(entry => entry.entry_id === entryId)
}

/** The entities registered to an entry (search/related, core components/search), sorted. */
async function entryEntities (ctx: ToolContext, entryId: string): Promise<string[]> {
  const related = await ctx.ha.command<Record<string, unknown>>({ type: 'search/related', item_type: 'config_entry', item_id: entryId })
  return Array.isArray(related?.entity) ? related.entity.map(String).sort() : []
}

/**
 * Answers a flow's forms from one flat object: each form takes the keys that are its fields (and the
 * name, where it has one). Before a form that ends the flow, keys no form took are refused, naming the
 * fields seen; where the flow does not say whether a form is its last, they are reported as ignored.
 */
function formsFrom (what: string, values: Record<string, unknown>, base: (fields: FormField[]) => Record<string, unknown>): Pick<FlowAnswers, 'form'> & { ignored: () => string[], seen: FormField[] } {
  const taken = new Set<string>()
  const seen: FormField[] = []
  const left = (): string[] => Object.keys(values).filter(key => !taken.has(key))
  return {
    seen,
    ignored: left,
    form: (fields, step) => {
      seen.push(...fields)
      const input = base(fields)
      for (const field of fields) {
        if (field.name in values) { input[field.name] = values[field.name]; taken.add(field.name) }
      }
      const unknown = left()
      if (unknown.length > 0 && step.last_step === true) {
        throw new UserError('HAMCP_INVALID_ARGUMENT', `${what} has no field ${unknown.join(', ')}.`, `Its fields: ${seen.map(f => `${f.name}${f.required ? '*' : ''} (${f.type})`).join(', ')}; * is required.`, { unknown, fields: fieldList(seen) })
      }
      return input
    }
  }
}

/** A flow that ended in abort: already set up, or another reason of the helper's flow. */
function abortRefusal (what: string, step: FlowStep): UserError {
  const reason = step.reason ?? 'unknown'
  if (reason === 'already_configured') return new UserError('HAMCP_ALREADY_EXISTS', `${what}: Home Assistant already has one like it (already_configured).`, 'ha_list_integrations lists the existing helpers by domain.', { reason })
  return new UserError('HAMCP_INVALID_ARGUMENT', `Home Assistant stopped ${what}: ${reason}.`, 'Change the options that reason names and call again.', { reason })
}

const startFlow = async (ctx: ToolContext, handler: string): Promise<FlowStep> =>
  await flowRequest(ctx, 'POST', '/api/config/config_entries/flow', { handler, show_advanced_options: true })

interface CreateArgs { helper_type: FlowHelperType, name: string, options?: Record<string, unknown> | undefined }

/** The config flow walked with a helper's name, kind (a menu's choice) and fields. */
async function walkCreate (ctx: ToolContext, args: CreateArgs, dryRun: boolean): Promise<{ end: FlowStep, forms: FormSeen[], ignored: string[], named: boolean }> {
  // `kind` answers the menu of template, group and random (sensor, light...): `type` is a field of
  // several helpers' own forms (a sensor group's statistic, min_max, history_stats).
  const { kind, ...values } = args.options ?? {}
  const what = `the new ${args.helper_type} helper ${args.name}`
  let named = false
  const filler = formsFrom(what, values, fields => {
    if (!fields.some(f => f.name === 'name')) return {}
    named = true
    return { name: args.name }
  })
  const end = await walkFlow(ctx, configFlowPath, await startFlow(ctx, args.helper_type), {
    what,
    menu: () => typeof kind === 'string' ? kind.trim().toLowerCase() : undefined,
    form: filler.form,
    // A dry run never submits a form that may create the entry.
    ...(dryRun ? { stopAt: (step: FlowStep) => step.last_step !== false } : {})
  })
  return { end: end.step, forms: end.forms, ignored: filler.ignored(), named }
}

/**
 * ha_create_helper for a config-flow helper. The rules run first (nothing reaches Home Assistant when
 * one refuses); a dry run then walks the flow up to the form that would create the entry, shows each
 * form's fields and what the call would fill in, and aborts the flow: the form is Home Assistant's own,
 * so no table of fields here can drift from it.
 */
export async function createFlowHelper (ctx: ToolCallContext, args: CreateArgs & Guard): Promise<Record<string, unknown>> {
  requireEntryRights(ctx, `ha_create_helper with helper_type ${args.helper_type}`)
  const values = args.options ?? {}
  refuseUncheckableTemplates(ctx, values)
  refuseRegistryIds(ctx, values)
  const asked = { helper_type: args.helper_type, name: args.name, options: values }
  // What the entry looked like once made: undo deletes it only while it still does.
  let made = ''
  return await runConfigWrite(ctx, {
    tool: ctx.tool,
    domain: args.helper_type,
    action: 'create',
    subject: `the new ${args.helper_type} helper ${args.name}`,
    payload: asked,
    preview: `# a new ${args.helper_type} helper (a config entry):\n${toYaml(asked)}`,
    baseHash: 'none',
    entities: namedEntities(values),
    dryRun: args.dry_run,
    confirmToken: args.confirm_token,
    currentHash: async () => 'none',
    dryRunAnswer: async () => {
      const walk = await walkCreate(ctx, args, true)
      const missing = walk.forms.flatMap(form => form.fields.filter(f => f.required && f.current === undefined && !(f.name in values) && f.name !== 'name').map(f => f.name))
      return { forms: walk.forms.map(form => ({ step: form.step, fields: shownFields(form.fields) })), ...(missing.length > 0 ? { missing } : {}), note: 'Nothing was created: the flow was opened to read its forms and aborted.' }
    },
    execute: async () => {
      const walk = await walkCreate(ctx, args, false)
      if (walk.end.type !== 'create_entry') throw abortRefusal(`the new ${args.helper_type} helper ${args.name}`, walk.end)
      const result = isRecord(walk.end.result) ? walk.end.result : {}
      const entryId = String(result.entry_id ?? '')
      const entry = await entryNow(ctx, entryId)
      made = entryHash(entry) ?? ''
      return {
        entry_id: entryId,
        title: entry?.title ?? walk.end.title,
        entities: await entryEntities(ctx, entryId),
        ...(walk.ignored.length > 0 ? { ignored: walk.ignored } : {}),
        ...(walk.named ? {} : { note: `A ${args.helper_type} helper takes its name from what it wraps; rename it with ha_update_entities.` })
      }
    },
    revert: result => {
      const entryId = String(result.entry_id ?? '')
      if (entryId === '') return undefined
      return entryRevert(ctx, { entryId, label: `${args.helper_type} helper ${String(result.title)}`, entities: (result.entities as string[] | undefined) ?? [], wroteHash: made })
    }
  })
}

/** Undo of a create: the entry deleted again, unless it changed since. */
function entryRevert (ctx: ToolContext, made: { entryId: string, label: string, entities: string[], wroteHash: string }): Revert {
  const { entryId, label, entities, wroteHash } = made
  return {
    needs: 'allow_config_write',
    preview: `Delete the ${label} again (config entry ${entryId}${entities.length > 0 ? `, ${entities.join(', ')}` : ''}).`,
    entities,
    wrote: configFact(label, wroteHash, wroteHash),
    current: async () => configFact(label, wroteHash, entryHash(await entryNow(ctx, entryId))),
    run: async force => {
      if (force !== true && entryHash(await entryNow(ctx, entryId)) !== wroteHash) throw editedSinceWrite(label, 'Delete it with ha_delete_helper instead.')
      await flowRequest(ctx, 'DELETE', `/api/config/config_entries/entry/${entryId}`)
      return { deleted: label, entry_id: entryId }
    }
  }
}

/** The config-flow helper an entity belongs to (its entity registry entry's config entry), or undefined. */
export async function flowHelperOf (ctx: ToolContext, entityId: string): Promise<FlowHelper | undefined> {
  const registered = await ctx.ha.command<{ config_entry_id?: string | null }>({ type: 'config/entity_registry/get', entity_id: entityId }).catch(() => undefined)
  const entryId = registered?.config_entry_id
  if (typeof entryId !== 'string') return undefined
  const entry = await entryNow(ctx, entryId)
  if (entry === undefined || !isFlowHelperType(entry.domain)) return undefined
  return { entityId, type: entry.domain, entry, entities: await entryEntities(ctx, entryId) }
}

/**
 * ha_update_helper for a config-flow helper: its options flow (the same fields as its config flow but
 * the name, core schema_config_entry_flow.py), read with the current values; a dry run shows them and
 * the change as before and after; undo runs the options flow back to the values it replaced.
 */
export async function updateFlowHelper (ctx: ToolCallContext, helper: FlowHelper, changes: Record<string, unknown>, guard: Guard): Promise<Record<string, unknown>> {
  requireEntryRights(ctx, `ha_update_helper on a ${helper.type} helper`)
  const { entry, entityId } = helper
  const step = await flowRequest(ctx, 'POST', optionsFlowPath(), { handler: entry.entry_id, show_advanced_options: true })
  let submitted = false
  try {
    if (step.type !== 'form') throw new UserError('HAMCP_NOT_SUPPORTED', `The options of ${entry.title} start with a ${step.type} step, which the add-on does not walk.`, 'The owner changes them in Settings > Devices & services > Helpers.')
    const fields = formFields(step)
    const before = currentValues(fields)
    const form = { entity_id: entityId, entry_id: entry.entry_id, helper_type: helper.type, fields: shownFields(fields) }
    if (Object.keys(changes).length === 0) {
      if (guard.dry_run) return { dry_run: true, ...form }
      throw new UserError('HAMCP_INVALID_ARGUMENT', `Nothing to change: pass the fields of ${entityId} to change in options.`, `Its fields: ${fields.map(f => f.name).join(', ')}.`, { fields: fieldList(fields) })
    }
    const changed = Object.keys(changes).filter(key => JSON.stringify(before[key] ?? null) !== JSON.stringify(changes[key]))
    const after = { ...before, ...changes }
    refuseUncheckableTemplates(ctx, changes)
    refuseRegistryIds(ctx, changes)
    const unknown = Object.keys(changes).filter(key => !fields.some(f => f.name === key))
    if (unknown.length > 0 && step.last_step !== false) {
      throw new UserError('HAMCP_INVALID_ARGUMENT', `${entityId} (a ${helper.type} helper) has no option ${unknown.join(', ')}.`, `Its options: ${fields.map(f => f.name).join(', ')}${fields.some(f => f.name === 'name') ? '' : '; rename it with ha_update_entities'}.`, { unknown, fields: fieldList(fields) })
    }
    if (changed.length === 0) throw new UserError('HAMCP_INVALID_ARGUMENT', `Nothing to change: the given options already match ${entityId}.`)
    const previous = Object.fromEntries(changed.map(key => [key, before[key] ?? null]))
    const next = Object.fromEntries(changed.map(key => [key, changes[key]]))
    const baseHash = entryHash(entry) ?? ''
    let left = ''
    return await runConfigWrite(ctx, {
      tool: ctx.tool,
      domain: helper.type,
      action: 'update',
      subject: entityId,
      payload: { entity_id: entityId, entry_id: entry.entry_id, options: next },
      preview: unifiedDiff(toYaml(previous), toYaml(next), { from: `${entityId} (current)`, to: `${entityId} (proposed)` }),
      baseHash,
      entities: [...new Set([...helper.entities, ...namedEntities(after)])],
      dryRun: guard.dry_run,
      confirmToken: guard.confirm_token,
      currentHash: async () => entryHash(await entryNow(ctx, entry.entry_id)) ?? 'none',
      dryRunAnswer: async () => ({ ...form, changes: Object.fromEntries(changed.map(key => [key, { before: previous[key], after: next[key] }])) }),
      execute: async () => {
        submitted = true
        await submitOptions(ctx, step, after, `the options of ${entityId}`)
        left = entryHash(await entryNow(ctx, entry.entry_id)) ?? ''
        return { entity_id: entityId, entry_id: entry.entry_id, previous }
      },
      revert: () => optionsRevert(ctx, helper, previous, left)
    })
  } finally {
    if (!submitted) await flowRequest(ctx, 'DELETE', optionsFlowPath(step.flow_id)).catch(() => undefined)
  }
}

/** Submits an options flow's form (and any after it) with `values`, through the one walker. */
async function submitOptions (ctx: ToolContext, step: FlowStep, values: Record<string, unknown>, what: string): Promise<void> {
  const end = await walkFlow(ctx, optionsFlowPath, step, { what, form: fields => Object.fromEntries(fields.filter(f => f.name in values).map(f => [f.name, values[f.name]])) })
  if (end.step.type !== 'create_entry') throw abortRefusal(what, end.step)
}

/** Undo of an options change: the options flow run again with the values it replaced, unless the entry changed since. */
function optionsRevert (ctx: ToolContext, helper: FlowHelper, previous: Record<string, unknown>, wroteHash: string): Revert {
  const { entityId, entry } = helper
  return {
    needs: 'allow_config_write',
    preview: `Set the options of ${entityId} back:\n${toYaml(previous)}`,
    entities: helper.entities,
    wrote: configFact(entityId, wroteHash, wroteHash),
    current: async () => configFact(entityId, wroteHash, entryHash(await entryNow(ctx, entry.entry_id))),
    run: async force => {
      if (force !== true && entryHash(await entryNow(ctx, entry.entry_id)) !== wroteHash) throw editedSinceWrite(entityId, 'Change it with ha_update_helper instead.')
      const step = await flowRequest(ctx, 'POST', optionsFlowPath(), { handler: entry.entry_id, show_advanced_options: true })
      await submitOptions(ctx, step, { ...currentValues(formFields(step)), ...previous }, `the options of ${entityId}`)
      return { entity_id: entityId, restored: previous }
    }
  }
}

/**
 * ha_delete_helper for a config-flow helper: its config entry deleted (its entities go with it). Undo
 * creates it again through its config flow from its name, its kind (the domain of its entity, for
 * template, group and random) and the options its options flow showed; a field set only at creation,
 * which Home Assistant shows nowhere, makes undo refuse rather than guess.
 */
export async function deleteFlowHelper (ctx: ToolCallContext, helper: FlowHelper, guard: Guard): Promise<Record<string, unknown>> {
  requireEntryRights(ctx, `ha_delete_helper on a ${helper.type} helper`)
  const { entry, entityId } = helper
  const label = `${helper.type} helper ${entry.title}`
  return await runConfigWrite(ctx, {
    tool: ctx.tool,
    domain: helper.type,
    action: 'delete',
    subject: entityId,
    payload: { entity_id: entityId, entry_id: entry.entry_id },
    preview: `# the ${label} will be deleted (config entry ${entry.entry_id}), with ${helper.entities.join(', ')}`,
    baseHash: entryHash(entry) ?? '',
    entities: helper.entities,
    dryRun: guard.dry_run,
    confirmToken: guard.confirm_token,
    currentHash: async () => entryHash(await entryNow(ctx, entry.entry_id)) ?? 'none',
    execute: async () => {
      // Read right before the delete: what undo creates again.
      const shown = await readOptionValues(ctx, entry.entry_id, true).catch(() => undefined)
      await flowRequest(ctx, 'DELETE', `/api/config/config_entries/entry/${entry.entry_id}`)
      return { deleted: entityId, entry_id: entry.entry_id, entities: helper.entities, ...(shown === undefined ? {} : { options: shown.values, fields: shown.fields.map(f => f.name) }) }
    },
    revert: result => {
      if (!isRecord(result.options)) return undefined
      return recreateRevert(ctx, helper, result.options, (result.fields as string[] | undefined) ?? [])
    }
  })
}

/** The menu choice a helper was made with: its entity's domain (template sensor, light group, random binary_sensor). */
const kindOf = (entityId: string): string => domainOf(entityId)

function recreateRevert (ctx: ToolContext, helper: FlowHelper, options: Record<string, unknown>, optionFields: string[]): Revert {
  const { entry, entityId } = helper
  const what = `the ${helper.type} helper ${entry.title} (created again)`
  return {
    needs: 'allow_config_write',
    preview: `# ${entityId} will be created again as a ${helper.type} helper:\n${toYaml({ name: entry.title, ...options })}`,
    entities: helper.entities,
    run: async () => {
      const known = new Set([...optionFields, 'name'])
      const end = await walkFlow(ctx, configFlowPath, await startFlow(ctx, helper.type), {
        what,
        menu: choices => choices.includes(kindOf(entityId)) ? kindOf(entityId) : undefined,
        form: fields => {
          const lost = fields.filter(f => !known.has(f.name)).map(f => f.name)
          if (lost.length > 0) throw new UserError('HAMCP_NOT_SUPPORTED', `${entityId} cannot be created again exactly: Home Assistant showed its ${lost.join(', ')} nowhere but at creation.`, 'Create it again with ha_create_helper, giving those fields.', { lost })
          return { ...(fields.some(f => f.name === 'name') ? { name: entry.title } : {}), ...Object.fromEntries(fields.filter(f => f.name in options).map(f => [f.name, options[f.name]])) }
        }
      })
      if (end.step.type !== 'create_entry') throw abortRefusal(what, end.step)
      const entryId = String((isRecord(end.step.result) ? end.step.result.entry_id : undefined) ?? '')
      return { created: entry.title, entry_id: entryId, entities: await entryEntities(ctx, entryId), note: 'A new config entry: Home Assistant gives it new ids.' }
    }
  }
}

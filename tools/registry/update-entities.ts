import { z } from 'zod'
import { UserError } from '../../src/errors.ts'
import { domainOf, isEntityId } from '../../src/home/entities.ts'
import { nameIssue } from '../../src/policy/input-checks.ts'
import { defineTool, type ToolContext } from '../../src/mcp/runtime/define-tool.ts'
import type { RestoreCommand } from '../../src/policy/undo.ts'
import { confirmTokenArg, dryRunArg } from '../_shared/write.ts'
import { applyListEdit, isRecord, listEditIds, restoredFlag, runRegistryWrite, type Step } from './_write.ts'
import { checkAreas, checkLabels, entityIdsArg, oldIdUsers, stringsArg } from './_lookups.ts'

type Entry = Record<string, unknown> & { entity_id: string }

const SHOWN_IDS = 20

async function entries (ctx: ToolContext, ids: string[]): Promise<Entry[]> {
  const found = await ctx.ha.command<Record<string, Entry | null>>({ type: 'config/entity_registry/get_entries', entity_ids: ids })
  const missing = ids.filter(id => !isRecord(found?.[id]))
  if (missing.length > 0) {
    throw new UserError('HAMCP_ENTITY_NOT_FOUND', `Not in the entity registry: ${missing.slice(0, 10).join(', ')}${missing.length > 10 ? ` and ${missing.length - 10} more` : ''}.`, 'Only entities with a unique id can be edited; ha_search_entities finds the right ids.')
  }
  return ids.map(id => found[id] as Entry)
}

/**
 * The aliases to send: a `null` entry means the entity's own name is also a voice name (core
 * config/entity_registry.py 2026.4+, frontend entity-voice-settings.ts, which always sends it back).
 * The caller's names replace the other aliases; that null is kept exactly as it was.
 */
function nextAliases (current: unknown, aliases: readonly string[]): Array<string | null> {
  return [...(Array.isArray(current) && current.includes(null) ? [null] : []), ...aliases]
}

export default defineTool({
  name: 'ha_update_entities',
  title: 'Update entities',
  description: 'Settings of one or many entities, one confirmation and undo; null resets name, icon, area (to the device\'s); labels: +x adds, -x removes; a rename reports what uses the old id.',
  kind: 'manage',
  category: 'registry',
  everyday: false,
  keywords: {
    en: 'rename entity change name icon alias hide unhide disable entity assign area label expose to assist voice entity id sensor friendly name',
    de: 'entität umbenennen name ändern symbol icon alias ausblenden verstecken deaktivieren bereich zuweisen für assist freigeben sensor anzeigename',
    fr: 'renommer entité changer nom icône alias masquer cacher désactiver assigner pièce exposer à assist capteur',
    es: 'renombrar entidad cambiar nombre icono alias ocultar desactivar asignar área exponer a assist sensor',
    nl: 'entiteit hernoemen naam wijzigen icoon alias verbergen uitschakelen ruimte toewijzen blootstellen aan assist sensor'
  },
  input: z.object({
    entity_ids: entityIdsArg().describe('Up to 500.'),
    name: z.string().trim().max(255).superRefine(nameIssue(255)).nullable().optional().describe('Name.'),
    icon: z.string().trim().max(100).nullable().optional().describe('Icon.'),
    area_id: z.string().trim().max(255).nullable().optional().describe('Area id.'),
    labels: stringsArg().optional().describe('Labels.'),
    aliases: stringsArg().optional().describe('Aliases.'),
    hidden: z.boolean().optional().describe('Hidden.'),
    disabled: z.boolean().optional().describe('Disabled.'),
    exposed: z.boolean().optional().describe('To Assist.'),
    new_entity_id: z.string().trim().toLowerCase().max(255).optional().describe('Rename (one entity).'),
    dry_run: dryRunArg(),
    confirm_token: confirmTokenArg()
  }),
  async handler (ctx, args) {
    const ids = [...new Set(args.entity_ids)]
    const fields = (['name', 'icon', 'area_id', 'labels', 'aliases', 'hidden', 'disabled', 'exposed', 'new_entity_id'] as const).filter(key => args[key] !== undefined)
    if (fields.length === 0) throw new UserError('HAMCP_INVALID_ARGUMENT', 'Nothing to change.', 'Give at least one setting, e.g. area_id or labels.')
    const rename = args.new_entity_id
    if (rename !== undefined) {
      if (ids.length !== 1) throw new UserError('HAMCP_INVALID_ARGUMENT', 'new_entity_id renames one entity at a time.', 'Pass exactly one entity_id with new_entity_id.')
      const old = ids[0] as string
      if (!isEntityId(rename)) throw new UserError('HAMCP_INVALID_ARGUMENT', `"${rename}" is not an entity id.`, 'Use domain.object_id with lower-case letters, digits and underscores.')
      if (domainOf(rename) !== domainOf(old)) throw new UserError('HAMCP_INVALID_ARGUMENT', 'A new entity id keeps the domain.', `Use ${domainOf(old)}.<new_name>.`)
    }
    if (typeof args.area_id === 'string') await checkAreas(ctx, [args.area_id])
    if (args.labels) await checkLabels(ctx, listEditIds(args.labels))
    const current = await entries(ctx, ids)

    const notes: string[] = []
    const steps: Step[] = []
    const exposureUndo: RestoreCommand[] = []
    const finalId = (id: string): string => rename ?? id
    for (const entry of current) {
      const id = entry.entity_id
      const command: RestoreCommand = { type: 'config/entity_registry/update', entity_id: id }
      const back: RestoreCommand = { type: 'config/entity_registry/update', entity_id: finalId(id) }
      const set = (key: string, value: unknown): void => { command[key] = value; back[key] = entry[key] ?? null }
      if (args.name !== undefined) set('name', args.name)
      if (args.icon !== undefined) set('icon', args.icon)
      if (args.area_id !== undefined) set('area_id', args.area_id)
      if (args.labels) set('labels', applyListEdit(Array.isArray(entry.labels) ? entry.labels as string[] : [], args.labels))
      if (args.aliases) set('aliases', nextAliases(entry.aliases, args.aliases))
      if (args.hidden !== undefined) { command.hidden_by = args.hidden ? 'user' : null; back.hidden_by = restoredFlag(entry.hidden_by, `${id}: hidden_by`, notes) }
      if (args.disabled !== undefined) { command.disabled_by = args.disabled ? 'user' : null; back.disabled_by = restoredFlag(entry.disabled_by, `${id}: disabled_by`, notes) }
      if (rename !== undefined) { command.new_entity_id = rename; back.new_entity_id = id }
      if (Object.keys(command).length > 2) steps.push({ command, undo: () => [back] })
      // Exposure lives in the entry's conversation options: put back exactly what was there. With nothing
      // there, empty options make Home Assistant work out its default again, as before the change.
      const options = isRecord(entry.options) ? entry.options : {}
      exposureUndo.push({ type: 'config/entity_registry/update', entity_id: finalId(id), options_domain: 'conversation', options: isRecord(options.conversation) ? options.conversation : {} })
    }
    if (args.exposed !== undefined) {
      steps.push({ command: { type: 'homeassistant/expose_entity', assistants: ['conversation'], entity_ids: ids.map(finalId), should_expose: args.exposed }, undo: () => exposureUndo })
    }
    const report: Record<string, unknown> = { entities: ids.length }
    if (rename !== undefined) {
      const users = await oldIdUsers(ctx, ids[0] as string)
      if (Object.keys(users).length > 0) report.still_using_old_id = users
    }
    if (notes.length > 0) report.undo_notes = notes
    const bulk = ids.length > 1
    const settings = fields.filter(key => key !== 'new_entity_id').map(key => `${key}=${JSON.stringify(args[key])}`).join(', ')
    const shown = ids.length > SHOWN_IDS ? `${ids.slice(0, SHOWN_IDS).join(', ')} and ${ids.length - SHOWN_IDS} more` : ids.join(', ')
    const confirm = bulk || rename !== undefined
      ? [
          rename !== undefined ? `Rename ${ids[0] as string} to ${rename}.` : '',
          settings ? `Set ${settings} on ${ids.length} entit${ids.length === 1 ? 'y' : 'ies'}: ${shown}.` : '',
          report.still_using_old_id ? `Still using the old id: ${JSON.stringify(report.still_using_old_id)}.` : ''
        ].filter(Boolean).join('\n')
      : undefined
    return await runRegistryWrite(ctx, {
      tool: ctx.tool,
      domain: 'entity_registry',
      service: 'update',
      entities: rename !== undefined ? [...ids, rename] : ids,
      change: { ids, ...Object.fromEntries(fields.map(key => [key, args[key]])) },
      steps,
      ...(confirm === undefined ? {} : { confirm }),
      unrestorable: notes,
      dryRun: args.dry_run,
      confirmToken: args.confirm_token,
      report
    })
  }
})

import { z } from 'zod'
import { UserError } from '../../src/errors.ts'
import type { RegistrySnapshot } from '../../src/ha/registries.ts'
import { defineTool, type ToolContext } from '../../src/mcp/runtime/define-tool.ts'
import { CREATED_ID, type RestoreCommand } from '../../src/policy/undo.ts'
import { stableJson } from '../../src/policy/confirm.ts'
import { nameArg } from '../../src/policy/input-checks.ts'
import { effectiveMembers } from '../../src/policy/targets.ts'
import { confirmTokenArg, dryRunArg } from '../_shared/write.ts'
import { relatedConfigs } from '../_shared/related.ts'
import { stringsArg } from './_lookups.ts'
import { isRecord, runRegistryWrite, type Step } from './_write.ts'
import { slugLike } from './_slug.ts'

type Kind = 'area' | 'floor' | 'label' | 'category' | 'zone'
type Item = Record<string, unknown>

interface KindSpec {
  /** Prefix of the create/update/delete commands. */
  prefix: string
  idKey: string
  /** Key of the new id in the create answer. */
  resultId: string
  /** Fields the tool takes for this kind. */
  fields: string[]
  /** Fields a delete must carry over to recreate the entry. */
  kept: string[]
}

const SPECS: Record<Kind, KindSpec> = {
  area: { prefix: 'config/area_registry', idKey: 'area_id', resultId: 'area_id', fields: ['name', 'icon', 'aliases', 'floor_id'], kept: ['name', 'icon', 'aliases', 'floor_id', 'labels', 'picture', 'humidity_entity_id', 'temperature_entity_id'] },
  floor: { prefix: 'config/floor_registry', idKey: 'floor_id', resultId: 'floor_id', fields: ['name', 'icon', 'aliases', 'level'], kept: ['name', 'icon', 'aliases', 'level'] },
  label: { prefix: 'config/label_registry', idKey: 'label_id', resultId: 'label_id', fields: ['name', 'icon', 'color'], kept: ['name', 'icon', 'color', 'description'] },
  category: { prefix: 'config/category_registry', idKey: 'category_id', resultId: 'category_id', fields: ['name', 'icon', 'scope'], kept: ['name', 'icon'] },
  zone: { prefix: 'zone', idKey: 'zone_id', resultId: 'id', fields: ['name', 'icon', 'latitude', 'longitude', 'radius', 'passive'], kept: ['name', 'icon', 'latitude', 'longitude', 'radius', 'passive'] }
}
const FIELD_KEYS = ['name', 'icon', 'aliases', 'floor_id', 'level', 'color', 'scope', 'latitude', 'longitude', 'radius', 'passive'] as const

async function currentItems (ctx: ToolContext, kind: Kind, scope: string): Promise<Map<string, Item>> {
  if (kind === 'category' || kind === 'zone') {
    const list = await ctx.ha.command<Item[]>(kind === 'zone' ? { type: 'zone/list' } : { type: 'config/category_registry/list', scope })
    const key = kind === 'zone' ? 'id' : 'category_id'
    return new Map((Array.isArray(list) ? list : []).map(item => [String(item[key]), item]))
  }
  const snapshot = await ctx.ha.registries.snapshot()
  const map = kind === 'area' ? snapshot.areas : kind === 'floor' ? snapshot.floors : snapshot.labels
  return map as unknown as Map<string, Item>
}

/**
 * The entity of a zone: Home Assistant makes its entity id from the zone's name and ties it to the
 * zone by the registry's unique id (core zone/__init__.py: `_attr_unique_id` is the storage id, the
 * name gives the entity id), so `zone.<id>` is not it after a name clash with a YAML zone or an entity
 * id rename. `zone.<id>` only when the registry holds no entry for it.
 */
function zoneEntityOf (snapshot: RegistrySnapshot, zoneId: string): string {
  for (const entry of snapshot.entities.values()) if (entry.platform === 'zone' && entry.unique_id === zoneId) return entry.entity_id
  return `zone.${zoneId}`
}

/** What a deleted entry leaves behind, and the commands that relink it to a recreated one. */
async function usage (ctx: ToolContext, kind: Kind, id: string, scope: string): Promise<{ uses: Record<string, string[]>, relink: RestoreCommand[], entities: string[], members: string[] }> {
  const snapshot = await ctx.ha.registries.snapshot()
  const uses: Record<string, string[]> = {}
  const relink: RestoreCommand[] = []
  const entities: string[] = []
  const swap = (list: readonly string[]): string[] => list.map(item => item === id ? CREATED_ID : item)
  if (kind === 'area' || kind === 'label') {
    for (const device of snapshot.devices.values()) {
      if (kind === 'area' ? device.area_id !== id : !device.labels.includes(id)) continue
      ;(uses.devices ??= []).push(device.id)
      relink.push({ type: 'config/device_registry/update', device_id: device.id, ...(kind === 'area' ? { area_id: CREATED_ID } : { labels: swap(device.labels) }) })
    }
  }
  if (kind !== 'floor' && kind !== 'zone') {
    for (const entry of snapshot.entities.values()) {
      const hit = kind === 'area' ? entry.area_id === id : kind === 'label' ? entry.labels.includes(id) : entry.categories?.[scope] === id
      if (!hit) continue
      entities.push(entry.entity_id)
      relink.push({ type: 'config/entity_registry/update', entity_id: entry.entity_id, ...(kind === 'area' ? { area_id: CREATED_ID } : kind === 'label' ? { labels: swap(entry.labels) } : { categories: { [scope]: CREATED_ID } }) })
    }
    if (entities.length > 0) uses.entities = entities
  }
  if (kind === 'floor' || kind === 'label') {
    for (const area of snapshot.areas.values()) {
      if (kind === 'floor' ? area.floor_id !== id : !area.labels.includes(id)) continue
      ;(uses.areas ??= []).push(area.area_id)
      relink.push({ type: 'config/area_registry/update', area_id: area.area_id, ...(kind === 'floor' ? { floor_id: CREATED_ID } : { labels: swap(area.labels) }) })
    }
  }
  const zoneEntity = kind === 'zone' ? zoneEntityOf(snapshot, id) : undefined
  if (zoneEntity !== undefined) entities.push(zoneEntity)
  // The entity lists read effective membership: an entity without an area of its own sits in its device's,
  // a floor holds its areas' entities, a label its devices' and areas' ones too.
  const members = kind === 'area' || kind === 'floor' || kind === 'label'
    ? effectiveMembers(snapshot, { [`${kind}_id`]: [id] }, { primaryOnly: false })
    : new Set<string>()
  if (kind !== 'category') Object.assign(uses, await relatedConfigs(ctx, zoneEntity !== undefined ? 'entity' : kind, zoneEntity ?? id))
  return { uses, relink, entities, members: [...new Set([...entities, ...members])].sort() }
}

export default defineTool({
  name: 'ha_manage_registry',
  title: 'Manage registries',
  description: 'Create, update (by id) or delete (by id) an area (floor_id), floor (level), label (color), category (scope, e.g. script) or zone (radius in m, passive); a delete says what uses it.',
  kind: 'manage',
  category: 'registry',
  everyday: false,
  keywords: {
    en: 'create rename delete area room floor label tag category zone add a room new zone location geofence',
    de: 'bereich raum zimmer etage label kategorie zone anlegen umbenennen löschen neuen raum',
    fr: 'créer renommer supprimer pièce zone étage étiquette catégorie nouvelle pièce',
    es: 'crear renombrar eliminar área habitación planta etiqueta categoría zona nueva habitación',
    nl: 'ruimte kamer verdieping label categorie zone aanmaken hernoemen verwijderen nieuwe kamer'
  },
  input: z.object({
    kind: z.enum(['area', 'floor', 'label', 'category', 'zone']).describe('Kind.'),
    action: z.enum(['create', 'update', 'delete']).describe('Action.'),
    id: z.string().trim().min(1).max(255).optional().describe('Id.'),
    name: nameArg(255).optional().describe('Name.'),
    icon: z.string().trim().max(100).nullable().optional().describe('Icon.'),
    aliases: stringsArg().optional().describe('Aliases.'),
    floor_id: z.string().trim().max(255).nullable().optional().describe('Floor id.'),
    level: z.number().int().min(-100).max(200).nullable().optional().describe('Level.'),
    color: z.string().trim().max(50).nullable().optional().describe('e.g. red'),
    scope: z.string().trim().min(1).max(50).optional().describe('Scope.'),
    latitude: z.number().min(-90).max(90).optional().describe('Latitude.'),
    longitude: z.number().min(-180).max(180).optional().describe('Longitude.'),
    radius: z.number().int().min(1).optional().describe('Radius.'),
    passive: z.boolean().optional().describe('Passive.'),
    dry_run: dryRunArg(),
    confirm_token: confirmTokenArg()
  }),
  async handler (ctx, args) {
    const kind = args.kind
    const spec = SPECS[kind]
    const given = FIELD_KEYS.filter(key => args[key] !== undefined)
    const foreign = given.filter(key => !spec.fields.includes(key))
    if (foreign.length > 0) throw new UserError('HAMCP_INVALID_ARGUMENT', `A ${kind} has no ${foreign.join(', ')}.`, `Fields of a ${kind}: ${spec.fields.join(', ')}.`)
    const range = (field: 'latitude' | 'longitude' | 'radius', min: number, max: number): void => {
      const value = args[field]
      if (value !== undefined && (value < min || value > max)) throw new UserError('HAMCP_INVALID_ARGUMENT', `${field} must be between ${min} and ${max}.`)
    }
    range('latitude', -90, 90)
    range('longitude', -180, 180)
    range('radius', 0, 1_000_000)
    const scope = args.scope ?? 'automation'
    const scoped = kind === 'category' ? { scope } : {}
    const fields: Record<string, unknown> = Object.fromEntries(given.filter(key => key !== 'scope').map(key => [key, args[key]]))
    if (typeof fields.floor_id === 'string' && !(await ctx.ha.registries.snapshot()).floors.has(fields.floor_id)) {
      throw new UserError('HAMCP_NOT_FOUND', `Unknown floor: ${fields.floor_id}.`, 'Create the floor first (kind floor, action create).')
    }
    const domain = kind === 'zone' ? 'zone' : `${kind}_registry`
    const base = { tool: ctx.tool, domain, service: args.action, dryRun: args.dry_run, confirmToken: args.confirm_token }

    if (args.action === 'create') {
      if (args.id !== undefined) throw new UserError('HAMCP_INVALID_ARGUMENT', 'Home Assistant picks the id of a new entry (from its name).', 'Leave id out when creating.')
      if (fields.name === undefined) throw new UserError('HAMCP_INVALID_ARGUMENT', `A new ${kind} needs a name.`)
      if (kind === 'zone' && (fields.latitude === undefined || fields.longitude === undefined)) throw new UserError('HAMCP_INVALID_ARGUMENT', 'A new zone needs latitude and longitude.')
      const created: { id?: string } = {}
      // Home Assistant's create schemas take no null (an unset field is simply left out).
      const given = Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== null))
      const step: Step = {
        command: { type: `${spec.prefix}/create`, ...scoped, ...given },
        undo: result => {
          created.id = isRecord(result) ? String(result[spec.resultId]) : undefined
          return created.id === undefined ? [] : [{ type: `${spec.prefix}/delete`, ...scoped, [spec.idKey]: created.id }]
        }
      }
      const answer = await runRegistryWrite(ctx, { ...base, entities: [], change: { kind, ...scoped, ...fields }, steps: [step] })
      return answer.success === true ? { ...answer, kind, id: created.id } : answer
    }

    const items = await currentItems(ctx, kind, scope)
    const item = args.id === undefined ? undefined : items.get(args.id)
    if (args.id === undefined || !item) {
      throw new UserError(args.id === undefined ? 'HAMCP_INVALID_ARGUMENT' : 'HAMCP_NOT_FOUND', args.id === undefined ? `${args.action} needs the id of the ${kind}.` : `No ${kind} "${args.id}".`, `Known ids: ${[...items.keys()].slice(0, 30).join(', ') || 'none'}.`)
    }
    const key = { ...scoped, [spec.idKey]: args.id }
    const zoneEntity = kind === 'zone' ? [zoneEntityOf(await ctx.ha.registries.snapshot(), args.id)] : []

    if (args.action === 'update') {
      if (Object.keys(fields).length === 0) throw new UserError('HAMCP_INVALID_ARGUMENT', 'Nothing to change.', `Fields of a ${kind}: ${spec.fields.join(', ')}.`)
      const back: RestoreCommand = { type: `${spec.prefix}/update`, ...key }
      const notes: string[] = []
      for (const field of Object.keys(fields)) {
        // A zone's icon can be changed but not removed again.
        if (kind === 'zone' && item[field] === undefined) notes.push(`zone ${args.id} had no ${field}; undo leaves the new one`)
        else back[field] = item[field] ?? null
      }
      const step: Step = { command: { type: `${spec.prefix}/update`, ...key, ...fields }, undo: () => [back] }
      const answer = await runRegistryWrite(ctx, { ...base, entities: zoneEntity, change: { kind, ...key, ...fields }, steps: [step], unrestorable: notes })
      return answer.success === true ? { ...answer, kind, id: args.id } : answer
    }

    const { uses, relink, members } = await usage(ctx, kind, args.id, scope)
    const recreate: RestoreCommand = { type: `${spec.prefix}/create`, ...scoped }
    for (const field of spec.kept) if (item[field] !== undefined && item[field] !== null) recreate[field] = item[field]
    // Home Assistant derives ids itself: a name that no longer slugs to the id (renamed since) gives a new one.
    const slug = slugLike(String(item.name))
    const sameId = kind !== 'category' && slug === args.id
    const unsure = !sameId && kind !== 'category' && /[^\x20-\x7e]/.test(String(item.name).normalize('NFKD').replace(/[\u0300-\u036f]/g, ''))
    const unrestorable = sameId ? [] : [`${kind} ${args.id} ${unsure ? 'may come' : 'comes'} back under a new id (Home Assistant derives ids itself); automations naming the old id would keep failing`]
    const inUse = Object.entries(uses).map(([what, list]) => `${list.length} ${what}`).join(', ')
    const step: Step = { command: { type: `${spec.prefix}/delete`, ...key }, undo: () => [recreate, ...relink] }
    const answer = await runRegistryWrite(ctx, {
      ...base,
      entities: members,
      change: { kind, ...key },
      steps: [step],
      confirm: `Delete ${kind} ${args.id} (${String(item.name)})${inUse ? `, still used by ${inUse}: ${JSON.stringify(uses)}` : ', used by nothing'}.`,
      unrestorable,
      report: { kind, id: args.id, ...(inUse ? { used_by: uses } : {}), ...(unrestorable.length > 0 ? { undo_notes: unrestorable } : {}) },
      basis: {
        [`${kind} ${args.id}`]: stableJson(recreate),
        ...Object.fromEntries(Object.entries(uses).map(([what, list]) => [`${kind} ${args.id} used by ${what}`, [...list].sort().join(', ')]))
      }
    })
    return answer
  }
})

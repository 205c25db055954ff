import { stableJson, type Shown } from '../../src/policy/confirm.ts'
import type { ToolContext } from '../../src/mcp/runtime/define-tool.ts'
import { CREATED_ID, type RestoreCommand } from '../../src/policy/undo.ts'
import { isRecord } from '../../src/shape.ts'

/**
 * What a registry undo would overwrite, as named facts (`"light.desk name" -> "\"Desk\""`,
 * `"area shed used by" -> "light.x"`). Read once right after the edit (what the add-on wrote) and
 * again by ha_undo: a fact that differs is a change made since, which undo must not silently overwrite.
 */
type Kind = 'entity' | 'device' | 'area' | 'floor' | 'label' | 'category' | 'zone'

const PREFIX_KIND: Record<string, Kind> = {
  'config/entity_registry': 'entity',
  'config/device_registry': 'device',
  'config/area_registry': 'area',
  'config/floor_registry': 'floor',
  'config/label_registry': 'label',
  'config/category_registry': 'category',
  zone: 'zone'
}
const ID_KEY: Record<Kind, string> = { entity: 'entity_id', device: 'device_id', area: 'area_id', floor: 'floor_id', label: 'label_id', category: 'category_id', zone: 'zone_id' }
/** Fields of a command that address it rather than set a value. */
const ADDRESS = new Set(['type', 'scope', 'new_entity_id', 'options_domain', ...Object.values(ID_KEY)])
/** Fields a registry answers with that no edit sets. */
const VOLATILE = new Set(['created_at', 'modified_at'])

interface Subject {
  kind: Kind
  id: string
  scope?: string
  /** Fields undo sets on it. */
  fields: Set<string>
  /** Options domain of an `options` field (exposure). */
  optionsDomain?: string
  /** Undo deletes it: all of it, and what uses it, counts. */
  whole?: boolean
  /** Undo recreates it: it must still be absent. */
  absent?: boolean
}

function kindOf (type: string): { kind: Kind, action: string } | undefined {
  const cut = type.lastIndexOf('/')
  const kind = PREFIX_KIND[type.slice(0, cut)]
  return kind ? { kind, action: type.slice(cut + 1) } : undefined
}

/** The entries and fields the restore commands write; `forward` gives the ids of entries the edit deleted. */
function subjects (restore: RestoreCommand[], forward: RestoreCommand[]): Subject[] {
  const found = new Map<string, Subject>()
  const subject = (kind: Kind, id: string, scope?: string): Subject => {
    const key = `${kind} ${scope ?? ''} ${id}`
    let s = found.get(key)
    if (!s) found.set(key, s = { kind, id, ...(scope ? { scope } : {}), fields: new Set() })
    return s
  }
  for (const command of restore) {
    const what = kindOf(command.type)
    if (!what) continue
    const scope = typeof command.scope === 'string' ? command.scope : undefined
    const id = command[ID_KEY[what.kind]]
    if (what.action === 'create') continue
    if (typeof id !== 'string' || id === CREATED_ID) continue
    const s = subject(what.kind, id, scope)
    if (what.action === 'delete') { s.whole = true; continue }
    for (const field of Object.keys(command)) if (!ADDRESS.has(field)) s.fields.add(field)
    if (typeof command.options_domain === 'string') s.optionsDomain = command.options_domain
  }
  for (const command of forward) {
    const what = kindOf(command.type)
    const id = what ? command[ID_KEY[what.kind]] : undefined
    if (what?.action === 'delete' && typeof id === 'string') subject(what.kind, id, typeof command.scope === 'string' ? command.scope : undefined).absent = true
  }
  return [...found.values()]
}

const label = (s: Subject): string => s.kind === 'entity' ? s.id : `${s.kind} ${s.id}`

function clean (item: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(item).filter(([key]) => !VOLATILE.has(key)))
}

/** Reads the facts of `restore` (and `forward`'s deletes) as Home Assistant has them now. */
export async function undoFacts (ctx: Pick<ToolContext, 'ha'>, restore: RestoreCommand[], forward: RestoreCommand[]): Promise<Shown> {
  const list = subjects(restore, forward)
  if (list.length === 0) return {}
  const entityIds = list.filter(s => s.kind === 'entity').map(s => s.id)
  const entries = entityIds.length > 0 ? await ctx.ha.command<Record<string, Record<string, unknown> | null>>({ type: 'config/entity_registry/get_entries', entity_ids: entityIds }) : {}
  // Fresh registries (a cached snapshot may predate this very edit), read only when needed.
  const needsSnapshot = list.some(s => s.whole === true || (s.kind !== 'entity' && s.kind !== 'category' && s.kind !== 'zone'))
  if (needsSnapshot) ctx.ha.registries.invalidate()
  const snapshot = needsSnapshot ? await ctx.ha.registries.snapshot() : undefined
  const lists = new Map<string, Array<Record<string, unknown>>>()
  const listed = async (kind: 'category' | 'zone', scope: string | undefined): Promise<Array<Record<string, unknown>>> => {
    const key = `${kind} ${scope ?? ''}`
    let items = lists.get(key)
    if (!items) {
      const answer = await ctx.ha.command<unknown>(kind === 'zone' ? { type: 'zone/list' } : { type: 'config/category_registry/list', scope })
      lists.set(key, items = Array.isArray(answer) ? answer.filter(isRecord) : [])
    }
    return items
  }
  const read = async (s: Subject): Promise<Record<string, unknown> | undefined> => {
    switch (s.kind) {
      case 'entity': { const entry = entries?.[s.id]; return isRecord(entry) ? entry : undefined }
      case 'device': return snapshot?.devices.get(s.id) as Record<string, unknown> | undefined
      case 'area': return snapshot?.areas.get(s.id) as Record<string, unknown> | undefined
      case 'floor': return snapshot?.floors.get(s.id) as Record<string, unknown> | undefined
      case 'label': return snapshot?.labels.get(s.id) as Record<string, unknown> | undefined
      case 'category': return (await listed('category', s.scope)).find(item => item.category_id === s.id)
      case 'zone': return (await listed('zone', undefined)).find(item => item.id === s.id)
    }
  }
  const facts: Shown = {}
  for (const s of list) {
    const item = await read(s)
    const name = label(s)
    if (s.absent && !s.whole) {
      facts[name] = item ? 'exists' : 'absent'
      continue
    }
    if (!item) { facts[name] = 'absent'; continue }
    // A rename sets no field, but a renamed-away entry is a change too.
    if (s.fields.size === 0 && !s.whole) facts[name] = 'exists'
    if (s.whole) {
      facts[name] = stableJson(clean(item))
      if (snapshot) facts[`${name} used by`] = usedBy(snapshot, s).join(', ') || 'nothing'
    }
    for (const field of s.fields) {
      const value = field === 'options' && s.optionsDomain && isRecord(item.options) ? item.options[s.optionsDomain] : item[field]
      facts[`${name} ${field}`] = stableJson(value ?? null)
    }
  }
  return facts
}

/** What names an entry: entities and devices in an area or with a label, areas on a floor or with a label. */
function usedBy (snapshot: Awaited<ReturnType<ToolContext['ha']['registries']['snapshot']>>, s: Subject): string[] {
  const users: string[] = []
  if (s.kind === 'area' || s.kind === 'label') {
    for (const device of snapshot.devices.values()) if (s.kind === 'area' ? device.area_id === s.id : device.labels.includes(s.id)) users.push(`device ${device.id}`)
  }
  if (s.kind === 'area' || s.kind === 'label' || s.kind === 'category') {
    for (const entry of snapshot.entities.values()) {
      if (s.kind === 'area' ? entry.area_id === s.id : s.kind === 'label' ? entry.labels.includes(s.id) : Object.values(entry.categories ?? {}).includes(s.id)) users.push(entry.entity_id)
    }
  }
  if (s.kind === 'floor' || s.kind === 'label') {
    for (const area of snapshot.areas.values()) if (s.kind === 'floor' ? area.floor_id === s.id : area.labels.includes(s.id)) users.push(`area ${area.area_id}`)
  }
  return users.sort()
}

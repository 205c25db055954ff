import { UserError } from '../../src/errors.ts'
import { domainOf, requireDomain, requireEntity } from '../../src/home/entities.ts'
import type { ToolContext } from '../../src/mcp/runtime/define-tool.ts'
import { configFact, editedSinceWrite, type Revert } from '../../src/policy/undo.ts'
import { configHash, toYaml } from '../_shared/config-yaml.ts'
import { unifiedDiff } from '../_shared/line-diff.ts'
import { FLOW_HELPER_TYPES } from '../_shared/config-entries.ts'
import { flowHelperOf, type FlowHelper } from './_flow-helpers.ts'

/**
 * Helper types whose storage collections Home Assistant exposes as `<type>/list|create|update|delete`
 * (core helpers/collection.py StorageCollectionWebsocket, registered by each helper's __init__.py).
 */
export const HELPER_TYPES = ['input_boolean', 'input_number', 'input_select', 'input_text', 'input_datetime', 'input_button', 'counter', 'timer', 'schedule'] as const
export type HelperType = typeof HELPER_TYPES[number]

/** A helper by entity id: a storage helper (its type and id) or a config-flow helper (its entry), or a refusal naming why not. */
export async function helperOf (ctx: ToolContext, entityId: string): Promise<{ storage: { type: HelperType, id: string } } | { flow: FlowHelper }> {
  if ((HELPER_TYPES as readonly string[]).includes(domainOf(entityId))) return { storage: await storageHelper(ctx, entityId) }
  requireEntity(ctx.home, entityId)
  const flow = await flowHelperOf(ctx, entityId)
  if (flow === undefined) throw new UserError('HAMCP_WRONG_DOMAIN', `${entityId} is not a helper.`, `Helpers: ${HELPER_TYPES.join(', ')} entities, and the entities of ${FLOW_HELPER_TYPES.join(', ')} helpers.`)
  return { flow }
}

/** A UI-managed helper by entity id: its type and storage id, or a refusal naming why not. */
export async function storageHelper (ctx: ToolContext, entityId: string): Promise<{ type: HelperType, id: string }> {
  const type = requireDomain(entityId, HELPER_TYPES, 'a helper')
  requireEntity(ctx.home, entityId)
  const entry = await ctx.ha.command<{ unique_id?: string, platform?: string }>({ type: 'config/entity_registry/get', entity_id: entityId })
    .catch(() => undefined)
  if (!entry?.unique_id || entry.platform !== type) {
    throw new UserError('HAMCP_NOT_SUPPORTED', `${entityId} is not a UI-managed helper (it is defined in YAML).`, 'Remove or change it in the YAML configuration instead.')
  }
  return { type: type as HelperType, id: entry.unique_id }
}

/** The stored fields of one helper, as `<type>/list` answers them. */
export async function storedHelper (ctx: ToolContext, type: HelperType, id: string): Promise<Record<string, unknown> | undefined> {
  const items = await ctx.ha.command<Array<Record<string, unknown>>>({ type: `${type}/list` })
  return (items ?? []).find(item => item.id === id)
}

/** Home Assistant's own validation message (vol.Invalid, `invalid_format`) as an argument error the model can fix. */
export function helperRefusal (err: unknown, type: string): never {
  const raw = err as { haCode?: string, haMessage?: string }
  if (raw?.haCode === 'invalid_format' || raw?.haCode === 'home_assistant_error') {
    throw new UserError('HAMCP_INVALID_ARGUMENT', `Home Assistant refused the ${type} options: ${String(raw.haMessage ?? '').slice(0, 300)}.`, 'Fix the named option and call again; a dry run shows the stored fields.')
  }
  throw err
}

/** A stored item's fields without its id: what create and update send, and what a hash compares. */
export function fieldsOf (item: Record<string, unknown>): Record<string, unknown> {
  const { id: _id, ...fields } = item
  return fields
}

/**
 * How ha_undo reverses a helper write: an update writes `previous` back, a create deletes the helper, a
 * delete creates it again from its stored fields (Home Assistant gives it a fresh id, from its name).
 * Refused when the helper changed since the write, unless the user agrees to overwrite that.
 */
export function helperRevert (ctx: ToolContext, write: { entityId: string, type: HelperType, id: string, written?: Record<string, unknown>, previous?: Record<string, unknown> }): Revert {
  const { entityId, type, id, written, previous } = write
  const now = async (): Promise<string> => {
    const item = await storedHelper(ctx, type, id)
    return item === undefined ? 'none' : configHash(fieldsOf(item))
  }
  const wroteHash = written === undefined ? 'none' : configHash(written)
  return {
    needs: 'allow_write',
    preview: previous === undefined
      ? `# ${entityId} will be deleted again:\n${toYaml(written)}`
      : written === undefined
        ? `# ${entityId} will be created again:\n${toYaml(previous)}`
        : unifiedDiff(toYaml(written), toYaml(previous), { from: `${entityId} (now)`, to: `${entityId} (restored)` }),
    entities: [entityId],
    wrote: configFact(entityId, wroteHash, wroteHash),
    current: async () => {
      const hash = await now()
      return configFact(entityId, wroteHash, hash === 'none' && written !== undefined ? undefined : hash)
    },
    run: async force => {
      if (force !== true && await now() !== wroteHash) throw editedSinceWrite(entityId, 'Change it with ha_update_helper instead.')
      if (previous === undefined) {
        await ctx.ha.command({ type: `${type}/delete`, [`${type}_id`]: id })
        return { entity_id: entityId, deleted: true }
      }
      if (written === undefined) {
        const created = await ctx.ha.command<{ id?: string }>({ type: `${type}/create`, ...previous })
        return { helper: created, note: 'Created again with the same fields; Home Assistant gave it an id from its name.' }
      }
      await ctx.ha.command({ type: `${type}/update`, [`${type}_id`]: id, ...previous })
      return { entity_id: entityId, restored_yaml: toYaml(previous) }
    }
  }
}

import { UserError } from '../../src/errors.ts'
import { requireDomain, requireEntity } from '../../src/home/entities.ts'
import type { ToolContext } from '../../src/mcp/define-tool.ts'

/**
 * Helper types whose storage collections Home Assistant exposes as `<type>/list|create|update|delete`
 * (core helpers/collection.py StorageCollectionWebsocket, registered by each helper's __init__.py).
 */
export const HELPER_TYPES = ['input_boolean', 'input_number', 'input_select', 'input_text', 'input_datetime', 'input_button', 'counter', 'timer', 'schedule'] as const
export type HelperType = typeof HELPER_TYPES[number]

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

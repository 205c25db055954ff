import { stableJson } from '../../src/policy/confirm.ts'
import { UserError } from '../../src/errors.ts'
import type { ToolContext } from '../../src/mcp/runtime/define-tool.ts'
import { commandsUndo, type RestoreCommand } from '../../src/policy/undo.ts'
import { formatOutcome, guardedWrite } from '../_shared/write.ts'
import { undoFacts } from './_undo-facts.ts'

/** One WebSocket command of a registry edit and the commands that take it back (given its answer). */
export interface Step {
  command: RestoreCommand
  undo: (result: unknown) => RestoreCommand[]
}

export interface RegistryWrite {
  tool: string
  /** What the audit line and service_denylist see, e.g. area_registry.delete, zone.create (documented for owners). */
  domain: string
  service: string
  /** Entities the edit touches: each must pass the entity lists. */
  entities: string[]
  /** The edit as the user asked for it: the confirmation is bound to it. */
  change: Record<string, unknown>
  steps: Step[]
  /** Set for deletes and bulk edits: they need the user's yes, shown this text. */
  confirm?: string
  /** What an undo cannot bring back exactly. */
  unrestorable?: string[]
  dryRun: boolean
  confirmToken: string | undefined
  /** Extra fields for the answer (what a rename breaks, what a delete affects). */
  report?: Record<string, unknown>
  /** What the preview was built from beyond the current values the steps replace (what uses a deleted entry). */
  basis?: Record<string, string>
}

const ID_KEYS: Array<[string, string]> = [['entity_id', ''], ['device_id', 'device '], ['area_id', 'area '], ['floor_id', 'floor '], ['label_id', 'label '], ['category_id', 'category '], ['zone_id', 'zone ']]

/**
 * The values an edit replaces, as the preview read them, e.g. `"light.x name" -> "\"Desk\""`: taken from
 * the steps' restore commands, which carry exactly the current value of every field the edit changes.
 */
function currentValues (steps: Step[]): Record<string, string> {
  const facts: Record<string, string> = {}
  for (const command of steps.flatMap(step => step.undo(undefined))) {
    const id = ID_KEYS.find(([key]) => typeof command[key] === 'string')
    if (!id || command.type.endsWith('/create')) continue
    const subject = `${id[1]}${String(command[id[0]])}`
    for (const [field, value] of Object.entries(command)) {
      if (field !== 'type' && field !== id[0] && field !== 'new_entity_id') facts[`${subject} ${field}`] = stableJson(value)
    }
  }
  return facts
}

const SHOWN_STEPS = 5

/**
 * The registry edits' path through the one write guard: lists, denylist, dry run, confirmation for
 * deletes and bulk edits, one audit line for the whole edit, and one undo record restoring every entry.
 */
export async function runRegistryWrite (ctx: ToolContext, write: RegistryWrite): Promise<Record<string, unknown>> {
  const results: unknown[] = []
  const outcome = await guardedWrite(ctx, {
    kind: 'registry',
    tool: write.tool,
    registry: write.domain,
    action: write.service,
    entities: write.entities,
    // As text: registry values name areas, floors and labels, which are not service targets.
    data: { change: stableJson(write.change) },
    // The entities are derived from the house: the confirmation approves the change as asked, and
    // holds only while what its preview was built from (current values, what uses the entry) is unchanged.
    asked: write.change,
    basis: { ...currentValues(write.steps), ...write.basis },
    dryRun: write.dryRun,
    ...(write.confirmToken === undefined ? {} : { confirmToken: write.confirmToken }),
    ...(write.confirm === undefined ? {} : { confirm: write.confirm }),
    execute: async () => {
      for (const [i, step] of write.steps.entries()) {
        try {
          results.push(await ctx.ha.command(step.command))
        } catch (err) {
          if (i === 0) throw err
          throw new UserError('HAMCP_PARTIAL_WRITE', `Home Assistant refused step ${i + 1} of ${write.steps.length} (${(err as Error).message}); the ${i} before it were applied.`, 'ha_undo reverts the applied part.')
        }
      }
      return results
    },
    // The steps applied (all, or those before a failure), taken back last first; each step's own
    // restore commands keep their order. What the edit left is read back at once: ha_undo compares it
    // with what is there then.
    undo: async () => {
      const done = results.length
      const undo = write.steps.slice(0, done).map((step, i) => step.undo(results[i])).reverse().flat()
      if (undo.length === 0) return undefined
      const forward = write.steps.slice(0, done).map(step => step.command)
      const read = async (): Promise<Record<string, string>> => await undoFacts(ctx, undo, forward)
      const wrote = await read().catch(() => undefined)
      return commandsUndo(undo, write.entities, async message => await ctx.ha.command(message), {
        ...(write.unrestorable && write.unrestorable.length > 0 ? { unrestorable: write.unrestorable } : {}),
        ...(wrote ? { wrote, current: read } : {})
      })
    }
  })
  if (outcome.status === 'dry_run') {
    return {
      dry_run: true,
      would_send: write.steps.slice(0, SHOWN_STEPS).map(s => s.command),
      ...(write.steps.length > SHOWN_STEPS ? { more_commands: write.steps.length - SHOWN_STEPS } : {}),
      ...(write.confirm === undefined ? {} : { needs_confirmation: true }),
      ...write.report
    }
  }
  if (outcome.status === 'confirmation_required' || outcome.status === 'awaiting_owner') return { ...formatOutcome(outcome), ...write.report }
  return { success: true, ...write.report, undo_available: true }
}

export { isRecord } from '../../src/shape.ts'

/** `["+a", "-b"]` adds a and removes b; a list without signs replaces the whole list. */
export function applyListEdit (current: readonly string[], edit: readonly string[]): string[] {
  if (!edit.some(item => item.startsWith('+') || item.startsWith('-'))) return [...new Set(edit)]
  const out = new Set(current)
  for (const item of edit) {
    if (item.startsWith('-')) out.delete(item.slice(1))
    else out.add(item.startsWith('+') ? item.slice(1) : item)
  }
  return [...out]
}

/** The ids a list edit names, signs stripped. */
export const listEditIds = (edit: readonly string[]): string[] => edit.map(item => item.replace(/^[+-]/, ''))

/** HA only lets the API set or clear a "user" flag; another origin comes back as "user", noted under `what`. */
export function restoredFlag (old: unknown, what: string, notes: string[]): string | null {
  if (old === null || old === undefined || old === 'user') return (old ?? null) as string | null
  notes.push(`${what} was "${String(old)}", restored as "user"`)
  return 'user'
}

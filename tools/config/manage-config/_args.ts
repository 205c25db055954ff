import { z } from 'zod'
import { UserError } from '../../../src/errors.ts'
import { confirmTokenArg, dryRunArg } from '../../_shared/write.ts'

/**
 * The one argument shape of ha_manage_config, shared by its five kinds. Described tersely: tools/list
 * is paid for in every conversation, and the description of the tool says what each kind reads.
 * `config` is advertised as one plain object for every kind (a union per kind would leave the
 * portable schema subset); each kind checks it with its own zod schema through `configOf`.
 */
export const manageInput = z.object({
  kind: z.enum(['scene', 'calendar', 'dashboard', 'backup', 'energy']).describe('Kind.'),
  action: z.enum(['create', 'update', 'move', 'delete', 'read']).describe('move: dashboards; read: energy.'),
  id: z.string().trim().min(1).max(255).optional().describe('scene.*, calendar.*, dashboard url_path.'),
  item: z.string().trim().max(255).optional().describe('Event uid; dashboard path (create: view/section, none: new view).'),
  to: z.string().trim().max(20).optional().describe('Move to path.'),
  config: z.record(z.string(), z.unknown()).optional().describe('Scene {name,entities,icon}; event {summary,dtstart,dtend,description,location,rrule,recurrence_id,recurrence_range}; card/view; backup {name,addons,folders,homeassistant}.'),
  dry_run: dryRunArg(),
  confirm_token: confirmTokenArg()
})

export type ManageArgs = z.infer<typeof manageInput>

/** A problem with one field of a kind's config, said so the field is named: `config.folders: ...`. */
function problemText (issue: z.core.$ZodIssue, what: string): string {
  const where = ['config', ...issue.path.map(String)].join('.')
  if (issue.code === 'unrecognized_keys') return issue.keys.map(key => `${where}.${key}: not a field of ${what}`).join('; ')
  return `${where}: ${issue.message}`
}

/**
 * `config` as the kind's schema reads it, or HAMCP_INVALID_ARGUMENT naming each field that is wrong
 * (at most three) and a hint with a config that works.
 */
export function configOf<T extends z.ZodType> (schema: T, config: unknown, what: string, hint: string): z.output<T> {
  const parsed = schema.safeParse(config ?? {})
  if (parsed.success) return parsed.data
  throw new UserError('HAMCP_INVALID_ARGUMENT', `Invalid config for ${what}: ${parsed.error.issues.slice(0, 3).map(issue => problemText(issue, what)).join('; ')}.`, hint)
}

/** A refinement from a `...Problem(value)` check of src/policy/input-checks.ts. */
export function problemIssue (problem: (value: unknown) => string | undefined): (value: unknown, ctx: z.RefinementCtx) => void {
  return (value, ctx) => {
    const found = problem(value)
    if (found !== undefined) ctx.addIssue({ code: 'custom', message: found })
  }
}

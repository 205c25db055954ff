import { z } from 'zod'
import { confirmTokenArg, dryRunArg } from '../../_shared/write.ts'

/**
 * The one argument shape of ha_manage_config, shared by its four kinds. Described tersely: tools/list
 * is paid for in every conversation, and the description of the tool says what each kind reads.
 */
export const manageInput = z.object({
  kind: z.enum(['scene', 'calendar', 'dashboard', 'backup']).describe('Kind.'),
  action: z.enum(['create', 'update', 'move', 'delete']).describe('move: dashboards.'),
  id: z.string().trim().min(1).max(255).optional().describe('scene.*, calendar.*, dashboard url_path (lovelace).'),
  item: z.string().trim().max(255).optional().describe('Event uid; dashboard path (create: its view/section, none: new view).'),
  to: z.string().trim().max(20).optional().describe('Move to path.'),
  config: z.record(z.string(), z.unknown()).optional().describe('Scene {name,entities,icon}; event {summary,dtstart,dtend,description,location,rrule,recurrence_id,recurrence_range}; card/view; backup {name,addons,folders,homeassistant}.'),
  dry_run: dryRunArg(),
  confirm_token: confirmTokenArg()
})

export type ManageArgs = z.infer<typeof manageInput>

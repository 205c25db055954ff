import { z } from 'zod'
import { blocksArg, conditionsArg } from '../_shared/config-args.ts'
import { updateConfigTool } from './_config-tools.ts'

export default updateConfigTool({
  name: 'ha_update_automation',
  title: 'Update automation',
  description: 'Edit a UI automation: given fields replace, null removes; HA validates, the user confirms a diff.',
  kind: 'automation',
  category: 'automations',
  everyday: true,
  example: 'automation.wake_up'
}, {
  triggers: blocksArg().min(1).optional().describe('Triggers.'),
  conditions: conditionsArg().optional().describe('Conditions.'),
  actions: blocksArg().min(1).optional().describe('Actions.')
}, {
  initial_state: z.boolean().nullable().optional().describe('Enabled at startup.')
})

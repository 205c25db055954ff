import { deleteConfigTool } from './_config-tools.ts'

export default deleteConfigTool({
  name: 'ha_delete_automation',
  title: 'Delete automation',
  description: 'Delete a UI automation once the user confirms its YAML; returns it as deleted_yaml for undo.',
  kind: 'automation',
  category: 'automations',
  everyday: false,
  example: 'automation.wake_up'
})

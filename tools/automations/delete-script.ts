import { deleteConfigTool } from './_config-tools.ts'

export default deleteConfigTool({
  name: 'ha_delete_script',
  title: 'Delete script',
  description: 'Delete a UI script once the user confirms its YAML; returns it as deleted_yaml for undo.',
  kind: 'script',
  category: 'automations',
  everyday: false,
  example: 'script.bedtime'
})

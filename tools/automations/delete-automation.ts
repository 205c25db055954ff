import { deleteConfigTool } from './_config-tools.ts'

export default deleteConfigTool({
  name: 'ha_delete_automation',
  title: 'Delete automation',
  description: 'UI automations only; the user confirms its YAML, returned as deleted_yaml for undo.',
  kind: 'automation',
  category: 'automations',
  everyday: false,
  keywords: {
    en: 'delete remove erase get rid of automation rule drop',
    de: 'automatisierung löschen entfernen regel weg',
    fr: 'supprimer effacer retirer automatisation règle',
    es: 'eliminar borrar quitar automatización regla',
    nl: 'automatisering verwijderen wissen regel weghalen'
  }
})

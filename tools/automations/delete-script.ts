import { deleteConfigTool } from './_config-tools.ts'

export default deleteConfigTool({
  name: 'ha_delete_script',
  title: 'Delete script',
  description: 'UI scripts only; the user confirms its YAML, returned as deleted_yaml for undo.',
  kind: 'script',
  category: 'automations',
  everyday: false,
  keywords: {
    en: 'delete remove erase script drop',
    de: 'skript löschen entfernen',
    fr: 'supprimer effacer retirer script',
    es: 'eliminar borrar quitar script guion',
    nl: 'script verwijderen wissen'
  }
})

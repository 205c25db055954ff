import { blocksArg } from '../_shared/config-args.ts'
import { updateConfigTool } from './_config-tools.ts'

export default updateConfigTool({
  name: 'ha_update_script',
  title: 'Update script',
  description: 'Edit a UI script: given fields replace, null removes; HA validates, the user confirms a diff.',
  kind: 'script',
  category: 'automations',
  everyday: false,
  keywords: {
    en: 'edit change modify update script fix adjust sequence steps',
    de: 'skript bearbeiten ändern anpassen aktualisieren schritte',
    fr: 'modifier changer mettre à jour script corriger étapes',
    es: 'editar cambiar modificar actualizar script guion pasos',
    nl: 'script bewerken wijzigen aanpassen bijwerken stappen'
  }
}, {
  sequence: blocksArg().min(1).optional().describe('Sequence.')
})

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
  keywords: {
    en: 'edit change modify update automation fix adjust rule trigger time condition',
    de: 'automatisierung bearbeiten ändern anpassen aktualisieren korrigieren uhrzeit bedingung',
    fr: 'modifier changer mettre à jour automatisation corriger ajuster heure condition',
    es: 'editar cambiar modificar actualizar automatización corregir ajustar hora condición',
    nl: 'automatisering bewerken wijzigen aanpassen bijwerken corrigeren tijd voorwaarde'
  }
}, {
  triggers: blocksArg().min(1).optional().describe('Triggers.'),
  conditions: conditionsArg().optional().describe('Conditions.'),
  actions: blocksArg().min(1).optional().describe('Actions.')
}, {
  initial_state: z.boolean().nullable().optional().describe('Initial state.')
})

import { z } from 'zod'
import { defineTool } from '../../src/mcp/runtime/define-tool.ts'
import { entityIdArg } from '../_shared/args.ts'
import { hideEntities, lastTriggered, requireItem } from './_config.ts'

export default defineTool({
  name: 'ha_get_automation',
  title: 'Get automation',
  description: 'State, last_triggered, mode, source and config.',
  kind: 'read',
  category: 'automations',
  everyday: true,
  keywords: {
    en: 'show automation details config yaml what does it do definition triggers conditions actions look at',
    de: 'automatisierung anzeigen details konfiguration yaml was macht sie auslöser bedingungen aktionen',
    fr: 'afficher automatisation détails configuration yaml que fait elle déclencheurs conditions actions',
    es: 'mostrar automatización detalles configuración yaml qué hace disparadores condiciones acciones',
    nl: 'automatisering tonen details configuratie yaml wat doet triggers voorwaarden acties'
  },
  input: z.object({ entity_id: entityIdArg('Entity id.') }),
  async handler ({ home, ha }, { entity_id: entityId }) {
    const row = requireItem(home, 'automation', entityId)
    const attributes = home.state(entityId)?.attributes ?? {}
    const key = home.configKey('automation', entityId)
    const stored = await home.configs.stored('automation', key)
    let config = stored.config
    let note: string | undefined
    if (config === null) {
      // YAML automations have no REST config; HA's automation/config command still shows them.
      config = await ha.command<{ config?: Record<string, unknown> }>({ type: 'automation/config', entity_id: entityId })
        .then(result => result?.config ?? null, () => null)
      note = config === null
        ? 'Defined in YAML; its config is not available through the API. Edit it in the YAML files.'
        : 'Defined in YAML: read-only here, edit it in the YAML files.'
    }
    return {
      entity_id: row.entity_id,
      name: row.name,
      enabled: row.state === 'on',
      state: row.state,
      last_triggered: lastTriggered(home, entityId),
      mode: attributes.mode ?? null,
      running: typeof attributes.current === 'number' ? attributes.current : 0,
      id: key ?? null,
      source: stored.source,
      area: row.area,
      config: config && hideEntities(home, config),
      ...(note ? { note } : {})
    }
  }
})

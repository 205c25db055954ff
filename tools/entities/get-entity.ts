import { z } from 'zod'
import { defineTool } from '../../src/mcp/runtime/define-tool.ts'
import { truncateAttributes } from '../../src/home/attributes.ts'
import { entityIdArg } from '../_shared/args.ts'
import { requireEntity } from '../../src/home/entities.ts'

export default defineTool({
  name: 'ha_get_entity',
  title: 'Get entity',
  description: 'State, attributes, area, floor, labels, aliases, device, category, hidden.',
  kind: 'read',
  category: 'entities',
  everyday: true,
  essential: true,
  keywords: {
    en: 'state status value current attributes details is the what is temperature of one entity reading level locked unlocked opened closed on off currently right now',
    de: 'zustand status wert aktuell attribute details ist der die wie warm temperatur abgeschlossen verriegelt offen geschlossen gerade jetzt',
    fr: 'état statut valeur actuelle attributs détails est ce que la température verrouillée fermée ouverte allumée éteinte actuellement',
    es: 'estado valor actual atributos detalles está la temperatura cerrada abierta bloqueada encendida apagada ahora',
    nl: 'toestand status waarde huidige attributen details staat de temperatuur afgesloten op slot dicht open nu'
  },
  input: z.object({ entity_id: entityIdArg() }),
  async handler ({ home }, { entity_id: entityId }) {
    const row = requireEntity(home, entityId)
    const state = home.state(entityId)
    const { attributes, truncated } = truncateAttributes(state?.attributes ?? {})
    const registries = home.registries
    const device = row.device_id ? registries.devices.get(row.device_id) : undefined
    const out: Record<string, unknown> = {
      entity_id: row.entity_id,
      name: row.name,
      state: row.state,
      attributes,
      last_changed: state?.last_changed,
      last_updated: state?.last_updated,
      area: row.area_id ? { id: row.area_id, name: row.area } : null,
      floor: row.floor_id ? { id: row.floor_id, name: row.floor } : null,
      labels: row.labels.map(id => ({ id, name: registries.labels.get(id)?.name ?? id })),
      aliases: row.aliases,
      ...(row.name_is_alias ? { name_is_alias: true } : {}),
      device: device ? { id: device.id, name: registries.deviceName(device), manufacturer: device.manufacturer, model: device.model } : null,
      entity_category: row.entity_category,
      hidden: row.hidden
    }
    if (truncated.length) out.note = `Attributes truncated to 500 characters: ${truncated.join(', ')}.`
    return out
  }
})

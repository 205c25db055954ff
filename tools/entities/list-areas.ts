import { z } from 'zod'
import { defineTool } from '../../src/mcp/runtime/define-tool.ts'
import { page } from '../../src/shape.ts'

export default defineTool({
  name: 'ha_list_areas',
  title: 'List areas',
  description: 'Areas with floor, aliases and entity count.',
  kind: 'read',
  category: 'entities',
  everyday: true,
  keywords: {
    en: 'areas rooms room list which rooms kitchen bedroom living',
    de: 'bereiche räume zimmer raum welche räume',
    fr: 'zones pièces pièce salles quelles pièces',
    es: 'áreas habitaciones cuartos estancias qué habitaciones',
    nl: 'ruimtes kamers kamer gebieden welke kamers'
  },
  input: z.object({}),
  async handler ({ home }) {
    const registries = home.registries
    const counts = home.counts().area
    const areas = [...registries.areas.values()].sort((a, b) => a.name.localeCompare(b.name)).map(area => {
      const floor = area.floor_id ? registries.floors.get(area.floor_id) : undefined
      const row: Record<string, unknown> = { area_id: area.area_id, name: area.name, entities: counts.get(area.area_id) ?? 0 }
      if (floor) row.floor = floor.name
      if (area.aliases.length) row.aliases = area.aliases
      return row
    })
    return page(areas, 0, areas.length)
  }
})

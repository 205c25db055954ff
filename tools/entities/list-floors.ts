import { z } from 'zod'
import { defineTool } from '../../src/mcp/runtime/define-tool.ts'
import { page } from '../../src/shape.ts'

export default defineTool({
  name: 'ha_list_floors',
  title: 'List floors',
  description: 'Floors with level, areas and entity count.',
  kind: 'read',
  category: 'entities',
  everyday: false,
  keywords: {
    en: 'floors levels storeys upstairs downstairs ground floor basement attic',
    de: 'etagen stockwerke geschosse obergeschoss erdgeschoss keller dachboden',
    fr: 'étages niveaux rez de chaussée sous sol grenier',
    es: 'plantas pisos niveles planta baja sótano ático',
    nl: 'verdiepingen etages bovenverdieping begane grond benedenverdieping kelder zolder'
  },
  input: z.object({}),
  async handler ({ home }) {
    const registries = home.registries
    const counts = home.counts().floor
    const floors = [...registries.floors.values()]
      .sort((a, b) => (a.level ?? 0) - (b.level ?? 0) || a.name.localeCompare(b.name))
      .map(floor => ({
        floor_id: floor.floor_id,
        name: floor.name,
        level: floor.level,
        areas: [...registries.areas.values()].filter(a => a.floor_id === floor.floor_id).map(a => a.area_id),
        entities: counts.get(floor.floor_id) ?? 0
      }))
    return page(floors, 0, floors.length)
  }
})

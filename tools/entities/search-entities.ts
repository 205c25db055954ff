import { z } from 'zod'
import { defineTool } from '../../src/mcp/runtime/define-tool.ts'
import { limitArg } from '../_shared/args.ts'
import { compactRow } from '../_shared/entities.ts'

export default defineTool({
  name: 'ha_search_entities',
  title: 'Search entities',
  description: 'Start here: entities whose id, name, aliases, area, floor or labels match every word.',
  kind: 'read',
  category: 'entities',
  everyday: true,
  essential: true,
  keywords: {
    en: 'find search look up where is which entity named called id lamp light sensor device by name kitchen',
    de: 'finden suchen nachschlagen welche entität namens heißt lampe licht sensor gerät',
    fr: 'trouver chercher rechercher quelle entité nommée appelée lampe lumière capteur appareil',
    es: 'encontrar buscar qué entidad llamada nombre lámpara luz sensor dispositivo',
    nl: 'vinden zoeken opzoeken welke entiteit genaamd heet lamp licht sensor apparaat'
  },
  input: z.object({
    query: z.string().trim().min(1).max(200).describe('Words, e.g. "kitchen light".'),
    limit: limitArg(50, 20)
  }),
  async handler ({ home }, { query, limit }) {
    const { rows, total } = home.search(query, limit)
    const note = total === 0 ? 'No match: try fewer or shorter words, or ha_list_entities with a domain or area.' : undefined
    return {
      items: rows.map(compactRow),
      returned: rows.length,
      total,
      has_more: total > rows.length,
      next_offset: null,
      ...(total > rows.length ? { note: 'More matches: add words to narrow, or use ha_list_entities with search and offset to page.' } : note ? { note } : {})
    }
  }
})

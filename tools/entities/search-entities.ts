import { z } from 'zod'
import { defineTool } from '../../src/mcp/define-tool.ts'
import { page } from '../../src/shape.ts'
import { limitArg } from '../_shared/args.ts'
import { compactRow, searchRows } from '../_shared/entities.ts'

export default defineTool({
  name: 'ha_search_entities',
  title: 'Search entities',
  description: 'Start here: entities whose id, name, aliases, area, floor or labels match every word (accents ignored).',
  kind: 'read',
  input: z.object({
    query: z.string().trim().min(1).max(200).describe('Words, e.g. "kitchen light" or "étage temperature".'),
    limit: limitArg(50, 20)
  }),
  async handler ({ home }, { query, limit }) {
    const matches = searchRows(home, query)
    const note = matches.length === 0 ? 'No match: try fewer or shorter words, or ha_list_entities with a domain or area.' : undefined
    return page(matches, 0, limit, note, compactRow)
  }
})

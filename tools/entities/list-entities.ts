import { z } from 'zod'
import type { EntityRow } from '../../src/home/entities.ts'
import { defineTool } from '../../src/mcp/runtime/define-tool.ts'
import { page } from '../../src/shape.ts'
import { limitArg, offsetArg, slugArg } from '../_shared/args.ts'
import { compactRow, resolveArea, resolveFloor, resolveLabel, searchRows } from '../_shared/entities.ts'

function top (counts: Map<string, number>, n: number): Record<string, number> {
  return Object.fromEntries([...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).slice(0, n))
}

export default defineTool({
  name: 'ha_list_entities',
  title: 'List entities',
  description: 'Entities matching every given filter, paged; no filter gives counts by domain and area.',
  kind: 'read',
  category: 'entities',
  everyday: true,
  keywords: {
    en: 'entities all which lights are on all lights sensors switches every open windows doors count how many list by domain state filter',
    de: 'entitäten alle welche lichter sind an alle lampen sensoren schalter offene fenster türen wie viele liste',
    fr: 'entités toutes quelles lumières sont allumées tous les capteurs interrupteurs fenêtres ouvertes portes combien liste',
    es: 'entidades todas qué luces están encendidas todos los sensores interruptores ventanas abiertas puertas cuántos lista',
    nl: 'entiteiten alle welke lampen zijn aan alle sensoren schakelaars open ramen deuren hoeveel lijst'
  },
  input: z.object({
    domain: slugArg('domain', 'light').optional(),
    area: z.string().trim().min(1).optional().describe('Area id or name.'),
    floor: z.string().trim().min(1).optional().describe('Floor id or name.'),
    label: z.string().trim().min(1).optional().describe('Label id or name.'),
    search: z.string().trim().min(1).max(200).optional().describe('Words that must all match.'),
    state: z.string().min(1).optional().describe('Exact state, e.g. unavailable.'),
    limit: limitArg(200, 50),
    offset: offsetArg()
  }),
  async handler ({ home }, args) {
    const filtered = args.domain ?? args.area ?? args.floor ?? args.label ?? args.search ?? args.state
    if (filtered === undefined) {
      const byDomain = new Map<string, number>()
      const byArea = new Map<string, number>()
      const rows = home.entities()
      for (const row of rows) {
        byDomain.set(row.domain, (byDomain.get(row.domain) ?? 0) + 1)
        const area = row.area ?? '(no area)'
        byArea.set(area, (byArea.get(area) ?? 0) + 1)
      }
      return {
        total: rows.length,
        by_domain: top(byDomain, 30),
        by_area: top(byArea, 30),
        note: 'Counts only (top 30 each). Pass domain, area, floor, label, search or state to list entities.'
      }
    }
    const areaId = args.area ? resolveArea(home, args.area) : undefined
    const floorId = args.floor ? resolveFloor(home, args.floor) : undefined
    const labelId = args.label ? resolveLabel(home, args.label) : undefined
    let rows: readonly EntityRow[] = args.search
      ? searchRows(home, args.search)
      : args.domain !== undefined ? home.domain(args.domain) : home.entities()
    // By domain alone (the common call), the domain's rows are the answer: no pass over them.
    const domainOnly = args.search === undefined && areaId === undefined && floorId === undefined && labelId === undefined && args.state === undefined
    if (!domainOnly) {
      rows = rows.filter(row =>
        (args.domain === undefined || row.domain === args.domain) &&
        (areaId === undefined || row.area_id === areaId) &&
        (floorId === undefined || row.floor_id === floorId) &&
        (labelId === undefined || row.labels.includes(labelId)) &&
        (args.state === undefined || row.state === args.state))
    }
    const note = rows.length === 0 ? 'Nothing matches all filters; drop one or check names with ha_list_areas / ha_search_entities.' : undefined
    return page(rows, args.offset, args.limit, note, compactRow)
  }
})

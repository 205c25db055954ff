import { z } from 'zod'
import { defineTool } from '../../src/mcp/define-tool.ts'
import { limitArg, offsetArg } from '../_shared/args.ts'
import { updateView } from './_updates.ts'

export default defineTool({
  name: 'ha_list_updates',
  title: 'List updates',
  description: 'Updates of Home Assistant, add-ons and device firmware: versions, release summary, backup and progress support, skipped, installing.',
  kind: 'read',
  category: 'system',
  everyday: false,
  input: z.object({
    all: z.boolean().default(false).describe('Also up-to-date ones.'),
    limit: limitArg(100, 30),
    offset: offsetArg()
  }),
  async handler ({ home, ha }, args) {
    const views = home.domain('update').flatMap(row => {
      const view = updateView(home, ha, row.entity_id)
      return view ? [view] : []
    })
    const shown = args.all ? views : views.filter(v => v.update_available === true || v.in_progress === true || v.skipped !== undefined || v.last_install !== undefined)
    // Available first, then installing, then the rest; by entity id within each.
    const rank = (v: Record<string, unknown>): number => v.update_available === true ? 0 : v.in_progress === true ? 1 : 2
    shown.sort((a, b) => rank(a) - rank(b) || String(a.entity_id).localeCompare(String(b.entity_id)))
    const items = shown.slice(args.offset, args.offset + args.limit)
    const next = args.offset + items.length
    return {
      items,
      returned: items.length,
      total: shown.length,
      has_more: next < shown.length,
      ...(next < shown.length ? { next_offset: next } : {}),
      note: args.all ? undefined : `${views.length - shown.length} up-to-date update entities left out (all=true lists them). ha_manage_update installs or skips one.`
    }
  }
})

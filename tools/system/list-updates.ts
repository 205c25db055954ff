import { z } from 'zod'
import { defineTool } from '../../src/mcp/runtime/define-tool.ts'
import { updateView } from './_updates.ts'

/** About 250 bytes each: 40 stay well under the answer cap. */
const MAX_ITEMS = 40

export default defineTool({
  name: 'ha_list_updates',
  title: 'List updates',
  description: 'Pending updates (core, add-ons, firmware): versions, notes, backup/progress support.',
  kind: 'read',
  category: 'system',
  everyday: false,
  keywords: {
    en: 'updates available update new version upgrade firmware core os add-on release notes what needs updating pending',
    de: 'updates aktualisierungen verfügbar neue version aktualisieren firmware core betriebssystem addon versionshinweise',
    fr: 'mises à jour disponibles nouvelle version mettre à jour firmware core os module notes de version',
    es: 'actualizaciones disponibles nueva versión actualizar firmware core os complemento notas de la versión',
    nl: 'updates beschikbaar nieuwe versie bijwerken upgraden firmware core os add-on release notes'
  },
  // Listed with the tools that act on updates: an owner who lets the assistant manage none has no use for it.
  enabled: options => options.allow_config_write,
  input: z.object({
    all: z.boolean().default(false).describe('Also up-to-date ones.')
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
    const items = shown.slice(0, MAX_ITEMS)
    return {
      items,
      returned: items.length,
      total: shown.length,
      has_more: items.length < shown.length,
      note: `${args.all ? '' : `${views.length - shown.length} up-to-date ones left out (all=true lists them). `}${items.length < shown.length ? `The first ${MAX_ITEMS} shown. ` : ''}ha_manage_update installs or skips one.`
    }
  }
})

import { z } from 'zod'
import { defineTool } from '../../src/mcp/runtime/define-tool.ts'
import { byteLength, page } from '../../src/shape.ts'
import { offsetArg } from '../_shared/args.ts'
import { mapBounded } from '../_shared/map-bounded.ts'
import { hideEntities, lastTriggered } from './_config.ts'

/** Whole-page budget when configs are attached: leaves room under the 15 KB cap for the envelope. */
export const CONFIG_PAGE_BUDGET_BYTES = 14_000
export const MAX_CONFIG_PAGE = 10

export default defineTool({
  name: 'ha_list_automations',
  title: 'List automations',
  description: 'Automations: enabled, last_triggered, source ui/yaml; paged.',
  kind: 'read',
  category: 'automations',
  everyday: true,
  keywords: {
    en: 'automations list all my automations rules routines which automations enabled disabled',
    de: 'automatisierungen alle auflisten regeln routinen welche aktiv deaktiviert',
    fr: 'automatisations toutes lister règles routines lesquelles actives désactivées',
    es: 'automatizaciones todas listar reglas rutinas cuáles activas desactivadas',
    nl: 'automatiseringen alle lijst regels routines welke ingeschakeld uitgeschakeld'
  },
  input: z.object({
    limit: z.number().int().min(1).max(200).optional().describe('Page size (default 100).'),
    offset: offsetArg(),
    include_config: z.boolean().default(false).describe('Attach UI configs (then 5 a page, max 10).')
  }),
  async handler ({ home, ha }, args) {
    const rows = home.entities().filter(row => row.domain === 'automation')
    const notes: string[] = []
    let limit = args.limit ?? (args.include_config ? 5 : 100)
    if (args.include_config && limit > MAX_CONFIG_PAGE) {
      notes.push(`limit lowered to ${MAX_CONFIG_PAGE} because include_config is on.`)
      limit = MAX_CONFIG_PAGE
    }
    const envelope = page(rows, args.offset, limit)
    const items = await mapBounded(envelope.items, async row => {
      const key = home.configKey('automation', row.entity_id)
      const stored = args.include_config ? await home.configs.stored('automation', key) : { source: await home.configs.source('automation', key), config: null }
      const item: Record<string, unknown> = {
        entity_id: row.entity_id,
        name: row.name,
        enabled: row.state === 'on',
        last_triggered: lastTriggered(home, row.entity_id),
        source: stored.source
      }
      if (args.include_config) item.config = stored.config && hideEntities(home, stored.config)
      return item
    })
    if (args.include_config) {
      // Drop whole configs, biggest first, until the page fits; never cut a config in half.
      const sized = items.map((item, index) => ({ index, bytes: byteLength(item.config) })).sort((a, b) => b.bytes - a.bytes)
      let total = byteLength(items)
      const omitted: string[] = []
      for (const { index, bytes } of sized) {
        if (total <= CONFIG_PAGE_BUDGET_BYTES) break
        const item = items[index] as Record<string, unknown>
        if (item.config === null) continue
        item.config = null
        item.config_omitted = true
        total -= bytes
        omitted.push(String(item.entity_id))
      }
      if (omitted.length) notes.push(`Configs omitted to fit the answer: ${omitted.join(', ')}; read them with ha_get_automation.`)
      if (items.some(item => item.source === 'yaml')) notes.push('YAML automations have config null: ha_get_automation shows what Home Assistant exposes.')
    }
    const result = { ...envelope, items }
    return notes.length ? { ...result, note: notes.join(' ') } : result
  }
})

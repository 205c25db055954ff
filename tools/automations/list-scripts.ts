import { z } from 'zod'
import { defineTool } from '../../src/mcp/runtime/define-tool.ts'
import { page } from '../../src/shape.ts'
import { limitArg, offsetArg } from '../_shared/args.ts'
import { lastTriggered } from './_config.ts'

export default defineTool({
  name: 'ha_list_scripts',
  title: 'List scripts',
  description: 'Scripts: running, mode, last_triggered; paged.',
  kind: 'read',
  category: 'automations',
  everyday: true,
  keywords: {
    en: 'scripts list all my scripts which scripts routines macros',
    de: 'skripte alle auflisten welche skripte routinen',
    fr: 'scripts tous lister quels scripts routines',
    es: 'scripts guiones todos listar qué scripts rutinas',
    nl: 'scripts alle lijst welke scripts routines'
  },
  input: z.object({ limit: limitArg(200, 100), offset: offsetArg() }),
  async handler ({ home }, args) {
    const rows = home.entities().filter(row => row.domain === 'script')
    return page(rows, args.offset, args.limit, rows.length === 0 ? 'No scripts in this home.' : undefined, row => {
      const attributes = home.state(row.entity_id)?.attributes ?? {}
      return {
        entity_id: row.entity_id,
        name: row.name,
        running: row.state === 'on',
        mode: attributes.mode ?? null,
        last_triggered: lastTriggered(home, row.entity_id)
      }
    })
  }
})

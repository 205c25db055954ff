import { defineTool } from '../../../src/mcp/define-tool.ts'
import { manageInput } from './_args.ts'
import { manageBackup } from './_backup.ts'
import { manageCalendar } from './_calendar.ts'
import { manageDashboard } from './_dashboard.ts'
import { manageEnergy } from './_energy.ts'
import { manageScene } from './_scene.ts'

const BY_KIND = { scene: manageScene, calendar: manageCalendar, dashboard: manageDashboard, backup: manageBackup, energy: manageEnergy }

export default defineTool({
  name: 'ha_manage_config',
  title: 'Scenes, events, dashboards, backups, energy',
  description: 'Edit scenes, events, dashboard views/cards (paths: ha_list_dashboards), energy settings; make backups.',
  kind: 'manage',
  category: 'config',
  everyday: false,
  input: manageInput,
  async handler (ctx, args) {
    return await BY_KIND[args.kind](ctx, args)
  }
})

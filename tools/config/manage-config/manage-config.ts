import { defineTool } from '../../../src/mcp/define-tool.ts'
import { manageInput } from './_args.ts'
import { manageBackup } from './_backup.ts'
import { manageCalendar } from './_calendar.ts'
import { manageDashboard } from './_dashboard.ts'
import { manageScene } from './_scene.ts'

const BY_KIND = { scene: manageScene, calendar: manageCalendar, dashboard: manageDashboard, backup: manageBackup }

export default defineTool({
  name: 'ha_manage_config',
  title: 'Scenes, events, dashboards, backups',
  description: 'Edit scenes, calendar events, dashboard views/cards (paths: ha_list_dashboards); make backups.',
  kind: 'manage',
  category: 'config',
  everyday: false,
  input: manageInput,
  async handler (ctx, args) {
    return await BY_KIND[args.kind](ctx, args)
  }
})

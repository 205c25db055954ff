import t from 'tap'
import { z } from 'zod'
import { ALL_SCOPES, type Identity, type Scope } from '../src/auth/identity.ts'
import { defineTool } from '../src/mcp/define-tool.ts'
import { checkDefinition, compactSchema, loadToolCatalog, ToolCatalog } from '../src/mcp/registry.ts'
import { optionsSchema, type Options } from '../src/options.ts'

const READ = [
  'ha_explain_event', 'ha_get_addons', 'ha_get_automation', 'ha_get_automation_trace', 'ha_get_calendar', 'ha_get_energy',
  'ha_get_entity', 'ha_get_forecast', 'ha_get_health', 'ha_get_history', 'ha_get_logbook', 'ha_get_presence',
  'ha_get_self_test', 'ha_get_statistics', 'ha_get_system', 'ha_get_todo_list', 'ha_list_areas', 'ha_list_automations',
  'ha_list_blueprints', 'ha_list_dashboards', 'ha_list_devices', 'ha_list_entities', 'ha_list_floors', 'ha_list_labels',
  'ha_list_scripts', 'ha_list_services', 'ha_render_template', 'ha_search_entities'
]
const WRITE = [
  'ha_announce', 'ha_call_service', 'ha_create_helper', 'ha_delete_helper', 'ha_manage_todo', 'ha_run_script',
  'ha_send_notification', 'ha_set_automation', 'ha_snapshot_scene', 'ha_trigger_automation', 'ha_undo'
]
const MANAGE = [
  'ha_add_dashboard_card', 'ha_create_automation', 'ha_create_from_blueprint', 'ha_create_script', 'ha_delete_automation',
  'ha_delete_script', 'ha_manage_registry', 'ha_update_automation', 'ha_update_device', 'ha_update_entities', 'ha_update_script'
]
const CAMERA = ['ha_get_camera_snapshot']

const primary: Identity = { id: 'primary', name: 'primary', scopes: ALL_SCOPES }
const sorted = (names: string[]): string[] => [...names].sort()
const opts = (partial: Partial<Options>): Options => optionsSchema.parse(partial)

t.test('the catalogue', async t => {
  const catalog = await loadToolCatalog()
  const names = (options: Options, identity: Identity = primary): string[] =>
    catalog.listFor(options, identity).tools.map(tool => tool.name).sort()

  t.test('exact tool set for each option combination', async t => {
    t.same(names(opts({})), sorted(READ), 'defaults: reads only')
    t.same(names(opts({ allow_write: true })), sorted([...READ, ...WRITE]), 'allow_write')
    t.same(names(opts({ allow_config_write: true })), sorted([...READ, ...MANAGE]), 'allow_config_write alone adds config tools only')
    t.same(names(opts({ allow_camera: true })), sorted([...READ, ...CAMERA]), 'allow_camera')
    t.same(names(opts({ filter_reads: true })), sorted(READ.filter(n => n !== 'ha_render_template')), 'filter_reads removes templates')
    t.same(names(opts({ allow_write: true, allow_config_write: true, allow_camera: true })), sorted([...READ, ...WRITE, ...MANAGE, ...CAMERA]), 'everything on')
    t.equal(catalog.tools.length, READ.length + WRITE.length + MANAGE.length + CAMERA.length, 'no module outside these lists')
  })

  t.test('a token\'s scopes narrow the set, never widen it', async t => {
    const readOnly: Identity = { id: 'token:r', name: 'reader', scopes: new Set<Scope>(['read']) }
    t.same(names(opts({ allow_write: true, allow_config_write: true, allow_camera: true }), readOnly), sorted(READ))
    const writer: Identity = { id: 'token:w', name: 'writer', scopes: new Set<Scope>(['read', 'write', 'manage']) }
    t.same(names(opts({}), writer), sorted(READ), 'scopes cannot exceed the options')
  })

  // Names, titles, descriptions and schema shape are checked when the catalogue loads (see the bad-modules
  // test below); what is left to check is what the listing tells clients.
  t.test('every listing states its hints explicitly, read-only following the kind', async t => {
    for (const tool of catalog.tools) {
      const listing = tool.listing
      t.type(listing.annotations.readOnlyHint, 'boolean', `${listing.name} states readOnlyHint explicitly`)
      t.type(listing.annotations.openWorldHint, 'boolean', `${listing.name} states openWorldHint explicitly`)
      t.equal(listing.annotations.readOnlyHint, tool.definition.kind === 'read' || tool.definition.kind === 'camera', `${listing.name} read-only hint follows its kind`)
    }
  })

  t.test('snapshot of every definition as clients see it', async t => {
    const all = catalog.listFor(opts({ allow_write: true, allow_config_write: true, allow_camera: true }), primary)
    t.matchSnapshot(all.tools, 'tools/list with every option on')
  })

  t.test('the listed schema drops noise, never a constraint a model could hit', async t => {
    const input = z.object({
      id: z.string().min(3).max(255).regex(/^[a-z]+$/).describe('Id.'),
      template: z.string().max(5000).describe('Template.'),
      data: z.record(z.string(), z.unknown()).nullable().optional().describe('Data.'),
      blocks: z.array(z.unknown()).min(1).describe('Blocks.'),
      count: z.number().int().min(1).max(50).describe('Count.')
    })
    const listed = compactSchema(z.toJSONSchema(input, { io: 'input' })) as { properties: Record<string, unknown> }
    t.same(listed.properties, {
      id: { type: 'string', description: 'Id.' },
      template: { type: 'string', maxLength: 5000, description: 'Template.' },
      data: { description: 'Data.', type: ['object', 'null'], additionalProperties: true },
      blocks: { minItems: 1, type: 'array', description: 'Blocks.' },
      count: { type: 'integer', minimum: 1, maximum: 50, description: 'Count.' }
    })
  })

  t.test('bad modules are refused with a reason', async t => {
    const base = { title: 'T', description: 'D', kind: 'read' as const, input: z.object({ a: z.string().describe('A.') }), handler: async () => ({}) }
    t.throws(() => checkDefinition(defineTool({ ...base, name: 'Bad-Name' }), 'x.ts'), /must match/)
    t.throws(() => checkDefinition(defineTool({ ...base, name: 'ok_name', input: z.object({ a: z.string() }) }), 'x.ts'), /no \.describe/)
    t.throws(() => checkDefinition(defineTool({ ...base, name: 'ok_name', kind: 'admin' as never }), 'x.ts'), /kind/)
    t.throws(() => checkDefinition(defineTool({ ...base, name: 'ok_name', title: ' ' }), 'x.ts'), /title is empty/)
    const one = checkDefinition(defineTool({ ...base, name: 'ok_name' }), 'a.ts')
    t.throws(() => new ToolCatalog([one, checkDefinition(defineTool({ ...base, name: 'ok_name' }), 'b.ts')]), /duplicate tool name ok_name/)
    t.doesNotThrow(() => checkDefinition(defineTool({ ...base, name: 'ok_name' }), 'x.ts'))
  })
})

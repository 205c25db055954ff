import t from 'tap'
import { z } from 'zod'
import { ALL_LEVELS, type Identity } from '../src/auth/identity.ts'
import { defineTool } from '../src/mcp/define-tool.ts'
import { checkDefinition, compactSchema, loadToolCatalog, ToolCatalog } from '../src/mcp/registry.ts'
import { optionsSchema, type Options } from '../src/options.ts'
import { TOOLS_DIR } from '../app/tools-dir.ts'

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
  'ha_delete_script', 'ha_manage_config', 'ha_manage_registry', 'ha_update_automation', 'ha_update_device', 'ha_update_entities', 'ha_update_script'
]
const CAMERA = ['ha_get_camera_snapshot']

const primary: Identity = { id: 'primary', name: 'primary', levels: ALL_LEVELS }
const sorted = (names: string[]): string[] => [...names].sort()
const opts = (partial: Partial<Options>): Options => optionsSchema.parse(partial)

t.test('the catalogue', async t => {
  const catalog = await loadToolCatalog(TOOLS_DIR)
  const names = (options: Options, identity: Identity = primary): string[] =>
    catalog.listFor(options, identity).tools.map(tool => tool.name).sort()

  t.test('exact tool set for each option combination', async t => {
    t.same(names(opts({})), sorted(READ), 'defaults: reads only')
    t.same(names(opts({ allow_write: true })), sorted([...READ, ...WRITE]), 'allow_write')
    t.same(names(opts({ allow_config_write: true })), sorted([...READ, ...MANAGE, 'ha_undo']), 'allow_config_write alone adds config tools and the undo of config changes')
    t.same(names(opts({ allow_camera: true })), sorted([...READ, ...CAMERA]), 'allow_camera')
    t.same(names(opts({ filter_reads: true })), sorted(READ.filter(n => n !== 'ha_render_template')), 'filter_reads removes templates')
    t.same(names(opts({ allow_write: true, allow_config_write: true, allow_camera: true })), sorted([...READ, ...WRITE, ...MANAGE, ...CAMERA]), 'everything on')
    t.equal(catalog.tools.length, READ.length + WRITE.length + MANAGE.length + CAMERA.length, 'no module outside these lists')
  })

  t.test('a token\'s levels narrow the set per category, never widen it', async t => {
    const everything = opts({ allow_write: true, allow_config_write: true, allow_camera: true })
    const readOnly: Identity = { id: 'token:r', name: 'reader', levels: { '*': 'read' } }
    const TEMPLATE = 'ha_render_template'
    t.same(names(everything, readOnly), sorted(READ.filter(n => n !== TEMPLATE)), 'read everywhere: no write, no camera, no templates (they can read camera credentials)')
    const writer: Identity = { id: 'token:w', name: 'writer', levels: { '*': 'manage', camera: 'read' } }
    t.same(names(opts({}), writer), sorted(READ), 'levels cannot exceed the options')
    const lights: Identity = { id: 'token:l', name: 'lights', levels: { entities: 'read', services: 'write' } }
    t.same(names(everything, lights), sorted(['ha_get_entity', 'ha_list_areas', 'ha_list_devices', 'ha_list_entities', 'ha_list_floors', 'ha_list_labels', 'ha_search_entities', 'ha_list_services',
      ...catalog.tools.filter(tool => tool.category === 'services' && tool.definition.kind === 'write').map(tool => tool.definition.name)]), 'only the categories named')
    t.notOk(names(everything, lights).includes('ha_run_script'), 'running scripts belongs to automations')
    const camera: Identity = { id: 'token:c', name: 'cam', levels: { camera: 'read' } }
    t.same(names(everything, camera), sorted([...CAMERA, TEMPLATE]), 'the camera alone, with templates')
    t.same(names(everything, { id: 'token:n', name: 'none', levels: { '*': 'none' } }), [], 'none everywhere: nothing')
    const manager: Identity = { id: 'token:m', name: 'manager', levels: { '*': 'manage', camera: 'none' } }
    t.same(names(opts({ allow_config_write: true }), manager), sorted([...READ.filter(n => n !== TEMPLATE), ...MANAGE, 'ha_undo']), 'config writes alone bring ha_undo for them')
  })

  t.test('every tool has a category; write and config tools are sorted by subject', async t => {
    const byName = new Map(catalog.tools.map(tool => [tool.definition.name, tool.category]))
    t.equal(byName.get('ha_run_script'), 'automations')
    t.equal(byName.get('ha_create_automation'), 'automations')
    t.equal(byName.get('ha_add_dashboard_card'), 'dashboards')
    t.equal(byName.get('ha_send_notification'), 'notify')
    t.equal(byName.get('ha_manage_todo'), 'calendar')
    t.equal(byName.get('ha_call_service'), 'services')
    t.equal(byName.get('ha_manage_config'), 'config', 'other configuration writes: their own category')
    t.equal(byName.get('ha_get_camera_snapshot'), 'camera')
    t.equal(byName.get('ha_render_template'), 'camera', 'a template can read camera credentials: filed with the camera')
    for (const tool of catalog.tools) t.match(tool.category, /^[a-z_]{1,32}$/, `${tool.definition.name} has a category`)
  })

  // Names, titles, descriptions and schema shape are checked when the catalogue loads (see the bad-modules
  // test below); what is left to check is what the listing tells clients.
  t.test('every listing says read-only exactly for reads, and always its openWorldHint', async t => {
    for (const tool of catalog.tools) {
      const listing = tool.listing
      const readOnly = tool.definition.kind === 'read' || tool.definition.kind === 'camera'
      t.type(listing.annotations.openWorldHint, 'boolean', `${listing.name} states openWorldHint explicitly`)
      // The spec's default for an absent readOnlyHint is false: a write tool says so by leaving it out.
      t.equal(listing.annotations.readOnlyHint, readOnly ? true : undefined, `${listing.name} read-only hint follows its kind`)
      t.equal(tool.annotations.readOnlyHint, readOnly, `${listing.name} definition states readOnlyHint explicitly`)
      t.notOk('title' in listing, `${listing.name} listing leaves the title to the definition and the reference`)
    }
  })

  t.test('snapshot of every definition as clients see it', async t => {
    const all = catalog.listFor(opts({ allow_write: true, allow_config_write: true, allow_camera: true }), primary)
    t.matchSnapshot(all.tools, 'tools/list with every option on')
  })

  // Issue 12: every option on stays at or under 28 KB however many capabilities are added, and the
  // default read-only set never grows past what it was before the home-management tools (12,613 bytes).
  t.test('tools/list fits its byte budget', async t => {
    const bytes = (options: Options): number => Buffer.byteLength(JSON.stringify(catalog.listFor(options, primary)))
    const everything = bytes(opts({ allow_write: true, allow_config_write: true, allow_camera: true, enable_sessions: true }))
    t.ok(everything <= 28_000, `every option on: ${everything} bytes <= 28,000`)
    const readOnly = bytes(opts({}))
    t.ok(readOnly <= 12_613, `default read-only set: ${readOnly} bytes <= 12,613`)
  })

  t.test('the listed schema drops noise, never a constraint a model could hit', async t => {
    const input = z.object({
      id: z.string().min(3).max(255).regex(/^[a-z]+$/).describe('Lower-case id.'),
      template: z.string().max(5000).describe('Jinja.'),
      data: z.record(z.string(), z.unknown()).nullable().optional().describe('Service data.'),
      blocks: z.array(z.unknown()).min(1).describe('Actions.'),
      count: z.number().int().min(1).max(50).describe('Count.')
    })
    const listed = compactSchema(z.toJSONSchema(input, { io: 'input' })) as { properties: Record<string, unknown> }
    t.same(listed.properties, {
      id: { type: 'string', description: 'Lower-case id.' },
      template: { type: 'string', maxLength: 5000, description: 'Jinja.' },
      data: { description: 'Service data.', type: 'object', additionalProperties: true, nullable: true },
      blocks: { minItems: 1, type: 'array', description: 'Actions.' },
      // A description that only repeats the field's name is dropped.
      count: { type: 'integer', minimum: 1, maximum: 50 }
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

import { readdirSync } from 'node:fs'
import { basename, extname, join, relative, sep } from 'node:path'
import { pathToFileURL } from 'node:url'
import t from 'tap'
import { z } from 'zod'
import { ALL_LEVELS, type Identity } from '../src/auth/identity.ts'
import { defineTool, type ToolDefinition, type ToolKind } from '../src/mcp/runtime/define-tool.ts'
import { compactSchema } from '../src/mcp/runtime/client-schema.ts'
import { checkDefinition, loadToolCatalog, ToolCatalog, toolFiles } from '../src/mcp/runtime/registry.ts'
import { optionsSchema, type Options } from '../src/options.ts'
import { TOOLS_DIR } from '../app/tools-dir.ts'
import { BUDGETS, catalogSizes } from '../bench/catalog-sizes.ts'

/**
 * Every tool: its name, the category a token's level applies to (also its folder under tools/), its kind
 * and whether it is an everyday tool (listed by tool_list core). A new tool module adds its row here.
 */
const TOOLS: Record<string, [category: string, kind: ToolKind, everyday: boolean]> = {
  ha_add_dashboard_card: ['dashboards', 'manage', false],
  ha_announce: ['notify', 'write', true],
  ha_call_service: ['services', 'write', true],
  ha_create_automation: ['automations', 'manage', true],
  ha_create_from_blueprint: ['automations', 'manage', false],
  ha_create_helper: ['services', 'write', false],
  ha_create_script: ['automations', 'manage', false],
  ha_delete_automation: ['automations', 'manage', false],
  ha_delete_helper: ['services', 'write', false],
  ha_delete_script: ['automations', 'manage', false],
  ha_explain_event: ['history', 'read', true],
  ha_get_addons: ['system', 'read', false],
  ha_get_automation: ['automations', 'read', true],
  ha_get_automation_trace: ['automations', 'read', true],
  ha_get_calendar: ['calendar', 'read', true],
  ha_get_camera_snapshot: ['camera', 'camera', true],
  ha_get_energy: ['environment', 'read', true],
  ha_get_entity: ['entities', 'read', true],
  ha_get_forecast: ['environment', 'read', true],
  ha_get_health: ['system', 'read', true],
  ha_get_history: ['history', 'read', true],
  ha_get_logbook: ['history', 'read', true],
  ha_get_presence: ['environment', 'read', true],
  ha_get_self_test: ['system', 'read', false],
  ha_get_statistics: ['history', 'read', false],
  ha_get_system: ['system', 'read', false],
  ha_get_todo_list: ['calendar', 'read', true],
  ha_list_areas: ['entities', 'read', true],
  ha_list_automations: ['automations', 'read', true],
  ha_list_blueprints: ['automations', 'read', false],
  ha_list_dashboards: ['dashboards', 'read', false],
  ha_list_devices: ['entities', 'read', true],
  ha_list_entities: ['entities', 'read', true],
  ha_list_floors: ['entities', 'read', false],
  ha_list_integrations: ['integrations', 'read', false],
  ha_list_labels: ['entities', 'read', false],
  ha_list_scripts: ['automations', 'read', true],
  ha_list_services: ['services', 'read', true],
  ha_list_updates: ['system', 'read', false],
  ha_manage_addon: ['system', 'manage', false],
  ha_manage_config: ['config', 'manage', false],
  ha_manage_integration: ['integrations', 'manage', false],
  ha_manage_registry: ['registry', 'manage', false],
  ha_manage_repair: ['system', 'manage', false],
  ha_manage_update: ['system', 'manage', false],
  ha_restart: ['system', 'manage', false],
  ha_manage_todo: ['calendar', 'write', true],
  // A template can read a camera's access token and rewrite it past the answer's scrub: filed with the camera.
  ha_render_template: ['camera', 'read', false],
  ha_run_script: ['automations', 'write', true],
  ha_search_entities: ['entities', 'read', true],
  ha_send_notification: ['notify', 'write', true],
  ha_set_automation: ['automations', 'write', true],
  ha_snapshot_scene: ['scenes', 'write', false],
  ha_trigger_automation: ['automations', 'write', true],
  ha_undo: ['services', 'write', true],
  ha_update_automation: ['automations', 'manage', true],
  ha_update_device: ['registry', 'manage', false],
  ha_update_entities: ['registry', 'manage', false],
  ha_update_helper: ['services', 'write', false],
  ha_update_script: ['automations', 'manage', false]
}
/** Reads listed only with allow_config_write: they serve the tools that act on what they list. */
const CONFIG_READS = ['ha_list_integrations', 'ha_list_updates']
const ofKind = (kind: ToolKind): string[] => Object.entries(TOOLS).filter(([name, [, k]]) => k === kind && !CONFIG_READS.includes(name)).map(([name]) => name)
const READ = ofKind('read')
const WRITE = ofKind('write')
const MANAGE = ofKind('manage')
const CAMERA = ofKind('camera')
const META = ['ha_call_tool', 'ha_search_tools']
/** ha_undo serves writes and, through alsoKind, config writes. */
const UNDO = 'ha_undo'
/** Listed only when allow_addon_control is on too. */
const ADDON = 'ha_manage_addon'
const CONFIG = MANAGE.filter(name => name !== ADDON)

const SNAPSHOTS = join(import.meta.dirname, '..', 'tap-snapshots', 'tools')
const primary: Identity = { id: 'primary', name: 'primary', levels: ALL_LEVELS }
const sorted = (names: string[]): string[] => [...names].sort()
const opts = (partial: Partial<Options>): Options => optionsSchema.parse(partial)

t.test('the catalogue', async t => {
  const catalog = await loadToolCatalog(TOOLS_DIR)
  // The tools a caller may call: what tool_list full lists (the modes are tested below).
  const names = (options: Options, identity: Identity = primary): string[] =>
    catalog.listFor({ ...options, tool_list: 'full' }, identity).tools.map(tool => tool.name).sort()

  t.test('exact tool set for each option combination', async t => {
    t.same(names(opts({})), sorted(READ), 'defaults: reads only')
    t.same(names(opts({ allow_write: true })), sorted([...READ, ...WRITE]), 'allow_write')
    t.same(names(opts({ allow_config_write: true })), sorted([...READ, ...CONFIG_READS, ...CONFIG, UNDO]), 'allow_config_write alone adds config tools and the undo of config changes')
    t.same(names(opts({ allow_camera: true })), sorted([...READ, ...CAMERA]), 'allow_camera')
    t.same(names(opts({ filter_reads: true })), sorted(READ.filter(n => n !== 'ha_render_template')), 'filter_reads removes templates')
    t.same(names(opts({ allow_addon_control: true })), sorted(READ), 'allow_addon_control alone: nothing, add-on control is a manage tool')
    t.same(names(opts({ allow_config_write: true, allow_addon_control: true })), sorted([...READ, ...CONFIG_READS, ...MANAGE, UNDO]), 'allow_addon_control with allow_config_write adds ha_manage_addon')
    t.same(names(opts({ allow_write: true, allow_config_write: true, allow_camera: true })), sorted([...READ, ...CONFIG_READS, ...WRITE, ...CONFIG, ...CAMERA]), 'every capability but add-on control')
    t.same(names(opts({ allow_write: true, allow_config_write: true, allow_camera: true, allow_addon_control: true })), sorted([...READ, ...CONFIG_READS, ...WRITE, ...MANAGE, ...CAMERA]), 'everything on')
    t.equal(catalog.tools.length, READ.length + CONFIG_READS.length + WRITE.length + MANAGE.length + CAMERA.length, 'no module outside these lists')
  })

  t.test('a token\'s levels narrow the set per category, never widen it', async t => {
    const everything = opts({ allow_write: true, allow_config_write: true, allow_camera: true })
    const readOnly: Identity = { id: 'token:r', name: 'reader', levels: { '*': 'read' } }
    const TEMPLATE = 'ha_render_template'
    t.same(names(everything, readOnly), sorted([...READ.filter(n => n !== TEMPLATE), ...CONFIG_READS]), 'read everywhere: no write, no camera, no templates (they can read camera credentials)')
    const writer: Identity = { id: 'token:w', name: 'writer', levels: { '*': 'manage', camera: 'read' } }
    t.same(names(opts({}), writer), sorted(READ), 'levels cannot exceed the options')
    const lights: Identity = { id: 'token:l', name: 'lights', levels: { entities: 'read', services: 'write' } }
    t.same(names(everything, lights), sorted(['ha_get_entity', 'ha_list_areas', 'ha_list_devices', 'ha_list_entities', 'ha_list_floors', 'ha_list_labels', 'ha_search_entities', 'ha_list_services',
      ...catalog.tools.filter(tool => tool.category === 'services' && tool.definition.kind === 'write').map(tool => tool.definition.name)]), 'only the categories named')
    t.notOk(names(everything, lights).includes('ha_run_script'), 'running scripts belongs to automations')
    const camera: Identity = { id: 'token:c', name: 'cam', levels: { camera: 'read' } }
    t.same(names(everything, camera), sorted([...CAMERA, TEMPLATE]), 'the camera alone, with templates')
    const systemAtWrite: Identity = { id: 'token:s', name: 'no add-ons', levels: { '*': 'manage', system: 'write' } }
    t.notOk(names(opts({ allow_config_write: true, allow_addon_control: true }), systemAtWrite).includes(ADDON), 'add-on control needs system at manage')
    t.same(names(everything, { id: 'token:n', name: 'none', levels: { '*': 'none' } }), [], 'none everywhere: nothing')
    const manager: Identity = { id: 'token:m', name: 'manager', levels: { '*': 'manage', camera: 'none' } }
    t.same(names(opts({ allow_config_write: true }), manager), sorted([...READ.filter(n => n !== TEMPLATE), ...CONFIG_READS, ...CONFIG, UNDO]), 'config writes alone bring ha_undo for them')
  })

  t.test('every tool: its name, category, kind and everyday flag', async t => {
    const have = Object.fromEntries(catalog.tools.map(tool => [tool.definition.name, [tool.category, tool.definition.kind, tool.definition.everyday]]))
    t.same(have, TOOLS, 'the modules under tools/ declare exactly the table above')
    t.same(catalog.byName.get('ha_manage_config')?.byArgument?.byValue, { scene: 'scenes', calendar: 'calendar', dashboard: 'dashboards', backup: 'system', energy: 'environment' },
      'ha_manage_config files each kind under its own category')
  })

  // A module lives in the folder of its category (tools/<category>/<tool>.ts, or a folder of its own
  // inside it for a tool with private files): the folder is where a reviewer looks, the field is what counts.
  t.test('tools/ is laid out by category', async t => {
    for (const file of toolFiles(TOOLS_DIR)) {
      const module = await import(pathToFileURL(file).href) as { default: ToolDefinition }
      const [folder, ...rest] = relative(TOOLS_DIR, file).split(sep)
      t.equal(folder, module.default.category, `${relative(TOOLS_DIR, file)} is in its category's folder`)
      t.ok(rest.length === 1 || (rest.length === 2 && basename(rest[1] ?? '', extname(rest[1] ?? '')) === rest[0]), `${relative(TOOLS_DIR, file)}: one level, or a folder named after the tool`)
    }
  })

  // Names, titles, descriptions and schema shape are checked when the catalogue loads (see the bad-modules
  // test below); what is left to check is what the listing tells clients.
  t.test('every listing says read-only exactly for reads, and a hint only where it differs from the spec\'s default', async t => {
    for (const tool of catalog.tools) {
      const listing = tool.listing
      const readOnly = tool.definition.kind === 'read' || tool.definition.kind === 'camera'
      // The spec's defaults: readOnlyHint false, destructiveHint true, idempotentHint false, openWorldHint true.
      t.equal(listing.annotations?.openWorldHint, tool.annotations.openWorldHint ? undefined : false, `${listing.name} says openWorldHint only when false`)
      t.equal(listing.annotations?.destructiveHint, readOnly || tool.annotations.destructiveHint ? undefined : false, `${listing.name} says destructiveHint only when a write is not destructive`)
      t.not(JSON.stringify(listing.annotations), '{}', `${listing.name} sends no empty annotations`)
      // The spec's default for an absent readOnlyHint is false: a write tool says so by leaving it out.
      t.equal(listing.annotations?.readOnlyHint, readOnly ? true : undefined, `${listing.name} read-only hint follows its kind`)
      t.equal(tool.annotations.readOnlyHint, readOnly, `${listing.name} definition states readOnlyHint explicitly`)
      t.equal(listing.title, tool.definition.title, `${listing.name} listing carries its title`)
    }
  })

  // One snapshot file per tool (tap-snapshots/tools/<name>.test.cjs), so a review shows one tool's change:
  // the definition as clients see it with every option on, its category, kind and everyday flag.
  // Regenerate with `npx tap --snapshot test/catalog.test.ts`.
  t.test('a snapshot of each definition, one file per tool', async t => {
    const all = catalog.listFor(opts({ allow_write: true, allow_config_write: true, allow_camera: true, allow_addon_control: true, tool_list: 'full' }), primary)
    t.equal(all.tools.length, catalog.tools.length, 'every tool is listed with every option on')
    for (const listing of all.tools) {
      const tool = catalog.byName.get(listing.name)
      const snapshotFile = join(SNAPSHOTS, `${listing.name}.test.cjs`)
      await t.test(listing.name, { snapshotFile }, async t => {
        t.matchSnapshot({ category: tool?.category, kind: tool?.definition.kind, everyday: tool?.definition.everyday, title: tool?.definition.title, listing }, listing.name)
      })
    }
    const stale = readdirSync(SNAPSHOTS).filter(file => !catalog.byName.has(file.replace(/\.test\.cjs$/, '')))
    t.same(stale, [], 'no snapshot file for a tool that no longer exists')
  })

  t.test('tool_list: core lists the everyday tools, full every callable one, search the essential ones; the meta tools when some are left out', async t => {
    const everything = { allow_write: true, allow_config_write: true, allow_camera: true, allow_addon_control: true }
    const listed = (options: Partial<Options>, identity: Identity = primary): string[] => catalog.listFor(opts(options), identity).tools.map(tool => tool.name).sort()
    const everyday = (names: string[]): string[] => names.filter(name => TOOLS[name]?.[2] === true)
    t.same(listed({}), sorted([...everyday(READ), ...META]), 'core is the default: the everyday reads and the two meta tools')
    t.same(listed(everything), sorted([...everyday([...READ, ...CONFIG_READS, ...WRITE, ...MANAGE, ...CAMERA]), ...META]), 'core, every option on')
    t.same(listed({ ...everything, tool_list: 'full' }), sorted([...READ, ...CONFIG_READS, ...WRITE, ...MANAGE, ...CAMERA]), 'full: every tool, no meta tools')
    t.same(listed({ ...everything, tool_list: 'search' }), sorted(['ha_call_service', 'ha_get_entity', 'ha_search_entities', ...META]), 'search: the meta tools and three everyday tools')
    t.same(listed({ tool_list: 'search' }), sorted(['ha_get_entity', 'ha_search_entities', ...META]), 'search without writes: only the essential tools the options allow')
    const weather: Identity = { id: 'token:e', name: 'weather', levels: { environment: 'read' } }
    t.same(listed({}, weather), ['ha_get_energy', 'ha_get_forecast', 'ha_get_presence'], 'core: every callable tool listed, so no meta tools')
    t.same(listed({ tool_list: 'search' }, weather), sorted([...META]), 'search: nothing essential callable, the meta tools find the rest')
    for (const mode of ['core', 'full', 'search'] as const) t.same(listed({ ...everything, tool_list: mode }, { id: 'token:n', name: 'none', levels: { '*': 'none' } }), [], `${mode}: a token that may call nothing lists nothing`)
    t.ok(catalog.tools.filter(tool => tool.definition.essential === true).every(tool => tool.definition.everyday), 'essential tools are everyday')
    const callTool = (options: Partial<Options>, identity: Identity): unknown => catalog.listFor(opts(options), identity).tools.find(tool => tool.name === 'ha_call_tool')?.annotations?.readOnlyHint
    t.equal(callTool(everything, primary), undefined, 'ha_call_tool may run writes: not read-only')
    t.equal(callTool(everything, { id: 'token:r', name: 'reader', levels: { '*': 'read' } }), true, 'for a reader it runs reads only: read-only')
  })

  t.test('ha_search_tools finds only what the caller may call, with what tools/list would say of it', async t => {
    const everything = opts({ allow_write: true, allow_config_write: true, allow_camera: true, allow_addon_control: true })
    const found = catalog.search('create an automation', 5, everything, primary)
    t.equal(found[0]?.name, 'ha_create_automation', 'best match first')
    // A destructive write's hints are all the spec's defaults, so it sends none.
    t.same(Object.keys(found[0] ?? {}).sort(), ['description', 'inputSchema', 'name', 'title'])
    t.same(catalog.search('entity details', 5, everything, primary).find(tool => tool.name === 'ha_get_entity')?.annotations, { readOnlyHint: true }, 'a read says so')
    const reader: Identity = { id: 'token:r', name: 'reader', levels: { '*': 'read' } }
    const names = catalog.search('create an automation delete script call service camera snapshot template', 10, everything, reader).map(tool => tool.name)
    t.ok(names.length > 0, 'a reader finds reads')
    t.same(names.filter(name => TOOLS[name]?.[1] !== 'read' || TOOLS[name]?.[0] === 'camera'), [], 'never a write, a config write, the camera or templates')
    t.same(catalog.search('camera snapshot', 10, opts({}), primary).map(tool => tool.name).filter(name => name === 'ha_get_camera_snapshot'), [], 'never a tool its option leaves off')
    const dashboards: Identity = { id: 'token:d', name: 'dash', levels: { '*': 'manage', dashboards: 'read' } }
    const config = catalog.search('edit a scene', 5, everything, dashboards).find(tool => tool.name === 'ha_manage_config')
    t.same((config?.inputSchema.properties as Record<string, { enum?: string[] }>).kind?.enum, ['scene', 'calendar', 'backup', 'energy'], 'a multi-kind tool shows only the kinds the caller may use')
    t.same(catalog.search('zzzz qqqq', 5, everything, primary), [], 'nothing matches: nothing found')
    // Every operation in two calls from a client that only lists: ha_search_tools by what it does, then ha_call_tool.
    for (const tool of catalog.tools) {
      t.ok(catalog.search(tool.definition.title, 5, everything, primary).some(found => found.name === tool.definition.name), `${tool.definition.name} is found by its title`)
    }
  })

  // Issue 32 item 10: the JSON of tools/list's tools array in each mode (deterministic, so a test).
  t.test('tools/list fits its byte budget in each mode', async t => {
    const sizes = catalogSizes(catalog)
    t.ok(sizes.coreDefault <= BUDGETS.coreDefault, `core, default options: ${sizes.coreDefault} bytes <= ${BUDGETS.coreDefault}`)
    t.ok(sizes.coreAll <= BUDGETS.coreAll, `core, every option on: ${sizes.coreAll} bytes <= ${BUDGETS.coreAll}`)
    t.ok(sizes.search <= BUDGETS.search, `search, every option on: ${sizes.search} bytes <= ${BUDGETS.search}`)
    t.ok(sizes.fullPerTool <= BUDGETS.fullPerTool, `full, every option on: ${sizes.full} bytes for ${sizes.fullTools} tools, ${sizes.fullPerTool} per tool <= ${BUDGETS.fullPerTool}`)
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

  t.test('arguments many tools share are listed without their text; bounds and defaults stay', async t => {
    const base = { title: 'T', description: 'D', kind: 'write' as const, category: 'system', everyday: false, keywords: { en: '', de: '', fr: '', es: '', nl: '' } }
    const tool = checkDefinition(defineTool({
      ...base,
      name: 'ha_x',
      input: z.object({
        entity_id: z.array(z.string()).describe('Entity ids.'),
        limit: z.number().int().min(1).max(50).default(20).describe('Page size.'),
        offset: z.number().int().min(0).default(0).describe('From next_offset.'),
        dry_run: z.boolean().default(false).describe('Preview only.'),
        confirm_token: z.string().optional().describe('Once the user agreed.')
      }),
      handler: async () => ({})
    }), 'x.ts')
    t.same(tool.listing.inputSchema.properties, {
      // A plural of the field's name is an echo too.
      entity_id: { type: 'array', items: { type: 'string' } },
      limit: { default: 20, type: 'integer', minimum: 1, maximum: 50 },
      offset: { type: 'integer', minimum: 0 },
      dry_run: { type: 'boolean' },
      confirm_token: { type: 'string' }
    })
    t.notOk('annotations' in tool.listing, 'a destructive write\'s hints are all the defaults: none sent')
  })

  t.test('bad modules are refused with a reason', async t => {
    const base = { title: 'T', description: 'D', kind: 'read' as const, category: 'system', everyday: false, keywords: { en: '', de: '', fr: '', es: '', nl: '' }, input: z.object({ a: z.string().describe('A.') }), handler: async () => ({}) }
    t.throws(() => checkDefinition(defineTool({ ...base, name: 'Bad-Name' }), 'x.ts'), /must match/)
    t.throws(() => checkDefinition(defineTool({ ...base, name: 'ok_name', input: z.object({ a: z.string() }) }), 'x.ts'), /no \.describe/)
    t.throws(() => checkDefinition(defineTool({ ...base, name: 'ok_name', kind: 'admin' as never }), 'x.ts'), /kind/)
    t.throws(() => checkDefinition(defineTool({ ...base, name: 'ok_name', title: ' ' }), 'x.ts'), /title is empty/)
    t.throws(() => checkDefinition(defineTool({ ...base, name: 'ok_name', category: undefined as never }), 'x.ts'), /category "undefined"/)
    t.throws(() => checkDefinition(defineTool({ ...base, name: 'ok_name', category: '*' }), 'x.ts'), /category "\*"/)
    t.throws(() => checkDefinition(defineTool({ ...base, name: 'ok_name', everyday: undefined as never }), 'x.ts'), /everyday must be true or false/)
    const one = checkDefinition(defineTool({ ...base, name: 'ok_name' }), 'a.ts')
    t.throws(() => new ToolCatalog([one, checkDefinition(defineTool({ ...base, name: 'ok_name' }), 'b.ts')]), /duplicate tool name ok_name/)
    t.doesNotThrow(() => checkDefinition(defineTool({ ...base, name: 'ok_name' }), 'x.ts'))
  })
})

import t from 'tap'
import type { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { toolEnabled } from '../../src/mcp/runtime/define-tool.ts'
import { connectClient, startHome, startServer } from '../helper.ts'
import { sweepCatalog } from './_catalog.ts'
import { argsFromSchema, entityFields, enumVariants, type HomeSamples } from './_schema-args.ts'

/**
 * filter_reads with no gaps: with a denylist covering entities of many kinds, every read tool,
 * resource, completion and prompt (enumerated from the registry and the surface, so a new one is
 * covered without touching this file) is called, and no denied entity id or name may appear.
 */
t.test('filter_reads hides denied entities from every read path', async t => {
  const allTools = await sweepCatalog(text => t.comment(text))
  const home = await startHome(t)
  const denyIds = ['sensor.package_tracker', 'person.alice', 'device_tracker.alice_phone', 'calendar.family', 'todo.shopping_list', 'automation.welcome_home', 'sensor.grid_consumption']
  const cameras = home.entityIds().filter(id => id.startsWith('camera.'))
  const hallLight = home.entityIds().filter(id => id.startsWith('light.')).find(id => /hall/.test(id))
  t.ok(cameras.length > 0 && hallLight, 'the demo home has cameras and a hallway light')
  const denylist = [...denyIds, hallLight as string, 'camera.*']
  const options = { filter_reads: true, entity_denylist: denylist, allow_camera: true }
  const server = await startServer(t, { home, options, app: { catalog: allTools }, env: { SUPERVISOR_TOKEN: home.supervisorToken, SUPERVISOR_URL: home.supervisorUrl } })
  const client: Client = await connectClient(t, server)

  await server.app.services.home.ready()
  const catalog = server.app.services.home.catalog
  const deniedRows = [...denyIds, hallLight as string, ...cameras].map(id => catalog.get(id)).filter(row => row !== undefined)
  t.equal(deniedRows.length, denyIds.length + 1 + cameras.length, 'every denied entity exists in the home')
  const hallRow = catalog.get(hallLight as string)
  t.ok(hallRow?.area_id, 'the hallway light sits in an area')
  // Forbidden strings: ids, and names long enough to be meaningful (short ones would match ordinary words).
  const forbidden = new Set<string>()
  for (const row of deniedRows) {
    forbidden.add(row.entity_id)
    if (row.name.length >= 4) forbidden.add(row.name)
  }
  t.comment(`denied: ${[...forbidden].join(' | ')}`)

  const visibleIds = catalog.all().map(row => row.entity_id).filter(id => server.app.services.home.visible(id))
  const samples: HomeSamples = { entityIds: visibleIds, areaId: hallRow?.area_id as string, floorId: hallRow?.floor_id ?? undefined, labelId: 'energy' }

  const outputs: Array<{ what: string, text: string }> = []
  const safetyNetHits: string[] = []
  function record (what: string, value: unknown, isError = false): void {
    const text = typeof value === 'string' ? value : JSON.stringify(value)
    outputs.push({ what, text })
    // An error echoing the caller's own denied argument is expected; anything else caught here is a gap upstream.
    if (!isError && text.includes('[hidden]')) safetyNetHits.push(`${what}: …${text.slice(Math.max(0, text.indexOf('[hidden]') - 80), text.indexOf('[hidden]') + 20)}`)
  }

  // Per-tool extra calls that aim straight at the denied entities' neighbourhood.
  const OVERRIDES: Record<string, Array<Record<string, unknown>>> = {
    ha_search_entities: [{ query: 'package' }, { query: 'alice' }, { query: 'hall' }, { query: 'camera' }],
    ha_list_entities: [{ area: hallRow?.area_id }, { domain: 'camera' }, { domain: 'person' }, { search: 'tracker' }, { domain: 'light', limit: 200 }],
    ha_list_devices: [{ area: hallRow?.area_id }, { limit: 200 }],
    ha_list_services: [{ domain: 'todo' }, { domain: 'calendar' }, { search: 'camera' }],
    ha_get_calendar: [{ hours: 720 }],
    ha_get_presence: [{ hours: 168 }],
    ha_get_energy: [{ period: 'month', compare: true }],
    ha_get_todo_list: [{}],
    ha_get_logbook: [{ area: hallRow?.area_id }],
    ha_get_history: [{ entity_id: [hallLight, 'person.alice', visibleIds[0]] }],
    ha_explain_event: [{ entity_id: hallLight }]
  }

  const readTools = allTools.tools.filter(tool => tool.definition.kind === 'read' || tool.definition.kind === 'camera')
  const listed = new Set((await client.listTools()).tools.map(tool => tool.name))
  t.notOk(listed.has('ha_render_template'), 'ha_render_template is not registered under filter_reads')
  let calls = 0

  for (const tool of readTools) {
    const name = tool.definition.name
    if (!toolEnabled(tool.definition, server.app.services.config.options)) {
      t.notOk(listed.has(name), `${name} is disabled and not listed`)
      continue
    }
    const base = argsFromSchema(tool.inputSchema, samples)
    const argSets = [base, ...enumVariants(tool.inputSchema, base), ...(OVERRIDES[name] ?? [])]
    for (const field of entityFields(tool.inputSchema)) {
      for (const row of deniedRows) {
        if (field.pattern && !field.pattern.test(row.entity_id)) continue
        argSets.push({ ...base, [field.name]: field.array ? [row.entity_id] : row.entity_id })
      }
    }
    // No oracle: asking for a denied entity must read exactly like asking for one that does not exist.
    for (const field of entityFields(tool.inputSchema)) {
      for (const row of deniedRows) {
        const missing = `${row.domain}.zz_no_such_entity`
        if (field.pattern && !(field.pattern.test(row.entity_id) && field.pattern.test(missing))) continue
        const answer = async (id: string): Promise<string> => {
          const result = await client.callTool({ name, arguments: { ...base, [field.name]: field.array ? [id] : id } })
          return JSON.stringify({ content: result.content, isError: result.isError }).split(id).join('<id>')
        }
        t.equal(await answer(row.entity_id), await answer(missing), `${name}.${field.name}: ${row.entity_id} reads like a missing entity`)
        break
      }
    }
    for (const args of argSets) {
      const result = await client.callTool({ name, arguments: args })
      calls++
      // The caller's own argument coming back in an error is not a leak; everything else is checked.
      const echoed = Object.values(args).flat().filter((v): v is string => typeof v === 'string')
      let text = JSON.stringify({ content: result.content, structuredContent: result.structuredContent })
      for (const value of echoed) if (result.isError) text = text.split(value).join('<arg>')
      record(`${name} ${JSON.stringify(args)}`, text, result.isError === true)
    }
  }
  t.ok(calls > readTools.length, `called ${readTools.length} read tools ${calls} times`)

  // Resources: lists, fixed ones, and each template with an allowed and a denied id.
  const resources = (await client.listResources()).resources
  record('resources/list', resources)
  const templates = (await client.listResourceTemplates()).resourceTemplates
  record('resources/templates/list', templates)
  for (const resource of resources) record(`read ${resource.uri}`, await client.readResource({ uri: resource.uri }))
  for (const template of templates) {
    const variable = /\{(\w+)\}/.exec(template.uriTemplate)?.[1] as string
    const values = variable === 'area_id' ? [hallRow?.area_id as string] : [visibleIds[0] as string, ...deniedRows.map(row => row.entity_id)]
    for (const value of values) {
      const uri = template.uriTemplate.replace(`{${variable}}`, value)
      try {
        const read = await client.readResource({ uri })
        record(`read ${uri}`, read)
      } catch (err) {
        if (value === visibleIds[0] || variable === 'area_id') throw err
        t.match((err as Error).message, /not found/i, `${uri} reads as not found`)
      }
    }
    // Completions for the template variable: empty prefix and the start of each denied id and name.
    for (const typed of ['', ...deniedRows.flatMap(row => [row.entity_id.slice(0, row.entity_id.indexOf('.') + 3), row.name.slice(0, 3)])]) {
      const answer = await client.complete({ ref: { type: 'ref/resource', uri: template.uriTemplate }, argument: { name: variable, value: typed } })
      record(`complete ${template.uriTemplate} "${typed}"`, answer)
    }
  }

  // Prompts: every prompt with plausible arguments, completions for each argument, and the denied automation.
  const prompts = (await client.listPrompts()).prompts
  record('prompts/list', prompts)
  for (const prompt of prompts) {
    const args: Record<string, string> = {}
    for (const argument of prompt.arguments ?? []) {
      const completion = await client.complete({ ref: { type: 'ref/prompt', name: prompt.name }, argument: { name: argument.name, value: '' } })
      record(`complete prompt ${prompt.name}.${argument.name}`, completion)
      const typed = await client.complete({ ref: { type: 'ref/prompt', name: prompt.name }, argument: { name: argument.name, value: 'wel' } })
      record(`complete prompt ${prompt.name}.${argument.name} "wel"`, typed)
      if (argument.required) args[argument.name] = completion.completion.values[0] ?? 'the hallway light at night'
    }
    record(`prompt ${prompt.name}`, await client.getPrompt({ name: prompt.name, arguments: args }))
    if (prompt.arguments?.some(a => a.name === 'automation')) {
      await t.rejects(client.getPrompt({ name: prompt.name, arguments: { automation: 'automation.welcome_home' } }), /Unknown automation/, `${prompt.name} refuses a denied automation like an unknown one`)
    }
  }

  for (const { what, text } of outputs) {
    for (const term of forbidden) {
      if (text.includes(term) || text.includes(JSON.stringify(term).slice(1, -1))) t.fail(`${what} reveals "${term}": ${text.slice(Math.max(0, text.indexOf(term) - 200), text.indexOf(term) + 100)}`)
    }
  }
  t.ok(outputs.length > 100, `${outputs.length} outputs checked against ${forbidden.size} denied ids and names`)
  t.comment(`answers where the last-resort scrub had to mask something: ${safetyNetHits.length ? `\n${safetyNetHits.join('\n')}` : 'none'}`)
})

import t from 'tap'
import { callTool, connectClient, startHome, startServer } from '../helper.ts'
import { startIngress } from '../ingress/_ingress.ts'
import { loadToolCatalog } from '../../src/mcp/runtime/registry.ts'
import { TOOLS_DIR } from '../../app/tools-dir.ts'
import { listen, modern } from '../modern.ts'

/** Every kind of a multi-kind tool is gated by its own category (issue 15 item 2). */

const UI = { 'x-ha-mcp-ui': '1', 'content-type': 'application/json' }

t.test('dashboards, scenes and calendar at read: ha_manage_config cannot save a dashboard, create an event or offer a scene', async t => {
  const home = await startHome(t)
  const server = await startServer(t, { home, options: { allow_write: true, allow_config_write: true, tool_list: 'full' } })
  const ingress = await startIngress(t, server, [], await loadToolCatalog(TOOLS_DIR))

  // The Tokens tab says which tools each category covers, ha_manage_config under each of its kinds.
  const categories = (await ingress.inject({ method: 'GET', url: '/api/tokens' })).json().categories as Array<{ id: string, covers: Array<{ tool: string, level: string, kinds?: string[] }> }>
  const covers = (id: string): Array<{ tool: string, level: string, kinds?: string[] }> => categories.find(c => c.id === id)?.covers ?? []
  t.match(covers('dashboards'), [{ tool: 'ha_add_dashboard_card', level: 'manage' }])
  t.same(covers('dashboards').find(c => c.tool === 'ha_manage_config'), { tool: 'ha_manage_config', level: 'manage', kinds: ['dashboard'] })
  t.same(covers('scenes').find(c => c.tool === 'ha_manage_config'), { tool: 'ha_manage_config', level: 'manage', kinds: ['scene'] })
  t.same(covers('calendar').find(c => c.tool === 'ha_manage_config'), { tool: 'ha_manage_config', level: 'manage', kinds: ['calendar'] })
  t.same(covers('system').find(c => c.tool === 'ha_manage_config'), { tool: 'ha_manage_config', level: 'manage', kinds: ['backup'] })

  const created = await ingress.inject({ method: 'POST', url: '/api/tokens', headers: UI, payload: { name: 'no dashboards', levels: { '*': 'manage', dashboards: 'read', scenes: 'read', calendar: 'read' } } })
  t.equal(created.statusCode, 201)
  const client = await connectClient(t, server, created.json().token)

  const { tools } = await client.listTools()
  t.notOk(tools.some(tool => tool.name === 'ha_add_dashboard_card'))
  const manage = tools.find(tool => tool.name === 'ha_manage_config')
  t.same((manage?.inputSchema.properties as Record<string, { enum?: string[] }>).kind?.enum, ['backup', 'energy'], 'tools/list offers only the kinds its levels allow')

  const light = home.entityIds().find(id => id.startsWith('light.')) as string
  const calls: Array<[string, Record<string, unknown>]> = [
    ['dashboard', { kind: 'dashboard', action: 'update', item: '0/0', config: { type: 'markdown', content: 'owned' } }],
    ['calendar', { kind: 'calendar', id: 'calendar.family', action: 'create', config: { summary: 'Not allowed', dtstart: '2026-12-03T15:00:00Z', dtend: '2026-12-03T16:00:00Z' } }],
    ['scene', { kind: 'scene', action: 'create', config: { name: 'Not allowed', entities: { [light]: { state: 'on' } } } }]
  ]
  for (const [kind, args] of calls) {
    const answer = await callTool(client, 'ha_manage_config', args)
    t.equal(answer.code, 'HAMCP_DENIED_LEVEL', `${kind}: ${answer.text}`)
    t.match(answer.text, new RegExp(`needs the ${kind === 'dashboard' ? 'dashboards' : kind === 'scene' ? 'scenes' : 'calendar'} category at manage; this token has it at read`))
    t.notOk(answer.json?.confirm_token, `${kind}: no confirmation offered`)
  }
  t.same(home.configWrites, [], 'nothing reached the house')
  t.same(home.serviceCalls, [])

  // Its other kinds still work: the backup kind is filed under system, at manage here.
  const backup = await callTool(client, 'ha_manage_config', { kind: 'backup', action: 'create', config: { name: 'nightly' }, dry_run: true })
  t.not(backup.code, 'HAMCP_DENIED_LEVEL', backup.text)

  // At read everywhere the tool is not listed at all.
  const reader = await ingress.inject({ method: 'POST', url: '/api/tokens', headers: UI, payload: { name: 'reader', levels: { '*': 'read' } } })
  const readClient = await connectClient(t, server, reader.json().token)
  t.notOk((await readClient.listTools()).tools.some(tool => tool.name === 'ha_manage_config'))
})

// A token's category levels and the resources: a token granted nothing is shown no tool, so it must
// not read or stream the home through resources/read and subscriptions/listen either.
t.test('red team: a token granted nothing reads nothing through resources', async t => {
  t.test('a token with no level in any category', async t => {
    const home = await startHome(t)
    const server = await startServer(t, { home })
    await server.app.services.home.ready()
    const { token } = await server.app.services.tokens.create({ name: 'nothing', levels: { '*': 'none' } })
    const lock = home.entityIds().find(id => id.startsWith('lock.')) as string
    const tools = await modern(server, token, 'tools/list')
    t.same(tools.body.result?.tools, [], 'is shown no tool')
    const read = await modern(server, token, 'resources/read', { uri: `ha://entity/${lock}` })
    const stream = await listen(server.url, token, 'nothing-1', [`ha://entity/${lock}`])
    t.teardown(() => { stream.close() })
    await stream.until(() => stream.seen.length >= 1, 'the first message')
    // Finding of the red-team pass: resources/read and subscriptions/listen ignored the token's levels.
    t.notOk(read.body.result?.contents, `no lock state for a token granted nothing: ${JSON.stringify(read.body).slice(0, 160)}`)
    t.equal(read.body.error?.data?.code, 'HAMCP_DENIED_LEVEL', 'resources/read says why')
    t.not(stream.seen[0]?.method, 'notifications/subscriptions/acknowledged', 'no stream for it either')
    t.equal(stream.seen[0]?.error?.data?.code, 'HAMCP_DENIED_LEVEL', 'the listen refusal says why')
    const listed = await modern(server, token, 'resources/list')
    t.same(listed.body.result?.resources, [], 'resources/list shows none')
    const completed = await modern(server, token, 'completion/complete', { ref: { type: 'ref/resource', uri: 'ha://entity/{entity_id}' }, argument: { name: 'entity_id', value: 'lock' } })
    t.same(completed.body.result?.completion?.values, [], 'completions name no entity')
  })

  t.test('a token with entities at read and the rest at none', async t => {
    const home = await startHome(t)
    const server = await startServer(t, { home })
    await server.app.services.home.ready()
    const { token } = await server.app.services.tokens.create({ name: 'entities only', levels: { '*': 'none', entities: 'read' } })
    const lock = home.entityIds().find(id => id.startsWith('lock.')) as string
    const read = await modern(server, token, 'resources/read', { uri: `ha://entity/${lock}` })
    t.ok(read.body.result?.contents, 'reads the entity resource')
    const config = await modern(server, token, 'resources/read', { uri: 'ha://config' })
    t.equal(config.body.error?.data?.code, 'HAMCP_DENIED_LEVEL', 'not the system configuration')
    const listed = await modern(server, token, 'resources/list')
    t.same((listed.body.result?.resources as Array<{ uri: string }>).map(resource => resource.uri), ['ha://areas'], 'resources/list shows what it may read')
  })
})

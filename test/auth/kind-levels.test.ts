import t from 'tap'
import { callTool, connectClient, startHome, startServer } from '../helper.ts'
import { startIngress } from '../ingress/_ingress.ts'
import { loadToolCatalog } from '../../src/mcp/runtime/registry.ts'
import { TOOLS_DIR } from '../../app/tools-dir.ts'

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

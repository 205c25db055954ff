// Dashboard cards: storage dashboards only, a diff preview, and a base hash that voids stale confirmations.
import t from 'tap'
import { callTool, connectClient, startHome, startServer } from '../helper.ts'

t.test('ha_add_dashboard_card', async t => {
  const home = await startHome(t)
  const server = await startServer(t, { home, options: { allow_config_write: true } })
  const client = await connectClient(t, server)
  const dashboard = async (urlPath: string | null): Promise<any> => await server.app.services.ha.command({ type: 'lovelace/config', url_path: urlPath })
  const light = home.entityIds().find(id => id.startsWith('light.')) as string
  const card = { type: 'tile', entity: light }

  t.test('appends a card to a view of a storage dashboard after confirmation', async t => {
    const before = await dashboard(null)
    const securityCards = before.views[1].cards.length
    const asked = await callTool(client, 'ha_add_dashboard_card', { view: 'security', card })
    t.notOk(asked.isError, asked.text)
    const byIndex = await callTool(client, 'ha_add_dashboard_card', { view: '1', card })
    t.equal(byIndex.json.preview, asked.json.preview, '"1" (the advertised index, sent as a string) is the same view')
    t.equal(asked.json.confirmation_required, true)
    t.match(asked.json.preview, /^--- dashboard lovelace \(current\)\n\+\+\+ dashboard lovelace \(proposed\)\n@@ /)
    t.match(asked.json.preview, new RegExp(`\\n\\+ {6}- type: tile\\n\\+ {8}entity: ${light.replace('.', '\\.')}\\n`))
    t.equal((await dashboard(null)).views[1].cards.length, securityCards, 'unchanged before confirming')

    const done = await callTool(client, 'ha_add_dashboard_card', { view: 'security', card, confirm_token: asked.json.confirm_token })
    t.notOk(done.isError, done.text)
    t.equal(done.json.view, 1)
    t.match(done.json.previous_view_yaml, /^title: Security\n/)
    t.notMatch(done.json.previous_view_yaml, /type: tile/)
    const after = await dashboard(null)
    t.equal(after.views[1].cards.length, securityCards + 1)
    t.same(after.views[1].cards.at(-1), card)
    t.same(after.views[0], before.views[0], 'other views untouched')
  })

  t.test('a dashboard edited meanwhile voids the confirmation', async t => {
    const asked = await callTool(client, 'ha_add_dashboard_card', { dashboard: 'dashboard-energie', view: 0, card })
    t.notOk(asked.isError, asked.text)
    const current = await dashboard('dashboard-energie')
    await server.app.services.ha.command({ type: 'lovelace/config/save', url_path: 'dashboard-energie', config: { ...current, title: 'Edited by hand' } })
    const done = await callTool(client, 'ha_add_dashboard_card', { dashboard: 'dashboard-energie', view: 0, card, confirm_token: asked.json.confirm_token })
    t.ok(done.isError)
    t.equal(done.code, 'HAMCP_CONFLICT')
    const after = await dashboard('dashboard-energie')
    t.equal(after.title, 'Edited by hand')
    t.equal(after.views[0].cards.length, current.views[0].cards.length, 'card not added')
  })

  t.test('refusals: YAML dashboard, unknown dashboard, unknown view, never saved', async t => {
    const yaml = await callTool(client, 'ha_add_dashboard_card', { dashboard: 'wall-panel', card })
    t.ok(yaml.isError)
    t.equal(yaml.code, 'HAMCP_NOT_SUPPORTED')
    t.notMatch(yaml.text, /confirm_token/)
    const unknown = await callTool(client, 'ha_add_dashboard_card', { dashboard: 'nope', card })
    t.ok(unknown.isError)
    t.equal(unknown.code, 'HAMCP_NOT_FOUND')
    t.match(unknown.text, /No dashboard "nope"[\s\S]*dashboard-energie/)
    const view = await callTool(client, 'ha_add_dashboard_card', { view: 7, card })
    t.ok(view.isError)
    t.equal(view.code, 'HAMCP_INVALID_ARGUMENT')
    t.match(view.text, /View index 7 is out of range: the dashboard has 2 view/)
    const asString = await callTool(client, 'ha_add_dashboard_card', { view: '7', card })
    t.match(asString.text, /View index 7 is out of range/, 'an index sent as a string is the index, when no view is named so')
    const fresh = await callTool(client, 'ha_add_dashboard_card', { dashboard: 'dashboard-nouveau', card })
    t.ok(fresh.isError)
    t.equal(fresh.code, 'HAMCP_NOT_SUPPORTED')
    const noType = await callTool(client, 'ha_add_dashboard_card', { card: { entity: light } })
    t.ok(noType.isError)
    t.equal(noType.code, 'HAMCP_INVALID_ARGUMENT')
    t.match(noType.text, /needs a type/)
  })
})

t.test('with filter_reads, the diff context never shows a hidden entity', async t => {
  const home = await startHome(t)
  const server = await startServer(t, { home, options: { allow_config_write: true, filter_reads: true, entity_denylist: ['climate.*'] } })
  const client = await connectClient(t, server)
  const config = await server.app.services.ha.command<any>({ type: 'lovelace/config', url_path: null })
  const hidden = config.views[0].cards.at(-1).entity as string
  t.match(hidden, /^climate\./, 'the last card of the first view shows a hidden entity')
  const light = home.entityIds().find(id => id.startsWith('light.')) as string
  const asked = await callTool(client, 'ha_add_dashboard_card', { view: 0, card: { type: 'tile', entity: light } })
  t.notOk(asked.isError, asked.text)
  t.match(asked.json.preview, /\+ {6}- type: tile/)
  t.notOk(asked.text.includes(hidden), 'hidden entity masked')
})

// Home Assistant 2026.2 moved a saved Overview into a dashboard entry "lovelace" (core lovelace/__init__.py
// _async_migrate_default_config); a new install has none and opens the built-in "home" dashboard.
t.test('the Overview and the built-in dashboards in each era of Home Assistant', async t => {
  const listed = async (overview: 'migrated' | 'fresh' | 'legacy'): Promise<{ home: Awaited<ReturnType<typeof startHome>>, client: Awaited<ReturnType<typeof connectClient>>, list: any }> => {
    const home = await startHome(t, { overview })
    const server = await startServer(t, { home, options: { allow_config_write: true } })
    const client = await connectClient(t, server)
    const list = await callTool(client, 'ha_list_dashboards')
    t.notOk(list.isError, list.text)
    return { home, client, list: list.json }
  }
  const card = { type: 'markdown', content: 'Hello' }

  t.test('migrated (the default): the Overview is listed once and edited through its entry', async t => {
    const { home, client, list } = await listed('migrated')
    const paths = list.items.map((d: { url_path: string }) => d.url_path)
    t.equal(paths.filter((p: string) => p === 'lovelace').length, 1, 'lovelace once')
    t.match(list.items.find((d: { url_path: string }) => d.url_path === 'lovelace'), { mode: 'storage', default: true, views: 2 })
    t.same(list.items.filter((d: { built_in?: boolean }) => d.built_in === true).map((d: { url_path: string }) => d.url_path), ['home', 'light', 'security', 'climate', 'energy', 'maintenance'])
    t.match(list.items.find((d: { url_path: string }) => d.url_path === 'home'), { mode: 'generated', default: false, views: null })
    t.equal(list.default_dashboard, 'lovelace')
    t.equal(list.default_dashboard_set, true)
    const asked = await callTool(client, 'ha_add_dashboard_card', { card })
    t.notOk(asked.isError, asked.text)
    const done = await callTool(client, 'ha_add_dashboard_card', { card, confirm_token: asked.json.confirm_token })
    t.notOk(done.isError, done.text)
    t.same(home.configWrites, ['lovelace/config/save lovelace'])
    const builtIn = await callTool(client, 'ha_add_dashboard_card', { dashboard: 'home', card })
    t.equal(builtIn.code, 'HAMCP_NOT_SUPPORTED')
    t.match(builtIn.text, /built into Home Assistant/)
  })

  t.test('fresh 2026.2+ install: no Overview, the built-in home dashboard is the default', async t => {
    const { home, client, list } = await listed('fresh')
    t.notOk(list.items.some((d: { url_path: string }) => d.url_path === 'lovelace'), 'no Overview listed')
    t.equal(list.default_dashboard, 'home')
    t.equal(list.default_dashboard_set, false)
    t.match(list.items.find((d: { url_path: string }) => d.url_path === 'home'), { built_in: true, default: true })
    const asked = await callTool(client, 'ha_add_dashboard_card', { card })
    t.equal(asked.code, 'HAMCP_NOT_FOUND')
    t.match(asked.text, /no Overview dashboard/)
    t.same(home.configWrites, [])
  })

  t.test('legacy (before 2025.12): the unnamed Overview is the default and is edited as such', async t => {
    const { home, client, list } = await listed('legacy')
    t.same(list.items.map((d: { url_path: string }) => d.url_path).filter((p: string) => p === 'lovelace'), ['lovelace'])
    t.match(list.items.find((d: { url_path: string }) => d.url_path === 'lovelace'), { mode: 'storage', default: true, views: 2 })
    t.equal(list.default_dashboard, 'lovelace')
    const asked = await callTool(client, 'ha_add_dashboard_card', { card })
    t.notOk(asked.isError, asked.text)
    const done = await callTool(client, 'ha_add_dashboard_card', { card, confirm_token: asked.json.confirm_token })
    t.notOk(done.isError, done.text)
    t.same(home.configWrites, ['lovelace/config/save lovelace'])
  })
})

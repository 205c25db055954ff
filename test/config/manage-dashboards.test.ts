// Dashboard views and cards through ha_manage_config: paths from ha_list_dashboards, diffs, the hash guard, undo.
import t from 'tap'
import { callTool, connectClient, startHome, startServer } from '../helper.ts'

const MANAGE = 'ha_manage_config'

t.test('ha_manage_config kind dashboard', async t => {
  const home = await startHome(t)
  const server = await startServer(t, { home, options: { allow_config_write: true } })
  const client = await connectClient(t, server)
  const dashboard = async (urlPath: string | null = null): Promise<any> => await server.app.services.ha.command({ type: 'lovelace/config', url_path: urlPath })
  const confirmed = async (args: Record<string, unknown>): Promise<any> => {
    const asked = await callTool(client, MANAGE, { kind: 'dashboard', ...args })
    t.notOk(asked.isError, asked.text)
    t.equal(asked.json.confirmation_required, true)
    const done = await callTool(client, MANAGE, { kind: 'dashboard', ...args, confirm_token: asked.json.confirm_token })
    t.notOk(done.isError, done.text)
    return { asked: asked.json, done: done.json }
  }
  const undo = async (): Promise<any> => {
    const asked = await callTool(client, 'ha_undo', {})
    t.notOk(asked.isError, asked.text)
    return (await callTool(client, 'ha_undo', { confirm_token: asked.json.confirm_token })).json
  }
  const light = home.entityIds().find(id => id.startsWith('light.')) as string

  t.test('ha_list_dashboards shows the paths each card is edited by', async t => {
    const listed = await callTool(client, 'ha_list_dashboards', { dashboard: 'lovelace' })
    t.notOk(listed.isError, listed.text)
    t.match(listed.json.views[0].items, [{ path: '0/0', type: 'entities', title: 'Lights' }, { path: '0/1', type: 'weather-forecast', entity: 'weather.home' }, { path: '0/2', type: 'thermostat' }])
    t.match(listed.json.views[1].items[0], { path: '1/0', type: 'alarm-panel' })
  })

  t.test('move a card to another view: dry run, diff, confirmation, visible at once, undo exact', async t => {
    const before = await dashboard()
    const dry = await callTool(client, MANAGE, { kind: 'dashboard', action: 'move', item: '0/1', to: '1/0', dry_run: true })
    t.notOk(dry.isError, dry.text)
    t.equal(dry.json.dry_run, true)
    t.match(dry.json.preview, /^--- dashboard lovelace \(current\)\n\+\+\+ dashboard lovelace \(proposed\)\n/)
    t.same(await dashboard(), before, 'dry run saved nothing')
    t.same(home.configWrites, [])

    const { done } = await confirmed({ action: 'move', item: '0/1', to: '1/0' })
    t.equal(done.moved, '0/1 to 1/0')
    const listed = await callTool(client, 'ha_list_dashboards', { dashboard: 'lovelace' })
    t.match(listed.json.views[1].items[0], { path: '1/0', type: 'weather-forecast' }, 'the read tool sees the move')
    t.equal(listed.json.views[0].cards, before.views[0].cards.length - 1)
    t.match(server.app.services.policy.audit.recent(1)[0], { tool: MANAGE, domain: 'lovelace', service: 'move', outcome: 'confirmation_given' })
    t.same(home.configWrites, ['lovelace/config/save lovelace'])

    await undo()
    t.same(await dashboard(), before, 'exactly the previous dashboard')
  })

  t.test('update and delete a card, add and remove a view', async t => {
    const before = await dashboard()
    const tile = { type: 'tile', entity: light }
    await confirmed({ action: 'update', item: '0/2', config: tile })
    t.same((await dashboard()).views[0].cards[2], tile)
    await confirmed({ action: 'delete', item: '0/0' })
    t.equal((await dashboard()).views[0].cards.length, before.views[0].cards.length - 1)
    const view = { title: 'Garden', path: 'garden', type: 'sections', sections: [{ type: 'grid', cards: [] }] }
    await confirmed({ action: 'create', config: view })
    t.equal((await dashboard()).views.length, 3)
    await confirmed({ action: 'create', item: '2/0', config: tile })
    const listed = await callTool(client, 'ha_list_dashboards', { dashboard: 'lovelace' })
    t.match(listed.json.views[2].items, [{ path: '2/0', cards: [{ path: '2/0/0', type: 'tile', entity: light }] }], 'sections views have view/section/card paths')
    const { asked } = await confirmed({ action: 'delete', item: '2' })
    t.match(asked.preview, /- {2}- title: Garden/)
    t.equal((await dashboard()).views.length, 2)
  })

  t.test('the concurrent-edit guard and path errors', async t => {
    const args = { kind: 'dashboard', action: 'delete', item: '1/0' }
    const asked = await callTool(client, MANAGE, args)
    const current = await dashboard()
    await server.app.services.ha.command({ type: 'lovelace/config/save', url_path: null, config: { ...current, title: 'Edited by hand' } })
    const stale = await callTool(client, MANAGE, { ...args, confirm_token: asked.json.confirm_token })
    t.ok(stale.isError)
    t.match(stale.text, /changed in Home Assistant after the preview/)
    t.equal((await dashboard()).views[1].cards.length, current.views[1].cards.length, 'nothing deleted')

    const nowhere = await callTool(client, MANAGE, { kind: 'dashboard', action: 'delete', item: '0/42' })
    t.match(nowhere.text, /Nothing at 0\/42/)
    const bad = await callTool(client, MANAGE, { kind: 'dashboard', action: 'delete', item: 'home/x' })
    t.match(bad.text, /not a dashboard path/)
    const depth = await callTool(client, MANAGE, { kind: 'dashboard', action: 'move', item: '0/1', to: '1' })
    t.match(depth.text, /same kind of thing/)
    const title = await callTool(client, MANAGE, { kind: 'dashboard', action: 'create', item: '0', config: { type: 'entities', title: 'Lights\u0007', entities: [] } })
    t.match(title.text, /Invalid config for a card or view: config\.title: /)
    t.match(title.text, /HAMCP_INVALID_ARGUMENT/)
    const yaml = await callTool(client, MANAGE, { kind: 'dashboard', id: 'wall-panel', action: 'delete', item: '0/0' })
    t.match(yaml.text, /YAML mode/)
  })

  t.test('a card naming a denied entity is refused before any preview', async t => {
    const denied = await startServer(t, { home, options: { allow_config_write: true, entity_denylist: [light] } })
    const refused = await callTool(await connectClient(t, denied), MANAGE, { kind: 'dashboard', action: 'create', item: '0', config: { type: 'tile', entity: light } })
    t.ok(refused.isError)
    t.match(refused.text, /refused by entity_denylist/)
    const saves = home.configWrites.length
    const noLovelace = await startServer(t, { home, options: { allow_config_write: true, service_denylist: ['lovelace.*'] } })
    const byService = await callTool(await connectClient(t, noLovelace), MANAGE, { kind: 'dashboard', action: 'delete', item: '0/0' })
    t.match(byService.text, /lovelace\.delete is refused by the service_denylist/)
    t.equal(home.configWrites.length, saves, 'nothing reached the house')
  })
})

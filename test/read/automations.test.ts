import t from 'tap'
import { callTool, caughtUp, connectClient, startHome, startServer } from '../helper.ts'

t.test('automations, scripts, blueprints, traces and dashboards', async t => {
  const home = await startHome(t)
  const server = await startServer(t, { home })
  const client = await connectClient(t, server)

  t.test('list automations with their source', async t => {
    const answer = await callTool(client, 'ha_list_automations')
    t.notOk(answer.isError, answer.text)
    const byId = new Map(answer.json.items.map((item: { entity_id: string }) => [item.entity_id, item]))
    t.equal(answer.json.total, home.entityIds().filter(id => id.startsWith('automation.')).length)
    t.match(byId.get('automation.wake_up'), { name: 'Wake up', enabled: true, source: 'ui' })
    t.match(byId.get('automation.garden_irrigation'), { source: 'yaml' }, 'no id: YAML')
    t.match(byId.get('automation.porch_light_legacy'), { source: 'yaml', enabled: false }, 'an id that the UI store does not know: YAML')
    t.notOk('config' in (byId.get('automation.wake_up') as object), 'no config unless asked')
    const paged = await callTool(client, 'ha_list_automations', { limit: 2, offset: 2 })
    t.match(paged.json, { returned: 2, has_more: true, next_offset: 4 })
  })

  t.test('include_config: small pages, YAML items without config', async t => {
    const answer = await callTool(client, 'ha_list_automations', { include_config: true })
    t.notOk(answer.isError, answer.text)
    t.equal(answer.json.returned, 5, 'default page of 5 with configs')
    const hallway = answer.json.items.find((i: { entity_id: string }) => i.entity_id === 'automation.hallway_motion_light')
    t.match(hallway.config, { alias: 'Hallway motion light', mode: 'restart', triggers: [{ trigger: 'state' }] })
    const big = await callTool(client, 'ha_list_automations', { include_config: true, limit: 50 })
    t.ok(big.json.returned <= 10)
    t.match(big.json.note, /limit lowered to 10/)
    const yaml = big.json.items.find((i: { source: string }) => i.source === 'yaml')
    t.equal(yaml.config, null)
    t.ok(Buffer.byteLength(big.text) <= 15_000)
  })

  t.test('get one automation', async t => {
    const ui = await callTool(client, 'ha_get_automation', { entity_id: 'automation.hallway_motion_light' })
    t.notOk(ui.isError, ui.text)
    t.match(ui.json, { source: 'ui', mode: 'restart', enabled: true, id: '1700000000003' })
    t.equal(ui.json.config.actions.length, 3)
    const yaml = await callTool(client, 'ha_get_automation', { entity_id: 'automation.garden_irrigation' })
    t.notOk(yaml.isError, yaml.text)
    t.equal(yaml.json.source, 'yaml')
    t.match(yaml.json.note, /YAML/)
    const wrongDomain = await callTool(client, 'ha_get_automation', { entity_id: 'script.good_night' })
    t.ok(wrongDomain.isError)
    t.equal(wrongDomain.code, 'HAMCP_WRONG_DOMAIN')
    const missing = await callTool(client, 'ha_get_automation', { entity_id: 'automation.nope' })
    t.ok(missing.isError)
    t.equal(missing.code, 'HAMCP_ENTITY_NOT_FOUND')
  })

  t.test('traces: runs list, then one run without variables', async t => {
    const response = await fetch(`${home.url}/api/services/automation/trigger`, {
      method: 'POST',
      headers: { authorization: `Bearer ${home.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ entity_id: 'automation.wake_up' })
    })
    t.equal(response.status, 200)
    // The trigger's answer comes once the run has started, its trace stored (demo/services/automation.ts).
    const runs: Array<{ run_id: string, start: string, result: string }> = (await callTool(client, 'ha_get_automation_trace', { entity_id: 'automation.wake_up' })).json.runs
    t.ok(runs.length > 0, 'a stored run by the time the trigger answered')
    const starts = runs.map(r => r.start)
    t.same(starts, [...starts].sort().reverse(), 'newest run first')
    const run = await callTool(client, 'ha_get_automation_trace', { entity_id: 'automation.wake_up', run_id: runs[0]?.run_id })
    t.notOk(run.isError, run.text)
    const call = run.json.steps.find((s: { service?: string }) => s.service === 'light.turn_on')
    t.ok(call, 'the service step names its service')
    t.match(call.target.entity_id, /^light\./)
    t.notMatch(run.text, /changed_variables|"variables"|"this"/, 'variables are dropped')
    const unknownRun = await callTool(client, 'ha_get_automation_trace', { entity_id: 'automation.wake_up', run_id: 'nope' })
    t.ok(unknownRun.isError)
    t.equal(unknownRun.code, 'HAMCP_NOT_FOUND')
    const noId = await callTool(client, 'ha_get_automation_trace', { entity_id: 'automation.garden_irrigation' })
    t.notOk(noId.isError)
    t.match(noId.json.note, /no id/)
    const light = await callTool(client, 'ha_get_automation_trace', { entity_id: home.entityIds().find(id => id.startsWith('light.')) })
    t.ok(light.isError, 'only automations and scripts have traces')
  })

  t.test('scripts and blueprints', async t => {
    const scripts = await callTool(client, 'ha_list_scripts')
    t.notOk(scripts.isError, scripts.text)
    const movie = scripts.json.items.find((s: { entity_id: string }) => s.entity_id === 'script.movie_time')
    t.match(movie, { name: 'Movie time', running: false, mode: 'restart' })
    const blueprints = await callTool(client, 'ha_list_blueprints')
    t.notOk(blueprints.isError, blueprints.text)
    const motion = blueprints.json.items.find((b: { path: string }) => b.path === 'homeassistant/motion_light.yaml')
    t.match(motion.inputs, [{ name: 'motion_entity', required: true, selector: 'entity' }, { name: 'light_target' }, { name: 'no_motion_wait', required: false, default: 120, selector: 'number' }])
    t.ok(blueprints.json.items.some((b: { error?: string }) => b.error), 'a broken blueprint shows its error')
    const script = await callTool(client, 'ha_list_blueprints', { domain: 'script' })
    t.equal(script.json.total, 1)
    const bad = await callTool(client, 'ha_list_blueprints', { domain: 'scene' })
    t.ok(bad.isError)
  })

  t.test('dashboards', async t => {
    const list = await callTool(client, 'ha_list_dashboards')
    t.notOk(list.isError, list.text)
    const byPath = new Map(list.json.items.map((d: { url_path: string }) => [d.url_path, d]))
    t.match(byPath.get('lovelace'), { default: true, mode: 'storage', views: 2 })
    t.ok([...byPath.values()].some(d => (d as { mode: string }).mode === 'yaml'), 'a YAML dashboard is listed as such')
    const views = await callTool(client, 'ha_list_dashboards', { dashboard: 'lovelace' })
    t.match(views.json, { editable: true, views: [{ index: 0, title: 'Home', path: 'home' }, { index: 1 }] })
    t.ok(views.json.views[0].cards >= 2)
    const unknown = await callTool(client, 'ha_list_dashboards', { dashboard: 'nope' })
    t.ok(unknown.isError)
    t.equal(unknown.code, 'HAMCP_NOT_FOUND')
    t.match(unknown.text, /Dashboards: .*lovelace/)
  })
})

t.test('filter_reads hides denied entities inside automation configs and traces', async t => {
  const home = await startHome(t)
  const probe = await startServer(t, { home })
  const probeClient = await connectClient(t, probe)
  const wake = await callTool(probeClient, 'ha_get_automation', { entity_id: 'automation.wake_up' })
  const hidden = wake.json.config.actions[0].target.entity_id as string
  const server = await startServer(t, { home, options: { filter_reads: true, entity_denylist: [hidden] } })
  const client = await connectClient(t, server)
  const answers = [
    await callTool(client, 'ha_get_automation', { entity_id: 'automation.wake_up' }),
    await callTool(client, 'ha_list_automations', { include_config: true, limit: 10 })
  ]
  await fetch(`${home.url}/api/services/automation/trigger`, {
    method: 'POST',
    headers: { authorization: `Bearer ${home.token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ entity_id: 'automation.wake_up' })
  })
  // The trigger's answer comes once the run has started, its trace stored (demo/services/automation.ts).
  const runs: Array<{ run_id: string }> = (await callTool(client, 'ha_get_automation_trace', { entity_id: 'automation.wake_up' })).json.runs
  t.ok(runs.length > 0, 'a stored run by the time the trigger answered')
  answers.push(await callTool(client, 'ha_get_automation_trace', { entity_id: 'automation.wake_up', run_id: runs[0]?.run_id }))
  for (const answer of answers) t.notOk(answer.text.includes(hidden), `no ${hidden} in ${answer.text.slice(0, 60)}…`)
  const history = await callTool(client, 'ha_get_history', { entity_id: hidden })
  t.ok(history.isError, 'history of a hidden entity is "not found", like an unknown one')
  t.equal(history.code, 'HAMCP_ENTITY_NOT_FOUND')
  t.match(answers[0]?.json.config, { alias: 'Wake up' }, 'the automation itself is still shown')
})

t.test('include_config drops the biggest configs first to fit the page budget', async t => {
  const home = await startHome(t)
  const server = await startServer(t, { home })
  const client = await connectClient(t, server)
  const sizes = [3000, 9000, 6000]
  for (const [index, size] of sizes.entries()) {
    const response = await fetch(`${home.url}/api/config/automation/config/big_${index}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${home.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ alias: `Aaa big ${index}`, description: 'x'.repeat(size), triggers: [{ trigger: 'time', at: '06:00:00' }], conditions: [], actions: [{ action: 'light.turn_off', target: { entity_id: 'all' } }] })
    })
    t.equal(response.status, 200, await response.text())
  }
  await caughtUp(server)
  t.ok([0, 1, 2].every(i => server.app.services.ha.states.get(`automation.aaa_big_${i}`) !== undefined), 'the add-on sees three new automations')
  const answer = await callTool(client, 'ha_list_automations', { include_config: true, limit: 3 })
  t.notOk(answer.isError, answer.text)
  const byName = new Map(answer.json.items.map((item: { name: string }) => [item.name, item]))
  t.match(byName.get('Aaa big 1'), { config: null, config_omitted: true }, 'the biggest config is dropped')
  t.match(byName.get('Aaa big 0'), { config: { alias: 'Aaa big 0' } }, 'the smallest one stays')
  t.ok(Buffer.byteLength(answer.text) <= 14_500, `${Buffer.byteLength(answer.text)} bytes`)
  t.match(answer.json.note, /Configs omitted to fit the answer: automation\.aaa_big_1/)
})

t.test('script traces', async t => {
  const home = await startHome(t)
  const server = await startServer(t, { home })
  const client = await connectClient(t, server)
  const response = await fetch(`${home.url}/api/services/script/turn_on`, {
    method: 'POST',
    headers: { authorization: `Bearer ${home.token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ entity_id: 'script.movie_time' })
  })
  t.equal(response.status, 200)
  // The trigger's answer comes once the run has started, its trace stored (demo/services/automation.ts).
  const runs: Array<{ run_id: string, result: string }> = (await callTool(client, 'ha_get_automation_trace', { entity_id: 'script.movie_time' })).json.runs
  t.ok(runs.length > 0, 'a stored script run by the time the trigger answered')
  t.equal(runs[0]?.result, 'finished')
  const run = await callTool(client, 'ha_get_automation_trace', { entity_id: 'script.movie_time', run_id: runs[0]?.run_id })
  t.ok(run.json.steps.some((s: { path: string, service?: string }) => s.path === 'sequence/0' && s.service === 'light.turn_on'))
})

// Config writes end to end: Home Assistant validates first, a human confirms the YAML or the diff,
// the base config guards against edits made meanwhile, and the answer carries what undo needs.
import t from 'tap'
import { callTool, connectClient, startHome, startServer } from '../helper.ts'
import type { DemoHome } from '../../demo/index.ts'

const CONFIG_TOOLS = ['ha_add_dashboard_card', 'ha_create_automation', 'ha_create_from_blueprint', 'ha_create_script', 'ha_delete_automation', 'ha_delete_script', 'ha_update_automation', 'ha_update_script']

/** The demo home's own REST config API, as the Home Assistant UI would use it. */
async function haConfig (home: DemoHome, method: 'GET' | 'POST' | 'DELETE', kind: 'automation' | 'script', id: string, body?: unknown): Promise<{ status: number, json: any }> {
  const response = await fetch(`${home.url}/api/config/${kind}/config/${id}`, {
    method,
    headers: { authorization: `Bearer ${home.token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body)
  })
  const text = await response.text()
  let json: unknown
  try { json = JSON.parse(text) } catch { json = text }
  return { status: response.status, json }
}

t.test('without allow_config_write no config tool is listed or callable', async t => {
  const home = await startHome(t)
  const server = await startServer(t, { home, options: { allow_write: true } })
  const client = await connectClient(t, server)
  const names = (await client.listTools()).tools.map(tool => tool.name)
  t.same(CONFIG_TOOLS.filter(name => names.includes(name)), [])
  await t.rejects(callTool(client, 'ha_delete_automation', { entity_id: 'automation.wake_up' }), /ha_delete_automation/, 'unknown tool')
  t.equal((await haConfig(home, 'GET', 'automation', '1700000000001')).status, 200, 'still there')
})

t.test('automation lifecycle: validate, confirm, create, diff, concurrent edit, delete', async t => {
  const home = await startHome(t)
  const server = await startServer(t, { home, options: { allow_config_write: true, tool_list: 'full' } })
  const client = await connectClient(t, server)
  const names = (await client.listTools()).tools.map(tool => tool.name)
  t.same(CONFIG_TOOLS.filter(name => names.includes(name)), CONFIG_TOOLS, 'all config tools listed')
  const automationsBefore = home.entityIds().filter(id => id.startsWith('automation.')).length
  const light = home.entityIds().find(id => id.startsWith('light.')) as string

  t.test('an invalid automation is refused with Home Assistant\'s message, before any token', async t => {
    const bad = await callTool(client, 'ha_create_automation', {
      alias: 'Broken', triggers: [{ trigger: 'moonrise' }], actions: [{ action: 'light.turn_on', target: { entity_id: light } }]
    })
    t.ok(bad.isError)
    t.equal(bad.code, 'HAMCP_CONFIG_REJECTED')
    t.match(bad.text, /Home Assistant rejected the automation: triggers: Invalid trigger 'moonrise' specified/)
    t.notMatch(bad.text, /confirm_token/)
    t.equal(home.entityIds().filter(id => id.startsWith('automation.')).length, automationsBefore, 'no automation appeared')
    t.same(home.serviceCalls, [], 'nothing reached the house')
    const taken = await callTool(client, 'ha_create_automation', { alias: 'wake UP', triggers: [{ trigger: 'time', at: '06:00:00' }], actions: [{ action: 'light.turn_on', target: { entity_id: light } }] })
    t.ok(taken.isError)
    t.equal(taken.code, 'HAMCP_ALREADY_EXISTS')
  })

  let createdId = ''
  let createdEntity = ''
  let usedToken = ''
  const create = {
    alias: 'Porch at dusk',
    description: 'Porch light when the sun sets',
    triggers: [{ trigger: 'sun', event: 'sunset' }],
    actions: [{ action: 'light.turn_on', target: { entity_id: light } }]
  }

  t.test('create asks for a confirmation showing the full YAML, then creates it', async t => {
    const asked = await callTool(client, 'ha_create_automation', create)
    t.notOk(asked.isError, asked.text)
    t.equal(asked.json.confirmation_required, true)
    t.match(asked.json.confirm_token, /^[0-9a-f]{32}$/)
    t.equal(asked.json.preview, [
      'alias: Porch at dusk',
      'description: Porch light when the sun sets',
      'mode: single',
      'triggers:',
      '  - trigger: sun',
      '    event: sunset',
      'conditions: []',
      'actions:',
      '  - action: light.turn_on',
      '    target:',
      `      entity_id: ${light}`,
      ''
    ].join('\n'))
    t.equal(home.entityIds().filter(id => id.startsWith('automation.')).length, automationsBefore, 'nothing created before the confirmation')

    const done = await callTool(client, 'ha_create_automation', { ...create, confirm_token: asked.json.confirm_token })
    t.notOk(done.isError, done.text)
    t.equal(done.json.success, true)
    t.match(done.json.id, /^\d{13}$/)
    createdId = done.json.id
    createdEntity = done.json.entity_id
    usedToken = asked.json.confirm_token
    t.equal(createdEntity, 'automation.porch_at_dusk')
    const stored = await haConfig(home, 'GET', 'automation', createdId)
    t.equal(stored.status, 200)
    t.equal(stored.json.alias, 'Porch at dusk')
    t.same(stored.json.triggers, create.triggers)
    t.ok(home.getState(createdEntity), 'the automation entity exists in the home')
  })

  t.test('a used token is refused', async t => {
    const again = await callTool(client, 'ha_create_automation', { ...create, alias: 'Porch at dusk 2', confirm_token: usedToken })
    t.ok(again.isError)
    t.equal(again.code, 'HAMCP_CONFIRM_TOKEN_INVALID')
  })

  t.test('update shows a unified diff and returns the previous YAML', async t => {
    const change = { entity_id: createdEntity, actions: [{ action: 'light.turn_on', target: { entity_id: light }, data: { brightness_pct: 40 } }] }
    const asked = await callTool(client, 'ha_update_automation', change)
    t.notOk(asked.isError, asked.text)
    t.match(asked.json.preview, /^--- automation\.porch_at_dusk \(current\)\n\+\+\+ automation\.porch_at_dusk \(proposed\)\n@@ -\d+,\d+ \+\d+,\d+ @@\n/)
    t.match(asked.json.preview, /\n\+ {6}brightness_pct: 40\n/)
    t.notMatch(asked.json.preview, /^-(?!--)/m, 'only additions: nothing removed')
    t.equal((await haConfig(home, 'GET', 'automation', createdId)).json.actions[0].data, undefined, 'unchanged before confirming')
    const done = await callTool(client, 'ha_update_automation', { ...change, confirm_token: asked.json.confirm_token })
    t.notOk(done.isError, done.text)
    t.match(done.json.previous_yaml, /alias: Porch at dusk\n/)
    t.notMatch(done.json.previous_yaml, /brightness_pct/)
    t.same((await haConfig(home, 'GET', 'automation', createdId)).json.actions[0].data, { brightness_pct: 40 })

    const same = await callTool(client, 'ha_update_automation', change)
    t.ok(same.isError)
    t.equal(same.code, 'HAMCP_INVALID_ARGUMENT')
  })

  t.test('an edit made in Home Assistant between preview and confirmation voids the confirmation', async t => {
    const change = { entity_id: createdEntity, mode: 'restart' }
    const asked = await callTool(client, 'ha_update_automation', change)
    t.notOk(asked.isError, asked.text)
    const current = (await haConfig(home, 'GET', 'automation', createdId)).json
    t.equal((await haConfig(home, 'POST', 'automation', createdId, { ...current, description: 'edited in the UI' })).status, 200)
    const done = await callTool(client, 'ha_update_automation', { ...change, confirm_token: asked.json.confirm_token })
    t.ok(done.isError)
    t.equal(done.code, 'HAMCP_CONFLICT')
    const after = (await haConfig(home, 'GET', 'automation', createdId)).json
    t.equal(after.description, 'edited in the UI', 'the human\'s edit survives')
    t.equal(after.mode, 'single', 'the stale change was not written')
  })

  t.test('YAML-only automations are refused with a way out', async t => {
    const yamlOnly = await callTool(client, 'ha_update_automation', { entity_id: 'automation.garden_irrigation', mode: 'restart' })
    t.ok(yamlOnly.isError)
    t.equal(yamlOnly.code, 'HAMCP_NOT_SUPPORTED')
    t.match(yamlOnly.text, /Hint: /)
  })

  t.test('delete shows and returns the deleted YAML', async t => {
    const asked = await callTool(client, 'ha_delete_automation', { entity_id: createdEntity })
    t.notOk(asked.isError, asked.text)
    t.match(asked.json.preview, /will be deleted:\n(.|\n)*alias: Porch at dusk\n/)
    t.equal((await haConfig(home, 'GET', 'automation', createdId)).status, 200, 'still there before confirming')
    const done = await callTool(client, 'ha_delete_automation', { entity_id: createdEntity, confirm_token: asked.json.confirm_token })
    t.notOk(done.isError, done.text)
    t.match(done.json.deleted_yaml, /^id: "?\d+"?\nalias: Porch at dusk\n/)
    t.match(done.json.deleted_yaml, /brightness_pct: 40/)
    t.equal((await haConfig(home, 'GET', 'automation', createdId)).status, 404)
    t.equal(home.getState(createdEntity), undefined, 'entity removed from the house by the time the tool answers')
  })

  t.test('dry run validates and previews without a token', async t => {
    const dry = await callTool(client, 'ha_create_automation', { ...create, alias: 'Dry', dry_run: true })
    t.notOk(dry.isError, dry.text)
    t.equal(dry.json.dry_run, true)
    t.match(dry.json.preview, /alias: Dry/)
    t.equal(dry.json.confirm_token, undefined)
  })
  t.same(home.serviceCalls.filter(call => call.domain === 'light'), [], 'no light was switched along the way')
})

t.test('entities named in a config pass the write lists before any token', async t => {
  const home = await startHome(t)
  const server = await startServer(t, { home, options: { allow_config_write: true, entity_denylist: ['lock.*'] } })
  const client = await connectClient(t, server)
  const lock = home.entityIds().find(id => id.startsWith('lock.')) as string
  const refused = await callTool(client, 'ha_create_script', { alias: 'Open up', sequence: [{ action: 'lock.unlock', target: { entity_id: lock } }] })
  t.ok(refused.isError)
  t.equal(refused.code, 'HAMCP_DENIED_ENTITY')
  t.notMatch(refused.text, /confirm_token/)
  t.equal((await haConfig(home, 'GET', 'script', 'open_up')).status, 404)
})

t.test('a plain string is a condition only when it is a template, in the preview as in the save (cv.dynamic_template)', async t => {
  const home = await startHome(t)
  const server = await startServer(t, { home, options: { allow_config_write: true } })
  const client = await connectClient(t, server)
  const light = home.entityIds().find(id => id.startsWith('light.')) as string
  const base = { alias: 'Evening lamp', triggers: [{ trigger: 'sun', event: 'sunset' }] }
  const turnOn = { action: 'light.turn_on', target: { entity_id: light } }

  const top = await callTool(client, 'ha_create_automation', { ...base, conditions: ['sun is down'], actions: [turnOn], dry_run: true })
  t.equal(top.code, 'HAMCP_INVALID_ARGUMENT', top.text)
  t.match(top.text, /template/)
  const nested = await callTool(client, 'ha_create_automation', { ...base, actions: [{ if: ['sun is down'], then: [turnOn] }] })
  t.equal(nested.code, 'HAMCP_CONFIG_REJECTED', `no confirmation is promised for what Home Assistant would not save: ${nested.text}`)
  t.notMatch(nested.text, /confirm_token/)
  const templated = await callTool(client, 'ha_create_automation', { ...base, conditions: ["{{ is_state('sun.sun', 'below_horizon') }}"], actions: [{ if: ['{{ now().hour > 17 }}'], then: [turnOn] }], dry_run: true })
  t.notOk(templated.isError, `a template string is a condition: ${templated.text}`)
})

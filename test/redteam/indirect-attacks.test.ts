import t from 'tap'
import { callTool, connectClient, eventually, startHome, startServer } from '../helper.ts'
import { writeCatalog } from '../write/catalog.ts'

/**
 * Attack pass on indirect targets, by someone who did not write them: ways to reach the
 * front door lock that name neither the lock nor anything holding it. Judged by what reached the demo
 * house.
 */

const LOCK = 'lock.front_door_lock'
const LOCK_SCENE = 'scene.welcome_guests'

t.test('a lock scene reached by entity_id: all or by its area asks, and the question names the lock', async t => {
  const home = await startHome(t)
  const server = await startServer(t, { home, options: { allow_write: true }, app: { catalog: await writeCatalog() } })
  const client = await connectClient(t, server)
  home.setState(LOCK, 'locked')

  home.clearServiceCalls()
  const all = await callTool(client, 'ha_call_service', { domain: 'scene', service: 'turn_on', target: { entity_id: 'all' } })
  t.equal(all.json?.confirmation_required, true, `scene.turn_on on all asks (${all.text.slice(0, 300)})`)
  t.match(all.json?.preview, /lock\.front_door_lock/, 'the question names the lock a scene sets')
  t.equal(home.serviceCalls.length, 0, 'no scene was activated')
  t.equal(home.getState(LOCK)?.state, 'locked', 'the door stayed locked')

  // The owner puts the scene in the hallway; the assistant activates the hallway's scenes.
  await server.app.services.ha.command({ type: 'config/entity_registry/update', entity_id: LOCK_SCENE, area_id: 'hallway' })
  await eventually(async () => (await server.app.services.ha.registries.snapshot())?.entities.get(LOCK_SCENE)?.area_id === 'hallway', 5000, 'the add-on to see the scene in the hallway')
  home.clearServiceCalls()
  const area = await callTool(client, 'ha_call_service', { domain: 'scene', service: 'turn_on', target: { area_id: 'hallway' } })
  t.equal(area.json?.confirmation_required, true, `scene.turn_on on the hallway asks (${area.text.slice(0, 300)})`)
  t.match(area.json?.preview, /lock\.front_door_lock/, 'the question names the lock')
  t.equal(home.serviceCalls.length, 0, 'no scene was activated')
  t.equal(home.getState(LOCK)?.state, 'locked', 'the door stayed locked')

  const token = area.json?.confirm_token as string
  const done = await callTool(client, 'ha_call_service', { domain: 'scene', service: 'turn_on', target: { area_id: 'hallway' }, confirm_token: token })
  t.notOk(done.isError, done.text)
  t.ok((done.json?.entities as string[] | undefined)?.includes(LOCK), 'the answer lists the lock the scene reached')
  t.ok(server.app.services.policy.audit.recent(1)[0]?.entities?.includes(LOCK), 'so does the audit line')
})

t.test('a sentence handed to Home Assistant\'s conversation agent names no entity, yet reaches the lock', async t => {
  const home = await startHome(t)
  const name = String(home.getState(LOCK)?.attributes.friendly_name)
  const say = { domain: 'conversation', service: 'process', data: { text: `Unlock the ${name}` } }

  t.test('with the lock in entity_denylist: refused, nothing reaches the house', async t => {
    const server = await startServer(t, { home, options: { allow_write: true, entity_denylist: [LOCK] }, app: { catalog: await writeCatalog() } })
    const client = await connectClient(t, server)
    home.setState(LOCK, 'locked')
    home.clearServiceCalls()
    const answer = await callTool(client, 'ha_call_service', say)
    t.equal(answer.code, 'HAMCP_DENIED_TARGET', answer.text)
    t.match(answer.text, /conversation/, 'the refusal says why')
    t.equal(home.serviceCalls.length, 0, 'nothing reached the house')
    t.equal(home.getState(LOCK)?.state, 'locked', 'the door stayed locked')
  })

  t.test('with the default confirm_domains: it asks first', async t => {
    const server = await startServer(t, { home, options: { allow_write: true }, app: { catalog: await writeCatalog() } })
    const client = await connectClient(t, server)
    home.setState(LOCK, 'locked')
    home.clearServiceCalls()
    const answer = await callTool(client, 'ha_call_service', say)
    t.equal(answer.json?.confirmation_required, true, answer.text)
    t.match(answer.json?.preview, /conversation agent/, 'the question says a conversation agent decides what it reaches')
    t.equal(home.serviceCalls.length, 0, 'nothing reached the house yet')
    t.equal(home.getState(LOCK)?.state, 'locked', 'the door stayed locked')
    const yes = await callTool(client, 'ha_call_service', { ...say, confirm_token: answer.json?.confirm_token })
    t.notOk(yes.isError, yes.text)
    t.equal(home.getState(LOCK)?.state, 'unlocked', 'once confirmed, Home Assistant\'s agent does what the sentence says')
  })
})

t.test('a script or a written config that hands text to the conversation agent has an unknowable reach', async t => {
  const { walkRuns } = await import('../../src/policy/runs.ts')
  const { configCalls } = await import('../../src/policy/config-calls.ts')
  const config = { sequence: [{ action: 'conversation.process', data: { text: 'unlock the front door' } }] }
  const house = { entityIds: () => ['script.say'], registry: async () => undefined }
  const walked = await walkRuns(house, async () => config, ['script.say'])
  t.match(walked.unknowableTargets, [/script\.say .*conversation agent/], 'a script saying a sentence reaches what the agent picks')
  t.same([...configCalls(config).agentPicked], ['sequence[0].action'], 'a written config saying one is marked too')
})

t.test('a script whose choose is a single option (no list, as cv.ensure_list allows) is walked', async t => {
  const { walkRuns } = await import('../../src/policy/runs.ts')
  // homeassistant/helpers/config_validation.py _SCRIPT_CHOOSE_SCHEMA: `choose: vol.All(ensure_list, [...])`.
  const config = { sequence: [{ choose: { conditions: [], sequence: [{ action: 'lock.unlock', target: { entity_id: 'lock.front' } }] } }] }
  const house = { entityIds: () => ['lock.front', 'script.sneaky'], registry: async () => undefined }
  const walked = await walkRuns(house, async () => config, ['script.sneaky'])
  t.ok(walked.services.has('lock.unlock'), 'the service inside is found')
  t.equal(walked.entities.get('lock.front'), 'script.sneaky', 'and the lock it unlocks')
})

t.test('an owner-made script whose choose is a single option cannot unlock a denied lock', async t => {
  const home = await startHome(t)
  const server = await startServer(t, { home, options: { allow_write: true, entity_denylist: [LOCK] }, app: { catalog: await writeCatalog() } })
  const client = await connectClient(t, server)
  // The owner saves it in Home Assistant's script editor (POST /api/config/script/config/<id>).
  const saved = await fetch(`${home.url}/api/config/script/config/sneaky`, {
    method: 'POST',
    headers: { authorization: `Bearer ${home.token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ alias: 'Sneaky', sequence: [{ choose: { conditions: [], sequence: [{ action: 'lock.unlock', target: { entity_id: LOCK } }] } }] })
  })
  t.equal(saved.status, 200, await saved.text())
  await eventually(() => server.app.services.ha.states.get('script.sneaky') !== undefined, 5000, 'the add-on to see the new script')
  home.setState(LOCK, 'locked')
  home.clearServiceCalls()
  const answer = await callTool(client, 'ha_run_script', { entity_id: 'script.sneaky' })
  t.equal(answer.code, 'HAMCP_DENIED_ENTITY', answer.text)
  t.equal(home.serviceCalls.length, 0, 'the script was not started')
})

t.test('a script inside a group the call turns on is walked like one named', async t => {
  const home = await startHome(t)
  const server = await startServer(t, { home, options: { allow_write: true, entity_denylist: [LOCK] }, app: { catalog: await writeCatalog() } })
  const client = await connectClient(t, server)
  home.setState(LOCK, 'locked')
  // The assistant makes the group itself: it names a script, no denied entity.
  const made = await callTool(client, 'ha_call_service', { domain: 'group', service: 'set', data: { object_id: 'evening', entities: ['script.let_guest_in'] } })
  t.notOk(made.isError, made.text)
  await eventually(() => server.app.services.ha.states.get('group.evening') !== undefined, 5000, 'the add-on to see the new group')
  home.clearServiceCalls()
  for (const [domain, service] of [['homeassistant', 'turn_on'], ['homeassistant', 'toggle'], ['script', 'turn_on']]) {
    const answer = await callTool(client, 'ha_call_service', { domain, service, target: { entity_id: 'group.evening' } })
    t.equal(answer.code, 'HAMCP_DENIED_ENTITY', `${domain}.${service} on the group: ${answer.text.slice(0, 200)}`)
  }
  t.equal(home.serviceCalls.length, 0, 'nothing reached the house')
  t.equal(home.getState(LOCK)?.state, 'locked', 'the door stayed locked')
})

import t from 'tap'
import { callTool, caughtUp, connectClient, eventually, fakeClock, pastWait, startHome, startServer } from '../helper.ts'
import type { DemoHome } from '../../demo/index.ts'
import { writeCatalog } from './catalog.ts'

/**
 * Indirect targets are targets: what a group, a light group, a scene, a script or an
 * automation reaches passes the entity lists, service_denylist and confirm_domains as if the call had
 * named it. Judged by what reached the demo house.
 */

const LOCK = 'lock.front_door_lock'
const LIVING = 'light.living_room_ceiling_light'

const callsTo = (home: DemoHome, service: string): number =>
  home.serviceCalls.filter(call => `${call.domain}.${call.service}` === service).length

t.test('with entity_denylist naming the lock, nothing reaches it indirectly', async t => {
  const home = await startHome(t)
  const clock = fakeClock()
  const server = await startServer(t, { home, options: { allow_write: true, entity_denylist: [LOCK, LIVING] }, app: { catalog: await writeCatalog(), clock } })
  const client = await connectClient(t, server)
  home.setState(LOCK, 'locked')
  const before = home.getState(LIVING)?.state

  const refusedHere = async (label: string, name: string, args: Record<string, unknown>, code: RegExp, names: RegExp): Promise<void> => {
    home.clearServiceCalls()
    const answer = await callTool(client, name, args)
    t.ok(answer.isError, `${label}: refused (${answer.text})`)
    t.notOk(answer.json?.confirmation_required, `${label}: no confirmation offered`)
    t.match(answer.code, code, `${label}: code`)
    t.match(answer.text, names, `${label}: names what it found`)
    t.equal(home.serviceCalls.length, 0, `${label}: nothing reached the house`)
  }

  await refusedHere('lock.unlock on group.doors', 'ha_call_service', { domain: 'lock', service: 'unlock', target: { entity_id: 'group.doors' } }, /^HAMCP_DENIED_ENTITY$/, /lock\.front_door_lock.*group\.doors|group\.doors.*lock\.front_door_lock/)
  const refusedLine = server.app.services.policy.audit.recent(1)[0]
  t.match(refusedLine, { outcome: 'refused', reason: 'entity_denylist' }, 'the refusal is audited')
  t.ok(refusedLine?.entities?.includes(LOCK), 'and its line lists the lock behind the group')
  await refusedHere('group.doors in data.entity_id', 'ha_call_service', { domain: 'homeassistant', service: 'turn_off', data: { entity_id: 'group.doors' } }, /^HAMCP_DENIED_ENTITY$/, /lock\.front_door_lock/)
  await refusedHere('group.set add_entities', 'ha_call_service', { domain: 'group', service: 'set', data: { object_id: 'mine', add_entities: [LOCK] } }, /^HAMCP_DENIED_ENTITY$/, /lock\.front_door_lock/)
  await refusedHere('group.set remove_entities', 'ha_call_service', { domain: 'group', service: 'set', data: { object_id: 'doors', remove_entities: [LOCK] } }, /^HAMCP_DENIED_ENTITY$/, /lock\.front_door_lock/)
  await refusedHere('a light group holding a denied light', 'ha_call_service', { domain: 'light', service: 'turn_on', target: { entity_id: 'light.downstairs_lights' } }, /^HAMCP_DENIED_ENTITY$/, /light\.living_room_ceiling_light.*light\.downstairs_lights/)
  await refusedHere('an owner-made scene holding the lock', 'ha_call_service', { domain: 'scene', service: 'turn_on', target: { entity_id: 'scene.welcome_guests' } }, /^HAMCP_DENIED_ENTITY$/, /lock\.front_door_lock.*scene\.welcome_guests/)
  await refusedHere('a script that unlocks', 'ha_run_script', { entity_id: 'script.let_guest_in' }, /^HAMCP_DENIED_ENTITY$/, /lock\.front_door_lock.*script\.let_guest_in/)
  await refusedHere('a script calling that script', 'ha_run_script', { entity_id: 'script.arrive_home' }, /^HAMCP_DENIED_ENTITY$/, /lock\.front_door_lock/)
  await refusedHere('the script as a service', 'ha_call_service', { domain: 'script', service: 'let_guest_in' }, /^HAMCP_DENIED_ENTITY$/, /lock\.front_door_lock/)
  await refusedHere('an automation that unlocks', 'ha_trigger_automation', { entity_id: 'automation.open_door_for_cleaner' }, /^HAMCP_DENIED_ENTITY$/, /lock\.front_door_lock.*automation\.open_door_for_cleaner/)
  await refusedHere('a script whose action is a template', 'ha_run_script', { entity_id: 'script.door_by_template' }, /^HAMCP_DENIED_SERVICE$/, /template/)
  t.equal(home.getState(LOCK)?.state, 'locked', 'the lock stayed locked')
  t.equal(home.getState(LIVING)?.state, before, 'the denied light kept its state')

  // A YAML-only script has no stored config; Home Assistant still gives the one it runs (script/config),
  // so it is walked like any other and runs when it reaches nothing the lists deny.
  home.clearServiceCalls()
  // Nothing changes in the house, so the answer comes once the write's 1.5 s wait for state changes (src/policy/reached.ts) passes on the server's clock.
  const yaml = await pastWait(clock, 1500, callTool(client, 'ha_run_script', { entity_id: 'script.flash_hallway' }))
  t.notOk(yaml.isError, `a YAML-only script on an allowed light runs (${yaml.text})`)
  t.equal(callsTo(home, 'script.turn_on') + callsTo(home, 'script.flash_hallway'), 1, 'and reached the house')

  home.clearServiceCalls()
  const fine = await callTool(client, 'ha_run_script', { entity_id: 'script.movie_time' })
  t.ok(fine.isError, 'a script on the denied light is refused too')
  const other = await callTool(client, 'ha_call_service', { domain: 'light', service: 'turn_off', target: { entity_id: 'light.bedroom_ceiling_light' } })
  t.notOk(other.isError && other.code === 'HAMCP_DENIED_ENTITY', 'a light outside the lists is not refused by them')
})

t.test('service_denylist reaches the services an owner-made script calls', async t => {
  const home = await startHome(t)
  const server = await startServer(t, { home, options: { allow_write: true, service_denylist: ['lock.unlock', 'homeassistant.restart'] }, app: { catalog: await writeCatalog() } })
  const client = await connectClient(t, server)
  home.clearServiceCalls()
  for (const [entity, found] of [['script.let_guest_in', /lock\.unlock/], ['script.arrive_home', /lock\.unlock/], ['script.restart_everything', /homeassistant\.restart/]] as const) {
    const answer = await callTool(client, 'ha_run_script', { entity_id: entity })
    t.equal(answer.code, 'HAMCP_DENIED_SERVICE', `${entity}: ${answer.text}`)
    t.match(answer.text, found, `${entity}: names the denied service`)
  }
  const automation = await callTool(client, 'ha_trigger_automation', { entity_id: 'automation.open_door_for_cleaner' })
  t.equal(automation.code, 'HAMCP_DENIED_SERVICE', automation.text)
  t.equal(home.serviceCalls.length, 0, 'no script or automation was started')
})

t.test('a confirm-domain entity reached indirectly asks, and the question names it', async t => {
  const home = await startHome(t)
  const server = await startServer(t, { home, options: { allow_write: true }, app: { catalog: await writeCatalog() } })
  const client = await connectClient(t, server)
  home.setState(LOCK, 'locked')

  const asks = async (label: string, name: string, args: Record<string, unknown>): Promise<string> => {
    home.clearServiceCalls()
    const answer = await callTool(client, name, args)
    t.equal(answer.json?.confirmation_required, true, `${label}: asks (${answer.text})`)
    t.match(answer.json?.preview, /lock\.front_door_lock/, `${label}: the question names the lock`)
    t.equal(home.serviceCalls.length, 0, `${label}: nothing reached the house yet`)
    return answer.json?.confirm_token as string
  }

  const token = await asks('lock.unlock on group.doors', 'ha_call_service', { domain: 'lock', service: 'unlock', target: { entity_id: 'group.doors' } })
  const done = await callTool(client, 'ha_call_service', { domain: 'lock', service: 'unlock', target: { entity_id: 'group.doors' }, confirm_token: token })
  t.notOk(done.isError, done.text)
  t.ok((done.json?.entities as string[]).includes(LOCK), 'the answer lists the lock reached')
  const line = server.app.services.policy.audit.recent(1)[0]
  t.ok(line?.entities?.includes(LOCK), 'the audit line lists the lock')
  t.equal(home.getState(LOCK)?.state, 'unlocked')

  home.setState(LOCK, 'locked')
  const grown = await asks('lock.unlock on group.doors, again', 'ha_call_service', { domain: 'lock', service: 'unlock', target: { entity_id: 'group.doors' } })
  const members = home.getState('group.doors')?.attributes.entity_id as string[]
  home.setState('group.doors', 'locked', { ...home.getState('group.doors')?.attributes, entity_id: [...members, 'lock.garage_side_door'] })
  const stale = await callTool(client, 'ha_call_service', { domain: 'lock', service: 'unlock', target: { entity_id: 'group.doors' }, confirm_token: grown })
  t.equal(stale.code, 'HAMCP_CONFLICT', `a member added after the question voids the yes (${stale.text})`)
  t.equal(home.getState(LOCK)?.state, 'locked', 'and nothing was unlocked')
  home.setState('group.doors', 'locked', { ...home.getState('group.doors')?.attributes, entity_id: members })

  await asks('an owner-made scene with the lock', 'ha_call_service', { domain: 'scene', service: 'turn_on', target: { entity_id: 'scene.welcome_guests' } })
  await asks('a script that unlocks', 'ha_run_script', { entity_id: 'script.let_guest_in' })
  await asks('an automation that unlocks', 'ha_trigger_automation', { entity_id: 'automation.open_door_for_cleaner' })
  t.equal(home.getState(LOCK)?.state, 'locked', 'nothing unlocked without a yes')
})

t.test('a confirmed snapshot scene holding a lock asks again at each activation', async t => {
  const home = await startHome(t)
  const server = await startServer(t, { home, options: { allow_write: true }, app: { catalog: await writeCatalog() } })
  const client = await connectClient(t, server)
  home.setState(LOCK, 'unlocked')
  const args = { name: 'Door open', entities: [LOCK, LIVING] }
  const asked = await callTool(client, 'ha_snapshot_scene', args)
  t.equal(asked.json?.confirmation_required, true, asked.text)
  const made = await callTool(client, 'ha_snapshot_scene', { ...args, confirm_token: asked.json?.confirm_token })
  t.notOk(made.isError, made.text)
  home.setState(LOCK, 'locked')
  home.clearServiceCalls()
  const activate = await callTool(client, 'ha_call_service', { domain: 'scene', service: 'turn_on', target: { entity_id: 'scene.door_open' } })
  t.equal(activate.json?.confirmation_required, true, `activation asks again (${activate.text})`)
  t.match(activate.json?.preview, /lock\.front_door_lock/)
  t.equal(callsTo(home, 'scene.turn_on'), 0, 'the scene was not activated')
  t.equal(home.getState(LOCK)?.state, 'locked')
})

t.test('a named token\'s own entity_denylist holds through a group', async t => {
  const home = await startHome(t)
  const server = await startServer(t, { home, options: { allow_write: true }, app: { catalog: await writeCatalog() } })
  const { token } = await server.app.services.tokens.create({ name: 'kitchen tablet', scopes: ['read', 'write'], entity_denylist: ['lock.*'] })
  const client = await connectClient(t, server, token)
  home.clearServiceCalls()
  const answer = await callTool(client, 'ha_call_service', { domain: 'lock', service: 'unlock', target: { entity_id: 'group.doors' } })
  t.equal(answer.code, 'HAMCP_DENIED_ENTITY', answer.text)
  t.match(answer.text, /token's entity_denylist/)
  const scene = await callTool(client, 'ha_call_service', { domain: 'scene', service: 'turn_on', target: { entity_id: 'scene.welcome_guests' } })
  t.equal(scene.code, 'HAMCP_DENIED_ENTITY', scene.text)
  t.equal(home.serviceCalls.length, 0, 'nothing reached the house')
})

t.test('expansion ends: a group cycle, a group holding itself, a script that starts itself', async t => {
  const { expandMembers } = await import('../../src/policy/expand.ts')
  const { walkRuns } = await import('../../src/policy/runs.ts')
  const states: Record<string, { attributes: Record<string, unknown> }> = {
    'group.a': { attributes: { entity_id: ['group.b', 'light.one'] } },
    'group.b': { attributes: { entity_id: ['group.a', 'group.b', 'LOCK.Front'] } }
  }
  const members = expandMembers(id => states[id], ['group.a'])
  t.same([...members.via].sort(), [['group.b', 'group.a'], ['light.one', 'group.a'], ['lock.front', 'group.a']], 'each member once, through what the call named')
  t.equal(members.truncated, false)

  const configs: Record<string, Record<string, unknown>> = {
    'script.loop': { sequence: [{ action: 'script.turn_on', target: { entity_id: 'script.loop' } }, { parallel: [{ sequence: [{ action: 'lock.unlock', target: { entity_id: 'lock.front' } }] }] }] }
  }
  for (let i = 0; i < 8; i++) configs[`script.chain_${i}`] = { sequence: [{ action: `script.chain_${i + 1}` }] }
  const house = { entityIds: () => ['lock.front', 'script.loop'], registry: async () => undefined }
  const loop = await walkRuns(house, async id => configs[id], ['script.loop'])
  t.equal(loop.entities.get('lock.front'), 'script.loop', 'the lock inside parallel is found')
  t.same(loop.unknowableCalls, [], 'a script that starts itself is walked once')
  const chain = await walkRuns(house, async id => configs[id], ['script.chain_0'])
  t.match(chain.unknowableCalls, [/more than 5 scripts deep/], 'a chain past the bound is unknowable')
})

t.test('red team: reaching the front door lock without naming it', async t => {
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
    await caughtUp(server)
    t.ok(server.app.services.ha.states.get('script.sneaky') !== undefined, 'the add-on sees the new script')
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
    await caughtUp(server)
    t.ok(server.app.services.ha.states.get('group.evening') !== undefined, 'the add-on sees the new group')
    home.clearServiceCalls()
    for (const [domain, service] of [['homeassistant', 'turn_on'], ['homeassistant', 'toggle'], ['script', 'turn_on']]) {
      const answer = await callTool(client, 'ha_call_service', { domain, service, target: { entity_id: 'group.evening' } })
      t.equal(answer.code, 'HAMCP_DENIED_ENTITY', `${domain}.${service} on the group: ${answer.text.slice(0, 200)}`)
    }
    t.equal(home.serviceCalls.length, 0, 'nothing reached the house')
    t.equal(home.getState(LOCK)?.state, 'locked', 'the door stayed locked')
  })
})

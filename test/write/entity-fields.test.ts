import t from 'tap'
import { callTool, connectClient, rpc, startHome, startServer } from '../helper.ts'
import type { DemoHome } from '../../demo/index.ts'
import { writeCatalog } from './catalog.ts'
import { effectiveMembers, type MembershipRegistry } from '../../src/policy/targets.ts'

/**
 * Entity fields are read the way Home Assistant reads them (cv.comp_entity_ids: comma-separated strings
 * split, trimmed, lower-cased; `all`/`none` are area-like) before any rule runs. The demo home reads
 * them the same way, so what its call record shows is what a real house would have done.
 */

const LIGHT = 'light.living_room_ceiling_light'
const LOCK = 'lock.front_door_lock'
const SWITCH = 'switch.irrigation'

const callsTo = (home: DemoHome, service: string): number =>
  home.serviceCalls.filter(call => `${call.domain}.${call.service}` === service).length
const lockStates = (home: DemoHome): string[] =>
  home.entityIds().filter(id => id.startsWith('lock.')).map(id => home.getState(id)?.state ?? '?')

t.test('with entity_denylist [lock.*], "all" and comma lists cannot reach a lock', async t => {
  const home = await startHome(t)
  const server = await startServer(t, { home, options: { allow_write: true, entity_denylist: ['lock.*'] }, app: { catalog: await writeCatalog() } })
  const client = await connectClient(t, server)
  const before = lockStates(home)

  for (const [label, args] of [
    ['data.entity_id all', { domain: 'lock', service: 'unlock', data: { entity_id: 'all' } }],
    ['target.entity_id ALL', { domain: 'lock', service: 'unlock', target: { entity_id: ' ALL ' } }],
    ['data.entity_id none', { domain: 'lock', service: 'unlock', data: { entity_id: 'none' } }],
    ['comma string in data', { domain: 'lock', service: 'unlock', data: { entity_id: `${SWITCH}, ${LOCK}` } }],
    ['comma string in target', { domain: 'lock', service: 'unlock', target: { entity_id: `${SWITCH},${LOCK}` } }],
    ['upper case in a list', { domain: 'lock', service: 'unlock', target: { entity_id: [SWITCH, LOCK.toUpperCase()] } }]
  ] as const) {
    const asked = await callTool(client, 'ha_call_service', args)
    t.ok(asked.isError, `${label}: refused (${asked.text})`)
    t.notOk(asked.json?.confirmation_required, `${label}: no confirmation offered`)
    t.match(asked.text, /entity_denylist|refused while entity/, `${label}: names the rule`)
    t.match(asked.code, /^HAMCP_DENIED_(ENTITY|TARGET)$/, `${label}: a denial code`)
  }
  t.equal(callsTo(home, 'lock.unlock'), 0, 'no unlock reached the house')
  t.same(lockStates(home), before, 'every lock kept its state')
})

t.test('with entity_allowlist [light.*], a string starting with a light cannot switch a switch', async t => {
  const home = await startHome(t)
  const server = await startServer(t, { home, options: { allow_write: true, entity_allowlist: ['light.*'] }, app: { catalog: await writeCatalog() } })
  const client = await connectClient(t, server)
  const before = home.getState(SWITCH)?.state
  for (const field of ['target', 'data'] as const) {
    const answer = await callTool(client, 'ha_call_service', { domain: 'homeassistant', service: 'turn_on', [field]: { entity_id: `${LIGHT}, ${SWITCH}` } })
    t.ok(answer.isError, `${field}: refused`)
    t.match(answer.text, /switch\.irrigation is refused by entity_allowlist/)
    t.equal(answer.code, 'HAMCP_DENIED_ENTITY')
  }
  const all = await callTool(client, 'ha_call_service', { domain: 'light', service: 'turn_on', target: { entity_id: 'all' } })
  t.ok(all.isError, '"all" is an area-like target while lists are set')
  t.match(all.text, /entity_id: all/)
  t.equal(all.code, 'HAMCP_DENIED_TARGET')
  t.equal(home.serviceCalls.length, 0, 'nothing reached the house')
  t.equal(home.getState(SWITCH)?.state, before)
})

t.test('without entity lists, "all" is expanded to the real entities for the confirmation', async t => {
  const home = await startHome(t)
  const server = await startServer(t, { home, options: { allow_write: true }, app: { catalog: await writeCatalog() } })
  const client = await connectClient(t, server)
  const locks = home.entityIds().filter(id => id.startsWith('lock.'))

  // A light.* service on all lights: lights are not a confirm domain, but the entities are named.
  const dry = await callTool(client, 'ha_call_service', { domain: 'light', service: 'turn_off', data: { entity_id: 'ALL' }, dry_run: true })
  t.notOk(dry.isError, dry.text)
  t.same(dry.json.would_call.data, { entity_id: 'all' }, 'what goes on the wire is what Home Assistant reads')

  // homeassistant.turn_off on "all" may reach every domain, locks included: it needs a confirmation.
  const generic = await callTool(client, 'ha_call_service', { domain: 'homeassistant', service: 'turn_off', target: { entity_id: 'all' } })
  t.equal(generic.json?.confirmation_required, true, generic.text)

  const asked = await callTool(client, 'ha_call_service', { domain: 'lock', service: 'unlock', data: { entity_id: 'all' } })
  t.equal(asked.json?.confirmation_required, true, asked.text)
  for (const id of locks) t.match(asked.json.preview, id, `the preview names ${id}`)
  t.equal(home.serviceCalls.length, 0, 'asking reached nothing')

  // A comma list with a lock in it is a lock call: confirmation, then exactly what was checked.
  const mixed = await callTool(client, 'ha_call_service', { domain: 'homeassistant', service: 'turn_on', data: { entity_id: `${SWITCH}, ${LOCK}` } })
  t.equal(mixed.json?.confirmation_required, true, 'a lock hidden in a comma string still needs a confirmation')
  const plain = await callTool(client, 'ha_call_service', { domain: 'switch', service: 'turn_on', target: { entity_id: ` ${SWITCH.toUpperCase()} , switch.spare_plug` } })
  t.notOk(plain.isError, plain.text)
  const sent = home.serviceCalls.at(-1)
  t.same(sent?.target, { entity_id: [SWITCH, 'switch.spare_plug'] }, 'the house got the split, trimmed, lower-cased list')
  t.equal(home.getState('switch.spare_plug')?.state, 'on')
})

t.test('floor_id and label_id targets: accepted, resolved for the preview, refused while lists are set', async t => {
  const home = await startHome(t)
  const open = await startServer(t, { home, options: { allow_write: true }, app: { catalog: await writeCatalog() } })
  const client = await connectClient(t, open)
  const floors = await callTool(client, 'ha_list_floors', {})
  // A floor holding a lock (through its device's area): lock.lock on a floor without one is refused.
  const lockDevice = home.house.devices.get(home.house.entities.get('lock.front_door_lock')?.device_id ?? '')
  const floor = home.house.areas.get(lockDevice?.area_id ?? '')?.floor_id as string
  t.ok(floors.json.items.some((f: { floor_id: string }) => f.floor_id === floor), 'the demo has floors, one with a lock')
  const labels = await callTool(client, 'ha_list_labels', {})
  // A label that reaches a light (light.turn_off on a label without one is refused).
  const house = home.house as unknown as MembershipRegistry
  const label = labels.json.items.map((l: { label_id: string }) => l.label_id).find((id: string) => [...effectiveMembers(house, { label_id: [id] }, { primaryOnly: true })].some(e => e.startsWith('light.') && home.house.states.has(e))) as string
  t.ok(label, 'the demo has labels, one on a light')

  const dry = await callTool(client, 'ha_call_service', { domain: 'lock', service: 'lock', target: { floor_id: floor }, dry_run: true })
  t.notOk(dry.isError, dry.text)
  t.same(dry.json.would_call.target, { floor_id: [floor] }, 'floor_id is kept, not dropped')
  const asked = await callTool(client, 'ha_call_service', { domain: 'light', service: 'turn_off', target: { label_id: label } })
  t.notOk(asked.isError, asked.text)
  t.same((home.serviceCalls.at(-1)?.target as { label_id?: string[] } | undefined)?.label_id, [label], 'label_id reached the house')

  const locked = await callTool(client, 'ha_call_service', { domain: 'lock', service: 'unlock', target: { floor_id: floor } })
  t.equal(locked.json?.confirmation_required, true)
  t.match(locked.json.preview, /lock\./, 'the preview names the locks the floor reaches')

  const guarded = await startServer(t, { home, options: { allow_write: true, entity_denylist: ['lock.*'] }, app: { catalog: await writeCatalog() } })
  const other = await connectClient(t, guarded)
  home.clearServiceCalls()
  for (const target of [{ floor_id: floor }, { label_id: label }]) {
    const refused = await callTool(other, 'ha_call_service', { domain: 'lock', service: 'unlock', target })
    t.ok(refused.isError)
    t.match(refused.text, new RegExp(Object.keys(target)[0] as string))
  }
  t.equal(home.serviceCalls.length, 0)
})

t.test('garbage ids in target and data are refused naming the field, before anything is sent', async t => {
  const home = await startHome(t)
  const server = await startServer(t, { home, options: { allow_write: true }, app: { catalog: await writeCatalog() } })
  const client = await connectClient(t, server)
  const garbage: Array<[string, string]> = [
    ['NUL', 'abc\u0000def'],
    ['control', 'abc\u0007'],
    ['escape', '\u001b[31mred'],
    ['lone surrogate', 'abc\ud800'],
    ['bidi mark', 'abc\u202edef'],
    // An overlong id under the 64 KB a write's data may carry (over it, data is refused whole: HAMCP_TOO_LARGE).
    ['60 KB', 'a'.repeat(60_000)]
  ]
  for (const [what, value] of garbage) {
    for (const [field, args] of [
      ['target.device_id', { target: { entity_id: LIGHT, device_id: value } }],
      ['target.area_id', { target: { area_id: [value] } }],
      ['target.entity_id', { target: { entity_id: `light.${value}` } }],
      ['data.entity_id', { data: { entity_id: [LIGHT, value] } }],
      ['data.device_id', { data: { device_id: value } }]
    ] as const) {
      const answer = await callTool(client, 'ha_call_service', { domain: 'light', service: 'turn_on', ...args })
      t.ok(answer.isError, `${what} in ${field} refused`)
      t.match(answer.text, field, `${what} in ${field}: the error names the field`)
      t.equal(answer.code, 'HAMCP_INVALID_ARGUMENT')
      t.notMatch(answer.text, /Internal error/)
    }
  }
  t.equal(home.serviceCalls.length, 0, 'no garbage reached the house')
  t.equal(home.getState(LIGHT)?.state, 'on', 'the light next to a garbage device_id was not switched')
})

t.test('deeply nested data or variables get a clear error, not a stack overflow', async t => {
  const home = await startHome(t)
  const server = await startServer(t, { home, options: { allow_write: true }, app: { catalog: await writeCatalog() } })
  const client = await connectClient(t, server)
  const script = home.entityIds().find(id => id.startsWith('script.')) as string
  // 10,000 levels: the SDK's client cannot even serialise that (JSON.stringify overflows), so the bytes
  // are written by hand, as an attacker would send them.
  const deep = '{"a":'.repeat(10_000) + '1' + '}'.repeat(10_000)
  for (const [label, name, args] of [
    ['deep data', 'ha_call_service', `{"domain":"lock","service":"unlock","target":{"entity_id":"${LOCK}"},"data":${deep}}`],
    ['deep variables', 'ha_run_script', `{"entity_id":"${script}","variables":${deep}}`]
  ] as const) {
    const res = await rpc(server, `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"${name}","arguments":${args}}}`, { authorization: `Bearer ${server.token}` })
    const body = await res.text()
    const json = JSON.parse(body.startsWith('{') ? body : body.split('\n').find(line => line.startsWith('data: '))?.slice(6) ?? 'null')
    const text = (json?.result?.content ?? []).map((c: { text?: string }) => c.text ?? '').join('')
    t.equal(json?.result?.isError, true, `${label}: a tool error (${body.slice(0, 200)})`)
    t.notMatch(text, /Internal error/, `${label}: not an internal error`)
    t.match(text, /(data|variables).*nested too deep/, `${label}: says what is wrong`)
  }
  const wide = Object.fromEntries(Array.from({ length: 20_000 }, (_, i) => [`k${i}`, i]))
  const answer = await callTool(client, 'ha_call_service', { domain: 'lock', service: 'unlock', target: { entity_id: LOCK }, data: wide })
  t.ok(answer.isError)
  t.match(answer.text, /data.*too large/)
  t.match(answer.code, /^HAMCP_(INVALID_ARGUMENT|TOO_LARGE)$/)
  t.equal(home.serviceCalls.length, 0)
})

t.test('a write\'s data over 64 KB is refused with HAMCP_TOO_LARGE before anything is kept', async t => {
  const home = await startHome(t)
  const server = await startServer(t, { home, options: { allow_write: true }, app: { catalog: await writeCatalog() } })
  const client = await connectClient(t, server)
  const script = home.entityIds().find(id => id.startsWith('script.')) as string
  const { confirms } = server.app.services.policy
  for (const [label, name, args] of [
    ['900 KB of service data on a lock', 'ha_call_service', { domain: 'lock', service: 'unlock', target: { entity_id: LOCK }, data: { code: 'x'.repeat(900_000) } }],
    ['65 KB of service data on a light', 'ha_call_service', { domain: 'light', service: 'turn_on', target: { entity_id: LIGHT }, data: { effect: 'x'.repeat(65 * 1024) } }],
    ['900 KB of script variables', 'ha_run_script', { entity_id: script, variables: { text: 'x'.repeat(900_000) } }]
  ] as const) {
    const answer = await callTool(client, name, args)
    t.equal(answer.code, 'HAMCP_TOO_LARGE', `${label}: ${answer.text.slice(0, 200)}`)
    t.match(answer.text, /64 KB/, `${label}: the answer names the limit`)
    t.ok(answer.text.length < 1000, `${label}: a short answer`)
  }
  // The 3.9 MB is refused at the door, over the 1 MB a /mcp body may take.
  const door = await rpc(server, { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'ha_call_service', arguments: { domain: 'lock', service: 'unlock', target: { entity_id: LOCK }, data: { code: 'x'.repeat(3_900_000) } } } }, { authorization: `Bearer ${server.token}` })
  t.equal(door.status, 413)
  t.equal((await door.json() as { error?: { data?: { code?: string } } }).error?.data?.code, 'HAMCP_TOO_LARGE')
  t.equal(confirms.size(), 0, 'no confirmation kept for any of them')
  t.equal(home.serviceCalls.length, 0, 'nothing reached the house')
  const within = await callTool(client, 'ha_call_service', { domain: 'light', service: 'turn_on', target: { entity_id: LIGHT }, data: { effect: 'x'.repeat(60 * 1024) }, dry_run: true })
  t.notOk(within.isError, 'data under the limit is read as before')
})

t.test('a comma-separated entity_id is capped at 100 ids exactly like a list', async t => {
  const home = await startHome(t)
  const server = await startServer(t, { home, options: { allow_write: true }, app: { catalog: await writeCatalog() } })
  const client = await connectClient(t, server)
  const ids = Array.from({ length: 101 }, (_, i) => `light.l${i}`)
  const asList = await callTool(client, 'ha_call_service', { domain: 'light', service: 'turn_on', target: { entity_id: ids } })
  const asString = await callTool(client, 'ha_call_service', { domain: 'light', service: 'turn_on', target: { entity_id: ids.join(',') } })
  t.equal(asList.code, 'HAMCP_INVALID_ARGUMENT', asList.text)
  t.equal(asString.code, asList.code, asString.text)
  t.match(asString.text, /100/, 'the answer names the cap')
  // 60,000 ids in one string (2.3 MB of ids is over the 1 MB a body may take): refused as quickly.
  const huge = Array.from({ length: 60_000 }, (_, i) => `light.x${i}`).join(',')
  const refused = await callTool(client, 'ha_call_service', { domain: 'light', service: 'turn_on', target: { entity_id: huge } })
  t.equal(refused.code, 'HAMCP_INVALID_ARGUMENT')
  t.ok(refused.text.length < 2000, 'a short answer')
  const hundred = await callTool(client, 'ha_call_service', { domain: 'light', service: 'turn_on', target: { entity_id: ids.slice(0, 100).join(',') }, dry_run: true })
  t.not(hundred.code, 'HAMCP_INVALID_ARGUMENT', `100 ids in a string are read as before (${hundred.text.slice(0, 120)})`)
  t.equal(home.serviceCalls.length, 0)
})

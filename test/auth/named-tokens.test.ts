import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import t from 'tap'
import { TokenStore, hashToken } from '../../src/auth/tokens.ts'
import { MAX_LIST_ITEMS } from '../../src/options.ts'
import { callTool, connectClient, eventually, fakeClock, rpc, startHome, startServer, tempDataDir } from '../helper.ts'
import { startIngress } from '../ingress/_ingress.ts'
import { PRIMARY_IDENTITY } from '../../src/auth/identity.ts'
import { realClock, within } from '../../src/clock.ts'

const UI = { 'x-ha-mcp-ui': '1' }

t.test('a named token gets a level per tool category and its own entity lists, capped by the options', async t => {
  const home = await startHome(t)
  const server = await startServer(t, { home, options: { allow_write: true, allow_config_write: false } })
  const ingress = await startIngress(t, server, [], server.app.services?.catalog)
  const listed = await ingress.inject({ url: '/api/tokens' })
  const categories = listed.json().categories as Array<{ id: string, top: string, enabled: string }>
  t.match(categories.find(c => c.id === 'automations'), { top: 'manage', enabled: 'write' }, 'the Tokens tab knows the cap of each category')
  // allow_camera is off: no snapshots, but templates (filed under camera, src/mcp/runtime/categories.ts) are on.
  t.match(categories.find(c => c.id === 'camera'), { top: 'read', enabled: 'read' })
  t.match((categories.find(c => c.id === 'camera') as { covers?: unknown } | undefined)?.covers, [{ tool: 'ha_get_camera_snapshot', level: 'read' }, { tool: 'ha_render_template', level: 'read' }], 'the Tokens tab says camera covers templates')

  const created = await ingress.inject({
    method: 'POST',
    url: '/api/tokens',
    headers: UI,
    payload: { name: 'lights only', levels: { entities: 'read', services: 'write', automations: 'manage' }, entity_allowlist: ['light.*'] }
  })
  t.equal(created.statusCode, 201)
  t.match(created.json().entry, { levels: { entities: 'read', services: 'write', automations: 'manage' }, entity_allowlist: ['light.*'] })
  const client = await connectClient(t, server, created.json().token)
  const names = (await client.listTools()).tools.map(tool => tool.name)
  t.ok(names.includes('ha_search_entities') && names.includes('ha_call_service') && names.includes('ha_run_script'))
  t.notOk(names.includes('ha_get_history'), 'history: no level, no tool')
  t.notOk(names.includes('ha_create_automation'), 'manage on automations is capped by allow_config_write')

  const light = home.entityIds().find(id => id.startsWith('light.')) ?? ''
  const aSwitch = home.entityIds().find(id => id.startsWith('switch.')) ?? ''
  const refused = await callTool(client, 'ha_call_service', { domain: 'switch', service: 'turn_on', target: { entity_id: aSwitch } })
  t.ok(refused.isError, 'an entity outside the token\'s own allowlist is refused')
  t.match(refused.text, /allowlist/)
  t.same(home.serviceCalls, [], 'nothing reached the house')
  const allowed = await callTool(client, 'ha_call_service', { domain: 'light', service: 'turn_on', target: { entity_id: light } })
  t.notOk(allowed.isError, allowed.text)
  t.match(home.serviceCalls, [{ domain: 'light', service: 'turn_on' }])
  t.match(server.app.services.policy.audit.recent(1), [{ identity_name: 'lights only', outcome: 'allowed' }], 'the audit names the token')

  const noLevel = await ingress.inject({ method: 'POST', url: '/api/tokens', headers: UI, payload: { name: 'nothing', levels: { entities: 'none' } } })
  t.equal(noLevel.statusCode, 400)
  const badGlob = await ingress.inject({ method: 'POST', url: '/api/tokens', headers: UI, payload: { name: 'x', levels: { entities: 'read' }, entity_denylist: ['lock.*; rm'] } })
  t.equal(badGlob.statusCode, 400)
  // The options' own list schema: as many patterns as entity_denylist takes, and not one more.
  const globs = (n: number) => Array.from({ length: n }, (_, i) => `sensor.s${i}_*`)
  const longest = await ingress.inject({ method: 'POST', url: '/api/tokens', headers: UI, payload: { name: 'long', levels: { entities: 'read' }, entity_denylist: globs(MAX_LIST_ITEMS) } })
  t.equal(longest.statusCode, 201, longest.body)
  const over = await ingress.inject({ method: 'POST', url: '/api/tokens', headers: UI, payload: { name: 'longer', levels: { entities: 'read' }, entity_denylist: globs(MAX_LIST_ITEMS + 1) } })
  t.equal(over.statusCode, 400)
})

t.test('a named token\'s entity lists take the same globs as the options: ?, [...] and {a,b}', async t => {
  const home = await startHome(t)
  const server = await startServer(t, { home, options: { allow_write: true } })
  const ingress = await startIngress(t, server, [], server.app.services?.catalog)
  const created = await ingress.inject({
    method: 'POST',
    url: '/api/tokens',
    headers: UI,
    payload: { name: 'no doors', levels: { entities: 'read', services: 'write' }, entity_denylist: ['lock.front_door_?ock', '{cover,alarm_control_panel}.*', 'switch.[a-z]*'] }
  })
  t.equal(created.statusCode, 201, created.body)
  const client = await connectClient(t, server, created.json().token)
  const aSwitch = home.entityIds().find(id => id.startsWith('switch.')) ?? ''
  const aCover = home.entityIds().find(id => id.startsWith('cover.')) ?? ''
  for (const [domain, service, entity] of [['lock', 'lock', 'lock.front_door_lock'], ['switch', 'turn_on', aSwitch], ['cover', 'open_cover', aCover]] as const) {
    const refused = await callTool(client, 'ha_call_service', { domain, service, target: { entity_id: entity } })
    t.equal(refused.code, 'HAMCP_DENIED_ENTITY', `${entity} is refused by the token's own denylist`)
  }
  t.same(home.serviceCalls, [], 'nothing reached the house')
})

t.test('a named token\'s last use is shown on the Tokens tab at once and saved at most once a minute', async t => {
  const home = await startHome(t)
  const clock = fakeClock(Date.parse('2026-03-01T10:00:00Z'))
  const server = await startServer(t, { home, app: { clock } })
  const ingress = await startIngress(t, server, [], server.app.services?.catalog)
  const created = (await ingress.inject({ method: 'POST', url: '/api/tokens', headers: UI, payload: { name: 'kitchen tablet', levels: { entities: 'read' } } })).json()
  const listed = async (): Promise<unknown> => (await ingress.inject({ url: '/api/tokens' })).json().tokens.find((x: { id: string }) => x.id === created.entry.id).last_used_at
  const stored = (): unknown => (JSON.parse(readFileSync(join(server.dataDir, 'tokens.json'), 'utf8')) as { tokens: Array<{ id: string, last_used_at?: string }> }).tokens.find(x => x.id === created.entry.id)?.last_used_at
  t.equal(await listed(), null, 'never used yet')

  clock.advance(5_000)
  const client = await connectClient(t, server, created.token)
  await client.listTools()
  t.equal(await listed(), '2026-03-01T10:00:05.000Z', 'the Tokens tab shows the use at once')
  t.equal(stored(), undefined, 'a call does not write the token store')
  clock.advance(60_000)
  await eventually(() => stored() === '2026-03-01T10:00:05.000Z', 5000, 'the minute sweep saves it')
})

t.test('tokens stored with the four flat scopes are migrated to levels', async t => {
  const dataDir = tempDataDir(t)
  const secret = 'an-old-named-token-from-before-levels'
  writeFileSync(join(dataDir, 'tokens.json'), JSON.stringify({ tokens: [{ id: 'abc123', name: 'old tablet', hash: hashToken(secret).toString('hex'), prefix: secret.slice(0, 8), scopes: ['read', 'write', 'camera'], created_at: '2026-01-01T00:00:00.000Z' }] }))
  const infos: string[] = []
  let told = (): void => {}
  const written = new Promise<void>(resolve => { told = resolve })
  const store = new TokenStore({ dataDir, primary: 'primary-token-0123456789', onInfo: m => { infos.push(m); told() } })
  t.same(store.verify(secret)?.levels, { '*': 'write', camera: 'read' })
  t.match(store.list(), [{ name: 'old tablet', levels: { '*': 'write', camera: 'read' } }])
  // The store tells once the migrated file is written.
  await within(realClock, 5000, written, () => { throw new Error('the migrated file was not written') })
  const onDisk = JSON.parse(readFileSync(join(dataDir, 'tokens.json'), 'utf8'))
  t.same(onDisk.tokens[0].levels, { '*': 'write', camera: 'read' }, 'rewritten with levels')
  t.notOk('scopes' in onDisk.tokens[0])
  t.match(infos, [/moved from flat scopes to levels/])
})

t.test('a token works until it changes: a near miss is refused, a revoked or replaced token at the next request', async t => {
  const store = new TokenStore({ dataDir: tempDataDir(t), primary: 'primary-token-0123456789' })
  t.equal(store.verify('primary-token-0123456789')?.id, 'primary')
  t.equal(store.verify('primary-token-0123456789')?.id, 'primary', 'again')
  t.equal(store.verify('primary-token-0123456780'), undefined, 'one character off, same length: refused')
  t.equal(store.verify('primary-token-012345678'), undefined, 'a prefix: refused')
  const { token, entry } = await store.create({ name: 'tablet', scopes: ['read'] })
  t.equal(store.verify(token)?.name, 'tablet')
  t.equal(store.verify(token)?.name, 'tablet')
  await store.revoke(entry.id)
  t.equal(store.verify(token), undefined, 'revoked: refused with the next request')
  t.equal(store.verify('primary-token-0123456789')?.id, 'primary')
  store.replacePrimary('primary-token-new-abcdefghij', 'generated')
  t.equal(store.verify('primary-token-0123456789'), undefined, 'the replaced primary: refused with the next request')
  t.equal(store.verify('primary-token-new-abcdefghij')?.id, 'primary')
  // Many clients, each with its token, in turn: each still verifies.
  const many = await Promise.all(['a', 'b', 'c', 'd', 'e', 'f'].map(async name => await store.create({ name, scopes: ['read'] })))
  for (let round = 0; round < 2; round++) for (const made of many) t.equal(store.verify(made.token)?.name, made.entry.name)
})

// The bearer check (one sha256 a request, the named tokens' hashes kept as bytes): every stored
// hash is still compared whichever token matches (no exit that depends on the secret), a named token
// revoked or created mid-flight is seen by the very next request, and a regenerated primary token is
// refused at once, on a stateless read call too.
t.test('red team: the bearer check', async t => {
  t.test('every stored hash is compared, whichever token is presented', async t => {
    let compared = 0
    const { TokenStore } = await t.mockImport<typeof import('../../src/auth/tokens.ts')>('../../src/auth/tokens.ts', {
      'node:crypto': {
        ...await import('node:crypto'),
        timingSafeEqual: (a: Buffer, b: Buffer): boolean => {
          if (a.length === 32 && b.length === 32) compared++
          return Buffer.compare(a, b) === 0
        }
      }
    })
    const primary = 'the-primary-token-0123456789'
    const store = new TokenStore({ dataDir: tempDataDir(t), primary })
    const made: string[] = []
    for (let i = 0; i < 5; i++) made.push((await store.create({ name: `t${i}`, levels: { '*': 'read' } })).token)
    const verify = (presented: string): { compared: number, name: string | undefined } => {
      compared = 0
      const name = store.verify(presented)?.name
      return { compared, name }
    }
    t.same(verify('nope-nope-nope-nope'), { compared: 6, name: undefined }, 'an unknown token: the primary and all five named hashes compared')
    t.same(verify(primary), { compared: 6, name: 'primary token' }, 'the primary: every hash')
    t.same(verify(made[0] as string), { compared: 6, name: 't0' }, 'the first named: every hash')
    t.same(verify(made[4] as string), { compared: 6, name: 't4' }, 'the last named: every hash')
    t.same(verify(made[4] as string), { compared: 6, name: 't4' }, 'the same token again: every hash again')
    await store.revoke(store.list().find(token => token.name === 't4')?.id as string)
    t.same(verify(made[4] as string), { compared: 5, name: undefined }, 'revoked: refused at once, every remaining hash compared')
    t.same(store.verify(primary), PRIMARY_IDENTITY)
  })

  t.test('a revoked, created or regenerated token on a stateless read call', async t => {
    const home = await startHome(t)
    const server = await startServer(t, { home })
    const { tokens } = server.app.services
    const light = home.entityIds().find(id => id.startsWith('light.')) as string
    const get = async (token: string): Promise<number> => (await rpc(server, { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'ha_get_entity', arguments: { entity_id: light } } }, { authorization: `Bearer ${token}` })).status
    const a = await tokens.create({ name: 'a', levels: { '*': 'read' } })
    t.equal(await get(a.token), 200, 'a new token works at once')
    const b = await tokens.create({ name: 'b', levels: { '*': 'read' } })
    t.equal(await get(b.token), 200, 'and one made after it')
    t.equal(await get(a.token), 200, 'the first still works')
    await tokens.revoke(a.entry.id)
    t.equal(await get(a.token), 401, 'a revoked token is refused by the next request')
    t.equal(await get(b.token), 200, 'the other is not')
    const old = server.token
    tokens.replacePrimary('a-brand-new-primary-token-0123456789', 'generated')
    t.equal(await get(old), 401, 'the regenerated primary token is refused at once')
    t.equal(await get('a-brand-new-primary-token-0123456789'), 200, 'the new one works')
  })
})

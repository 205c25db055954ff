import t from 'tap'
import { callTool, connectClient, fakeClock, pastWait, startHome, startServer } from '../helper.ts'

t.test('pending confirmations are per identity: one client cannot push out another\'s', async t => {
  const home = await startHome(t)
  const server = await startServer(t, { home, options: { allow_write: true, allow_config_write: true } })
  const primary = await connectClient(t, server)
  const { token } = await server.app.services.tokens.create({ name: 'flood', scopes: ['read', 'write', 'manage'] })
  const flood = await connectClient(t, server, token)
  const ids = home.entityIds().filter(id => /^(light|switch|sensor)\./.test(id)).slice(0, 2)

  const asked = await callTool(primary, 'ha_update_entities', { entity_ids: ids, icon: 'mdi:home' })
  t.equal(asked.json.confirmation_required, true, asked.text)
  let floodFirst: string | undefined
  for (let i = 0; i < 210; i++) {
    const other = await callTool(flood, 'ha_update_entities', { entity_ids: ids, icon: `mdi:numeric-${i}` })
    t.equal(other.json?.confirmation_required, true, other.text)
    floodFirst ??= other.json.confirm_token
  }
  const done = await callTool(primary, 'ha_update_entities', { entity_ids: ids, icon: 'mdi:home', confirm_token: asked.json.confirm_token })
  t.notOk(done.isError, done.text)
  t.ok(ids.every(id => home.house.entities.get(id)?.icon === 'mdi:home'), 'the primary token\'s confirmed edit reached the house')
  // The flooding client's own pool is bounded: its oldest confirmation made way for its newer ones.
  const stale = await callTool(flood, 'ha_update_entities', { entity_ids: ids, icon: 'mdi:numeric-0', confirm_token: floodFirst })
  t.equal(stale.code, 'HAMCP_CONFIRM_TOKEN_INVALID', stale.text)
  t.ok(ids.every(id => home.house.entities.get(id)?.icon === 'mdi:home'), 'nothing else reached the house')
})

t.test('pending confirmations are bounded by bytes too: large previews push out the asker\'s own oldest', async t => {
  // 60 pending confirmations with 3.9 MB of data each took the heap: a count alone bounds nothing.
  const home = await startHome(t)
  const clock = fakeClock()
  const server = await startServer(t, { home, options: { allow_write: true }, app: { clock } })
  const { token, entry } = await server.app.services.tokens.create({ name: 'big previews', scopes: ['read', 'write'] })
  const identityId = `token:${entry.id}`
  const big = await connectClient(t, server, token)
  const primary = await connectClient(t, server)
  const lock = 'lock.front_door_lock'
  const mine = await callTool(primary, 'ha_call_service', { domain: 'lock', service: 'lock', target: { entity_id: lock } })
  t.equal(mine.json.confirmation_required, true, mine.text)
  const tokens: string[] = []
  for (let i = 0; i < 40; i++) {
    const asked = await callTool(big, 'ha_call_service', { domain: 'lock', service: 'unlock', target: { entity_id: lock }, data: { code: `${i}`.padEnd(60_000, 'x') } })
    t.equal(asked.json?.confirmation_required, true, asked.text.slice(0, 200))
    tokens.push(asked.json.confirm_token as string)
  }
  home.clearServiceCalls()
  const stale = await callTool(big, 'ha_call_service', { domain: 'lock', service: 'unlock', target: { entity_id: lock }, data: { code: '0'.padEnd(60_000, 'x') }, confirm_token: tokens[0] })
  t.equal(stale.code, 'HAMCP_CONFIRM_TOKEN_INVALID', stale.text.slice(0, 200))
  t.equal(home.serviceCalls.length, 0, 'nothing reached the house')
  // Nothing changes in the house, so the answer comes once the write's 1.5 s wait for state changes (src/policy/reached.ts) passes on the server's clock.
  const newest = await pastWait(clock, 1500, callTool(big, 'ha_call_service', { domain: 'lock', service: 'unlock', target: { entity_id: lock }, data: { code: '39'.padEnd(60_000, 'x') }, confirm_token: tokens[39] }))
  t.notOk(newest.isError, newest.text.slice(0, 200))
  const { confirms } = server.app.services.policy
  t.ok(confirms.size(identityId) < 38, `only the newest were kept (${confirms.size(identityId)} left)`)
  t.ok(confirms.bytes(identityId) <= 1024 * 1024, `the pool holds ${confirms.bytes(identityId)} characters`)
  const done = await callTool(primary, 'ha_call_service', { domain: 'lock', service: 'lock', target: { entity_id: lock }, confirm_token: mine.json.confirm_token })
  t.notOk(done.isError, 'another identity\'s pending confirmation is untouched')
})

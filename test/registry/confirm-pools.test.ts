import t from 'tap'
import { callTool, connectClient, startHome, startServer } from '../helper.ts'

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

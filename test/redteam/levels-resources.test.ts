// A token's category levels and the resources: a token granted nothing is shown no tool, so it must
// not read or stream the home through resources/read and subscriptions/listen either.
import t from 'tap'
import { startHome, startServer } from '../helper.ts'
import { listen, modern } from './_modern.ts'

t.test('a token with no level in any category', async t => {
  const home = await startHome(t)
  const server = await startServer(t, { home })
  await server.app.services.home.ready()
  const { token } = await server.app.services.tokens.create({ name: 'nothing', levels: { '*': 'none' } })
  const lock = home.entityIds().find(id => id.startsWith('lock.')) as string
  const tools = await modern(server.url, token, 'tools/list')
  t.same(tools.body.result?.tools, [], 'is shown no tool')
  const read = await modern(server.url, token, 'resources/read', { uri: `ha://entity/${lock}` })
  const stream = await listen(server.url, token, 'nothing-1', [`ha://entity/${lock}`])
  t.teardown(() => { stream.close() })
  await stream.until(() => stream.seen.length >= 1, 'the first message')
  // Finding of the red-team pass: resources/read and subscriptions/listen ignored the token's levels.
  t.notOk(read.body.result?.contents, `no lock state for a token granted nothing: ${JSON.stringify(read.body).slice(0, 160)}`)
  t.equal(read.body.error?.data?.code, 'HAMCP_DENIED_LEVEL', 'resources/read says why')
  t.not(stream.seen[0]?.method, 'notifications/subscriptions/acknowledged', 'no stream for it either')
  t.equal(stream.seen[0]?.error?.data?.code, 'HAMCP_DENIED_LEVEL', 'the listen refusal says why')
  const listed = await modern(server.url, token, 'resources/list')
  t.same(listed.body.result?.resources, [], 'resources/list shows none')
  const completed = await modern(server.url, token, 'completion/complete', { ref: { type: 'ref/resource', uri: 'ha://entity/{entity_id}' }, argument: { name: 'entity_id', value: 'lock' } })
  t.same(completed.body.result?.completion?.values, [], 'completions name no entity')
})

t.test('a token with entities at read and the rest at none', async t => {
  const home = await startHome(t)
  const server = await startServer(t, { home })
  await server.app.services.home.ready()
  const { token } = await server.app.services.tokens.create({ name: 'entities only', levels: { '*': 'none', entities: 'read' } })
  const lock = home.entityIds().find(id => id.startsWith('lock.')) as string
  const read = await modern(server.url, token, 'resources/read', { uri: `ha://entity/${lock}` })
  t.ok(read.body.result?.contents, 'reads the entity resource')
  const config = await modern(server.url, token, 'resources/read', { uri: 'ha://config' })
  t.equal(config.body.error?.data?.code, 'HAMCP_DENIED_LEVEL', 'not the system configuration')
  const listed = await modern(server.url, token, 'resources/list')
  t.same((listed.body.result?.resources as Array<{ uri: string }>).map(resource => resource.uri), ['ha://areas'], 'resources/list shows what it may read')
})

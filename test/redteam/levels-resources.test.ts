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
  t.todo('FINDING: resources are not gated by the token\'s levels (src/mcp/handlers.ts resources/list, resources/read; plugins/mcp.ts subscriptions/listen). A named token the owner gave "none" in every category (or "none" for entities) gets an empty tools/list but reads the front door lock\'s state with resources/read (2025 and 2026 alike) and can stream its changes with subscriptions/listen. Reproduce: tokens.create({ levels: { "*": "none" } }), then resources/read ha://entity/lock.front_door_lock.', async t => {
    t.notOk(read.body.result?.contents, `no lock state for a token granted nothing: ${JSON.stringify(read.body).slice(0, 160)}`)
    t.not(stream.seen[0]?.method, 'notifications/subscriptions/acknowledged', 'no stream for it either')
  })
})

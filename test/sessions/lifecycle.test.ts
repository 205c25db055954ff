import t from 'tap'
import type { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { callTool, connectClient, startHome, startServer } from '../helper.ts'
import { answerOf, INITIALIZE, listTools, openRawSession, sendRaw, auth } from './_raw.ts'
import { rpc } from '../helper.ts'

t.test('with enable_sessions on', async t => {
  const home = await startHome(t)
  const server = await startServer(t, { home, options: { enable_sessions: true } })

  t.test('an initialize opens a session the SDK client keeps using, and stateless POSTs still work alongside', async t => {
    const client = await connectClient(t, server)
    const sessionId = (client.transport as StreamableHTTPClientTransport).sessionId
    t.type(sessionId, 'string', 'the server assigned a session id')
    t.ok(server.app.services.sessions.registry.get(sessionId as string), 'the server holds the session')
    const found = await callTool(client, 'ha_search_entities', { query: 'light' })
    t.notOk(found.isError, 'tools work inside the session')
    t.equal(found.json.total, 17, 'the demo home has 17 entities matching "light"')

    const stateless = await listTools(server.url, server.token)
    t.equal(stateless.status, 200, 'a POST without a session id is still served statelessly')
    t.equal(stateless.headers.get('mcp-session-id'), null, 'and opens no session')
    t.ok(answerOf(await stateless.text()).result.tools.length > 0)
  })

  t.test('DELETE ends a session; its id then answers 404', async t => {
    const id = await openRawSession(server.url, server.token)
    const before = await listTools(server.url, server.token, id)
    t.equal(before.status, 200)
    t.ok(answerOf(await before.text()).result.tools.length > 0, 'the session answers')
    const ended = await sendRaw(server.url, 'DELETE', server.token, id)
    t.equal(ended.status, 200)
    t.notOk(server.app.services.sessions.registry.get(id), 'released on the server')
    const after = await listTools(server.url, server.token, id)
    t.equal(after.status, 404, 'a closed session is not found')
    t.match(await after.json(), { error: { code: -32001 } })
  })

  t.test('a session belongs to the token that opened it', async t => {
    const id = await openRawSession(server.url, server.token)
    const other = await server.app.services.tokens.create({ name: 'guest tablet', scopes: ['read'] })
    const post = await listTools(server.url, other.token, id)
    t.equal(post.status, 403, 'another valid token cannot use it')
    t.match(await post.json(), { error: { code: -32000, message: /another token/ } })
    t.equal((await sendRaw(server.url, 'GET', other.token, id)).status, 403, 'nor listen to it')
    t.equal((await sendRaw(server.url, 'DELETE', other.token, id)).status, 403, 'nor end it')
    const owner = await listTools(server.url, server.token, id)
    t.equal(owner.status, 200, 'the owner still can')
    await owner.text()
    const anonymous = await listTools(server.url, 'not-a-token', id)
    t.equal(anonymous.status, 401, 'every request is still authenticated')
  })

  t.test('an unknown session id answers 404 on every method', async t => {
    const unknown = '00000000-0000-4000-8000-000000000000'
    t.equal((await listTools(server.url, server.token, unknown)).status, 404)
    t.equal((await sendRaw(server.url, 'GET', server.token, unknown)).status, 404)
    t.equal((await sendRaw(server.url, 'DELETE', server.token, unknown)).status, 404)
  })

  t.test('GET without a session id is a clear 400', async t => {
    const response = await sendRaw(server.url, 'GET', server.token)
    t.equal(response.status, 400)
    t.match(await response.json(), { error: { message: /Mcp-Session-Id/ } })
  })

  t.test('GET with the id opens the session\'s event stream', async t => {
    const id = await openRawSession(server.url, server.token)
    const stop = new AbortController()
    // The stream's headers go out at once: a client waits for them before it counts itself listening
    // (the SDK's transport would send them with its first keep-alive, 15 s later).
    const headersIn = await Promise.race([
      sendRaw(server.url, 'GET', server.token, id, stop.signal),
      new Promise<'no headers'>(resolve => { setTimeout(() => { resolve('no headers') }, 5000).unref() })
    ])
    if (headersIn === 'no headers') { stop.abort(); t.fail('no headers within 5 s'); return }
    const stream = headersIn
    t.equal(stream.status, 200)
    t.match(stream.headers.get('content-type'), /text\/event-stream/)
    t.ok(server.app.services.sessions.registry.listening(id), 'the session knows its client listens')
    stop.abort()
    await t.rejects(stream.text())
  })
})

t.test('with enable_sessions off nothing changes', async t => {
  const home = await startHome(t)
  const server = await startServer(t, { home })
  for (const method of ['GET', 'DELETE'] as const) {
    const response = await sendRaw(server.url, method, server.token, 'whatever')
    t.equal(response.status, 405, `${method} is not allowed`)
    t.equal(response.headers.get('allow'), 'POST')
    await response.text()
  }
  const initialize = await rpc(server, INITIALIZE, auth(server.token))
  t.equal(initialize.status, 200)
  t.equal(initialize.headers.get('mcp-session-id'), null, 'an initialize opens no session')
  t.equal(answerOf(await initialize.text()).result.capabilities.resources.subscribe, undefined, 'no subscriptions offered')
  t.equal(server.app.services.sessions.registry.size, 0)
})

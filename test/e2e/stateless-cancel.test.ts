// A stateless POST's request is known to the SDK under a private id (src/mcp/transport/stateless.ts,
// StatelessMux): a client's notifications/cancelled names ids of its own, and must never reach the
// server, where such an id could be another client's request in flight. A stateless client cancels
// by closing its connection; its notifications are accepted (202) and dropped.
import t from 'tap'
import { realClock, within } from '../../src/clock.ts'
import { rpc, startHome, startServer } from '../helper.ts'

t.test('a notifications/cancelled from one client never cancels another client\'s request', async t => {
  const home = await startHome(t)
  const server = await startServer(t, { home })
  const light = home.entityIds().find(id => id.startsWith('light.')) as string
  // The demo holds Home Assistant's answer to the history read until released: the call is then in
  // flight, under its private id, while the other client's notifications arrive.
  const history = home.faults.holdAnswers('history/history_during_period')
  let answered = false
  // `_meta` takes the SDK's way (not the direct read path), where the private ids live.
  const slow = rpc(server, { jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'ha_get_history', arguments: { entity_id: [light], hours: 1 }, _meta: { progressToken: 'p' } } }, { authorization: `Bearer ${server.token}` })
    .finally(() => { answered = true })
  await within(realClock, 5000, history.held, () => { throw new Error('the history read never reached the demo home') })
  // Another client guesses every small private id.
  const guesses = Array.from({ length: 100 }, (_, i) => ({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: i + 1, reason: 'guess' } }))
  const cancel = await rpc(server, guesses, { authorization: `Bearer ${server.token}` })
  t.equal(cancel.status, 202, 'the notifications are accepted')
  t.equal(await cancel.text(), '', 'with no body')
  t.notOk(answered, 'the first client\'s call waits for Home Assistant')
  history.release()
  const timeout = new Promise<'hung'>(resolve => setTimeout(() => { resolve('hung') }, 6000).unref())
  const answer = await Promise.race([slow, timeout])
  t.not(answer, 'hung', 'the first client still gets its answer')
  if (answer === 'hung') return
  t.equal(answer.status, 200)
  const body = await answer.json() as { id?: unknown, result?: { isError?: boolean } }
  t.equal(body.id, 7)
  t.notOk(body.result?.isError, `a real result: ${JSON.stringify(body).slice(0, 300)}`)
})

t.test('a single notification of any kind is accepted, with no body', async t => {
  const home = await startHome(t)
  const server = await startServer(t, { home })
  for (const method of ['notifications/initialized', 'notifications/cancelled', 'notifications/roots/list_changed', 'notifications/whatever']) {
    const res = await rpc(server, { jsonrpc: '2.0', method, params: { requestId: 1 } }, { authorization: `Bearer ${server.token}` })
    t.equal(res.status, 202, method)
    t.equal(await res.text(), '', `${method}: no body`)
  }
})

// A Home Assistant command that gets no answer in time fails with HAMCP_HA_TIMEOUT (src/ha/connection.ts,
// `within` on real time), naming the command and the wait, instead of waiting for ever.
import t from 'tap'
import { callTool, connectClient, startHome, startServer } from '../helper.ts'

t.test('a WebSocket command past its timeout answers HAMCP_HA_TIMEOUT', async t => {
  const home = await startHome(t)
  const server = await startServer(t, { home, options: { allow_write: true }, app: { homeAssistant: { connection: { retryMinMs: 50, retryMaxMs: 500, authRetryMs: 1000, commandTimeoutMs: 150 } } } })
  const client = await connectClient(t, server, server.token)
  home.faults.setDelay(600)
  const slow = await callTool(client, 'ha_call_service', { domain: 'light', service: 'turn_on', entity_id: 'light.kitchen' })
  t.equal(slow.isError, true)
  t.equal(slow.code, 'HAMCP_HA_TIMEOUT', slow.text)
  t.match(slow.text, /did not answer call_service within 150 ms/)
})

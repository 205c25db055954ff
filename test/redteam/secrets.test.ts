import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import t from 'tap'
import { callTool, connectClient, startHome, startServer } from '../helper.ts'

/**
 * Attack pass: a secret the assistant passes in a call (an alarm code, a confirm token)
 * never lands in the add-on's log, at any level, nor in the audit; an owner who turns on `trace` to
 * debug and pastes the Log tab into a bug report must not publish the code that disarms the house.
 */

const ALARM = 'alarm_control_panel.home_alarm'
const CODE = '1234'

t.test('an alarm code and a confirm token stay out of the log at trace level and out of the audit', async t => {
  const home = await startHome(t)
  const server = await startServer(t, { home, logLevel: 'trace', options: { allow_write: true } })
  const client = await connectClient(t, server)
  home.setState(ALARM, 'armed_away')
  const args = { domain: 'alarm_control_panel', service: 'alarm_disarm', target: { entity_id: ALARM }, data: { code: CODE } }
  const asked = await callTool(client, 'ha_call_service', args)
  t.equal(asked.json?.confirmation_required, true, asked.text)
  const token = asked.json?.confirm_token as string
  const done = await callTool(client, 'ha_call_service', { ...args, confirm_token: token })
  t.notOk(done.isError, done.text)
  t.equal(home.getState(ALARM)?.state, 'disarmed', 'the call itself went through')

  t.ok(server.logs.some(line => line.includes('tool arguments')), 'trace logs the arguments')
  const leaked = server.logs.filter(line => line.includes(`"${CODE}"`) || line.includes(`:${CODE}`) || line.includes(token))
  t.same(leaked, [], 'no log line carries the code or the confirm token')
  const audit = readFileSync(join(server.dataDir, 'audit.log'), 'utf8')
  t.notOk(audit.includes(CODE) && audit.includes('"code"'), 'audit.log does not carry the code')
  t.notOk(audit.includes(token), 'audit.log does not carry the confirm token')
})

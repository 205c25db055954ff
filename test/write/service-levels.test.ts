import t from 'tap'
import { callTool, connectClient, fakeClock, pastWait, startHome, startServer } from '../helper.ts'
import { entriesOf } from '../../demo/config-entries.ts'
import { serviceRefusal } from '../../src/mcp/runtime/categories.ts'
import { optionsSchema } from '../../src/options.ts'

/**
 * Issue 32 item 8: a Home Assistant service that does what a category's tool does needs that category's
 * level through ha_call_service too (src/mcp/runtime/categories.ts SERVICE_CATEGORIES), and that tool's option.
 */
t.test('homeassistant.reload_config_entry through ha_call_service needs integrations at manage and allow_config_write', async t => {
  const home = await startHome(t, { entities: 300 })
  const hue = [...entriesOf(home.house).entries.values()].find(e => e.domain === 'hue')!
  const reload = { domain: 'homeassistant', service: 'reload_config_entry', data: { entry_id: hue.entry_id } }
  const server = await startServer(t, { home, options: { allow_write: true, allow_config_write: true } })
  const tokens = server.app.services.tokens
  home.clearServiceCalls()
  for (const level of ['none', 'read', 'write'] as const) {
    const { token } = await tokens.create({ name: `integrations ${level}`, levels: { '*': 'manage', integrations: level } })
    const answer = await callTool(await connectClient(t, server, token), 'ha_call_service', reload)
    t.equal(answer.code, 'HAMCP_DENIED_LEVEL', `${level}: ${answer.text}`)
    t.match(answer.text, new RegExp(`needs the integrations category at manage; this token has it at ${level}`))
  }
  t.same(home.serviceCalls, [], 'no refused call reached the house')
  home.configWrites.length = 0
  const { token } = await tokens.create({ name: 'integrations manage', levels: { services: 'write', integrations: 'manage' } })
  const allowed = await callTool(await connectClient(t, server, token), 'ha_call_service', reload)
  t.match(allowed.json, { success: true }, allowed.text)
  t.same(home.configWrites, [`config_entries reload ${hue.entry_id}`], 'the entry was reloaded')
  const primary = await callTool(await connectClient(t, server), 'ha_call_service', reload)
  t.match(primary.json, { success: true }, 'the primary token has every category at manage')

  const clock = fakeClock()
  const noConfig = await startServer(t, { home, options: { allow_write: true }, app: { clock } })
  home.clearServiceCalls()
  const refused = await callTool(await connectClient(t, noConfig), 'ha_call_service', reload)
  t.equal(refused.code, 'HAMCP_DENIED_LEVEL', 'without allow_config_write even the primary token cannot reload an entry')
  t.match(refused.text, /allow_config_write/)
  t.same(home.serviceCalls, [])
  // Nothing changes in the house, so the answer comes once the write's 1.5 s wait for state changes (src/policy/reached.ts) passes on the server's clock.
  const other = await pastWait(clock, 1500, callTool(await connectClient(t, noConfig), 'ha_call_service', { domain: 'homeassistant', service: 'update_entity', target: { entity_id: 'sun.sun' } }))
  t.not(other.code, 'HAMCP_DENIED_LEVEL', 'other services are untouched')
})

t.test('removing hassio.* from service_denylist for add-on control hands no token at write the host, a backup or a restore', async t => {
  // The host's power is driven through the demo in test/catalogue/operations-matrix.test.ts; the demo has no
  // backup or restore services, so these are held at the rule itself.
  const options = optionsSchema.parse({ allow_write: true, allow_config_write: true, allow_addon_control: true, service_denylist: [] })
  const writer = { id: 'w', name: 'writer', levels: { '*': 'write' } } as const
  const system = { id: 'm', name: 'system manager', levels: { services: 'write', system: 'manage' } } as const
  const services = ['hassio.host_reboot', 'hassio.host_shutdown', 'hassio.backup_full', 'hassio.backup_partial', 'hassio.restore_full', 'hassio.restore_partial', 'hassio.mount_reload', 'backup.create', 'backup.create_automatic']
  for (const service of services) {
    t.match(serviceRefusal(service, writer, options), { message: `${service} needs the system category at manage; this token has it at write.` }, service)
    t.equal(serviceRefusal(service, system, options), undefined, `${service}: system at manage may`)
  }
  const noConfig = optionsSchema.parse({ allow_write: true, service_denylist: [] })
  t.match(serviceRefusal('hassio.restore_full', system, noConfig), { message: /needs the allow_config_write option/ }, 'and allow_config_write, as the backup tool does')
})

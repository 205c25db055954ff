// Backups through ha_manage_config and the Supervisor: full and partial, dry run, role, denylist decision.
import t from 'tap'
import { callTool, connectClient, startHome, startServer } from '../helper.ts'

const MANAGE = 'ha_manage_config'

t.test('ha_manage_config kind backup', async t => {
  const home = await startHome(t)
  const supervisor = { SUPERVISOR_TOKEN: home.supervisorToken, SUPERVISOR_URL: home.supervisorUrl }
  const server = await startServer(t, { home, env: supervisor, options: { allow_config_write: true } })
  const client = await connectClient(t, server)
  const backups = async (): Promise<any[]> => (await callTool(client, 'ha_get_system', { section: 'backups' })).json.recent

  t.test('a dry run sends nothing; a named full backup is made and listed; undo leaves it alone', async t => {
    const before = await backups()
    t.equal(before.length, 3)
    const dry = await callTool(client, MANAGE, { kind: 'backup', action: 'create', config: { name: 'Before tidying' }, dry_run: true })
    t.notOk(dry.isError, dry.text)
    t.match(dry.json, { dry_run: true, would_call: { domain: 'supervisor', service: 'backup_full' } })
    t.same(home.configWrites, [], 'no POST reached the Supervisor')
    t.equal((await backups()).length, 3)

    const done = await callTool(client, MANAGE, { kind: 'backup', action: 'create', config: { name: 'Before tidying' } })
    t.notOk(done.isError, done.text)
    t.match(done.json, { success: true, backup: 'full', name: 'Before tidying' })
    t.ok(done.json.job_id, 'made in the background: the Supervisor answers with its job id at once')
    t.notOk(done.json.undo_available, 'a backup is not something undo removes')
    t.same(home.configWrites, ['POST /backups/new/full'])
    const after = await backups()
    t.equal(after.length, 4)
    t.match(after[0], { name: 'Before tidying', type: 'full' }, 'newest first in ha_get_system')
    t.match(server.app.services.policy.audit.recent(1)[0], { tool: MANAGE, outcome: 'allowed', domain: 'supervisor', service: 'backup_full' })
  })

  t.test('partial: add-ons and folders; the Supervisor\'s own validation wording', async t => {
    const done = await callTool(client, MANAGE, { kind: 'backup', action: 'create', config: { name: 'Mosquitto only', addons: ['core_mosquitto'], folders: ['share'], homeassistant: false } })
    t.notOk(done.isError, done.text)
    t.equal(done.json.backup, 'partial')
    t.match((await backups())[0], { name: 'Mosquitto only', type: 'partial' })
    const bad = await callTool(client, MANAGE, { kind: 'backup', action: 'create', config: { folders: ['etc'] } })
    t.ok(bad.isError)
    t.match(bad.text, /HAMCP_INVALID_ARGUMENT/)
    t.match(bad.text, /config\.folders\.0: one of: homeassistant, ssl, share, addons\/local, media/, 'the field is named')
    const unknown = await callTool(client, MANAGE, { kind: 'backup', action: 'create', config: { restore: 'demo1abc' } })
    t.match(unknown.text, /config\.restore: not a field of a backup/)
    const wrongTypes = await callTool(client, MANAGE, { kind: 'backup', action: 'create', config: { homeassistant: 'yes', addons: ['Not A Slug'] } })
    t.match(wrongTypes.text, /config\.addons\.0: "Not A Slug" is not an add-on slug/)
    t.match(wrongTypes.text, /config\.homeassistant: true or false/, 'every wrong field at once')
    const notCreate = await callTool(client, MANAGE, { kind: 'backup', action: 'delete', id: 'demo1abc' })
    t.match(notCreate.text, /restoring and deleting stay in Home Assistant/)
  })

  t.test('a bulk change\'s confirmation offers a backup first', async t => {
    const lights = home.entityIds().filter(id => id.startsWith('light.')).slice(0, 12)
    t.equal(lights.length, 12)
    const bulk = await callTool(client, 'ha_update_entities', { entity_ids: lights, hidden: true })
    t.notOk(bulk.isError, bulk.text)
    t.equal(bulk.json.confirmation_required, true)
    t.match(bulk.json.how, /This changes 12 entities: offer a backup first \(ha_manage_config, kind backup\)/)
    const one = await callTool(client, MANAGE, { kind: 'scene', id: 'scene.movie', action: 'delete' })
    t.notMatch(one.json.how, /backup/, 'a single change does not')
  })

  t.test('the default service_denylist (backup.*, hassio.*) does not block it; supervisor.* does', async t => {
    const denied = await startServer(t, { home, env: supervisor, options: { allow_config_write: true, service_denylist: ['supervisor.*'] } })
    const writes = home.configWrites.length
    const refused = await callTool(await connectClient(t, denied), MANAGE, { kind: 'backup', action: 'create', config: { name: 'No' } })
    t.ok(refused.isError)
    t.match(refused.text, /supervisor\.backup_full is refused by the service_denylist/)
    t.equal(home.configWrites.length, writes, 'nothing reached the Supervisor')
  })
})

t.test('without the backup role: a clear refusal, and the self test says why', async t => {
  const home = await startHome(t, { supervisorRole: 'default' })
  const server = await startServer(t, { home, env: { SUPERVISOR_TOKEN: home.supervisorToken, SUPERVISOR_URL: home.supervisorUrl }, options: { allow_config_write: true } })
  const client = await connectClient(t, server)
  const refused = await callTool(client, MANAGE, { kind: 'backup', action: 'create', config: { name: 'x' } })
  t.ok(refused.isError)
  t.equal(refused.code, 'HAMCP_NOT_PERMITTED')
  t.match(refused.text, /role does not allow backups/)
  t.match(refused.text, /hassio_role: backup/)
  t.same(home.configWrites, [])
  const self = await callTool(client, 'ha_get_self_test')
  t.match(self.json.backups, { ok: false, detail: /hassio_role: backup/ })

  const enough = await startHome(t, { supervisorRole: 'backup' })
  const allowed = await startServer(t, { home: enough, env: { SUPERVISOR_TOKEN: enough.supervisorToken, SUPERVISOR_URL: enough.supervisorUrl }, options: { allow_config_write: true } })
  const allowedClient = await connectClient(t, allowed)
  t.match((await callTool(allowedClient, 'ha_get_self_test')).json.backups, { ok: true })
  t.notOk((await callTool(allowedClient, MANAGE, { kind: 'backup', action: 'create', config: { name: 'ok' } })).isError, 'the backup role is all it needs')
})

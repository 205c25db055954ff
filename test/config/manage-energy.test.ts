// Energy dashboard settings through ha_manage_config kind energy: read, dry run with Home Assistant's
// validation, confirmed write, undo, and refusals that reach nothing.
import t from 'tap'
import { callTool, connectClient, startHome, startServer } from '../helper.ts'

const MANAGE = 'ha_manage_config'

t.test('ha_manage_config kind energy', async t => {
  const home = await startHome(t)
  const server = await startServer(t, { home, options: { allow_config_write: true } })
  const client = await connectClient(t, server)
  const prefs = async (): Promise<any> => await server.app.services.ha.command({ type: 'energy/get_prefs' })
  const energySensor = home.entityIds().find(id => id.endsWith('_smart_plug_energy')) as string
  const confirmed = async (args: Record<string, unknown>): Promise<any> => {
    const asked = await callTool(client, MANAGE, args)
    t.notOk(asked.isError, asked.text)
    t.equal(asked.json.confirmation_required, true, 'an energy change needs a confirmation')
    const done = await callTool(client, MANAGE, { ...args, confirm_token: asked.json.confirm_token })
    t.notOk(done.isError, done.text)
    return { asked: asked.json, done: done.json }
  }

  t.test('read answers the stored lists and the validation', async t => {
    const read = await callTool(client, MANAGE, { kind: 'energy', action: 'read' })
    t.notOk(read.isError, read.text)
    t.equal(read.json.configured, true)
    t.match(read.json.energy_sources, [{ type: 'grid' }, { type: 'solar' }, { type: 'gas' }])
    t.ok(Array.isArray(read.json.validation))
    t.same(home.configWrites, [])
  })

  t.test('update: the dry run shows the diff and validation and writes nothing; the confirmed call saves; undo restores', async t => {
    const before = await prefs()
    const config = { device_consumption: [{ stat_consumption: energySensor, name: 'Kettle' }] }
    const dry = await callTool(client, MANAGE, { kind: 'energy', action: 'update', config, dry_run: true })
    t.notOk(dry.isError, dry.text)
    t.equal(dry.json.dry_run, true)
    t.match(dry.json.preview, /^--- energy \(current\)\n\+\+\+ energy \(proposed\)\n/)
    t.match(dry.json.preview, /\n\+ {4}name: Kettle/)
    t.ok(Array.isArray(dry.json.validation), 'Home Assistant\'s validation is shown')
    t.same(home.configWrites, [], 'the dry run reached nothing')

    const { done } = await confirmed({ kind: 'energy', action: 'update', config })
    t.equal(done.undo_available, true)
    t.same(home.configWrites, ['energy/save_prefs'])
    const after = await prefs()
    t.same(after.device_consumption, config.device_consumption)
    t.same(after.energy_sources, before.energy_sources, 'lists not named stay as they were')
    t.ok(Array.isArray(done.validation))

    const asked = await callTool(client, 'ha_undo', {})
    t.notOk(asked.isError, asked.text)
    const undone = await callTool(client, 'ha_undo', { confirm_token: asked.json.confirm_token })
    t.notOk(undone.isError, undone.text)
    t.same(await prefs(), before, 'exactly the previous settings')
  })

  t.test('Home Assistant\'s validation names a statistic the dashboard cannot use', async t => {
    const sensor = home.entityIds().find(id => id.startsWith('sensor.') && home.getState(id)?.attributes.unit_of_measurement === '°C') as string
    const config = { energy_sources: [{ type: 'solar', stat_energy_from: sensor }] }
    const { done } = await confirmed({ kind: 'energy', action: 'update', config })
    t.match(done.validation, [{ where: 'energy_sources[0] (solar)', issue: 'entity_unexpected_unit_energy', statistics: [sensor] }])
    const asked = await callTool(client, 'ha_undo', {})
    await callTool(client, 'ha_undo', { confirm_token: asked.json.confirm_token })
  })

  t.test('refusals reach nothing', async t => {
    const writes = home.configWrites.length
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ config: { energy_sources: [{ type: 'solar', stat_energy_from: 'sensor.nope_energy' }] } }, 'HAMCP_ENTITY_NOT_FOUND'],
      [{ config: { tariffs: [] } }, 'HAMCP_INVALID_ARGUMENT'],
      [{ config: {} }, 'HAMCP_INVALID_ARGUMENT'],
      [{ config: { energy_sources: 'grid' } }, 'HAMCP_INVALID_ARGUMENT']
    ]
    for (const [args, code] of cases) {
      const answer = await callTool(client, MANAGE, { kind: 'energy', action: 'update', ...args })
      t.equal(answer.code, code, JSON.stringify(args))
    }
    // Home Assistant's own schema error comes back as an argument error the model can fix.
    const asked = await callTool(client, MANAGE, { kind: 'energy', action: 'update', config: { energy_sources: [{ type: 'wind_farm', stat_energy_from: energySensor }] } })
    const done = await callTool(client, MANAGE, { kind: 'energy', action: 'update', config: { energy_sources: [{ type: 'wind_farm', stat_energy_from: energySensor }] }, confirm_token: asked.json?.confirm_token })
    t.equal(done.code, 'HAMCP_INVALID_ARGUMENT', done.text)
    t.match(done.text, /energy_sources/)
    t.equal(home.configWrites.length, writes, 'nothing was saved')
  })

  t.test('without allow_config_write the tool is not listed', async t => {
    const other = await startServer(t, { home, options: { allow_config_write: false } })
    const c = await connectClient(t, other)
    const { tools } = await c.listTools()
    t.notOk(tools.some(tool => tool.name === MANAGE))
  })
})

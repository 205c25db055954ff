// Core REST (direct and through the Supervisor's /core proxy) and the Supervisor API.
import t from 'tap'
import { startDemoHome, type DemoHome } from '../index.ts'

let home: DemoHome
t.before(async () => { home = await startDemoHome({ token: 'core', supervisorToken: 'sup' }) })
t.teardown(() => home.close())

const core = async (path: string, init: RequestInit = {}, token = 'core'): Promise<Response> =>
  await fetch(`${home.url}${path}`, { ...init, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', ...init.headers as Record<string, string> } })
const sup = async (path: string, init: RequestInit = {}, token: string | null = 'sup'): Promise<Response> =>
  await fetch(`${home.supervisorUrl}${path}`, { ...init, headers: { ...(token === null ? {} : { authorization: `Bearer ${token}` }), 'content-type': 'application/json' } })

t.test('REST basics, auth and the /core proxy', async t => {
  t.same(await (await core('/api/')).json(), { message: 'API running.' })
  t.equal((await core('/api/', {}, 'wrong')).status, 401)
  t.same(await (await sup('/core/api/')).json(), { message: 'API running.' }, 'the proxy takes the supervisor token')
  t.equal((await sup('/core/api/', {}, 'core')).status, 401)
  t.equal((await sup('/core/api/hassio/addons')).status, 403)
  t.equal((await core('/api/states/light.nope')).status, 404)
  t.equal((await core('/api/error_log')).status, 404, 'no log file on HA OS')
  const created = await core('/api/states/sensor.rest_made', { method: 'POST', body: JSON.stringify({ state: '12', attributes: { unit_of_measurement: 'W' } }) })
  t.equal(created.status, 201)
  t.equal(home.getState('sensor.rest_made')?.state, '12')
  home.clearServiceCalls()
  const changed = await (await core('/api/services/input_boolean/turn_on', { method: 'POST', body: JSON.stringify({ entity_id: 'input_boolean.vacances' }) })).json() as Array<Record<string, unknown>>
  t.same(changed.map(s => s.entity_id), ['input_boolean.vacances'])
  t.match(home.serviceCalls, [{ domain: 'input_boolean', service: 'turn_on', service_data: { entity_id: 'input_boolean.vacances' }, via: 'rest' }])
  const withResponse = await (await core('/api/services/weather/get_forecasts?return_response', { method: 'POST', body: JSON.stringify({ entity_id: 'weather.home', type: 'hourly' }) })).json() as Record<string, any>
  t.equal(withResponse.service_response['weather.home'].forecast.length, 24)
  t.equal((await core('/api/services/light/turn_onn', { method: 'POST', body: '{}' })).status, 400)
})

t.test('POST /api/template: text/plain output and HA-like 400s', async t => {
  const render = async (template: unknown): Promise<Response> => await core('/api/template', { method: 'POST', body: JSON.stringify({ template }) })
  const res = await render("{{ states.light | selectattr('state', 'eq', 'on') | list | count }} on, alice is {{ states('person.alice') }}")
  t.equal(res.headers.get('content-type'), 'text/plain; charset=utf-8')
  t.match(await res.text(), /^\d+ on, alice is home$/)
  t.equal(await (await render("{{ is_state('person.bob', 'home') }}")).text(), 'False')
  t.equal(await (await render("{{ state_attr('zone.home', 'radius') + 1 }}")).text(), '101')
  t.equal(await (await render("{{ area_name('kuche') }}/{{ floor_name('premier_etage') }}")).text(), 'Küche/Premier Étage')
  const broken = await render('{{ states( }}')
  t.equal(broken.status, 400)
  t.match(await broken.json(), { message: /^Error rendering template: TemplateSyntaxError/ })
  const runtime = await render("{{ 'a' + 1 }}")
  t.equal(runtime.status, 400)
  const notObject = await core('/api/template', { method: 'POST', body: '[1]' })
  t.same(await notObject.json(), { message: 'Template data should be a JSON object' })
})

t.test('automation/script config over REST: UI editable, YAML 404', async t => {
  const got = await (await core('/api/config/automation/config/1700000000001')).json() as Record<string, unknown>
  t.equal(got.alias, 'Wake up')
  t.equal(got.id, '1700000000001')
  const yaml = await core('/api/config/automation/config/porch_light_legacy')
  t.equal(yaml.status, 404)
  t.same(await yaml.json(), { message: 'Resource not found' })
  const saved = await core('/api/config/automation/config/1800000000001', { method: 'POST', body: JSON.stringify({ alias: 'Lumières du soir', triggers: [{ trigger: 'sun', event: 'sunset' }], conditions: [], actions: [{ action: 'light.turn_on', target: { area_id: 'salle_a_manger' } }] }) })
  t.same(await saved.json(), { result: 'ok' })
  t.match(home.getState('automation.lumieres_du_soir'), { state: 'on', attributes: { id: '1800000000001' } })
  const invalid = await core('/api/config/automation/config/1800000000002', { method: 'POST', body: JSON.stringify({ alias: 'x', triggers: [{ trigger: 'florp' }], actions: [] }) })
  t.equal(invalid.status, 400)
  t.match(await invalid.json(), { message: /^Message malformed: / })
  t.equal((await core('/api/config/automation/config/1800000000001', { method: 'DELETE' })).status, 200)
  t.equal(home.getState('automation.lumieres_du_soir'), undefined)
  const script = await (await core('/api/config/script/config/good_night')).json() as Record<string, unknown>
  t.equal(script.alias, 'Good night')
  t.equal((await core('/api/config/script/config/flash_hallway')).status, 404, 'YAML scripts are not editable')
})

t.test('calendars and camera proxy', async t => {
  const calendars = await (await core('/api/calendars')).json() as Array<Record<string, unknown>>
  t.ok(calendars.some(c => c.entity_id === 'calendar.family'))
  const start = new Date(Date.now() - 2 * 86_400_000).toISOString()
  const end = new Date(Date.now() + 10 * 86_400_000).toISOString()
  const events = await (await core(`/api/calendars/calendar.family?start=${start}&end=${end}`)).json() as Array<Record<string, any>>
  t.ok(events.length >= 4)
  t.ok(events.some(e => typeof e.start.dateTime === 'string') && events.some(e => typeof e.start.date === 'string'), 'timed and all-day events')
  t.equal((await core('/api/calendars/calendar.family')).status, 400, 'start and end are required')
  const camera = home.entityIds().find(id => id.startsWith('camera.')) as string
  const image = await core(`/api/camera_proxy/${camera}`)
  t.equal(image.headers.get('content-type'), 'image/png')
  const bytes = Buffer.from(await image.arrayBuffer())
  t.same([...bytes.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], 'a real PNG')
  t.equal(bytes.readUInt32BE(16), 160)
  t.equal((await core('/api/camera_proxy/camera.nope')).status, 404)
})

t.test('Supervisor API: envelope, 401/403, options kept, discovery, injected failures', async t => {
  t.equal((await sup('/addons/self/info', {}, null)).status, 401)
  t.equal((await sup('/addons/self/info', {}, 'core')).status, 403)
  const info = await (await sup('/addons/self/info')).json() as Record<string, any>
  t.equal(info.result, 'ok')
  t.equal(info.data.slug, 'local_ha_mcp')
  for (const path of ['/core/info', '/os/info', '/backups', '/backups/info', '/supervisor/info', '/info', '/network/info']) {
    const body = await (await sup(path)).json() as Record<string, unknown>
    t.equal(body.result, 'ok', `${path} envelope`)
  }
  t.equal((await (await sup('/core/info')).json() as any).data.version, '2026.11.2')
  const post = await sup('/addons/self/options', { method: 'POST', body: JSON.stringify({ options: { log_level: 'debug', api_token: 'x'.repeat(32) } }) })
  t.same(await post.json(), { result: 'ok', data: {} })
  t.same(home.addonOptions(), { log_level: 'debug', api_token: 'x'.repeat(32) })
  t.same((await (await sup('/addons/self/info')).json() as any).data.options, home.addonOptions(), 'options are kept')
  const invalid = await sup('/addons/self/options', { method: 'POST', body: JSON.stringify({ options: { log_level: 'loud' } }) })
  t.equal(invalid.status, 400)
  t.match(await invalid.json(), { result: 'error', message: /^Add-on local_ha_mcp has invalid options: value must be one of/ })
  t.same(home.addonOptions(), { log_level: 'debug', api_token: 'x'.repeat(32) }, 'invalid options are not stored')
  home.setAddonOptions({ log_level: 'info' })
  t.same((await (await sup('/addons/self/options')).json() as any).data, { log_level: 'info' })
  const missing = await sup('/addons/nope/info')
  t.equal(missing.status, 404)
  t.equal((await missing.json() as any).result, 'error')

  const announce = async (service: string, url: string): Promise<Response> => await sup('/discovery', { method: 'POST', body: JSON.stringify({ service, config: { url } }) })
  const disc = await (await announce('mcp', 'http://local-ha-mcp:9583/mcp')).json() as any
  t.match(disc.data.uuid, /^[0-9a-f]{32}$/, 'a uuid4 in hex, as the Supervisor makes it')
  t.equal(home.discoveries.length, 1)
  const again = await (await announce('mcp', 'http://local-ha-mcp:9000/mcp')).json() as any
  t.equal(again.data.uuid, disc.data.uuid, 'the same add-on and service keep their uuid')
  t.match(home.discoveries, [{ addon: 'local_ha_mcp', service: 'mcp', uuid: disc.data.uuid, config: { url: 'http://local-ha-mcp:9000/mcp' } }], 'and the config is replaced')
  const foreign = await announce('mqtt', 'mqtt://x')
  t.equal(foreign.status, 403, 'a service missing from config.yaml discovery is refused')
  t.match(await foreign.json(), { result: 'error', message: /must list services/ })
  t.equal((await sup('/discovery')).status, 401, 'reading discovery messages is for Core only')
  t.equal((await sup(`/discovery/${String(disc.data.uuid)}`)).status, 401)
  t.equal((await sup(`/discovery/${String(disc.data.uuid)}`, { method: 'DELETE' })).status, 200, 'the add-on may withdraw its own message')
  t.equal(home.discoveries.length, 0)

  home.faults.supervisorFailures(2)
  t.equal((await sup('/addons/self/info')).status, 502)
  t.equal((await sup('/addons/self/info')).status, 502)
  t.equal((await sup('/addons/self/info')).status, 200, 'only the next two failed')
  home.faults.supervisorFailures(1, 400)
  const failed = await sup('/core/info')
  t.equal(failed.status, 400)
  t.equal((await failed.json() as any).result, 'error')
})

t.test('Supervisor role checks follow hassio_role', async t => {
  const limited = await startDemoHome({ supervisorRole: 'default', token: 'x' })
  t.teardown(() => limited.close())
  const get = async (path: string): Promise<number> => (await fetch(`${limited.supervisorUrl}${path}`, { headers: { authorization: 'Bearer x' } })).status
  t.equal(await get('/addons/self/info'), 200)
  t.equal(await get('/core/info'), 200)
  t.equal(await get('/addons/core_mosquitto/info'), 200)
  t.equal(await get('/addons'), 403, 'the add-on list needs the manager role')
  t.equal(await get('/backups'), 403)
  t.equal(await get('/backups/info'), 200, 'every /<x>/info path is open to every role')
  t.equal(await get('/core/logs'), 403)

  // The default is the role config.yaml ships: backup. manager opens /addons and /mounts.
  t.equal((await sup('/addons')).status, 403)
  t.equal((await sup('/mounts')).status, 403)
  t.equal((await sup('/addons/local_ha_mcp/sys_options')).status, 403, 'sys_options is for Core only, whatever the role')
  const managed = await startDemoHome({ supervisorRole: 'manager', token: 'y' })
  t.teardown(() => managed.close())
  for (const path of ['/addons', '/mounts']) {
    const body = await (await fetch(`${managed.supervisorUrl}${path}`, { headers: { authorization: 'Bearer y' } })).json() as Record<string, unknown>
    t.equal(body.result, 'ok', `${path} with the manager role`)
  }
})

t.test('where the house is reachable: internal_url, /network/info, the published port', async t => {
  const house = await startDemoHome({ token: 'x', supervisorRole: 'default' })
  t.teardown(() => house.close())
  const get = async (path: string): Promise<any> => await (await fetch(`${house.supervisorUrl}${path}`, { headers: { authorization: 'Bearer x' } })).json()
  const config = async (): Promise<any> => await (await fetch(`${house.url}/api/config`, { headers: { authorization: 'Bearer x' } })).json()
  t.equal((await config()).internal_url, null, 'unset, as on most installs')
  house.network.internalUrl = 'http://homeassistant.local:8123'
  t.equal((await config()).internal_url, 'http://homeassistant.local:8123')

  const network = (await get('/network/info')).data
  t.match(network, { docker: { interface: 'hassio', address: '172.30.32.0/23' }, host_internet: true, supervisor_internet: true }, 'readable with the default role (/.+/info)')
  const primary = network.interfaces.filter((i: any) => i.primary === true)
  t.equal(primary.length, 1, 'one primary interface')
  t.match(primary[0], { interface: 'end0', enabled: true, connected: true, ipv4: { address: ['192.168.1.20/24'], gateway: '192.168.1.1' } })
  t.same((await get('/network/interface/default/info')).data, primary[0], 'default names the primary interface')

  const info = (await get('/addons/self/info')).data
  t.equal(info.hostname, 'local-ha-mcp', 'the slug with - for _')
  t.same(info.network, { '9583/tcp': 9583 })
  const post = async (body: unknown): Promise<Response> => await fetch(`${house.supervisorUrl}/addons/self/options`, { method: 'POST', headers: { authorization: 'Bearer x', 'content-type': 'application/json' }, body: JSON.stringify(body) })
  t.equal((await post({ network: { '9583/tcp': 19583 } })).status, 200, 'the user moves the port in the Network section')
  t.same((await get('/addons/self/info')).data.network, { '9583/tcp': 19583 })
  t.equal((await post({ network: { '9583/tcp': null } })).status, 200, 'or disables it')
  t.same((await get('/addons/self/info')).data.network, { '9583/tcp': null })
  t.equal((await post({ network: { '9583/tcp': 'x' } })).status, 400)

  const custom = await startDemoHome({ token: 'y', hostPort: null, lanAddress: '10.0.0.7', internalUrl: 'http://ha.lan:8123' })
  t.teardown(() => custom.close())
  const customNet = await (await fetch(`${custom.supervisorUrl}/network/info`, { headers: { authorization: 'Bearer y' } })).json() as any
  t.same(customNet.data.interfaces[0].ipv4.address, ['10.0.0.7/24'])
  t.equal(custom.network.hostPort, null)
})

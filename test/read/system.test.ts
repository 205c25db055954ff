import t from 'tap'
import { callTool, connectClient, eventually, fakeClock, startHome, startServer } from '../helper.ts'

t.test('system, services, template, add-ons, health and self-test tools', async t => {
  const home = await startHome(t)
  const supervisor = { SUPERVISOR_TOKEN: home.supervisorToken, SUPERVISOR_URL: home.supervisorUrl }
  const server = await startServer(t, { home, env: supervisor })
  const client = await connectClient(t, server)

  t.test('ha_render_template renders, reports syntax errors and caps the output', async t => {
    const ok = await callTool(client, 'ha_render_template', { template: '{{ 20 + 22 }}' })
    t.notOk(ok.isError, ok.text)
    t.equal(ok.json.result, '42')
    const bad = await callTool(client, 'ha_render_template', { template: '{{ states( }}' })
    t.ok(bad.isError)
    t.equal(bad.code, 'HAMCP_INVALID_ARGUMENT')
    t.match(bad.text, /Template error.*\nHint: Fix the Jinja syntax/s)
    const long = await callTool(client, 'ha_render_template', { template: '{% for i in range(3000) %}abc{% endfor %}' })
    t.notOk(long.isError, long.text.slice(0, 200))
    t.equal(long.json.result.length, 5000, 'output cut at 5000 characters')
    t.equal(long.json.truncated, true)
    t.equal(long.json.length, 9000)
    const tooLong = await callTool(client, 'ha_render_template', { template: 'x'.repeat(5001) })
    t.ok(tooLong.isError, 'templates over 5000 characters are refused')
  })

  t.test('ha_list_services: domains, one domain, search', async t => {
    const domains = await callTool(client, 'ha_list_services')
    t.ok(domains.json.total_domains > 10)
    const light = domains.json.domains.find((d: { domain: string }) => d.domain === 'light')
    t.ok(light.services >= 3, 'counts per domain')
    const one = await callTool(client, 'ha_list_services', { domain: 'weather' })
    const forecasts = one.json.services.find((s: { service: string }) => s.service === 'weather.get_forecasts')
    t.same(forecasts.target_domains, ['weather'])
    t.equal(forecasts.returns_response, 'only')
    t.match(forecasts.fields, [{ name: 'type', required: true, selector: 'select' }], 'compact fields: name, required, selector type')
    const search = await callTool(client, 'ha_list_services', { search: 'on' })
    t.ok(search.json.returned <= 30 && search.json.total > 30, `search capped at 30 of ${search.json.total}`)
    t.equal(search.json.has_more, true)
    t.match(search.json.note, /First 30/)
    const unknown = await callTool(client, 'ha_list_services', { domain: 'lihgt' })
    t.ok(unknown.isError)
    t.equal(unknown.code, 'HAMCP_NOT_FOUND')
    const nothing = await callTool(client, 'ha_list_services', { search: 'zzqx' })
    t.equal(nothing.json.total, 0)
    t.match(nothing.json.note, /No service matches/)
  })

  t.test('ha_get_system: every section, and unknown sections', async t => {
    const config = await callTool(client, 'ha_get_system', { section: 'config' })
    t.equal(config.json.version, '2026.11.2')
    t.notOk('latitude' in config.json || 'longitude' in config.json, 'no coordinates')
    const log = await callTool(client, 'ha_get_system', { section: 'error_log' })
    t.equal(log.json.items.length, 3, 'the demo\'s three logged errors')
    const times = log.json.items.map((e: { last: string }) => e.last)
    t.same(times, [...times].sort().reverse(), 'newest first')
    t.ok(log.json.by_level, 'counts by level')
    const updates = await callTool(client, 'ha_get_system', { section: 'updates' })
    t.match(updates.json.pending, [{ entity_id: 'update.home_assistant_core_update', latest: '2026.11.2' }])
    const backups = await callTool(client, 'ha_get_system', { section: 'backups' })
    t.equal(backups.json.total, 3)
    t.ok(backups.json.last.age_days >= 0.9 && backups.json.last.age_days < 1.1, 'age of the last backup')
    // The add-on ships hassio_role: backup (config.yaml), and the demo enforces the Supervisor's role rules.
    const mounts = await callTool(client, 'ha_get_system', { section: 'mounts' })
    t.equal(mounts.code, 'HAMCP_NOT_PERMITTED', 'GET /mounts needs the manager role')
    t.match(mounts.text, /needs the Supervisor's "manager" role; this add-on holds "backup" on purpose/)
    t.notMatch(mounts.text, /report/)
    const unknown = await callTool(client, 'ha_get_system', { section: 'logs' })
    t.ok(unknown.isError)
    t.equal(unknown.code, 'HAMCP_INVALID_ARGUMENT')
    t.match(unknown.text, /section/)
  })

  t.test('ha_get_addons: list, one, unknown, invalid slug', async t => {
    const list = await callTool(client, 'ha_get_addons')
    t.ok(list.json.items.some((a: { slug: string }) => a.slug === 'core_mosquitto'))
    t.equal(list.json.updates_available, list.json.items.filter((a: { update_available?: boolean }) => a.update_available).length)
    const one = await callTool(client, 'ha_get_addons', { slug: 'core_mosquitto' })
    t.equal(one.json.name, 'Mosquitto broker')
    t.notOk('options' in one.json, 'options (secrets) are never shown')
    const unknown = await callTool(client, 'ha_get_addons', { slug: 'core_nothing' })
    t.ok(unknown.isError)
    t.equal(unknown.code, 'HAMCP_NOT_FOUND')
    const invalid = await callTool(client, 'ha_get_addons', { slug: '../etc' })
    t.ok(invalid.isError, 'slugs are validated')
  })

  t.test('with the manager role (a fork that asks for it), mounts are read', async t => {
    const managed = await startHome(t, { supervisorRole: 'manager' })
    const server = await startServer(t, { home: managed, env: { SUPERVISOR_TOKEN: managed.supervisorToken, SUPERVISOR_URL: managed.supervisorUrl } })
    const mounts = await callTool(await connectClient(t, server), 'ha_get_system', { section: 'mounts' })
    t.equal(mounts.json.items.length, 2)
    t.match(mounts.json.warning, /nas_backup/, 'failed mount flagged')
  })

  t.test('backups: the staleness the owner set in the Supervisor (/backups/info), 30 days when unset', async t => {
    // The add-on's clock (src/clock.ts) ten days after the demo's: its last backup is then eleven days old.
    const later = Date.now() + 10 * 86_400_000
    const check = async (opts: { backupsDaysUntilStale?: number }): Promise<any> => {
      const house = await startHome(t, opts)
      const server = await startServer(t, { home: house, env: { SUPERVISOR_TOKEN: house.supervisorToken, SUPERVISOR_URL: house.supervisorUrl }, app: { clock: fakeClock(later) } })
      const answerClient = await connectClient(t, server)
      return (await callTool(answerClient, 'ha_get_system', { section: 'backups' })).json
    }
    const byDefault = await check({})
    t.equal(byDefault.days_until_stale, 30)
    t.ok(byDefault.last.age_days > 10, 'the last backup is over ten days old')
    t.equal(byDefault.warning, undefined, 'not stale under the Supervisor\'s default of 30 days')
    const strict = await check({ backupsDaysUntilStale: 7 })
    t.equal(strict.days_until_stale, 7)
    t.match(strict.warning, /The last backup is 1\d days old \(stale after 7\)/)
  })

  t.test('ha_get_health: sections with caps and totals', async t => {
    const health = await callTool(client, 'ha_get_health', { battery_threshold: 50 })
    t.notOk(health.isError, health.text)
    for (const section of ['repairs', 'unavailable', 'low_batteries', 'stale_automations']) {
      t.ok(Array.isArray(health.json[section].items) && health.json[section].total >= health.json[section].items.length, `${section} has items and a total`)
    }
    t.same(health.json.repairs.items.map((r: { issue: string }) => r.issue), ['inconsistent_network_settings', 'deprecated_yaml'])
    t.ok(health.json.unavailable.items.every((e: { state: string }) => ['unavailable', 'unknown'].includes(e.state)))
    t.ok(health.json.low_batteries.items.every((e: { level: number }) => e.level < 50))
    t.ok(health.json.low_batteries.items.some((e: { entity_id: string }) => e.entity_id === 'device_tracker.bob_phone'), 'battery_level attribute counts')
    t.ok(typeof health.json.without_area.total === 'number')
    const bad = await callTool(client, 'ha_get_health', { battery_threshold: 150 })
    t.ok(bad.isError, 'threshold out of range')
  })

  t.test('outside add-on mode the Supervisor sections say so', async t => {
    const plain = await startServer(t, { home })
    const plainClient = await connectClient(t, plain)
    for (const [name, args] of [['ha_get_system', { section: 'backups' }], ['ha_get_system', { section: 'mounts' }], ['ha_get_addons', {}]] as const) {
      const answer = await callTool(plainClient, name, args)
      t.ok(answer.isError, `${name} ${JSON.stringify(args)} fails`)
      t.equal(answer.code, 'HAMCP_NOT_SUPPORTED')
      t.match(answer.text, /only available when running as a Home Assistant add-on.*Hint: .*Supervisor/s)
    }
    const selfTest = await callTool(plainClient, 'ha_get_self_test')
    t.equal(selfTest.json.verdict, 'ok')
    t.equal(selfTest.json.supervisor.ok, null)
  })

  t.test('ha_get_self_test: timings, then a verdict while Home Assistant is down', async t => {
    const ok = await callTool(client, 'ha_get_self_test')
    t.equal(ok.json.verdict, 'ok')
    t.ok(ok.json.websocket.ok && ok.json.rest.ok && ok.json.supervisor.ok && ok.json.live_map.ok)
    t.ok(typeof ok.json.websocket.ms === 'number' && typeof ok.json.rest.ms === 'number')
    home.faults.setWebSocketDown(true)
    t.teardown(() => home.faults.setWebSocketDown(false))
    await eventually(() => !server.app.services.ha.ready, 5000, 'connection down')
    const down = await callTool(client, 'ha_get_self_test')
    t.notOk(down.isError, 'answers while Home Assistant is away')
    // The demo keeps REST up while its WebSocket is down: one link of two is 'degraded', not 'broken'.
    t.equal(down.json.verdict, 'degraded')
    t.equal(down.json.websocket.ok, false)
    t.equal(down.json.rest.ok, true)
    t.equal(down.json.live_map.ok, false, 'live map not fed')
    const other = await callTool(client, 'ha_get_health')
    t.ok(other.isError, 'other tools say Home Assistant is not connected')
    home.faults.setWebSocketDown(false)
    await server.app.services.ha.whenReady(10_000)
  })
})

// Development mode (HA_URL + HA_TOKEN): registry writes, dashboards saves, traces, the system log and
// the REST config views are admin-only in Home Assistant, so a non-admin token must be named as the cause.
t.test('a token that is not an administrator\'s is said to be one: log, self test and answers', async t => {
  const home = await startHome(t, { admin: false })
  const server = await startServer(t, { home })
  const client = await connectClient(t, server)
  t.equal(await server.app.services.ha.admin(), false, 'the connection\'s admin check is done')
  t.ok(server.logs.some(line => /not an administrator/.test(line)), 'the warning in the log')
  const self = await callTool(client, 'ha_get_self_test')
  t.match(self.json, { verdict: 'degraded', admin: { ok: false, detail: /not an administrator/ } })

  const automations = await callTool(client, 'ha_list_automations', {})
  t.equal(automations.code, 'HAMCP_NOT_PERMITTED', 'not "every automation is YAML"')
  t.match(automations.text, /administrator/)
  const automation = home.entityIds().find(id => id.startsWith('automation.')) as string
  const trace = await callTool(client, 'ha_get_automation_trace', { entity_id: automation })
  t.equal(trace.code, 'HAMCP_NOT_PERMITTED')
  t.match(trace.text, /HA_TOKEN/)
  const log = await callTool(client, 'ha_get_system', { section: 'error_log' })
  t.equal(log.code, 'HAMCP_NOT_PERMITTED')

  const admin = await startHome(t)
  const fine = await startServer(t, { home: admin })
  t.match((await callTool(await connectClient(t, fine), 'ha_get_self_test')).json, { verdict: 'ok', admin: { ok: true } })
})

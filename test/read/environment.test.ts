import t from 'tap'
import { callTool, connectClient, startHome, startServer } from '../helper.ts'

t.test('energy, presence, forecast, calendar, to-do and camera tools', async t => {
  const home = await startHome(t)
  const server = await startServer(t, { home, options: { allow_camera: true } })
  const client = await connectClient(t, server)

  t.test('ha_get_energy: totals by bucket, comparison, bad period', async t => {
    const day = await callTool(client, 'ha_get_energy')
    t.notOk(day.isError, day.text)
    t.equal(day.json.period, 'day')
    t.ok(day.json.totals.grid_import > 0 && day.json.totals.solar > 0, 'grid and solar totals')
    t.equal(day.json.units.grid_import, 'kWh')
    t.ok(day.json.top_devices.length <= 10)
    const week = await callTool(client, 'ha_get_energy', { period: 'week', compare: true })
    t.ok(week.json.totals.grid_import > day.json.totals.grid_import, 'a week holds more than a day')
    t.ok(week.json.previous && week.json.delta_percent, 'previous period and delta')
    t.ok(Math.abs(Date.parse(week.json.end) - Date.parse(week.json.start) - 168 * 3_600_000) < 1000)
    const bad = await callTool(client, 'ha_get_energy', { period: 'year' })
    t.ok(bad.isError)
    t.equal(bad.code, 'HAMCP_INVALID_ARGUMENT')
    t.match(bad.text, /period/)
  })

  t.test('ha_get_presence: zone names only, never coordinates', async t => {
    const presence = await callTool(client, 'ha_get_presence', { hours: 48 })
    t.notOk(presence.isError, presence.text)
    t.match(presence.json.people, [{ entity_id: 'person.alice', zone: 'Home' }, { entity_id: 'person.bob', zone: 'away' }])
    t.ok(presence.json.device_trackers.length >= 2)
    t.ok(presence.json.zones.some((z: { entity_id: string, occupants: number }) => z.entity_id === 'zone.home' && z.occupants === 1))
    t.ok(Array.isArray(presence.json.changes['person.alice']), 'zone changes over the window')
    t.notMatch(presence.text, /latitude|longitude|gps_accuracy|52\.37|4\.89/, 'no coordinates anywhere')
    const bad = await callTool(client, 'ha_get_presence', { hours: 500 })
    t.ok(bad.isError, 'window over 168 hours refused')
  })

  t.test('ha_get_forecast: the only weather entity by default, caps per type', async t => {
    const daily = await callTool(client, 'ha_get_forecast')
    t.notOk(daily.isError, daily.text)
    t.equal(daily.json.entity_id, 'weather.home')
    t.equal(daily.json.forecast.length, 7, 'the demo\'s seven days')
    t.equal(daily.json.units.temperature_unit, '°C')
    const hourly = await callTool(client, 'ha_get_forecast', { entity_id: 'weather.home', type: 'hourly' })
    t.equal(hourly.json.forecast.length, 24, 'the demo\'s 24 hours')
    t.ok(hourly.json.forecast.every((p: { datetime?: string }) => p.datetime))
    const unknown = await callTool(client, 'ha_get_forecast', { entity_id: 'weather.mars' })
    t.ok(unknown.isError)
    t.equal(unknown.code, 'HAMCP_ENTITY_NOT_FOUND')
    const wrong = await callTool(client, 'ha_get_forecast', { entity_id: 'sensor.outside_temperature' })
    t.ok(wrong.isError, 'only weather entities')
    t.equal(home.serviceCalls.filter(c => c.domain !== 'weather').length, 0, 'reads call no other service')
  })

  t.test('ha_get_calendar: merged calendars, one calendar, windows', async t => {
    const all = await callTool(client, 'ha_get_calendar', { hours: 720 })
    t.notOk(all.isError, all.text)
    t.same(all.json.calendars, ['calendar.family', 'calendar.poubelles'])
    t.same(all.json.items.map((e: { summary: string }) => e.summary).sort(), ['Dentist', 'Dîner chez Mamie', 'Football practice', 'Organic waste', 'Recycling', 'Residual waste', 'School holiday'], 'both calendars\' events of the next 30 days')
    t.ok(all.json.items.every((e: { calendar: string }) => e.calendar), 'each event names its calendar')
    const starts = all.json.items.map((e: { start: string }) => Date.parse(e.start))
    t.same(starts, [...starts].sort((a: number, b: number) => a - b), 'sorted by start')
    const bins = await callTool(client, 'ha_get_calendar', { entity_id: 'calendar.poubelles', hours: 720 })
    t.same(bins.json.items.map((e: { summary: string }) => e.summary), ['Recycling', 'Organic waste', 'Residual waste'])
    t.ok(bins.json.items.every((e: { all_day?: boolean }) => e.all_day), 'all-day events flagged')
    for (const hours of [0, 721]) t.ok((await callTool(client, 'ha_get_calendar', { hours })).isError, `hours ${hours} refused`)
    const badStart = await callTool(client, 'ha_get_calendar', { start: 'yesterday' })
    t.ok(badStart.isError)
    t.equal(badStart.code, 'HAMCP_INVALID_ARGUMENT')
    const unknown = await callTool(client, 'ha_get_calendar', { entity_id: 'calendar.nothing' })
    t.equal(unknown.code, 'HAMCP_ENTITY_NOT_FOUND')
  })

  t.test('ha_get_todo_list: lists, items, status filter', async t => {
    const lists = await callTool(client, 'ha_get_todo_list')
    t.match(lists.json.lists, [{ entity_id: 'todo.chores' }, { entity_id: 'todo.shopping_list', open_items: 3 }])
    const items = await callTool(client, 'ha_get_todo_list', { entity_id: 'todo.shopping_list' })
    t.equal(items.json.total, 4)
    t.ok(items.json.items.some((i: { summary: string }) => i.summary === 'Crème fraîche'))
    const done = await callTool(client, 'ha_get_todo_list', { entity_id: 'todo.shopping_list', status: 'completed' })
    t.same(done.json.items, [{ summary: 'Bread', status: 'completed' }])
    const unknown = await callTool(client, 'ha_get_todo_list', { entity_id: 'todo.nothing' })
    t.ok(unknown.isError)
    const before = home.getState('todo.shopping_list')?.state
    t.equal(before, '3', 'reading changed nothing')
  })

  t.test('ha_get_camera_snapshot: image content, audited, only with allow_camera', async t => {
    const camera = home.entityIds().find(id => id.startsWith('camera.')) as string
    const result = await client.callTool({ name: 'ha_get_camera_snapshot', arguments: { entity_id: camera } })
    const content = result.content as Array<{ type: string, data?: string, mimeType?: string }>
    const image = content.find(c => c.type === 'image')
    t.equal(image?.mimeType, 'image/png')
    t.ok(Buffer.from(image?.data ?? '', 'base64').subarray(1, 4).toString() === 'PNG', 'a real PNG')
    t.match(result.structuredContent, { entity_id: camera, mime_type: 'image/png' })
    const audited = (server.app as unknown as { audit?: { recent: (n?: number) => Array<{ tool: string }> } }).audit
    if (audited) t.ok(audited.recent(10).some(e => e.tool === 'ha_get_camera_snapshot'), 'snapshot recorded in the audit')
    else t.ok(server.logs.some(line => line.includes('camera snapshot taken')), 'snapshot logged at notice')
    const unknown = await callTool(client, 'ha_get_camera_snapshot', { entity_id: 'camera.nothing' })
    t.ok(unknown.isError)
    const notCamera = await callTool(client, 'ha_get_camera_snapshot', { entity_id: 'light.kitchen' })
    t.ok(notCamera.isError, 'only camera entities')

    const plain = await startServer(t, { home })
    const plainClient = await connectClient(t, plain)
    const names = (await plainClient.listTools()).tools.map(tool => tool.name)
    t.notOk(names.includes('ha_get_camera_snapshot'), 'not registered without allow_camera')
  })
})

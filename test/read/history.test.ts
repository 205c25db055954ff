import t from 'tap'
import { callTool, connectClient, startHome, startServer } from '../helper.ts'

const HOUR = 3_600_000

t.test('history, statistics and logbook against the demo home', async t => {
  const home = await startHome(t)
  const server = await startServer(t, { home })
  const client = await connectClient(t, server)
  await server.app.services.home.ready()
  const ids = home.entityIds()
  const numeric = (id: string): boolean => id.startsWith('sensor.') && ['°C', '%', 'W', 'lx'].includes(String(home.getState(id)?.attributes.unit_of_measurement)) && Number.isFinite(Number(home.getState(id)?.state))
  const busy = ids.filter(id => numeric(id) && home.getState(id)?.attributes.unit_of_measurement === '°C').concat(ids.filter(id => numeric(id) && home.getState(id)?.attributes.unit_of_measurement !== '°C'))
  const light = ids.find(id => id.startsWith('light.')) as string
  t.ok(busy.length >= 11, 'the demo home has enough numeric sensors')

  t.test('a busy sensor over a week stays within the 250-point budget and ends on its current state', async t => {
    const answer = await callTool(client, 'ha_get_history', { entity_id: busy[0], hours: 168 })
    t.notOk(answer.isError, answer.text)
    t.ok(answer.json.changes > 250, `the sensor really is busy (${answer.json.changes} changes)`)
    t.ok(answer.json.points.length <= 250 && answer.json.points.length >= 200, `${answer.json.points.length} points`)
    t.match(answer.json.note, /downsampled/)
    const first = Date.parse(answer.json.points[0].t)
    t.ok(Math.abs(first - Date.parse(answer.json.window.start)) < 1000, 'the first point is the state at window start')
    t.equal(answer.json.points.at(-1).s, home.getState(busy[0] as string)?.state, 'the last point is the current state')
    t.type(answer.json.min, 'number')
    t.ok(Buffer.byteLength(answer.text) < 15_000, `${Buffer.byteLength(answer.text)} bytes`)
  })

  t.test('five entities share the budget', async t => {
    const answer = await callTool(client, 'ha_get_history', { entity_id: busy.slice(0, 5), hours: 168 })
    t.notOk(answer.isError, answer.text)
    const series = Object.values(answer.json.series) as Array<{ points: unknown[] }>
    t.equal(series.length, 5)
    const total = series.reduce((sum, s) => sum + s.points.length, 0)
    t.ok(total <= 250, `${total} points in all`)
    t.ok(series.every(s => s.points.length <= 50))
  })

  t.test('a toggling entity gets hours per state', async t => {
    const answer = await callTool(client, 'ha_get_history', { entity_id: light, hours: 48 })
    t.notOk(answer.isError, answer.text)
    const hours = Object.values(answer.json.hours_in_state as Record<string, number>).reduce((a, b) => a + b, 0)
    t.ok(hours > 47 && hours <= 48.01, `hours in state add up to the window (${hours})`)
  })

  t.test('windows and ids outside the limits are refused with a reason', async t => {
    const cases: Array<[Record<string, unknown>, RegExp]> = [
      [{ entity_id: light, hours: 169 }, /hours/],
      [{ entity_id: light, hours: 0.1 }, /hours/],
      [{ entity_id: light, start: 'yesterday' }, /not a valid ISO 8601/],
      [{ entity_id: light, start: new Date(Date.now() - HOUR).toISOString(), end: new Date(Date.now() - 2 * HOUR).toISOString() }, /empty or inverted/],
      [{ entity_id: light, start: new Date(Date.now() - 200 * HOUR).toISOString(), end: new Date().toISOString() }, /at most 168 hours/],
      [{ entity_id: light, start: new Date(Date.now() + HOUR).toISOString() }, /future/],
      [{ entity_id: busy.slice(0, 6) }, /entity_id/],
      [{ entity_id: 'light.does_not_exist' }, /not found/]
    ]
    for (const [args, message] of cases) {
      const answer = await callTool(client, 'ha_get_history', args)
      t.ok(answer.isError, `${JSON.stringify(args)} is refused`)
      t.match(answer.text, message)
    }
  })

  t.test('statistics: rows per period, coarsened when a year would not fit', async t => {
    const day = await callTool(client, 'ha_get_statistics', { statistic_id: busy[0], hours: 48, period: 'hour' })
    t.notOk(day.isError, day.text)
    const rows = day.json.statistics[busy[0] as string].rows as Array<Record<string, unknown>>
    t.ok(rows.length >= 40 && rows.length <= 49, `${rows.length} hourly rows`)
    t.type(rows[0]?.mean, 'number')
    const year = await callTool(client, 'ha_get_statistics', { statistic_id: busy.slice(0, 10), hours: 8760 })
    t.notOk(year.isError, year.text)
    t.not(year.json.period, 'hour', 'a year of ten statistics is not served hourly')
    t.match(year.json.note, /Period raised/)
    t.ok(Buffer.byteLength(year.text) < 15_000)
    const missing = await callTool(client, 'ha_get_statistics', { statistic_id: ['demo:nothing_here', busy[0]] })
    t.notOk(missing.isError, missing.text)
    t.same(missing.json.missing, ['demo:nothing_here'])
    const tooMany = await callTool(client, 'ha_get_statistics', { statistic_id: busy.slice(0, 5).concat(ids.slice(0, 6)) })
    t.ok(tooMany.isError, 'more than 10 ids is refused')
    const tooLong = await callTool(client, 'ha_get_statistics', { statistic_id: busy[0], hours: 9000 })
    t.ok(tooLong.isError)
    const unknown = await callTool(client, 'ha_get_statistics', { statistic_id: 'sensor.nope_nope' })
    t.ok(unknown.isError)
    t.equal(unknown.code, 'HAMCP_ENTITY_NOT_FOUND')
  })

  t.test('logbook by entity, area and floor, last 100', async t => {
    const entity = await callTool(client, 'ha_get_logbook', { entity_id: light, hours: 48 })
    t.notOk(entity.isError, entity.text)
    t.ok(entity.json.events.length > 0, 'the light has logbook rows')
    t.ok(entity.json.events.every((e: { entity_id?: string }) => e.entity_id === light || e.entity_id?.startsWith('automation.')))
    const area = home.entityIds().map(id => server.app.services.home.entity(id)).find(row => row?.area_id)?.area as string
    const byArea = await callTool(client, 'ha_get_logbook', { area, hours: 24 })
    t.notOk(byArea.isError, byArea.text)
    const whole = await callTool(client, 'ha_get_logbook', { hours: 168 })
    t.notOk(whole.isError, whole.text)
    t.ok(whole.json.returned <= 100 && whole.json.returned > 0 && whole.json.has_more, `${whole.json.returned} shown, more left out`)
    t.match(whole.json.note, /only the last[\s\S]*call again with end/i)
    // Paging back with older_before gives the events just before, none shown twice.
    const before = await callTool(client, 'ha_get_logbook', { start: whole.json.window.start, end: whole.json.older_before })
    t.notOk(before.isError, before.text)
    const older = before.json.events.map((e: { t: string }) => Date.parse(e.t))
    t.ok(older.length > 0 && (older.at(-1) as number) <= Date.parse(whole.json.events[0].t), 'the next page ends where this one began')
    const times = whole.json.events.map((e: { t: string }) => Date.parse(e.t))
    t.same(times, [...times].sort((a, b) => a - b), 'events are in time order')
    t.ok(Date.now() - (times.at(-1) as number) < 24 * HOUR, 'the newest events are the ones kept')
    const floor = [...server.app.services.home.registries.floors.values()][0]?.name as string
    const byFloor = await callTool(client, 'ha_get_logbook', { floor })
    t.notOk(byFloor.isError, byFloor.text)
    const both = await callTool(client, 'ha_get_logbook', { area, floor })
    t.ok(both.isError)
    t.equal(both.code, 'HAMCP_INVALID_ARGUMENT')
    const nowhere = await callTool(client, 'ha_get_logbook', { area: 'The Moon' })
    t.ok(nowhere.isError)
    t.equal(nowhere.code, 'HAMCP_NOT_FOUND')
  })
})

t.test('filter_reads: hidden entities are never asked for nor returned', async t => {
  const home = await startHome(t)
  const ids = home.entityIds()
  const hiddenLight = ids.find(id => id.startsWith('light.')) as string
  const hiddenSensor = ids.find(id => id.startsWith('sensor.') && home.getState(id)?.attributes.unit_of_measurement === '°C') as string
  const server = await startServer(t, { home, options: { filter_reads: true, entity_denylist: [hiddenLight, hiddenSensor] } })
  const client = await connectClient(t, server)
  for (const [name, args] of [
    ['ha_get_history', { entity_id: hiddenLight }],
    ['ha_get_history', { entity_id: [hiddenSensor, ids.find(id => id.startsWith('switch.'))] }],
    ['ha_get_statistics', { statistic_id: hiddenSensor }],
    ['ha_get_logbook', { entity_id: hiddenLight }],
    ['ha_explain_event', { entity_id: hiddenLight }]
  ] as Array<[string, Record<string, unknown>]>) {
    const answer = await callTool(client, name, args)
    t.ok(answer.isError, `${name} refuses a hidden entity`)
    t.equal(answer.code, 'HAMCP_ENTITY_NOT_FOUND')
  }
  const whole = await callTool(client, 'ha_get_logbook', { hours: 48 })
  t.notOk(whole.isError, whole.text)
  t.ok(whole.json.events.length > 0)
  t.notOk(whole.text.includes(hiddenLight), 'the whole-home logbook leaves the hidden light out')
})

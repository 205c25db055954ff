// Calendar events through ha_manage_config: create, update, delete, recurrence, undo, gates.
import t from 'tap'
import { callTool, connectClient, startHome, startServer } from '../helper.ts'

const MANAGE = 'ha_manage_config'
const DAY = 86_400_000

const at = (days: number, hour: number): string => {
  const midnight = Math.floor(Date.now() / DAY) * DAY
  return new Date(midnight + days * DAY + hour * 3_600_000).toISOString().replace('.000Z', '+00:00')
}

t.test('ha_manage_config kind calendar', async t => {
  const home = await startHome(t)
  const server = await startServer(t, { home, options: { allow_config_write: true } })
  const client = await connectClient(t, server)
  const events = async (calendar = 'calendar.family'): Promise<any[]> => (await callTool(client, 'ha_get_calendar', { entity_id: calendar, hours: 720, start: new Date(Date.now() - 2 * DAY).toISOString() })).json.items
  const undo = async (): Promise<any> => {
    const asked = await callTool(client, 'ha_undo', {})
    t.notOk(asked.isError, asked.text)
    const done = await callTool(client, 'ha_undo', { confirm_token: asked.json.confirm_token })
    t.notOk(done.isError, done.text)
    return { asked: asked.json, done: done.json }
  }

  t.test('create: dry run writes nothing; the event appears with its uid; undo deletes it', async t => {
    const event = { summary: 'School pickup', dtstart: at(2, 15), dtend: at(2, 16), location: 'École Montessori' }
    const before = await events()
    const dry = await callTool(client, MANAGE, { kind: 'calendar', id: 'calendar.family', action: 'create', config: event, dry_run: true })
    t.notOk(dry.isError, dry.text)
    t.equal(dry.json.dry_run, true)
    t.match(dry.json.preview, /summary: School pickup/)
    t.same(home.configWrites, [], 'nothing reached the house')
    t.same(await events(), before)

    const done = await callTool(client, MANAGE, { kind: 'calendar', id: 'calendar.family', action: 'create', config: event })
    t.notOk(done.isError, done.text)
    t.equal(done.json.success, true, 'creating an event needs no confirmation (calendar is not a confirm domain)')
    t.equal(done.json.undo_available, true)
    const created = (await events()).find(e => e.summary === 'School pickup')
    t.match(created, { uid: done.json.uid, location: 'École Montessori', start: event.dtstart })
    t.match(server.app.services.policy.audit.recent(1)[0], { tool: MANAGE, outcome: 'allowed', domain: 'calendar', service: 'create_event', entities: ['calendar.family'] })

    const reverted = await undo()
    t.match(reverted.asked.preview, /will be deleted again/)
    t.notOk((await events()).some(e => e.summary === 'School pickup'), 'gone again')
    t.same(await events(), before, 'the calendar is exactly as before')
  })

  t.test('recurrence: a weekly series, one instance changed, then undone', async t => {
    const series = { summary: 'Swimming', dtstart: at(1, 18), dtend: at(1, 19), rrule: 'FREQ=WEEKLY;COUNT=3' }
    const made = await callTool(client, MANAGE, { kind: 'calendar', id: 'calendar.family', action: 'create', config: series })
    t.notOk(made.isError, made.text)
    const instances = (await events()).filter(e => e.uid === made.json.uid)
    t.equal(instances.length, 3, 'three weekly instances')
    t.ok(instances.every(e => e.recurring && typeof e.recurrence_id === 'string'))
    const second = instances[1]
    const before = await events()

    const moved = await callTool(client, MANAGE, { kind: 'calendar', id: 'calendar.family', action: 'update', item: made.json.uid, config: { recurrence_id: second.recurrence_id, summary: 'Swimming (gala)' } })
    t.notOk(moved.isError, moved.text)
    const after = (await events()).filter(e => e.uid === made.json.uid)
    t.same(after.map(e => e.summary), ['Swimming', 'Swimming (gala)', 'Swimming'], 'only that instance changed')
    await undo()
    t.same(await events(), before, 'the instance is back to what it was')
  })

  t.test('update of a whole event and its exact undo', async t => {
    const before = (await events()).find(e => e.summary === 'Dentist')
    const changed = await callTool(client, MANAGE, { kind: 'calendar', id: 'calendar.family', action: 'update', item: before.uid, config: { location: 'Keizersgracht 9', description: null } })
    t.notOk(changed.isError, changed.text)
    const now = (await events()).find(e => e.uid === before.uid)
    t.equal(now.location, 'Keizersgracht 9')
    t.notOk(now.description, 'null removed the description')
    await undo()
    t.same((await events()).find(e => e.uid === before.uid), before)
  })

  t.test('delete asks first; undo recreates the event with the same fields and says the uid changed', async t => {
    const target = (await events()).find(e => e.summary === 'Football practice')
    const asked = await callTool(client, MANAGE, { kind: 'calendar', id: 'calendar.family', action: 'delete', item: target.uid })
    t.equal(asked.json.confirmation_required, true)
    t.match(asked.json.preview, /will be deleted:\nsummary: Football practice/)
    t.ok((await events()).some(e => e.uid === target.uid), 'still there before confirming')
    const done = await callTool(client, MANAGE, { kind: 'calendar', id: 'calendar.family', action: 'delete', item: target.uid, confirm_token: asked.json.confirm_token })
    t.notOk(done.isError, done.text)
    t.notOk((await events()).some(e => e.uid === target.uid))
    const reverted = await undo()
    t.match(reverted.done.note, /new uid/)
    const back = (await events()).find(e => e.summary === 'Football practice')
    t.match(back, { start: target.start, end: target.end })
    t.not(back.uid, target.uid)
  })

  t.test('deleting one instance of a series is said not to be undoable, and undo does not reach back further', async t => {
    const piano = (await events()).filter(e => e.summary === 'Piano lesson')
    t.ok(piano.length >= 2, 'the demo has a recurring event')
    const args = { kind: 'calendar', id: 'calendar.family', action: 'delete', item: piano[0].uid, config: { recurrence_id: piano[1].recurrence_id } }
    const asked = await callTool(client, MANAGE, args)
    const done = await callTool(client, MANAGE, { ...args, confirm_token: asked.json.confirm_token })
    t.notOk(done.isError, done.text)
    t.match(done.json.note, /cannot be brought back/)
    t.notOk(done.json.undo_available)
    t.equal((await events()).filter(e => e.summary === 'Piano lesson').length, piano.length - 1)
    const nothing = await callTool(client, 'ha_undo', {})
    t.ok(nothing.isError)
    t.equal(nothing.json?.error?.code ?? nothing.text.match(/HAMCP_[A-Z_]+/)?.[0], 'HAMCP_NOT_FOUND')
  })

  t.test('a whole series edited without recurrence_id keeps its own start, however old', async t => {
    const start = at(-430, 9)
    const made = await callTool(client, MANAGE, { kind: 'calendar', id: 'calendar.family', action: 'create', config: { summary: 'Choir', dtstart: start, dtend: at(-430, 10), rrule: 'FREQ=WEEKLY' } })
    t.notOk(made.isError, made.text)
    const stored = (): any => (home.house.home.calendars.get('calendar.family') as any[]).find(e => e.uid === made.json.uid && e.recurrence_id === undefined)
    t.equal(stored()?.start, start)
    const renamed = await callTool(client, MANAGE, { kind: 'calendar', id: 'calendar.family', action: 'update', item: made.json.uid, config: { summary: 'Church choir' } })
    t.notOk(renamed.isError, renamed.text)
    t.equal(stored()?.summary, 'Church choir')
    t.equal(stored()?.start, start, 'the series still starts where it did, 430 days ago')
    t.equal(stored()?.end, at(-430, 10))
  })

  t.test('an all-day event that ends the day it starts is refused before Home Assistant, with the fix', async t => {
    home.configWrites.length = 0
    const sameDay = await callTool(client, MANAGE, { kind: 'calendar', id: 'calendar.family', action: 'create', config: { summary: 'Holiday', dtstart: '2026-12-24', dtend: '2026-12-24' } })
    t.equal(sameDay.code, 'HAMCP_INVALID_ARGUMENT', sameDay.text)
    t.match(sameDay.text, /2026-12-25/, 'the hint gives the next day')
    const mixed = await callTool(client, MANAGE, { kind: 'calendar', id: 'calendar.family', action: 'create', config: { summary: 'Call', dtstart: '2026-12-24T09:00:00+01:00', dtend: '2026-12-24T10:00:00Z' } })
    t.equal(mixed.code, 'HAMCP_INVALID_ARGUMENT', `Home Assistant wants one timezone for both: ${mixed.text}`)
    const kinds = await callTool(client, MANAGE, { kind: 'calendar', id: 'calendar.family', action: 'create', config: { summary: 'Call', dtstart: '2026-12-24', dtend: '2026-12-24T10:00:00+01:00' } })
    t.equal(kinds.code, 'HAMCP_INVALID_ARGUMENT', kinds.text)
    t.same(home.configWrites, [], 'nothing was stored')
  })

  t.test('Home Assistant\'s own refusals come back worded like it', async t => {
    home.configWrites.length = 0
    const readOnly = await callTool(client, MANAGE, { kind: 'calendar', id: 'calendar.poubelles', action: 'create', config: { summary: 'Glass', dtstart: '2026-12-20', dtend: '2026-12-21' } })
    t.ok(readOnly.isError)
    t.match(readOnly.text, /Calendar does not support event creation/)
    const backwards = await callTool(client, MANAGE, { kind: 'calendar', id: 'calendar.family', action: 'create', config: { summary: 'Oops', dtstart: at(3, 10), dtend: at(3, 9) } })
    t.equal(backwards.code, 'HAMCP_INVALID_ARGUMENT', backwards.text)
    t.match(backwards.text, /after dtstart/)
    const badRule = await callTool(client, MANAGE, { kind: 'calendar', id: 'calendar.family', action: 'create', config: { summary: 'Often', dtstart: at(3, 10), dtend: at(3, 11), rrule: 'FREQ=HOURLY' } })
    t.equal(badRule.code, 'HAMCP_INVALID_ARGUMENT', badRule.text)
    t.match(badRule.text, /DAILY, WEEKLY, MONTHLY or YEARLY/)
    const missing = await callTool(client, MANAGE, { kind: 'calendar', id: 'calendar.family', action: 'update', item: 'no-such-uid', config: { summary: 'x' } })
    t.match(missing.text, /No event no-such-uid/)
    const noSummary = await callTool(client, MANAGE, { kind: 'calendar', id: 'calendar.family', action: 'create', config: { dtstart: at(3, 10), dtend: at(3, 11) } })
    t.match(noSummary.text, /config\.summary: the event needs summary/)
    const numbers = await callTool(client, MANAGE, { kind: 'calendar', id: 'calendar.family', action: 'create', config: { summary: 7, dtstart: at(3, 10), dtend: at(3, 11), colour: 'red' } })
    t.match(numbers.text, /HAMCP_INVALID_ARGUMENT/)
    t.match(numbers.text, /config\.summary: text/)
    t.match(numbers.text, /config\.colour: not a field of an event/)
    const range = await callTool(client, MANAGE, { kind: 'calendar', id: 'calendar.family', action: 'update', item: 'x', config: { recurrence_range: 'THISANDFUTURE' } })
    t.match(range.text, /config\.recurrence_range: needs a recurrence_id/)
    t.same(home.configWrites, [], 'nothing was stored')
  })
})

t.test('calendar gates: entity_denylist, service_denylist, confirm_domains', async t => {
  const home = await startHome(t)
  const event = { summary: 'Denied', dtstart: at(2, 9), dtend: at(2, 10) }
  const denied = await startServer(t, { home, options: { allow_config_write: true, entity_denylist: ['calendar.family'] } })
  const byEntity = await callTool(await connectClient(t, denied), MANAGE, { kind: 'calendar', id: 'calendar.family', action: 'create', config: event })
  t.ok(byEntity.isError)
  t.match(byEntity.text, /calendar\.family is refused by entity_denylist/)
  const noCalendar = await startServer(t, { home, options: { allow_config_write: true, service_denylist: ['calendar.*'] } })
  const byService = await callTool(await connectClient(t, noCalendar), MANAGE, { kind: 'calendar', id: 'calendar.family', action: 'create', config: event })
  t.match(byService.text, /calendar\.create_event is refused by the service_denylist/)
  const careful = await startServer(t, { home, options: { allow_config_write: true, confirm_domains: ['calendar'] } })
  const asked = await callTool(await connectClient(t, careful), MANAGE, { kind: 'calendar', id: 'calendar.family', action: 'create', config: event })
  t.equal(asked.json.confirmation_required, true, 'calendar in confirm_domains asks before creating')
  t.same(home.configWrites, [], 'nothing reached the house')
})

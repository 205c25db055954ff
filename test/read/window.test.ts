import t from 'tap'
import { downsample } from '../../tools/history/get-history.ts'
import { resolveWindow } from '../../tools/_shared/window.ts'

const LIMITS = { minHours: 0.25, maxHours: 168, defaultHours: 24 }
const NOW = Date.parse('2026-05-10T12:00:00Z')
const HOUR = 3_600_000

t.test('resolveWindow: every way of giving a window', async t => {
  t.same(resolveWindow({}, LIMITS, NOW), { start: new Date(NOW - 24 * HOUR), end: new Date(NOW), hours: 24 }, 'default hours back from now')
  t.equal(resolveWindow({ hours: 2 }, LIMITS, NOW).start.getTime(), NOW - 2 * HOUR)
  const fromStart = resolveWindow({ start: '2026-05-10T08:00:00Z' }, LIMITS, NOW)
  t.equal(fromStart.end.getTime(), NOW, 'start alone runs to now')
  const startPlusHours = resolveWindow({ start: '2026-05-10T08:00:00Z', hours: 1 }, LIMITS, NOW)
  t.equal(startPlusHours.end.toISOString(), '2026-05-10T09:00:00.000Z', 'start + hours')
  const endMinusHours = resolveWindow({ end: '2026-05-09T12:00:00+02:00', hours: 3 }, LIMITS, NOW)
  t.equal(endMinusHours.start.toISOString(), '2026-05-09T07:00:00.000Z', 'end - hours, with an offset')
})

t.test('resolveWindow: explicit errors', async t => {
  const cases: Array<[Record<string, unknown>, RegExp]> = [
    [{ start: 'monday' }, /not a valid ISO 8601/],
    [{ start: '2026-13-45T99:00:00Z' }, /not a valid ISO 8601/],
    [{ end: '2026-05-10' + 'T00:00:00Z'.repeat(5) }, /not a valid ISO 8601/],
    [{ start: '2026-05-10T10:00:00Z', end: '2026-05-10T10:00:00Z' }, /empty or inverted/],
    [{ start: '2026-05-10T11:00:00Z', end: '2026-05-10T10:00:00Z' }, /empty or inverted/],
    [{ start: '2026-05-10T13:00:00Z' }, /future/],
    [{ start: '2026-04-01T00:00:00Z' }, /at most 168 hours/],
    [{ start: '2026-05-10T10:00:00Z', end: '2026-05-10T10:05:00Z' }, /at least 0.25 hours/],
    [{ hours: 1, start: '2026-05-10T10:00:00Z', end: '2026-05-10T11:00:00Z' }, /either hours, or start and end/]
  ]
  for (const [args, message] of cases) t.throws(() => resolveWindow(args, LIMITS, NOW), { name: 'UserError', message }, JSON.stringify(args))
})

t.test('downsample keeps the first and last points and the budget', async t => {
  const points = Array.from({ length: 1000 }, (_, i) => i)
  const kept = downsample(points, 250)
  t.equal(kept.length, 250)
  t.equal(kept[0], 0)
  t.equal(kept.at(-1), 999)
  t.same(downsample([1, 2, 3], 250), [1, 2, 3], 'short series untouched')
  t.same(downsample(points, 1), [999], 'a budget of one keeps the latest point')
})

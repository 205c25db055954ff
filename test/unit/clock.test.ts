// The helpers over a Clock (src/clock.ts), on a clock the test moves by hand.
import t from 'tap'
import { every, realClock, sleep, within } from '../../src/clock.ts'
import { fakeClock } from '../helper.ts'

t.test('every: once per period until stopped', async t => {
  const clock = fakeClock(0)
  const ticks: number[] = []
  const stop = every(clock, 1000, () => { ticks.push(clock.now()) })
  clock.advance(3500)
  t.same(ticks, [1000, 2000, 3000])
  stop()
  clock.advance(5000)
  t.same(ticks, [1000, 2000, 3000], 'nothing after stop')
  t.same(clock.pending(), [], 'and no timer left behind')
})

t.test('every: a period that throws does not end the next ones', async t => {
  const clock = fakeClock(0)
  let calls = 0
  every(clock, 10, () => { calls++; if (calls === 1) throw new Error('first sweep failed') })
  t.throws(() => clock.advance(10))
  clock.advance(20)
  t.equal(calls, 3)
})

t.test('sleep: ends when the clock passes it, or at once on abort', async t => {
  const clock = fakeClock(0)
  let done = false
  const waiting = sleep(clock, 500).then(() => { done = true })
  clock.advance(499)
  await Promise.resolve()
  t.notOk(done, 'not before its time')
  clock.advance(1)
  await waiting
  t.ok(done)

  const controller = new AbortController()
  const aborted = sleep(clock, 60_000, { signal: controller.signal })
  controller.abort()
  await aborted
  t.same(clock.pending(), [], 'the abort cancels its timer')
})

t.test('within: the work\'s outcome, or the timeout\'s once the clock passes it first', async t => {
  const clock = fakeClock(0)
  const slow = within(clock, 8000, new Promise<string>(() => {}), () => 'too slow')
  t.same(clock.pending(), [8000])
  clock.advance(7999)
  clock.advance(1)
  t.equal(await slow, 'too slow')
  t.same(clock.pending(), [], 'its timer is gone once it fired')

  t.equal(await within(clock, 8000, Promise.resolve('ok'), () => 'too slow'), 'ok')
  t.same(clock.pending(), [], 'work that settles first cancels the timer')

  await t.rejects(within(clock, 8000, Promise.reject(new Error('refused')), () => 'too slow'), /refused/, 'a rejection is the answer too')
  t.same(clock.pending(), [])

  const late = within(clock, 50, new Promise<string>(() => {}), () => { throw new Error('no answer within 50 ms') })
  clock.advance(50)
  await t.rejects(late, /no answer within 50 ms/, 'what the timeout throws rejects')

  t.equal(await within(clock, Infinity, Promise.resolve('ok'), () => 'never'), 'ok')
  // Real timers on purpose: Node cuts a delay past 32 bits to 1 ms, which is what this guards against.
  const settlesIn20ms = new Promise<string>(resolve => { realClock.schedule(() => { resolve('ok') }, 20, { ref: true }) })
  t.equal(await within(realClock, 2 ** 31, settlesIn20ms, () => 'fired at once'), 'ok', 'a wait past what a timer holds is not cut to 1 ms')
  t.same(clock.pending(), [], 'a timeout that never elapses sets no timer')
})

t.test('realClock: the wall clock, and timers that can be cancelled', async t => {
  const before = Date.now()
  t.ok(realClock.now() >= before && realClock.now() - before < 1000)
  let fired = false
  realClock.schedule(() => { fired = true }, 1)()
  await new Promise(resolve => setImmediate(resolve))
  t.notOk(fired)
})

// The request limits' store (plugins/request-limits.ts windowStoreOn) keeps @fastify/rate-limit's local
// store's rules on the injected clock: a window starts at a key's first request, counts every request
// until it is over, and then starts again; the least recently seen key is forgotten first.
import t from 'tap'
import { windowStoreOn } from '../../../plugins/request-limits.ts'

function store (capacity?: number): { at: number, hit: (key: string) => { current: number, ttl: number } } {
  const clock = { at: 0 }
  const Store = windowStoreOn(() => clock.at, capacity)
  const counters = new Store({})
  return Object.assign(clock, {
    hit: (key: string) => {
      let outcome = { current: 0, ttl: 0 }
      counters.incr(key, (_err, result) => { if (result) outcome = { current: result.current, ttl: result.ttl } }, 60_000, 10)
      return outcome
    }
  })
}

t.test('a window counts from its first request and starts again once a minute has passed', async t => {
  const s = store()
  s.at = 1_000
  t.same(s.hit('a'), { current: 1, ttl: 60_000 }, 'a whole minute ahead')
  s.at = 30_000
  s.hit('a')
  s.at = 60_999
  t.same(s.hit('a'), { current: 3, ttl: 1 }, 'still the first window a millisecond before its end')
  s.at = 61_000
  t.same(s.hit('a'), { current: 1, ttl: 60_000 }, 'a new window once the minute is over')
  t.equal(s.hit('b').current, 1, 'each key has its own')
})

t.test('a clock set back an hour starts the window from now, its count kept', async t => {
  const s = store()
  s.at = 3_600_000
  s.hit('a')
  s.at = 0
  t.same(s.hit('a'), { current: 2, ttl: 60_000 }, 'at most a minute to wait, not an hour and a minute')
})

t.test('beyond its capacity the least recently seen key is forgotten, not a busy one', async t => {
  const s = store(2)
  s.hit('busy')
  s.hit('idle')
  s.hit('busy')
  s.hit('new')
  t.equal(s.hit('busy').current, 3, 'the busy key kept its count')
  t.equal(s.hit('idle').current, 1, 'the idle one started over')
})

// The request limits' own counters keep the rules @fastify/rate-limit's store applied: a window starts
// at a key's first request, counts every request until it is over, and then starts again.
import t from 'tap'
import { addressKeyOf, WindowCounters } from '../../plugins/request-limits.ts'

t.test('a window counts from its first request and starts again once a minute has passed', async t => {
  const counters = new WindowCounters(60_000)
  const first = counters.hit('a', 1_000)
  t.equal(first.count, 1)
  t.equal(counters.remainingMs(first, 1_000), 60_000, 'a whole minute ahead')
  counters.hit('a', 30_000)
  const third = counters.hit('a', 60_999)
  t.equal(third.count, 3, 'still the first window a millisecond before its end')
  t.equal(counters.remainingMs(third, 60_999), 1)
  const again = counters.hit('a', 61_000)
  t.equal(again.count, 1, 'a new window once the minute is over')
  t.equal(counters.remainingMs(again, 61_000), 60_000)
  t.equal(counters.hit('b', 61_000).count, 1, 'each key has its own')
})

t.test('beyond its capacity the least recently seen key is forgotten, not a busy one', async t => {
  const counters = new WindowCounters(60_000, 2)
  counters.hit('busy', 0)
  counters.hit('idle', 0)
  counters.hit('busy', 1)
  counters.hit('new', 2)
  t.equal(counters.hit('busy', 3).count, 3, 'the busy key kept its count')
  t.equal(counters.hit('idle', 4).count, 1, 'the idle one started over')
})

t.test('addresses count as @fastify/rate-limit counted them', async t => {
  t.equal(addressKeyOf('192.168.1.5'), '192.168.1.5')
  t.equal(addressKeyOf('::ffff:192.168.1.5'), '192.168.1.5', 'an IPv4-mapped address is its IPv4 one')
  t.equal(addressKeyOf('2001:db8:1:2::5'), addressKeyOf('2001:DB8:1:2:aaaa::9'), 'one /64 is one address')
  t.not(addressKeyOf('2001:db8:1:2::5'), addressKeyOf('2001:db8:1:3::5'))
})

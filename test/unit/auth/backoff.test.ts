import t from 'tap'
import { AuthBackoff } from '../../../src/auth/backoff.ts'

t.test('five free failures, then 1 s doubling to 60 s', async t => {
  let now = 1_000_000
  const backoff = new AuthBackoff({ now: () => now })
  for (let i = 0; i < 5; i++) backoff.fail('10.0.0.1')
  t.equal(backoff.blockedFor('10.0.0.1'), 0, 'still free after 5 failures')
  backoff.fail('10.0.0.1')
  t.equal(backoff.blockedFor('10.0.0.1'), 1000, 'sixth failure blocks for 1 s')
  backoff.fail('10.0.0.1')
  t.equal(backoff.blockedFor('10.0.0.1'), 2000, 'then 2 s')
  for (let i = 0; i < 20; i++) backoff.fail('10.0.0.1')
  t.equal(backoff.blockedFor('10.0.0.1'), 60_000, 'capped at 60 s')
  now += 60_001
  t.equal(backoff.blockedFor('10.0.0.1'), 0, 'free again once the block ends')
  t.equal(backoff.blockedFor('10.0.0.2'), 0, 'other addresses unaffected')
})

t.test('a success clears the address', async t => {
  const backoff = new AuthBackoff({ now: () => 0 })
  for (let i = 0; i < 7; i++) backoff.fail('a')
  t.ok(backoff.blockedFor('a') > 0)
  backoff.succeed('a')
  t.equal(backoff.blockedFor('a'), 0)
  t.equal(backoff.size, 0)
})

t.test('memory stays bounded', async t => {
  let now = 1_000_000
  const backoff = new AuthBackoff({ maxTracked: 100, idleMs: 1000, now: () => now })
  for (let i = 0; i < 1000; i++) backoff.fail(`addr-${i}`)
  t.ok(backoff.size <= 100, `tracks at most 100 (has ${backoff.size})`)
  now += 5000
  backoff.sweep()
  t.equal(backoff.size, 0, 'idle addresses are forgotten')
})

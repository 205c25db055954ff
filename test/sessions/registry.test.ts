import t from 'tap'
import { SessionRegistry } from '../../src/sessions/registry.ts'

t.test('admission at the cap prefers the least recently used idle session and never a busy one', async t => {
  let now = 0
  const registry = new SessionRegistry<string>({ max: 3, evictableAfterMs: 60_000, idleTimeoutMs: 1_800_000, now: () => now })
  for (const id of ['a', 'b', 'c']) {
    t.same(registry.admit(), { ok: true })
    registry.add(id, 'primary', `session ${id}`)
    now += 1000
  }
  t.same(registry.admit(), { ok: false }, 'all used within the last minute')
  now += 120_000
  registry.begin('a')
  t.same(registry.admit(), { ok: true, evicted: { id: 'b', value: 'session b' } }, 'a is busy, b is the oldest idle')
  t.equal(registry.size, 2)
  registry.add('d', 'primary', 'session d')
  now += 120_000
  t.same(registry.admit(), { ok: true, evicted: { id: 'c', value: 'session c' } }, 'a request in flight protects a session however old')
  registry.end('a')
  t.equal(registry.owner('a'), 'primary')
})

t.test('the sweep removes sessions idle past the timeout, sparing busy and listening ones', async t => {
  let now = 0
  const registry = new SessionRegistry<number>({ idleTimeoutMs: 1000, now: () => now })
  registry.add('idle', 'x', 1)
  registry.add('busy', 'x', 2)
  registry.add('listening', 'x', 3)
  registry.begin('busy')
  registry.stream('listening', 1)
  now = 1001
  t.same(registry.expired(), [{ id: 'idle', value: 1 }])
  registry.end('busy')
  registry.stream('listening', -1)
  t.same(registry.expired(), [], 'ending a request or a stream counts as use')
  now = 2002
  t.same(registry.expired().map(e => e.id).sort(), ['busy', 'listening'])
  t.equal(registry.size, 0)
})

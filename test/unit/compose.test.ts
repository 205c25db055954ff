import t from 'tap'
import { PRIMARY_IDENTITY } from '../../src/auth/identity.ts'
import { createServices } from '../../src/compose.ts'
import { loadConfig } from '../../src/config.ts'
import { createLogger, SecretScrubber } from '../../src/logger.ts'
import { loadToolCatalog } from '../../src/mcp/runtime/registry.ts'
import { DEFAULT_REQUEST_LIMITS } from '../../src/request-limits.ts'
import { fakeClock, startHome, tempDataDir, TEST_TOKEN } from '../helper.ts'
import { TOOLS_DIR } from '../../app/tools-dir.ts'

t.test('the composition root builds every service once, typed, and starts nothing', async t => {
  const home = await startHome(t)
  const config = loadConfig({ HA_URL: home.url, HA_TOKEN: home.token, DATA_DIR: tempDataDir(t) })
  const log = createLogger({ level: 'fatal', scrubber: new SecretScrubber(), write: () => {} })
  const services = createServices({ config, primaryToken: TEST_TOKEN, log, catalog: await loadToolCatalog(TOOLS_DIR), requestLimits: { perToken: 7 } })
  t.teardown(() => services.ha.close())

  t.equal(home.connectionCount(), 0, 'no connection to Home Assistant until the app starts it')
  t.equal(services.tokens.verify(TEST_TOKEN)?.id, 'primary', 'the token store knows the primary token')
  t.equal(services.tools.guard, services.policy.guard, 'tools get the one guard')
  t.equal(services.tools.audit, services.policy.audit, 'and the one audit')
  t.same(services.requestLimits, { ...DEFAULT_REQUEST_LIMITS, perToken: 7 }, 'limits from the deps over the defaults')

  const ctx = services.mcp.context(PRIMARY_IDENTITY)
  t.equal(ctx.home, services.home, 'a tool reads through the one home view')
  t.equal(ctx.services, services.tools, 'the same services object for every stateless call')
  const confirmer = async (): Promise<boolean> => true
  const asked = services.mcp.context(PRIMARY_IDENTITY, undefined, confirmer)
  t.equal(asked.services.confirmer, confirmer, 'a session call carries its confirmer')
  t.equal(services.tools.confirmer, undefined, 'without leaking it into the shared services')
  t.equal(services.sessions.enabled, false, 'sessions follow enable_sessions (off by default)')
})

t.test('one injected clock reaches every service that keeps time', async t => {
  const config = loadConfig({ DATA_DIR: tempDataDir(t) })
  const log = createLogger({ level: 'fatal', scrubber: new SecretScrubber(), write: () => {} })
  const clock = fakeClock(5_000_000)
  const services = createServices({ config, primaryToken: TEST_TOKEN, log, catalog: await loadToolCatalog(TOOLS_DIR), clock })
  t.teardown(() => services.ha.close())

  for (let i = 0; i < 6; i++) services.backoff.fail('10.0.0.9')
  t.equal(services.backoff.blockedFor('10.0.0.9'), 1000, 'the sign-in backoff blocks on the injected time')
  clock.advance(1000)
  t.equal(services.backoff.blockedFor('10.0.0.9'), 0, 'and frees the address when that clock moves, not the wall clock')

  const caps = services.tools.writeCaps.notify
  for (let i = 0; i < caps.limit; i++) t.ok('release' in caps.take('notify.phone'))
  t.ok('retryAfterS' in caps.take('notify.phone'), 'the write caps fill up')
  clock.advance(caps.windowMs)
  t.ok('release' in caps.take('notify.phone'), 'and empty again on the injected clock')

  t.equal(services.mcp.context(PRIMARY_IDENTITY).clock, clock, 'tools get the same clock in their context')
  t.equal(services.usage.startedAt, 5_000_000, 'the uptime on the ingress page counts from it')
  t.equal(services.ha.status().downSince, 5_000_000, 'and so does "Home Assistant down since"')
})

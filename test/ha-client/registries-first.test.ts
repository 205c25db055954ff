import t, { type Test } from 'tap'
import { HomeAssistant } from '../../src/ha/index.ts'
import { EntityCatalog } from '../../src/home/catalog.ts'
import { HomeView } from '../../src/home/view.ts'
import { Visibility } from '../../src/home/visibility.ts'
import { createLogger, SecretScrubber } from '../../src/logger.ts'
import { caughtUp, dropConnections, eventually, startHome } from '../helper.ts'

/**
 * The registries are read before the states are subscribed: on a big home each registry answer is
 * megabytes parsed whole, and reading them while the whole home's states are not yet in memory keeps
 * that off the add-on's memory peak (bench: ~14 MB on 10,000 entities). The states must come all the
 * same when the registries cannot be read.
 */
function homeAssistant (t: Test, url: string, token: string, connection: { subscribeAfterMaxMs?: number } = {}): HomeAssistant {
  const logs: string[] = []
  const log = createLogger({ level: 'warning', scrubber: new SecretScrubber(), write: line => { logs.push(line) } })
  const ha = new HomeAssistant({ mode: 'dev', baseUrl: url, token, supervisorUrl: 'http://127.0.0.1:1', supervisorToken: undefined, log, connection: { retryMinMs: 50, retryMaxMs: 500, ...connection } })
  t.teardown(async () => { await ha.close() })
  return ha
}

t.test('the registries are in before the first states arrive', async t => {
  const home = await startHome(t, { entities: 200 })
  const ha = homeAssistant(t, home.url, home.token)
  const registriesAtFirstState: boolean[] = []
  ha.states.onChange(() => { if (registriesAtFirstState.length === 0) registriesAtFirstState.push(ha.registries.peek() !== undefined) })
  ha.start()
  await ha.whenReady(10_000)
  t.same(registriesAtFirstState, [true], 'the registry snapshot was built before any state came in')
  t.equal(ha.states.size, home.entityIds().length, 'every state is there')
})

t.test('the states still come when the registries cannot be read', async t => {
  const home = await startHome(t, { entities: 50 })
  const ha = homeAssistant(t, home.url, home.token)
  ha.registries.snapshot = async () => { throw new Error('registry read failed') }
  ha.start()
  await ha.whenReady(10_000)
  t.equal(ha.states.size, home.entityIds().length)
})

t.test('the states are not held back for long by registries that never answer', async t => {
  const home = await startHome(t, { entities: 50 })
  const ha = homeAssistant(t, home.url, home.token, { subscribeAfterMaxMs: 100 })
  ha.registries.snapshot = async () => await new Promise(() => {})
  ha.start()
  await ha.whenReady(10_000)
  t.equal(ha.states.size, home.entityIds().length)
})

t.test('after Home Assistant comes back, the states are subscribed again', async t => {
  const home = await startHome(t, { entities: 50 })
  const ha = homeAssistant(t, home.url, home.token)
  ha.start()
  await ha.whenReady(10_000)
  const light = home.entityIds().find(id => id.startsWith('light.')) as string
  await dropConnections(home, ha)
  const next = ha.states.get(light)?.state === 'on' ? 'off' : 'on'
  home.setState(light, next, { ...home.getState(light)?.attributes })
  await caughtUp(ha)
  t.equal(ha.states.get(light)?.state, next, 'live changes flow after the reconnection')
})

t.test('a call made while the registries are read, before the states, waits for them instead of failing', async t => {
  const home = await startHome(t, { entities: 50 })
  const ha = homeAssistant(t, home.url, home.token)
  const view = new HomeView(ha, new EntityCatalog(ha), new Visibility({ filter_reads: false, entity_denylist: [] }))
  let open = (): void => {}
  const gate = new Promise<void>(resolve => { open = resolve })
  const read = ha.registries.snapshot.bind(ha.registries)
  ha.registries.snapshot = async () => { await gate; return await read() }
  ha.start()
  await eventually(() => ha.connection.connected, 10_000, 'the connection')
  t.notOk(ha.ready, 'connected, the states not in yet')
  let settled = false
  const call = view.ready().then(() => { settled = true })
  await new Promise(resolve => setImmediate(resolve))
  t.notOk(settled, 'the call waits while the registries are read')
  open()
  await call
  t.ok(ha.ready, 'the call went on once the states were in')
  t.ok(view.entities().length > 0, 'with the home in the catalogue')
})

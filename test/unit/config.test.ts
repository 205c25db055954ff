import t from 'tap'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { loadConfig } from '../../src/config.ts'
import { DEFAULT_OPTIONS } from '../../src/options.ts'
import { tempDataDir } from '../helper.ts'

t.test('no options file: defaults, no error', async t => {
  const dir = tempDataDir(t)
  const config = loadConfig({ DATA_DIR: dir })
  t.same(config.options, DEFAULT_OPTIONS)
  t.same(config.optionErrors, [])
  t.equal(config.mcpPort, 9583)
  t.equal(config.ingressPort, 9584)
  t.equal(config.homeAssistant.mode, 'none')
})

t.test('invalid JSON: defaults and a logged error, never a crash', async t => {
  const dir = tempDataDir(t)
  writeFileSync(join(dir, 'options.json'), '{not json')
  const config = loadConfig({ DATA_DIR: dir })
  t.same(config.options, DEFAULT_OPTIONS)
  t.match(config.optionErrors[0], /not valid JSON/)
})

t.test('one bad key keeps the good ones', async t => {
  const dir = tempDataDir(t, { allow_write: true, log_level: 'loud' as never, entity_denylist: ['lock.*'] })
  const config = loadConfig({ DATA_DIR: dir })
  t.equal(config.options.allow_write, true)
  t.same(config.options.entity_denylist, ['lock.*'])
  t.equal(config.options.log_level, 'info', 'bad level falls back to its default')
  t.match(config.optionErrors.join(), /log_level/)
})

t.test('environment: dev mode wins over add-on mode; LOG_LEVEL overrides', async t => {
  const dir = tempDataDir(t)
  const dev = loadConfig({ DATA_DIR: dir, HA_URL: 'http://127.0.0.1:8123/', HA_TOKEN: 'tok', SUPERVISOR_TOKEN: 'sup', LOG_LEVEL: 'debug' })
  t.equal(dev.homeAssistant.mode, 'dev')
  t.equal(dev.homeAssistant.baseUrl, 'http://127.0.0.1:8123')
  t.equal(dev.logLevel, 'debug')
  const addon = loadConfig({ DATA_DIR: dir, SUPERVISOR_TOKEN: 'sup' })
  t.equal(addon.homeAssistant.mode, 'addon')
  t.equal(addon.homeAssistant.baseUrl, 'http://supervisor/core')
  t.equal(addon.supervisor.url, 'http://supervisor')
  t.equal(addon.addonMode, true)
  const badPort = loadConfig({ DATA_DIR: dir, MCP_PORT: 'abc' })
  t.equal(badPort.mcpPort, 9583)
  t.match(badPort.optionErrors.join(), /MCP_PORT/)
})

t.test('DATA_DIR defaults to ./data outside the add-on', async t => {
  const config = loadConfig({})
  t.equal(config.dataDir, join(process.cwd(), 'data'))
})

t.test('a bad item in a list option is dropped alone, the rest kept, and the log names it', async t => {
  const dir = tempDataDir(t, {
    allow_write: true,
    entity_denylist: ['lock.*', ' '],
    entity_allowlist: ['light.*', 42 as never, 'switch.*'],
    service_denylist: ['homeassistant.stop', ''],
    confirm_domains: ['lock', 'garage door', 'cover']
  })
  const config = loadConfig({ DATA_DIR: dir })
  t.same(config.options.entity_denylist, ['lock.*'], 'the blank item dropped, lock.* kept')
  t.same(config.options.entity_allowlist, ['light.*', 'switch.*'])
  t.same(config.options.service_denylist, ['homeassistant.stop'])
  t.same(config.options.confirm_domains, ['lock', 'cover'])
  t.equal(config.options.allow_write, true, 'a dropped item alone leaves writes on')
  t.same(config.writesBlockedBy, [])
  const log = config.optionErrors.join('\n')
  t.match(log, /entity_denylist: item 2 \(" "\)/, 'the log says which item')
  t.match(log, /entity_allowlist: item 2 \(42\)/)
  t.match(log, /confirm_domains: item 2 \("garage door"\)/)
  t.match(config.optionProblems.find(p => p.option === 'entity_denylist'), { item: 2, value: '" "', reason: 'an empty pattern', effect: 'item_dropped' })
})

t.test('a safety list that cannot be read turns writes off until it is fixed', async t => {
  for (const [option, value] of [
    ['entity_denylist', 'lock.*'],
    ['entity_denylist', null],
    ['entity_allowlist', { light: true }],
    ['entity_allowlist', [' ', '']],
    ['service_denylist', 7],
    ['confirm_domains', 'lock'],
    ['entity_denylist', Array.from({ length: 501 }, (_, i) => `lock.door_${i}`)]
  ] as Array<[string, unknown]>) {
    const dir = tempDataDir(t, { allow_write: true, allow_config_write: true, [option]: value })
    const config = loadConfig({ DATA_DIR: dir })
    t.equal(config.options.allow_write, false, `${option}=${JSON.stringify(value).slice(0, 30)}: allow_write off`)
    t.equal(config.options.allow_config_write, false, 'allow_config_write off')
    t.same(config.writesBlockedBy, [option])
    t.match(config.optionErrors.join('\n'), new RegExp(`${option}: .*writes are off`))
    t.match(config.optionProblems.at(-1), { option, effect: 'writes_off' })
  }
})

t.test('an unreadable safety list keeps writes off even when the demo turns allow_write on', async t => {
  const dir = tempDataDir(t, { entity_denylist: 'lock.*' as never })
  const config = loadConfig({ DATA_DIR: dir }, { allow_write: true })
  t.equal(config.options.allow_write, false)
})

t.test('filter_reads that cannot be read is on: hiding fails closed too', async t => {
  const dir = tempDataDir(t, { filter_reads: 'yes' as never, entity_denylist: ['lock.*'] })
  const config = loadConfig({ DATA_DIR: dir })
  t.equal(config.options.filter_reads, true)
  t.match(config.optionErrors.join(), /filter_reads: .*using true, the strictest value/)
})

t.test('confirm_with that cannot be read is owner: the strictest value, as filter_reads is on', async t => {
  const dir = tempDataDir(t, { confirm_with: 'me' as never, filter_reads: 1 as never })
  const config = loadConfig({ DATA_DIR: dir })
  t.equal(config.options.confirm_with, 'owner')
  t.equal(config.options.filter_reads, true)
  t.match(config.optionProblems.find(p => p.option === 'confirm_with'), { effect: 'strictest_used', used: 'owner' })
  t.match(config.optionErrors.join('\n'), /option confirm_with: .*; using owner, the strictest value, until it is fixed/)
})

t.test('a pattern that can match no id, or whose { } groups multiply past 64 patterns, is dropped alone', async t => {
  // Seventeen {a,b} groups make 100,000 patterns (Minimatch's cap): 400 MB and seconds on the first write or
  // filtered read. A comma or brace outside a group is a literal no id holds: the item silently denied nothing.
  const bomb = '{a,b}'.repeat(17)
  const dir = tempDataDir(t, {
    allow_write: true,
    entity_denylist: ['lock.*,alarm_control_panel.*', bomb, 'cover.garage_{door}', '!switch.*', 'light.{kitchen,hall}_*', 'fan.[!a]*'],
    service_denylist: ['hassio.*', 'lock.{unlock,open']
  })
  const started = performance.now()
  const config = loadConfig({ DATA_DIR: dir })
  t.ok(performance.now() - started < 1000, 'read at once')
  t.same(config.options.entity_denylist, ['light.{kitchen,hall}_*', 'fan.[!a]*'], 'the usable patterns kept')
  t.same(config.options.service_denylist, ['hassio.*'])
  t.equal(config.options.allow_write, true, 'dropped items alone leave writes on')
  t.same(config.optionProblems.filter(p => p.option === 'entity_denylist').map(p => [p.item, p.effect]), [[1, 'item_dropped'], [2, 'item_dropped'], [3, 'item_dropped'], [4, 'item_dropped']])
  t.match(config.optionErrors.join('\n'), /entity_denylist: item 1 \("lock\.\*,alarm_control_panel\.\*"\): .*one pattern per item/)
  t.match(config.optionErrors.join('\n'), /entity_denylist: item 2 .*more than 64 patterns/)
})

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

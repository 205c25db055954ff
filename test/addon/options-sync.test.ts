import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import t from 'tap'
import { startAddonTasks } from '../../src/addon/index.ts'
import { announceDiscovery } from '../../src/addon/discovery.ts'
import { syncAddonOptions, type SupervisorApi } from '../../src/addon/options-sync.ts'
import { resolvePrimaryToken } from '../../src/auth/bootstrap.ts'
import { HaHttpFailedError } from '../../src/errors.ts'
import { HttpClient, SupervisorClient } from '../../src/ha/http.ts'
import { createLogger, SecretScrubber } from '../../src/logger.ts'
import type { DemoHome } from '../../demo/index.ts'
import { startHome, tempDataDir } from '../helper.ts'

const FAST = { baseMs: 10, maxMs: 40, attempts: 8 }

function setup (home: DemoHome, token = home.supervisorToken): { supervisor: SupervisorClient, lines: string[], log: ReturnType<typeof createLogger> } {
  const lines: string[] = []
  // No scrubber secrets: the test checks that the code itself only logs masked tokens.
  const log = createLogger({ level: 'debug', scrubber: new SecretScrubber(), write: line => { lines.push(line) } })
  const supervisor = new SupervisorClient(new HttpClient({ baseUrl: home.supervisorUrl, token, log }))
  return { supervisor, lines, log }
}

t.test('first start: generates the token, stores it 0600, posts it through a Supervisor that answers 502 at first', async t => {
  const home = await startHome(t)
  const dataDir = tempDataDir(t)
  const { supervisor, lines, log } = setup(home)
  const primary = await resolvePrimaryToken({ option: '', envToken: undefined, dataDir, log })
  t.equal(primary.source, 'generated')
  t.equal(statSync(join(dataDir, 'token')).mode & 0o777, 0o600, 'token file is private')
  t.same(readdirSync(dataDir).filter(f => f.endsWith('.tmp')), [], 'no temporary file left behind')

  home.faults.supervisorFailures(3, 502)
  const result = await syncAddonOptions({ supervisor, token: primary.token, source: primary.source, log, retry: FAST })
  t.equal(result.status, 'updated')
  const stored = home.addonOptions()
  t.equal(stored.api_token, primary.token, 'the generated token is now in the add-on options')
  t.same(stored.confirm_domains, ['lock', 'alarm_control_panel'], 'a missing option got its default')
  t.equal(stored.enable_sessions, false)
  t.equal(stored.allow_write, false, 'existing values are kept')
  t.ok(lines.some(l => l.includes('retrying the options update')), 'the retries are logged')
  const all = lines.join('')
  t.notOk(all.includes(primary.token), 'the full token never reaches the log')
  t.ok(all.includes(primary.token.slice(0, 8)), 'a masked prefix is logged')

  // Second start: the file token is reused and the options already hold it: nothing is posted.
  const again = await resolvePrimaryToken({ option: '', envToken: undefined, dataDir, log })
  t.equal(again.token, primary.token)
  t.equal(again.source, 'file')
  const second = await syncAddonOptions({ supervisor, token: again.token, source: again.source, log, retry: FAST })
  t.same(second, { status: 'unchanged' })
})

t.test('a token the user set in the meantime is never overwritten', async t => {
  const home = await startHome(t)
  const { supervisor, log } = setup(home)
  let posts = 0
  // The user saves their own token while our first POST is in flight, and that POST fails with a 502.
  const racing: SupervisorApi = {
    call: async <T>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> => {
      if (method === 'POST') {
        posts++
        if (posts === 1) {
          home.setAddonOptions({ ...home.addonOptions(), api_token: 'the-users-own-token-0123456789' })
          throw new HaHttpFailedError(`POST ${path}`, 502, 'Bad Gateway')
        }
      }
      return await supervisor.call<T>(method, path, body)
    }
  }
  const result = await syncAddonOptions({ supervisor: racing, token: 'generated-token-abcdefghijklmnop', source: 'generated', log, retry: FAST })
  t.equal(result.status, 'user_token_kept')
  t.equal(home.addonOptions().api_token, 'the-users-own-token-0123456789', 'the user\'s token survived')
  t.equal(home.addonOptions().filter_reads, false, 'missing defaults were still filled in')
})

t.test('clearing api_token never brings back an older token than the one in use', async t => {
  const home = await startHome(t)
  const dataDir = tempDataDir(t)
  const { supervisor, log, lines } = setup(home)
  /** One start of the add-on with what the options hold now: the token resolved, then written back. */
  const start = async (): Promise<string> => {
    const option = home.addonOptions().api_token
    const primary = await resolvePrimaryToken({ option: typeof option === 'string' ? option : '', envToken: undefined, dataDir, log })
    await syncAddonOptions({ supervisor, token: primary.token, source: primary.source, log, retry: FAST })
    return primary.token
  }
  const first = await start()
  t.equal(home.addonOptions().api_token, first, 'first start: generated and written into the options')

  // Clearing the add-on's own token keeps it: it is the one in use, not an older one.
  home.setAddonOptions({ ...home.addonOptions(), api_token: '' })
  t.equal(await start(), first, 'the add-on\'s own token comes back after a clear')

  // The owner types a token of their own (the generated one leaked), restarts, then clears the field.
  const typed = 'the-owners-own-token-0123456789'
  home.setAddonOptions({ ...home.addonOptions(), api_token: typed })
  t.equal(await start(), typed)
  home.setAddonOptions({ ...home.addonOptions(), api_token: '' })
  const after = await start()
  t.not(after, first, 'the older, generated token does not come back')
  t.not(after, typed, 'nor the typed one')
  t.equal(after.length, 43, 'a new generated token (32 bytes, base64url)')
  t.equal(readFileSync(join(dataDir, 'token'), 'utf8').trim(), after, 'DATA_DIR/token holds the new one')
  t.equal(home.addonOptions().api_token, after, 'and so do the options')
  t.notOk(lines.join('').includes(first), 'no token in clear in the log')
})

t.test('a token from the option or the environment is the user\'s: never written back', async t => {
  const home = await startHome(t)
  const { supervisor, log } = setup(home)
  home.setAddonOptions({ ...home.addonOptions(), enable_sessions: true, filter_reads: false, entity_allowlist: [], entity_denylist: [], service_denylist: [], confirm_domains: [], confirm_with: 'assistant', public_url: '', tool_list: 'core', allow_addon_control: false })
  const result = await syncAddonOptions({ supervisor, token: 'from-env-token-0123456789abcdef', source: 'env', log, retry: FAST })
  t.same(result, { status: 'unchanged' })
  t.equal(home.addonOptions().api_token, '')
  t.same(home.addonOptions().service_denylist, [], 'a value the user emptied is not reset')
})

t.test('a refused Supervisor token is not retried', async t => {
  const home = await startHome(t)
  const { supervisor, log } = setup(home, 'wrong-supervisor-token')
  const started = Date.now()
  await t.rejects(syncAddonOptions({ supervisor, token: 'generated-token-abcdefghijklmnop', source: 'generated', log, retry: { baseMs: 2000, attempts: 5 } }), { code: 'HAMCP_HA_HTTP_FAILED', message: /HTTP 403/ })
  t.ok(Date.now() - started < 1500, 'failed at once')
})

t.test('discovery announces the MCP URL on the add-on hostname, without the token', async t => {
  const home = await startHome(t)
  const { supervisor, log } = setup(home)
  home.faults.supervisorFailures(1, 503)
  const announced = await announceDiscovery({ supervisor, mcpPort: 9583, log, retry: FAST })
  t.equal(announced.url, 'http://local-ha-mcp:9583/mcp')
  t.match(home.discoveries, [{ service: 'mcp', config: { url: 'http://local-ha-mcp:9583/mcp' } }])
  t.same(Object.keys(home.discoveries[0]?.config as object), ['url'], 'nothing but the URL is published')
})

t.test('background tasks never reject and stop promptly on shutdown', async t => {
  const home = await startHome(t)
  const { supervisor, log, lines } = setup(home)
  home.faults.supervisorFailures(1000, 502)
  const primary = { token: 'generated-token-abcdefghijklmnop', source: 'generated' as const }
  const tasks = startAddonTasks({ supervisor, primary, mcpPort: 9583, log, retry: { baseMs: 5_000, attempts: 50 } })
  const started = Date.now()
  tasks.stop()
  const outcome = await tasks.done
  t.same(outcome, { options: undefined, discovery: undefined })
  t.ok(Date.now() - started < 1000, 'pending retries ended at once')
  t.notOk(lines.some(l => l.includes('could not')), 'no warning for a shutdown')

  home.faults.supervisorFailures(0)
  const ok = await startAddonTasks({ supervisor, primary, mcpPort: 9583, log, retry: FAST }).done
  t.equal(ok.options?.status, 'updated')
  t.equal(ok.discovery?.url, 'http://local-ha-mcp:9583/mcp')
})

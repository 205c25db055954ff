import { mkdirSync } from 'node:fs'
import { createServer, request as httpRequest, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import t from 'tap'
import { loadToolCatalog, ToolCatalog } from '../../src/mcp/runtime/registry.ts'
import { callTool, connectClient, startHome, startServer, type ServerOptions, type TestServer, TEST_TOKEN } from '../helper.ts'
import type { Page } from 'playwright-core'
import type { DemoHome } from '../../demo/index.ts'
import { launchChromium } from './_browser.ts'
import { startIngress } from '../ingress/_ingress.ts'
import { TOOLS_DIR } from '../../app/tools-dir.ts'

const PREFIX = '/api/hassio_ingress/abc'
const OUTPUT = join(import.meta.dirname, '../../test-output')

/** What Home Assistant does in front of the add-on: strips the ingress prefix and says what it was. */
type Test = { teardown: (fn: () => unknown) => void }

async function startIngressProxy (t: Test, target: number): Promise<string> {
  const proxy: Server = createServer((req, res) => {
    const url = req.url ?? '/'
    if (!url.startsWith(`${PREFIX}/`)) { res.writeHead(404).end('not an ingress path'); return }
    const upstream = httpRequest({
      host: '127.0.0.1',
      port: target,
      method: req.method,
      path: url.slice(PREFIX.length),
      headers: { ...req.headers, 'x-ingress-path': PREFIX, 'x-forwarded-host': req.headers.host ?? '' }
    }, answer => {
      res.writeHead(answer.statusCode ?? 502, answer.headers)
      answer.pipe(res)
    })
    upstream.on('error', () => { res.writeHead(502).end() })
    req.pipe(upstream)
  })
  await new Promise<void>(resolve => proxy.listen(0, '127.0.0.1', resolve))
  t.teardown(() => new Promise<void>(resolve => { proxy.closeAllConnections(); proxy.close(() => resolve()) }))
  return `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`
}

async function entityAndWriteTools (): Promise<ToolCatalog> {
  return await loadToolCatalog(TOOLS_DIR)
}

/** The panel under the ingress prefix in a fresh Chromium page, with every script error and failed request collected. */
async function openPanel (t: Test, options: ServerOptions['options'], clipboard = false): Promise<{ home: DemoHome, server: TestServer, catalog: ToolCatalog, proxy: string, page: Page, failures: string[] }> {
  const home = await startHome(t)
  const catalog = await entityAndWriteTools()
  const server = await startServer(t, { home, options, app: { catalog } })
  const ingress = await startIngress(t, server, [], catalog)
  await ingress.listen({ port: 0, host: '127.0.0.1' })
  const proxy = await startIngressProxy(t, (ingress.server.address() as AddressInfo).port)
  // Debian's chromium when present, else the one inside @sparticuz/chromium: no system package needed.
  const browser = await launchChromium(t)
  const context = await browser.newContext({ viewport: { width: 1100, height: 900 }, colorScheme: 'light' })
  t.teardown(() => context.close())
  if (clipboard) await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: proxy })
  const page = context.pages()[0] ?? await context.newPage()
  const failures: string[] = []
  page.on('pageerror', err => failures.push(err.message))
  page.on('response', response => { if (response.status() >= 400) failures.push(`${response.status()} ${response.url()}`) })
  return { home, server, catalog, proxy, page, failures }
}

t.test('the ingress page in headless Chromium, under the ingress prefix', async t => {
  const { home, server, catalog, proxy, page, failures } = await openPanel(t, { allow_write: true }, true)

  await page.goto(`${proxy}${PREFIX}/`)
  await page.getByTestId('connection').filter({ hasText: 'WebSocket connected' }).waitFor()
  t.equal(await page.getByTestId('entities').textContent(), String(home.entityIds().length), 'live entity count')
  t.equal(await page.getByTestId('version').textContent(), `Version ${server.app.services.config.version}`)
  t.equal(await page.getByTestId('ha-state').textContent(), 'Connected')
  const writeRow = await page.locator('#tools tbody tr').filter({ hasText: 'allow_write' }).textContent()
  t.match(writeRow, new RegExp(`^Controlling devices${catalog.tools.filter(tool => tool.definition.kind === 'write').length} of \\d+Allow writes: on allow_write$`), 'write tools exposed, with their gate in words')
  mkdirSync(OUTPUT, { recursive: true })
  await page.screenshot({ path: join(OUTPUT, 'ingress-overview.png'), fullPage: true })

  // Connect: masked, revealed, copied.
  await page.getByRole('tab', { name: 'Connect' }).click()
  await page.getByTestId('token').filter({ hasText: '********' }).waitFor()
  t.equal(await page.getByTestId('token').textContent(), `${server.token.slice(0, 8)}********`, 'masked until revealed')
  t.notOk((await page.content()).includes(server.token), 'the full token is nowhere in the page yet')
  t.match(await page.getByTestId('mcp-url').textContent(), /^http:\/\/127\.0\.0\.1:\d+\/mcp$/)
  await page.getByRole('button', { name: 'Reveal' }).click()
  await page.getByTestId('token').filter({ hasText: server.token }).waitFor()
  await page.getByRole('button', { name: 'Copy token' }).click()
  await page.getByTestId('copy-status').filter({ hasText: 'Copied' }).waitFor()
  t.equal(await page.evaluate('navigator.clipboard.readText()'), server.token, 'the copy button put the token on the clipboard')
  await page.getByRole('button', { name: 'Hide' }).click()
  await page.getByTestId('token').filter({ hasText: '********' }).waitFor()
  await page.screenshot({ path: join(OUTPUT, 'ingress-connect.png'), fullPage: true })

  // A real write through the MCP endpoint shows up in the audit on the Activity tab.
  const light = home.entityIds().find(id => id.startsWith('light.')) as string
  const client = await connectClient(t, server, TEST_TOKEN, { inject: false })
  const write = await callTool(client, 'ha_call_service', { domain: 'light', service: 'turn_on', target: { entity_id: light } })
  t.notOk(write.isError, write.text)
  await page.getByRole('tab', { name: 'Activity' }).click()
  const row = page.getByTestId('audit').locator('tbody tr').filter({ hasText: 'light.turn_on' })
  await row.waitFor()
  t.match(await row.textContent(), /ha_call_service.*primary token.*allowed.*light\.turn_on/)
  t.ok((await row.textContent())?.includes(light), 'the entity is named')
  await page.locator('#usage-tools tbody tr').filter({ hasText: 'ha_call_service' }).waitFor()
  await page.locator('#usage-tokens tbody tr').filter({ hasText: 'primary token' }).waitFor()
  await page.locator('#filter-outcome').selectOption('refused')
  await row.waitFor({ state: 'detached' })
  await page.locator('#filter-outcome').selectOption('')
  await row.waitFor()
  await page.screenshot({ path: join(OUTPUT, 'ingress.png'), fullPage: true })
  await page.emulateMedia({ colorScheme: 'dark' })
  await page.screenshot({ path: join(OUTPUT, 'ingress-dark.png'), fullPage: true })

  // Tokens: create through the form (shown once), then revoke.
  await page.getByRole('tab', { name: 'Tokens' }).click()
  await page.getByLabel('Name').fill('living room tablet')
  await page.getByLabel('services level').selectOption('write')
  await page.getByLabel('Never these entities').fill('lock.*')
  await page.getByRole('button', { name: 'Create token' }).click()
  const secret = (await page.getByTestId('new-token').filter({ hasText: /\S{20,}/ }).textContent()) ?? ''
  const tokenRow = page.locator('#token-list tbody tr').filter({ hasText: 'living room tablet' })
  t.match(await tokenRow.textContent(), /Devices and states: read.*Device control: write/)
  t.match(await tokenRow.textContent(), /never lock\.\*/)
  // Read before the token is first used: the page reloads the list every 5 s, and a use shows there.
  t.equal(await tokenRow.locator('td[data-label="Last used"]').textContent(), 'never', 'listed before its first use')
  t.notOk((await tokenRow.textContent())?.includes(secret), 'the list shows only the prefix')
  t.match(server.app.services.tokens.verify(secret), { name: 'living room tablet' }, 'the token shown works')
  await page.getByRole('tab', { name: 'Tokens' }).click()
  await tokenRow.locator('td[data-label="Last used"]').filter({ hasNotText: 'never' }).waitFor()
  page.once('dialog', dialog => { dialog.accept().catch(() => {}) })
  await tokenRow.getByRole('button', { name: 'Revoke' }).click()
  await tokenRow.waitFor({ state: 'detached' })
  t.equal(server.app.services.tokens.verify(secret), undefined, 'revoked')

  t.same(failures, [], 'no script error and no failed request under the prefix')
})

t.test('confirm_with: owner: the Overview shows the call waiting for the owner, and Approve runs it', async t => {
  const { home, server, proxy, page, failures } = await openPanel(t, { allow_write: true, confirm_with: 'owner' })

  const lock = 'lock.front_door_lock'
  home.setState(lock, 'locked')
  const client = await connectClient(t, server, TEST_TOKEN, { inject: false })
  const asked = await callTool(client, 'ha_call_service', { domain: 'lock', service: 'unlock', target: { entity_id: lock } })
  t.equal(asked.json.awaiting_owner, true, asked.text)

  await page.goto(`${proxy}${PREFIX}/`)
  const row = page.getByTestId('approval-list').locator('tbody tr').filter({ hasText: 'lock.unlock' })
  await row.waitFor()
  t.match(await row.textContent(), /primary token.*ha_call_service.*lock\.unlock.*lock\.front_door_lock/, 'who asked and exactly what will be done')
  mkdirSync(OUTPUT, { recursive: true })
  await page.screenshot({ path: join(OUTPUT, 'ingress-approval.png'), fullPage: true })
  t.equal(home.getState(lock)?.state, 'locked', 'nothing ran while it waits')
  await row.getByRole('button', { name: 'Approve' }).click()
  await page.getByTestId('approval-status').filter({ hasText: 'Approved: lock.unlock was done.' }).waitFor()
  await row.waitFor({ state: 'detached' })
  t.equal(home.getState(lock)?.state, 'unlocked', 'the owner\'s approval unlocked it')
  t.equal(server.app.services.policy.audit.recent(5).find(e => e.outcome === 'confirmation_given')?.via, 'owner_panel')
  t.same(failures, [], 'no script error and no failed request')
})

t.test('an option that could not be used shows in red on the Overview; writes off says so', async t => {
  const { proxy, page } = await openPanel(t, { allow_write: true, entity_denylist: 'lock.*' as never, confirm_domains: ['lock', 'garage door'] })
  await page.goto(`${proxy}${PREFIX}/`)
  const box = page.getByTestId('option-problems')
  await box.waitFor({ state: 'visible' })
  const text = await box.textContent() ?? ''
  t.match(text, /Writes are off/)
  t.match(text, /entity_denylist: not a list \(a string\)/)
  t.match(text, /confirm_domains item 2 \("garage door"\)/)
  t.equal(await box.evaluate(node => (node.ownerDocument.defaultView as unknown as { getComputedStyle: (n: unknown) => { color: string } }).getComputedStyle(node).color), 'rgb(198, 40, 40)', 'in red')
  const writeRow = await page.locator('#tools tbody tr').filter({ hasText: 'allow_write' }).textContent()
  t.match(writeRow, /Allow writes: off/)
})

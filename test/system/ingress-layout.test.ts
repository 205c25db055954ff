import { mkdirSync, readFileSync } from 'node:fs'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import t from 'tap'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { loadToolCatalog } from '../../src/mcp/runtime/registry.ts'
import { callTool, connectClient, startHome, startServer, TEST_TOKEN } from '../helper.ts'
import { launchChromium } from './_browser.ts'
import { authorizeUrl, codeFor, exchange, pkce, register } from '../oauth/_oauth.ts'
import { startIngress } from '../ingress/_ingress.ts'
import { TOOLS_DIR } from '../../app/tools-dir.ts'

/** Screenshots land here (git-ignored): look at them after a change to the page. */
const OUTPUT = join(import.meta.dirname, '../../test-output/layout')
const I18N = join(import.meta.dirname, '../../ingress/public/i18n')
const TABS = ['overview', 'connect', 'activity', 'sign-ins', 'tokens'] as const
const WIDTHS = [390, 1280]
const LANGUAGES = [{ lang: 'en', locale: 'en-US' }, { lang: 'de', locale: 'de-DE' }]

const strings = (lang: string): Record<string, string> => JSON.parse(readFileSync(join(I18N, `${lang}.json`), 'utf8')) as Record<string, string>

// Measured in the page (browser code, kept as text: this project's TypeScript has no DOM types).
/** What sticks out: the document wider than the viewport, or a table, pre, card or control wider than its parent. */
const OVERFLOW = `(() => {
  const outside = []
  for (const node of document.querySelectorAll('table, pre, .card, code, input, select, button, label')) {
    const box = node.getBoundingClientRect()
    const parent = node.parentElement && node.parentElement.getBoundingClientRect()
    if (box.width === 0 || !parent) continue
    if (box.right > parent.right + 1 || box.right > window.innerWidth + 1) outside.push(node.tagName.toLowerCase() + '#' + (node.id || node.className || '?') + ' ' + Math.round(box.right) + ' > ' + Math.round(Math.min(parent.right, window.innerWidth)))
  }
  // Text wider than its own box (nowrap, a long word): cut off by a card that hides its overflow.
  for (const node of document.querySelectorAll('td, th, label, p, h1, h2, h3, li, dd, dt, summary, .card')) {
    if (node.clientWidth > 0 && node.scrollWidth > node.clientWidth + 1) outside.push(node.tagName.toLowerCase() + '#' + (node.id || node.className || '?') + ' text ' + node.scrollWidth + ' > ' + node.clientWidth + ': ' + node.textContent.trim().slice(0, 40))
  }
  return { scrollWidth: document.documentElement.scrollWidth, viewport: window.innerWidth, outside }
})()`

/** Placeholders that do not fit their input, measured in the input's own font. */
const CUT_PLACEHOLDERS = `(() => {
  const canvas = document.createElement('canvas').getContext('2d')
  const cut = []
  for (const input of document.querySelectorAll('input[placeholder]')) {
    if (input.offsetParent === null) continue
    const style = getComputedStyle(input)
    canvas.font = style.fontWeight + ' ' + style.fontSize + ' ' + style.fontFamily
    const room = input.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight)
    if (canvas.measureText(input.placeholder).width > room) cut.push(input.name + ': "' + input.placeholder + '" in ' + room + 'px')
  }
  return cut
})()`

async function overflow (page: Page): Promise<{ scrollWidth: number, viewport: number, outside: string[] }> {
  return await page.evaluate(OVERFLOW) as { scrollWidth: number, viewport: number, outside: string[] }
}

async function truncatedPlaceholders (page: Page): Promise<string[]> {
  return await page.evaluate(CUT_PLACEHOLDERS) as string[]
}

// Eight page loads of five tabs each, screenshots included: longer than the suite's 90 s per file.
t.setTimeout(300_000)

t.test('every tab of the panel and the consent page fit a 390 px phone and a desktop, light and dark, in English and German', async t => {
  const home = await startHome(t)
  const catalog = await loadToolCatalog(TOOLS_DIR)
  const server = await startServer(t, { home, options: { allow_write: true }, app: { catalog } })
  const ingress = await startIngress(t, server, [], catalog)
  await ingress.listen({ port: 0, host: '127.0.0.1' })
  const panelUrl = `http://127.0.0.1:${(ingress.server.address() as AddressInfo).port}/`
  const browser: Browser = await launchChromium(t)
  mkdirSync(OUTPUT, { recursive: true })
  const failures: string[] = []

  // One context per language, kept open: the packaged Chromium runs single-process and a closed last
  // context takes the browser with it. Width and colour scheme change on the page itself.
  const contexts = new Map<string, BrowserContext>()
  const open = async (opts: { width: number, lang: string, locale: string, dark: boolean }): Promise<Page> => {
    let context = contexts.get(opts.locale)
    if (!context) {
      context = await browser.newContext({ locale: opts.locale })
      context.setDefaultTimeout(10_000)
      contexts.set(opts.locale, context)
    }
    const page = await context.newPage()
    await page.setViewportSize({ width: opts.width, height: 844 })
    await page.emulateMedia({ colorScheme: opts.dark ? 'dark' : 'light' })
    page.on('pageerror', err => failures.push(err.message))
    await page.goto(panelUrl)
    await page.getByTestId('connection').filter({ hasText: strings(opts.lang)['connection.connected'] }).waitFor()
    return page
  }
  const tab = async (page: Page, name: string): Promise<void> => {
    await page.locator(`[data-tab="${name}"]`).click()
    await page.locator(`#tab-${name}`).waitFor()
  }

  // Before anything exists: the empty states, and no "0" next to Sign-ins.
  {
    const page = await open({ width: 390, lang: 'en', locale: 'en-US', dark: false })
    await page.locator('#tools tbody tr').first().waitFor()
    t.notOk(await page.getByTestId('sign-in-count').isVisible(), 'no badge while nothing waits')
    await tab(page, 'tokens')
    await page.getByTestId('tokens-empty').waitFor()
    t.notOk(await page.locator('#token-list').isVisible(), 'no empty token table, an explanation instead')
    await page.screenshot({ path: join(OUTPUT, 'empty-tokens-390-en.png'), fullPage: true })
    await tab(page, 'sign-ins')
    await page.getByTestId('sign-ins-empty').waitFor()
    await page.close()
  }

  // Something on every tab: a write in the audit, a named token, a signed-in app and a waiting sign-in.
  const client = await connectClient(t, server, TEST_TOKEN, { inject: false })
  const light = home.entityIds().find(id => id.startsWith('light.')) as string
  t.notOk((await callTool(client, 'ha_call_service', { domain: 'light', service: 'turn_on', target: { entity_id: light } })).isError)
  await server.app.services.tokens.create({ name: 'kitchen tablet', levels: { entities: 'read', services: 'write' }, entity_denylist: ['lock.*'] })
  t.equal((await exchange(server.url, await codeFor(server.url, server.token))).status, 200, 'an app signed in')
  const redirectUri = 'http://127.0.0.1:33333/callback'
  const registered = await (await register(server.url, { redirect_uris: [redirectUri], token_endpoint_auth_method: 'none', grant_types: ['authorization_code'], client_name: 'Living room assistant' })).json() as { client_id: string }
  const consentUrl = authorizeUrl(server.url, { clientId: registered.client_id, redirectUri, pkce: pkce() }, { scope: 'read write camera' })
  const opened = await fetch(consentUrl, { redirect: 'manual' })
  t.equal(opened.status, 200, 'the sign-in waits for approval')

  for (const { lang, locale } of LANGUAGES) {
    const text = strings(lang)
    for (const width of WIDTHS) {
      for (const dark of [false, true]) {
        const name = `${width}-${lang}-${dark ? 'dark' : 'light'}`
        const page = await open({ width, lang, locale, dark })
        t.equal(await page.evaluate('document.documentElement.lang'), lang, `${name}: the page says its language`)
        t.equal(await page.locator('[data-tab="overview"]').textContent(), text['tab.overview'], `${name}: the tabs are in the browser's language`)
        // Opening the consent page in the browser below adds sign-ins of its own.
        await page.getByTestId('sign-in-count').filter({ hasText: /^[1-9]\d*$/ }).waitFor()
        for (const name2 of TABS) {
          await tab(page, name2)
          if (name2 === 'overview') await page.locator('#options tbody tr').first().waitFor()
          if (name2 === 'connect') await page.locator('#clients .client').first().waitFor()
          if (name2 === 'activity') await page.getByTestId('audit').locator('tbody tr').first().waitFor()
          if (name2 === 'sign-ins') await page.getByTestId('sign-in-list').locator('tbody tr').first().waitFor()
          if (name2 === 'tokens') await page.locator('#token-list tbody tr').first().waitFor()
          const shot = join(OUTPUT, `${name2}-${name}.png`)
          await page.screenshot({ path: shot, fullPage: true })
          const measured = await overflow(page)
          t.ok(measured.scrollWidth <= measured.viewport, `${name} ${name2}: no horizontal scrolling (${measured.scrollWidth} <= ${measured.viewport})`)
          t.same(measured.outside, [], `${name} ${name2}: nothing sticks out of its box`)
          t.same(await truncatedPlaceholders(page), [], `${name} ${name2}: placeholders fit their inputs`)
        }
        if (width === 390 && !dark) {
          // The short code stays on one line.
          await tab(page, 'sign-ins')
          const code = page.getByTestId('sign-in-list').locator('.short-code').first()
          const lines = await code.evaluate(node => (node as unknown as { getClientRects: () => { length: number } }).getClientRects().length)
          t.ok(lines <= 1, `${name}: the short code does not wrap (${lines} lines)`)
          await tab(page, 'overview')
          t.match(await page.locator('#options tbody tr', { hasText: 'public_url' }).textContent(), text['common.none'], `${name}: an empty public_url says (none)`)
          t.match(await page.locator('#tools tbody tr').first().textContent(), text['overview.alwaysOn'], `${name}: read tools are "always on", in words`)
          await tab(page, 'tokens')
          t.match(await page.getByTestId('token-levels').locator('tr', { hasText: 'services' }).textContent(), text['categoryHelp.services'], `${name}: each category says what it covers`)
          await page.getByTestId('levels-help').locator('summary').click()
          t.match(await page.getByTestId('levels-help').textContent(), text['levelHelp.manage'], `${name}: each level is explained`)
          await page.screenshot({ path: join(OUTPUT, `tokens-help-${name}.png`), fullPage: true })
          // Which tools each level covers, opened; and the signed-in app as a card (close-ups to look at).
          const services = page.getByTestId('token-levels').locator('tr', { hasText: 'services' })
          await services.locator('details.covers summary').click()
          t.match(await services.locator('details.covers').textContent(), /ha_call_service/, `${name}: the services category lists its tools`)
          await page.getByTestId('token-levels').screenshot({ path: join(OUTPUT, `token-levels-${name}.png`) })
          await page.getByTestId('grant-list').screenshot({ path: join(OUTPUT, `grant-list-${name}.png`) })
          t.same((await overflow(page)).outside, [], `${name}: nothing sticks out with the tool lists open`)
        }
        await page.close()
      }
    }

    // The consent page, in the language the browser asks for.
    for (const width of WIDTHS) {
      for (const dark of [false, true]) {
        const name = `consent-${width}-${lang}-${dark ? 'dark' : 'light'}`
        const page = await (contexts.get(locale) as BrowserContext).newPage()
        await page.setViewportSize({ width, height: 844 })
        await page.emulateMedia({ colorScheme: dark ? 'dark' : 'light' })
        await page.goto(consentUrl)
        t.equal(await page.evaluate('document.documentElement.lang'), lang, `${name}: in the browser's language`)
        await page.screenshot({ path: join(OUTPUT, `${name}.png`), fullPage: true })
        const measured = await overflow(page)
        t.ok(measured.scrollWidth <= measured.viewport, `${name}: no horizontal scrolling (${measured.scrollWidth} <= ${measured.viewport})`)
        t.same(measured.outside, [], `${name}: nothing sticks out`)
        if (dark) {
          const background = await page.evaluate('getComputedStyle(document.querySelector(\'[data-testid="api-token"]\')).backgroundColor') as string
          const channels = (background.match(/\d+/g) ?? []).slice(0, 3).map(Number)
          t.ok(channels.every(c => c < 100), `${name}: the token field is dark too (${background})`)
        }
        await page.close()
      }
    }
  }

  // Answering in the panel takes a sign-in off the pending list, and the badge goes with the last one.
  // (The consent pages opened above may be sign-ins of their own: approve the first, deny any others.)
  const page = await open({ width: 390, lang: 'en', locale: 'en-US', dark: false })
  await tab(page, 'sign-ins')
  const rows = page.getByTestId('sign-in-list').locator('tbody tr')
  await rows.first().waitFor()
  const waiting = await rows.count()
  const code = await rows.first().locator('.short-code').textContent() ?? ''
  await rows.first().getByRole('button', { name: strings('en')['signIns.approve'] }).click()
  await rows.filter({ hasText: code }).waitFor({ state: 'detached' })
  t.equal(await rows.count(), waiting - 1, 'the approved sign-in left the pending list')
  if (waiting > 1) t.equal(await page.getByTestId('sign-in-count').textContent(), String(waiting - 1), 'the badge counts what still waits')
  for (let left = waiting - 1; left > 0; left--) {
    await rows.first().getByRole('button', { name: strings('en')['signIns.deny'] }).click()
    await page.waitForFunction(`document.querySelectorAll('[data-testid="sign-in-list"] tbody tr').length === ${left - 1}`)
  }
  await page.getByTestId('sign-ins-empty').waitFor()
  t.notOk(await page.getByTestId('sign-in-count').isVisible(), 'no badge once every sign-in is answered')
  await page.screenshot({ path: join(OUTPUT, 'sign-ins-answered-390-en.png'), fullPage: true })

  t.same(failures, [], 'no script error')
})

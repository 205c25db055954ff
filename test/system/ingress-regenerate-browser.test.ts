import type { AddressInfo } from 'node:net'
import t from 'tap'
import { rpc, startHome, startServer } from '../helper.ts'
import { launchChromium } from './_browser.ts'
import { startIngress } from '../ingress/_ingress.ts'

/** The Regenerate button of the Connect tab (issue 15 item 14), in the real browser. */

const LIST = { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }

t.test('the Regenerate button in the real browser: confirm, then the page shows the new token and the old one is refused', async t => {
  const home = await startHome(t)
  const server = await startServer(t, { home })
  const ingress = await startIngress(t, server)
  await ingress.listen({ port: 0, host: '127.0.0.1' })
  const browser = await launchChromium(t)
  const page = await browser.newPage()
  await page.goto(`http://127.0.0.1:${(ingress.server.address() as AddressInfo).port}/`)
  await page.getByRole('tab', { name: 'Connect' }).click()
  const dialogs: string[] = []
  // First dismissed: nothing changes.
  const posts: string[] = []
  page.on('request', request => { if (request.method() === 'POST') posts.push(request.url()) })
  const dismissed = new Promise<void>(resolve => page.once('dialog', dialog => { dialogs.push(dialog.message()); dialog.dismiss().then(resolve, resolve) }))
  await page.getByRole('button', { name: 'Regenerate' }).click()
  await dismissed
  t.same(posts, [], 'dismissed: nothing was sent')
  t.equal((await rpc(server.url, LIST, { authorization: `Bearer ${server.token}` })).status, 200, 'dismissed: the token still works')
  page.once('dialog', dialog => { dialogs.push(dialog.message()); dialog.accept().catch(() => {}) })
  await page.getByRole('button', { name: 'Regenerate' }).click()
  await page.getByTestId('copy-status').filter({ hasText: 'old one no longer works' }).waitFor()
  t.match(dialogs, [/current one stops working at once/, /current one stops working at once/])
  const shown = (await page.getByTestId('token').textContent()) ?? ''
  t.equal(shown, server.app.services.tokens.primary(), 'the page shows the new token')
  t.not(shown, server.token)
  t.equal((await rpc(server.url, LIST, { authorization: `Bearer ${server.token}` })).status, 401, 'the old token is refused')
  t.equal((await rpc(server.url, LIST, { authorization: `Bearer ${shown}` })).status, 200, 'the new one works')
})

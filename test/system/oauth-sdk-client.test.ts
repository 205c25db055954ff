import type { AddressInfo } from 'node:net'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import t from 'tap'
import type { Test } from 'tap'
import { callTool, startHome, startServer, type TestServer } from '../helper.ts'
import { startIngress } from '../ingress/_ingress.ts'
import { launchChromium } from './_browser.ts'
import { startCallback } from '../oauth/_callback.ts'
import { MemoryProvider } from '../oauth/_oauth.ts'

/** Counts the HTTP requests the client makes: the round trips of the sign-in. */
function countingFetch (): { fetch: typeof fetch, calls: string[] } {
  const calls: string[] = []
  return {
    calls,
    fetch: async (input, init) => {
      calls.push(`${init?.method ?? 'GET'} ${new URL(input instanceof Request ? input.url : String(input)).pathname}`)
      return await fetch(input, init)
    }
  }
}

async function signInStart (t: Test, server: TestServer): Promise<{ provider: MemoryProvider, transport: StreamableHTTPClientTransport, calls: string[], callback: Awaited<ReturnType<typeof startCallback>>, started: number }> {
  const callback = await startCallback(t)
  const provider = new MemoryProvider(callback.url)
  const counter = countingFetch()
  const started = performance.now()
  const transport = new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), { authProvider: provider, fetch: counter.fetch })
  const client = new Client({ name: 'sdk-oauth-test', version: '1.0.0' })
  await t.rejects(client.connect(transport), { message: /Unauthorized/ }, 'the first connect asks for a sign-in')
  t.ok(provider.authorizationUrl, 'the SDK discovered, registered and built the authorization URL')
  t.equal(provider.authorizationUrl?.searchParams.get('code_challenge_method'), 'S256')
  t.equal(provider.authorizationUrl?.searchParams.get('resource'), `${server.url}/mcp`)
  return { provider, transport, calls: counter.calls, callback, started }
}

async function finish (t: Test, server: TestServer, flow: Awaited<ReturnType<typeof signInStart>>, code: string): Promise<Client> {
  await flow.transport.finishAuth(code)
  t.match(flow.provider.saved, { access_token: /.+/, refresh_token: /.+/, expires_in: 3600, token_type: /bearer/i })
  const client = new Client({ name: 'sdk-oauth-test', version: '1.0.0' })
  const counter = countingFetch()
  await client.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), { authProvider: flow.provider, fetch: counter.fetch }))
  t.teardown(() => client.close())
  const { tools } = await client.listTools()
  t.ok(tools.some(tool => tool.name === 'ha_search_entities'), 'the signed-in client lists the tools')
  const found = await callTool(client, 'ha_search_entities', { query: 'kitchen' })
  t.notOk(found.isError, 'and calls one')
  const elapsed = Math.round(performance.now() - flow.started)
  t.comment(`sign-in figures: ${flow.calls.length + counter.calls.length} client round trips (${[...flow.calls, ...counter.calls].join(', ')}), ${elapsed} ms from the first connect to the first tool answer, the browser step included`)
  return client
}

t.test('the MCP SDK client signs in with the consent page and the API token field', async t => {
  const home = await startHome(t)
  const server = await startServer(t, { home })
  const browser = await launchChromium(t)
  const flow = await signInStart(t, server)

  const page = await browser.newPage()
  const arrived = flow.callback.next()
  await page.goto(flow.provider.authorizationUrl!.href)
  t.equal(await page.getByTestId('client-name').textContent(), 'SDK test client')
  t.match(await page.getByTestId('redirect-host').textContent(), /^127\.0\.0\.1/)
  t.match(await page.getByTestId('short-code').textContent(), /^[A-Z2-9]{4}-[A-Z2-9]{4}$/)

  // A wrong token first: the page says so and nothing is issued.
  await page.getByTestId('api-token').fill('not-the-token')
  await page.getByRole('button', { name: 'Allow' }).click()
  t.match(await page.getByTestId('consent-error').textContent(), /not the add-on's API token/)

  // Narrowed to read only, then allowed with the real token.
  t.notOk(await page.getByTestId('scope-camera').isChecked(), 'the camera is switched off in the options, so not pre-ticked')
  await page.getByTestId('level-read').check()
  await page.getByTestId('api-token').fill(server.token)
  await page.getByRole('button', { name: 'Allow' }).click()
  const query = await arrived
  t.notOk(query.get('error'))
  const client = await finish(t, server, flow, query.get('code') ?? '')
  t.equal(flow.provider.saved?.scope, 'read', 'the consent narrowed the scopes')
  const { tools } = await client.listTools()
  t.ok(tools.length > 0 && tools.every(tool => tool.annotations?.readOnlyHint === true), 'a read grant sees read-only tools only')
  t.match(server.app.services.oauth?.grants(), [{ client_name: 'SDK test client', scopes: ['read'], approved_by: 'primary token' }])
})

t.test('the MCP SDK client signs in approved in the ingress panel; the approving user is audited', async t => {
  const home = await startHome(t)
  const server = await startServer(t, { home, options: { allow_write: true } })
  const ingress = await startIngress(t, server)
  await ingress.listen({ port: 0, host: '127.0.0.1' })
  const panelUrl = `http://127.0.0.1:${(ingress.server.address() as AddressInfo).port}/`
  const browser = await launchChromium(t)
  const flow = await signInStart(t, server)

  const consent = await browser.newPage()
  const arrived = flow.callback.next()
  await consent.goto(flow.provider.authorizationUrl!.href)
  const code = await consent.getByTestId('short-code').textContent()

  // The Supervisor's ingress proxy names the Home Assistant user on every request.
  const panelContext = await browser.newContext({ extraHTTPHeaders: { 'x-remote-user-id': 'a1b2c3', 'x-remote-user-name': 'alice', 'x-remote-user-display-name': 'Alice' } })
  const panel = await panelContext.newPage()
  await panel.goto(panelUrl)
  await panel.getByTestId('sign-in-count').filter({ hasText: '1' }).waitFor()
  await panel.getByRole('tab', { name: /Sign-ins/ }).click()
  const row = panel.getByTestId('sign-in-list').locator('tr', { hasText: code ?? '' })
  t.match(await row.textContent(), /SDK test client/)
  await row.getByRole('button', { name: 'Approve' }).click()

  const query = await arrived
  await finish(t, server, flow, query.get('code') ?? '')
  t.match(server.app.services.oauth?.grants(), [{ client_name: 'SDK test client', approved_by: 'Alice' }])
  t.match(server.app.services.policy.audit.recent(5), [{ tool: 'oauth_sign_in', identity: 'ha_user:a1b2c3', identity_name: 'Alice', outcome: 'allowed' }])

  // The grant is a named token on the Tokens tab: revoking it there ends the client's access at once.
  await panel.getByRole('tab', { name: 'Tokens' }).click()
  const grantRow = panel.getByTestId('grant-list').locator('tr', { hasText: 'SDK test client' })
  await grantRow.waitFor()
  panel.once('dialog', dialog => { dialog.accept().catch(() => {}) })
  await grantRow.getByRole('button', { name: 'Revoke' }).click()
  await panel.getByTestId('grant-list').locator('tr', { hasText: 'SDK test client' }).waitFor({ state: 'detached' })
  const again = await fetch(`${server.url}/mcp`, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: `Bearer ${flow.provider.saved?.access_token ?? ''}` }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }) })
  t.equal(again.status, 401, 'the revoked access token is refused')
})

import { Client as ClientV2, StreamableHTTPClientTransport as TransportV2 } from '@modelcontextprotocol/client'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import t from 'tap'
import type { Test } from 'tap'
import { callTool, startHome, startServer, type TestServer } from '../helper.ts'
import { startIngress } from '../ingress/_ingress.ts'
import { startCallback } from './_callback.ts'
import { documentNetwork, startDocumentServer, type DocumentServer } from './_document-server.ts'
import { authorizeUrl, exchange, MemoryProvider, openConsent, pkce, postForm, register, signInClock } from './_oauth.ts'

async function setup (t: Test, now?: () => number): Promise<{ server: TestServer, documents: DocumentServer }> {
  const documents = await startDocumentServer(t)
  const network = documentNetwork(documents)
  const home = await startHome(t)
  // The one injection: client.test resolves to the loopback document server, which the check lets through.
  const server = await startServer(t, { home, app: { oauth: { now, clientDocuments: { resolve: network.resolve, addressAllowed: network.addressAllowed, ca: network.ca } } } })
  return { server, documents }
}

t.test('an MCP app signs in with a client ID metadata document, through the consent page, to a tool call', async t => {
  const { server, documents } = await setup(t)
  const callback = await startCallback(t)
  const clientId = documents.url('/oauth/mcp-client.json')
  documents.json('/oauth/mcp-client.json', {
    client_id: clientId,
    client_name: 'Document App',
    client_uri: documents.url('/'),
    redirect_uris: [callback.url],
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
    token_endpoint_auth_method: 'none',
    application_type: 'native'
  }, { 'cache-control': 'max-age=600' })

  const metadata = await (await fetch(`${server.url}/.well-known/oauth-authorization-server`)).json() as Record<string, unknown>
  t.match(metadata, { client_id_metadata_document_supported: true, authorization_response_iss_parameter_supported: true, registration_endpoint: /\/oauth\/register$/ }, 'both ways in are advertised')

  const provider = new MemoryProvider(callback.url, { name: 'Document App', clientMetadataUrl: clientId })
  const transport = new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), { authProvider: provider })
  await t.rejects(new Client({ name: 'doc-client', version: '1.0.0' }).connect(transport), { message: /Unauthorized/ })
  t.equal(provider.authorizationUrl?.searchParams.get('client_id'), clientId, 'the SDK used the document URL as client_id, without registering')

  const page = await openConsent(provider.authorizationUrl?.href ?? '')
  t.equal(page.status, 200, page.html.slice(0, 300))
  t.match(page.html, /data-testid="client-name">Document App</)
  t.match(page.html, new RegExp(`data-testid="client-host">client\\.test:${documents.port}<`), 'the consent page names the client by its domain')
  t.same(documents.hits, ['/oauth/mcp-client.json'], 'the add-on fetched the document once')
  const ingress = await startIngress(t, server)
  const waiting = (await ingress.inject({ method: 'GET', url: '/api/sign-ins' })).json().waiting as Array<Record<string, unknown>>
  t.match(waiting, [{ short_code: page.shortCode, client_name: 'Document App', client_host: `client.test:${documents.port}` }], 'the Sign-ins tab names it by its domain too')

  const arrived = callback.next()
  const decided = await postForm(`${server.url}/oauth/authorize`, { request: page.requestId ?? '', api_token: server.token, action: 'allow', scope: ['read', 'write'] })
  t.equal(decided.status, 303)
  const location = new URL(decided.headers.get('location') ?? '')
  t.equal(location.searchParams.get('iss'), server.url, 'RFC 9207: the answer names the issuer the client discovered')
  await fetch(location)
  const query = await arrived
  await transport.finishAuth(query.get('code') ?? '')
  t.match(provider.saved, { access_token: /.+/, refresh_token: /.+/, scope: 'read write' })
  t.same(documents.hits, ['/oauth/mcp-client.json'], 'the token exchange used the cached document')

  const client = new Client({ name: 'doc-client', version: '1.0.0' })
  await client.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), { authProvider: provider }))
  t.teardown(() => client.close())
  const found = await callTool(client, 'ha_search_entities', { query: 'kitchen' })
  t.notOk(found.isError, 'the resulting token calls a tool')
  t.match(server.app.services.oauth?.grants(), [{ client_id: clientId, client_name: 'Document App', scopes: ['read', 'write'] }])
})

t.test('the v2 SDK client (2026-07-28) signs in with its document and checks the RFC 9207 iss of the answer', async t => {
  const { server, documents } = await setup(t)
  const callback = await startCallback(t)
  const clientId = documents.url('/v2-client.json')
  documents.json('/v2-client.json', { client_id: clientId, client_name: 'V2 App', redirect_uris: [callback.url], grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'], token_endpoint_auth_method: 'none', application_type: 'native' })
  const provider = new MemoryProvider(callback.url, { name: 'Document App', clientMetadataUrl: clientId })
  const transport = new TransportV2(new URL(`${server.url}/mcp`), { authProvider: provider })
  await t.rejects(new ClientV2({ name: 'v2-doc', version: '1.0.0' }).connect(transport))
  t.equal(provider.authorizationUrl?.searchParams.get('client_id'), clientId, 'no registration: the document URL is the client_id')
  const page = await openConsent(provider.authorizationUrl?.href ?? '')
  const arrived = callback.next()
  const decided = await postForm(`${server.url}/oauth/authorize`, { request: page.requestId ?? '', api_token: server.token, action: 'allow', scope: ['read'] })
  await fetch(decided.headers.get('location') ?? '')
  const query = await arrived
  // Handing over the whole callback query makes the client compare iss with the issuer it discovered.
  await transport.finishAuth(query)
  t.match(provider.saved, { access_token: /.+/ })
  const client = new ClientV2({ name: 'v2-doc', version: '1.0.0' })
  await client.connect(new TransportV2(new URL(`${server.url}/mcp`), { authProvider: provider }))
  t.teardown(() => client.close())
  const result = await client.callTool({ name: 'ha_search_entities', arguments: { query: 'kitchen' } })
  t.notOk(result.isError, 'the v2 client calls a tool with its token')

  const forged = new URLSearchParams(query)
  forged.set('iss', 'https://attacker.example')
  await t.rejects(new TransportV2(new URL(`${server.url}/mcp`), { authProvider: provider }).finishAuth(forged), { kind: 'authorization_response', expected: server.url } as unknown as Error, 'an answer naming another issuer is refused by the client (the check is live)')
})

t.test('a document that cannot be used stops the sign-in on the page: nothing goes to its redirect', async t => {
  const { server, documents } = await setup(t)
  const clientId = documents.url('/missing.json')
  const page = await openConsent(authorizeUrl(server.url, { clientId, redirectUri: 'https://app.example/cb', pkce: pkce() }))
  t.equal(page.status, 400)
  t.equal(page.location, null, 'no redirect to a URI nobody vouched for')
  t.match(page.html, /client metadata document .*HTTP 404/)

  const privateId = 'https://192.168.1.1/router.json'
  const refused = await openConsent(authorizeUrl(server.url, { clientId: privateId, redirectUri: 'https://app.example/cb', pkce: pkce() }))
  t.equal(refused.status, 400)
  t.match(refused.html, /special-use address/, 'a private address in the client_id is refused before any request')

  // A client that would prove itself with a key (RFC 7523) is told so, by name and with its code.
  const keyed = documents.url('/keyed.json')
  documents.json('/keyed.json', { client_id: keyed, client_name: 'Keyed App', redirect_uris: ['https://app.example/cb'], token_endpoint_auth_method: 'private_key_jwt', jwks_uri: documents.url('/jwks.json') })
  const keyPage = await openConsent(authorizeUrl(server.url, { clientId: keyed, redirectUri: 'https://app.example/cb', pkce: pkce() }))
  t.equal(keyPage.status, 400)
  t.equal(keyPage.location, null)
  t.match(keyPage.html, /token_endpoint_auth_method (&quot;|")private_key_jwt(&quot;|") is not supported.*\(auth_method_unsupported\)/s, 'the page names the method and the refusal code')
  t.notOk(documents.hits.includes('/jwks.json'), 'its key set is never fetched')
})

t.test('the redirect_uri must be one the document lists; refusals and a denial carry iss too', async t => {
  const { server, documents } = await setup(t)
  const clientId = documents.url('/app.json')
  documents.json('/app.json', { client_id: clientId, client_name: 'App', redirect_uris: ['https://app.example/cb'], token_endpoint_auth_method: 'none' })
  const sign = { clientId, redirectUri: 'https://app.example/cb', pkce: pkce() }
  const other = await openConsent(authorizeUrl(server.url, { ...sign, redirectUri: 'https://evil.example/cb' }))
  t.equal(other.status, 400, 'a redirect the document does not list is refused on the page')

  const bad = await openConsent(authorizeUrl(server.url, sign, { code_challenge_method: 'plain' }))
  t.equal(bad.status, 303)
  const error = new URL(bad.location ?? '')
  t.equal(error.searchParams.get('error'), 'invalid_request')
  t.equal(error.searchParams.get('iss'), server.url, 'an error redirect names the issuer')

  const page = await openConsent(authorizeUrl(server.url, sign, { resource: `${server.url}/mcp` }))
  const denied = await postForm(`${server.url}/oauth/authorize`, { request: page.requestId ?? '', action: 'deny' })
  const back = new URL(denied.headers.get('location') ?? '')
  t.equal(back.searchParams.get('error'), 'access_denied')
  t.equal(back.searchParams.get('iss'), server.url, 'a denial names the issuer')
})

t.test('registration reads application_type: web redirects to https, native may use loopback and app schemes', async t => {
  const home = await startHome(t)
  const server = await startServer(t, { home })
  const web = await register(server.url, { redirect_uris: ['https://app.example/cb'], application_type: 'web', token_endpoint_auth_method: 'none' })
  t.equal(web.status, 201)
  t.match(await web.json(), { application_type: 'web' })
  const webLoopback = await register(server.url, { redirect_uris: ['http://127.0.0.1:5000/cb'], application_type: 'web', token_endpoint_auth_method: 'none' })
  t.equal(webLoopback.status, 400)
  t.match(await webLoopback.json(), { error: 'invalid_redirect_uri' })
  const native = await register(server.url, { redirect_uris: ['http://127.0.0.1:5000/cb', 'com.example.app:/oauth'], application_type: 'native', token_endpoint_auth_method: 'none' })
  t.equal(native.status, 201)
  t.match(await native.json(), { application_type: 'native' })
  const unknown = await register(server.url, { redirect_uris: ['https://app.example/cb'], application_type: 'desktop' })
  t.equal(unknown.status, 400)
  t.match(await unknown.json(), { error: 'invalid_client_metadata' })
  const unsaid = await register(server.url, { redirect_uris: ['http://127.0.0.1:5000/cb'], token_endpoint_auth_method: 'none' })
  t.equal(unsaid.status, 201, 'without application_type a loopback redirect stays allowed (mcp-remote, the SDK)')
})

t.test('a refresh reads the document again once its cache ran out: an outage is weathered, a withdrawn document ends the sign-in', async t => {
  const clock = signInClock()
  const { server, documents } = await setup(t, clock.now)
  const clientId = documents.url('/app.json')
  const document = { client_id: clientId, client_name: 'App', redirect_uris: ['https://app.example/cb'], grant_types: ['authorization_code', 'refresh_token'], token_endpoint_auth_method: 'none' }
  documents.json('/app.json', document, { 'cache-control': 'max-age=600' })
  const sign = { clientId, redirectUri: 'https://app.example/cb', pkce: pkce() }
  const page = await openConsent(authorizeUrl(server.url, sign))
  const decided = await postForm(`${server.url}/oauth/authorize`, { request: page.requestId ?? '', api_token: server.token, action: 'allow', scope: ['read'] })
  const code = new URL(decided.headers.get('location') ?? '').searchParams.get('code') ?? ''
  const tokens = await (await exchange(server.url, { ...sign, code })).json() as { refresh_token: string }
  t.ok(tokens.refresh_token)
  const refresh = async (token: string): Promise<Response> => await postForm(`${server.url}/oauth/token`, { grant_type: 'refresh_token', refresh_token: token, client_id: clientId })

  clock.advance(11 * 60_000)
  documents.route('/app.json', res => { res.writeHead(503).end() })
  const during = await refresh(tokens.refresh_token)
  t.equal(during.status, 200, 'the site answers 503: the last document still vouches for the client')
  const next = await during.json() as { refresh_token: string }

  clock.advance(11 * 60_000)
  documents.route('/app.json', res => { res.writeHead(404).end() })
  const gone = await refresh(next.refresh_token)
  t.equal(gone.status, 401)
  t.match(await gone.json(), { error: 'invalid_client', error_description: /HTTP 404/ }, 'the document is gone: the client cannot refresh')
})

import type { ServerResponse } from 'node:http'
import t from 'tap'
import type { Test } from 'tap'
import { publicAddress } from '../../src/hosts.ts'
import { clientDocumentHost, type ClientDocumentOptions, ClientDocuments, clientIdUrlProblem } from '../../src/oauth/client-documents.ts'
import { documentNetwork, refusal, startDocumentServer, type DocumentServer } from './_document-server.ts'
import { signInClock } from './_oauth.ts'
import { startHome, startServer, type FakeClock } from '../helper.ts'

function documentFor (clientId: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { client_id: clientId, client_name: 'Example App', redirect_uris: ['https://app.example/callback'], grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'], token_endpoint_auth_method: 'none', ...extra }
}

async function setup (t: Test, options: Partial<ClientDocumentOptions> = {}, hosts: Record<string, string[]> = {}): Promise<{ server: DocumentServer, documents: ClientDocuments, clock: FakeClock, network: ReturnType<typeof documentNetwork> }> {
  const server = await startDocumentServer(t)
  const clock = signInClock()
  const network = documentNetwork(server, hosts)
  const documents = new ClientDocuments({ now: clock.now, resolve: network.resolve, addressAllowed: network.addressAllowed, ca: network.ca, ...options })
  return { server, documents, clock, network }
}

t.test('a document is fetched over https, read as a public client and cached for its max-age', async t => {
  const { server, documents, clock } = await setup(t)
  const id = server.url('/app.json')
  server.json('/app.json', documentFor(id, { scope: 'atproto other:scope', application_type: 'web' }), { 'cache-control': 'public, max-age=300' })
  const client = await documents.client(id, '192.0.2.1')
  t.match(client, { client_id: id, auth_method: 'none', client_name: 'Example App', redirect_uris: ['https://app.example/callback'], grant_types: ['authorization_code', 'refresh_token'], application_type: 'web' })
  t.equal(client.scope, 'read write manage camera', 'the document\'s own scope (meant for other servers) does not limit ours')
  await documents.client(id, '192.0.2.1')
  t.same(server.hits, ['/app.json'], 'the second use comes from the cache')
  clock.advance(301_000)
  await documents.client(id, '192.0.2.1')
  t.same(server.hits, ['/app.json', '/app.json'], 'after its max-age it is fetched again')
})

t.test('a document that says no-store is kept the minimum minute, one that says a year at most a day', async t => {
  const { server, documents, clock } = await setup(t)
  const quick = server.url('/quick.json')
  const long = server.url('/long.json')
  server.json('/quick.json', documentFor(quick), { 'cache-control': 'no-store, no-cache, max-age=0' })
  server.json('/long.json', documentFor(long), { 'cache-control': 'max-age=31536000' })
  await documents.client(quick, 'peer')
  await documents.client(long, 'peer')
  clock.advance(59_000)
  await documents.client(quick, 'peer')
  t.same(server.hits, ['/quick.json', '/long.json'], 'both cached within the first minute (a sign-in needs the document twice)')
  clock.advance(2_000)
  await documents.client(quick, 'peer')
  clock.advance(24 * 60 * 60_000)
  await documents.client(long, 'peer')
  t.same(server.hits, ['/quick.json', '/long.json', '/quick.json', '/long.json'])
})

t.test('while the client\'s site is down the last valid document stands in; a document gone ends it', async t => {
  const { server, documents, clock } = await setup(t)
  const id = server.url('/app.json')
  server.json('/app.json', documentFor(id), { 'cache-control': 'max-age=60' })
  await documents.client(id, 'peer-1')
  clock.advance(61_000)
  server.route('/app.json', res => { res.socket?.destroy() })
  t.match(await documents.client(id, 'peer-2'), { client_id: id }, 'connection dropped: the last document is used')
  server.route('/app.json', res => { res.writeHead(503).end() })
  t.match(await documents.client(id, 'peer-3'), { client_id: id }, 'a 503: the last document is used')
  server.route('/app.json', res => { res.writeHead(404).end() })
  t.equal(await refusal(documents.client(id, 'peer-4')), 'http_status', 'a 404: the document is gone, so is the client')
  server.route('/app.json', res => { res.writeHead(503).end() })
  t.equal(await refusal(documents.client(id, 'peer-5')), 'http_status', 'and a later outage does not bring it back')
  t.equal(server.hits.length, 5)
})

t.test('VS Code\'s document shape is accepted: native, loopback and https redirects, a device_code grant we do not use', async t => {
  const { server, documents } = await setup(t)
  const id = server.url('/oauth/client-metadata.json')
  server.json('/oauth/client-metadata.json', documentFor(id, {
    client_name: 'Visual Studio Code',
    application_type: 'native',
    redirect_uris: ['http://127.0.0.1:33418/', 'https://vscode.dev/redirect'],
    grant_types: ['authorization_code', 'refresh_token', 'urn:ietf:params:oauth:grant-type:device_code']
  }), { 'cache-control': 'no-store,no-cache,max-age=0' })
  t.match(await documents.client(id, 'peer'), { application_type: 'native', grant_types: ['authorization_code', 'refresh_token'], redirect_uris: ['http://127.0.0.1:33418/', 'https://vscode.dev/redirect'] })
})

t.test('private, loopback and other special-use addresses are refused before any connection', async t => {
  const { server } = await setup(t)
  // The default address check, as in the product: the test server on 127.0.0.1 is itself refused.
  const network = documentNetwork(server, {
    'intranet.test': ['192.168.1.20'],
    'rebind.test': ['93.184.216.34', '10.0.0.7'],
    'mapped.test': ['::ffff:127.0.0.1'],
    'ula.test': ['fd00::1']
  })
  const documents = new ClientDocuments({ resolve: network.resolve, ca: network.ca })
  server.json('/app.json', documentFor(server.url('/app.json')))
  t.equal(await refusal(documents.client(server.url('/app.json'), 'peer')), 'address_refused', 'a name that resolves to loopback')
  t.equal(await refusal(documents.client(`https://127.0.0.1:${server.port}/app.json`, 'peer')), 'address_refused', 'a loopback address literal')
  t.equal(await refusal(documents.client(`https://[::1]:${server.port}/app.json`, 'peer')), 'address_refused', 'the IPv6 loopback literal')
  t.equal(await refusal(documents.client('https://intranet.test/app.json', 'peer')), 'address_refused', 'a LAN address')
  t.equal(await refusal(documents.client('https://rebind.test/app.json', 'peer')), 'address_refused', 'a name with one public and one private address: every address is checked')
  t.equal(await refusal(documents.client('https://mapped.test/app.json', 'peer')), 'address_refused', 'an IPv4-mapped IPv6 address')
  t.equal(await refusal(documents.client('https://ula.test/app.json', 'peer')), 'address_refused', 'an IPv6 unique local address')
  t.same(server.hits, [], 'the document server was never reached')
})

t.test('the address check: public unicast only', async t => {
  for (const address of ['10.1.2.3', '172.16.0.1', '172.31.255.255', '192.168.0.1', '127.0.0.1', '0.0.0.0', '169.254.169.254', '100.64.0.1', '100.127.255.254', '224.0.0.251', '239.255.255.250', '255.255.255.255', '198.18.0.1', '192.0.0.8',
    '::', '::1', 'fe80::1', 'fc00::1', 'fd12:3456::1', 'ff02::fb', '::ffff:10.0.0.1', '::ffff:8.8.8.8', '::ffff:7f00:1', '64:ff9b::a00:1', '2002:a00:1::1', '2001:db8::1', '2001::1', 'fec0::1', 'not-an-ip']) {
    t.notOk(publicAddress(address), `${address} is refused`)
  }
  for (const address of ['8.8.8.8', '1.1.1.1', '93.184.216.34', '172.32.0.1', '100.128.0.1', '2606:4700:4700::1111', '2a00:1450:4001:82b::200e']) {
    t.ok(publicAddress(address), `${address} is allowed`)
  }
})

t.test('the connection goes to the address that was checked: the name is resolved once per fetch', async t => {
  const { server, documents, network } = await setup(t)
  const id = server.url('/app.json')
  server.json('/app.json', documentFor(id))
  await documents.client(id, 'peer')
  t.same(network.resolved, ['client.test'], 'one resolution, by the add-on; the TLS connection did not resolve again')
})

t.test('redirects are refused, so one to a private address is never followed', async t => {
  const { server, documents } = await setup(t)
  const id = server.url('/moved.json')
  server.route('/moved.json', res => { res.writeHead(302, { location: `https://127.0.0.1:${server.port}/internal.json` }).end() })
  server.json('/internal.json', documentFor(id))
  t.equal(await refusal(documents.client(id, 'peer')), 'redirect_refused')
  t.same(server.hits, ['/moved.json'], 'the redirect target was not requested')
})

t.test('a slow document is abandoned: no headers in time, or a body that trickles', async t => {
  const { server, documents: silentOnes } = await setup(t, { limits: { connectMs: 300, totalMs: 5_000 } })
  const network = documentNetwork(server)
  const trickleOnes = new ClientDocuments({ resolve: network.resolve, addressAllowed: network.addressAllowed, ca: network.ca, limits: { connectMs: 400, totalMs: 600 } })
  server.route('/silent.json', () => {})
  server.route('/trickle.json', res => {
    res.writeHead(200, { 'content-type': 'application/json' })
    res.write('{"client_id":')
    const timer = setInterval(() => res.write(' '), 50)
    res.on('close', () => clearInterval(timer))
  })
  let started = performance.now()
  t.equal(await refusal(silentOnes.client(server.url('/silent.json'), 'peer')), 'timeout')
  const silent = performance.now() - started
  t.ok(silent < 2_000, `given up at the connect timeout, not the total one (${Math.round(silent)} ms)`)
  started = performance.now()
  t.equal(await refusal(trickleOnes.client(server.url('/trickle.json'), 'peer')), 'timeout')
  const trickle = performance.now() - started
  t.ok(trickle >= 550 && trickle < 2_000, `given up at the total timeout though bytes kept coming (${Math.round(trickle)} ms)`)
})

t.test('an oversized document is refused: declared too long, or streamed past the bound', async t => {
  const { server, documents } = await setup(t)
  let sent = 0
  server.route('/endless.json', res => {
    res.writeHead(200, { 'content-type': 'application/json' })
    const chunk = Buffer.alloc(1024, 0x20)
    const timer = setInterval(() => { sent += chunk.length; res.write(chunk) }, 5)
    res.on('close', () => clearInterval(timer))
  })
  server.route('/declared.json', res => { res.writeHead(200, { 'content-type': 'application/json', 'content-length': '100000' }).write('{') })
  t.equal(await refusal(documents.client(server.url('/endless.json'), 'peer')), 'too_large')
  t.ok(sent < 64 * 1024, `the add-on stopped reading early (${sent} bytes sent by then)`)
  t.equal(await refusal(documents.client(server.url('/declared.json'), 'peer')), 'too_large')
  const id = server.url('/padded.json')
  server.json('/padded.json', documentFor(id, { padding: 'x'.repeat(5 * 1024) }))
  t.equal(await refusal(documents.client(id, 'peer')), 'too_large', 'a real document just over 5 KB')
})

t.test('what the document says is checked like a registration, and a refusal is not cached', async t => {
  const { server, documents } = await setup(t)
  const id = server.url('/app.json')
  const cases: Array<[string, (res: ServerResponse) => void, string]> = [
    ['not JSON content', res => { res.writeHead(200, { 'content-type': 'text/html' }).end('<html>') }, 'not_json'],
    ['a JSON array', res => { res.writeHead(200, { 'content-type': 'application/json' }).end('[]') }, 'not_json'],
    ['a 404', res => { res.writeHead(404).end() }, 'http_status'],
    ['another client_id', res => { res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(documentFor(`${id}/other`))) }, 'client_id_mismatch'],
    ['a client secret', res => { res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(documentFor(id, { client_secret: 'x' }))) }, 'invalid_metadata'],
    ['a secret-based auth method', res => { res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(documentFor(id, { token_endpoint_auth_method: 'client_secret_basic' }))) }, 'invalid_metadata'],
    ['private_key_jwt (a key the add-on does not check)', res => { res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(documentFor(id, { token_endpoint_auth_method: 'private_key_jwt', jwks_uri: 'https://app.example/jwks.json' }))) }, 'auth_method_unsupported'],
    ['mutual TLS', res => { res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(documentFor(id, { token_endpoint_auth_method: 'tls_client_auth' }))) }, 'auth_method_unsupported'],
    ['a plain http redirect URI off loopback', res => { res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(documentFor(id, { redirect_uris: ['http://app.example/callback'] }))) }, 'invalid_metadata'],
    ['a javascript: redirect URI', res => { res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(documentFor(id, { redirect_uris: ['javascript:alert(1)'] }))) }, 'invalid_metadata'],
    ['a web app with a loopback redirect', res => { res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(documentFor(id, { application_type: 'web', redirect_uris: ['http://127.0.0.1/cb'] }))) }, 'invalid_metadata'],
    ['no redirect URI', res => { res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(documentFor(id, { redirect_uris: [] }))) }, 'invalid_metadata']
  ]
  for (const [what, route, reason] of cases) {
    server.route('/app.json', route)
    t.equal(await refusal(documents.client(id, `peer-${what}`)), reason, what)
  }
  server.route('/app.json', res => { res.writeHead(200, { 'content-type': 'application/vnd.example+json; charset=utf-8' }).end(JSON.stringify(documentFor(id))) })
  t.match(await documents.client(id, 'peer'), { client_id: id }, 'once the document is right it is used: no refusal was cached')
  t.equal(server.hits.length, cases.length + 1)
})

t.test('the client_id URL itself: https, a path, no fragment, no user info, no dot segments', async t => {
  t.equal(clientIdUrlProblem('https://app.example/client.json'), undefined)
  t.equal(clientIdUrlProblem('https://app.example:8443/oauth/client?v=1'), undefined)
  for (const bad of ['http://app.example/client.json', 'https://app.example', 'https://app.example/', 'https://app.example/c.json#x', 'https://user:pw@app.example/c.json', 'https://app.example/a/../c.json', 'https://app.example/./c.json', 'https://app.example/a/%2e%2e/c.json', 'not a url', `https://app.example/${'a'.repeat(2100)}`]) {
    t.ok(clientIdUrlProblem(bad), `${bad.slice(0, 60)} is refused`)
  }
  const documents = new ClientDocuments({ resolve: async () => { throw new Error('must not resolve') } })
  t.equal(await refusal(documents.client('https://app.example/', 'peer')), 'invalid_url')
})

t.test('one address cannot make the add-on fetch without end', async t => {
  const { server, documents } = await setup(t)
  for (let i = 0; i < 10; i++) {
    const id = server.url(`/app-${i}.json`)
    server.json(`/app-${i}.json`, documentFor(id))
    await documents.client(id, '203.0.113.9')
  }
  const id = server.url('/one-more.json')
  server.json('/one-more.json', documentFor(id))
  t.equal(await refusal(documents.client(id, '203.0.113.9')), 'too_many_fetches', 'the eleventh new document in ten minutes from one address')
  t.match(await documents.client(id, '198.51.100.4'), { client_id: id }, 'another address is not held up')
})

// Client ID metadata documents (src/oauth/client-documents.ts, routes/oauth.ts) beside
// test/oauth/client-documents*.test.ts: what a stranger on the internet can do to other people's
// sign-ins through the owner's reverse proxy, and what the consent page shows as the app's identity.
t.test("red team: what a stranger can do to other people's client documents", async t => {
  t.test('the consent page names a document client by its host in punycode: a look-alike name cannot pass for another', async t => {
    t.equal(clientDocumentHost('https://аpple.com/client.json'), 'xn--pple-43d.com', 'a Cyrillic а is shown as punycode')
    t.equal(clientDocumentHost('https://claude.ai.evil.example/client.json'), 'claude.ai.evil.example', 'the whole host, not a prefix')
    t.equal(clientDocumentHost('https://CLAUDE.AI:443/oauth/client.json'), 'claude.ai', 'case and the default port normalised')
  })

  t.test('behind the owner\'s reverse proxy, a stranger spends the document fetch budget of every sign-in', async t => {
    const documents = await startDocumentServer(t)
    // The stranger's documents live on their own site (its certificate does not matter: a fetch counts).
    const network = documentNetwork(documents, { 'junk.test': ['127.0.0.1'] })
    const home = await startHome(t)
    const server = await startServer(t, { home, options: { public_url: 'https://ha.example.org' }, app: { oauth: { clientDocuments: { resolve: network.resolve, addressAllowed: network.addressAllowed, ca: network.ca } } } })
    const app = documents.url('/real-app.json')
    documents.json('/real-app.json', { client_id: app, client_name: 'Real App', redirect_uris: ['https://app.example/callback'], token_endpoint_auth_method: 'none' })
    const authorize = async (clientId: string): Promise<{ status: number, text: string }> => {
      const url = `${server.url}/oauth/authorize?${new URLSearchParams({ response_type: 'code', client_id: clientId, redirect_uri: 'https://app.example/callback', code_challenge: 'x'.repeat(43), code_challenge_method: 'S256' }).toString()}`
      const res = await fetch(url, { redirect: 'manual' })
      return { status: res.status, text: await res.text() }
    }
    // Every request arrives from the proxy's address, as it does behind any reverse proxy or tunnel.
    const junk = (i: number): string => documents.url(`/junk-${i}.json`).replace('client.test', 'junk.test')
    for (let i = 0; i < 10; i++) await authorize(junk(i))
    const real = await authorize(app)
    // Finding of the red-team pass: the budget was per address only, so the junk refused the real app.
    t.notMatch(real.text, /too many client metadata documents/, 'a stranger\'s junk does not refuse another app')
    t.equal(real.status, 200, 'the real app\'s consent page is served')
    const more = await authorize(junk(10))
    t.match(more.text, /too many client metadata documents/, 'the stranger\'s own site is still held to its budget')
    t.comment(`the real app's sign-in page: ${real.status}, ${/too many client metadata documents/.test(real.text) ? 'refused: too many documents' : 'served'}`)
    t.notOk(documents.hits.includes('/real-app.json') && real.status !== 200, 'a document fetched is a page served')
  })
})

import { request } from 'node:http'
import t from 'tap'
import { rpc, startHome, startServer } from '../helper.ts'
import { codeFor, exchange, register, signInClock } from './_oauth.ts'

const INIT = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'probe', version: '1' } } }

t.test('a 401 on /mcp points OAuth clients at the metadata, and the metadata answers directly', async t => {
  const home = await startHome(t)
  const server = await startServer(t, { home })

  const anonymous = await rpc(server.url, INIT)
  t.equal(anonymous.status, 401)
  t.equal(anonymous.headers.get('www-authenticate'), `Bearer resource_metadata="${server.url}/.well-known/oauth-protected-resource/mcp", scope="read write manage camera"`)
  const wrong = await rpc(server.url, INIT, { authorization: 'Bearer nope' })
  t.match(wrong.headers.get('www-authenticate'), /^Bearer resource_metadata="[^"]+", scope="read write manage camera", error="invalid_token", error_description="[^"]+"$/)

  for (const path of ['/.well-known/oauth-protected-resource/mcp', '/.well-known/oauth-protected-resource']) {
    for (const headers of [{}, { 'mcp-protocol-version': '2025-03-26' }] as Array<Record<string, string>>) {
      const answer = await fetch(`${server.url}${path}`, { headers, redirect: 'manual' })
      t.equal(answer.status, 200, `${path} answers 200 directly`)
      t.same(await answer.json(), {
        resource: `${server.url}/mcp`,
        authorization_servers: [server.url],
        scopes_supported: ['read', 'write', 'manage', 'camera'],
        bearer_methods_supported: ['header'],
        resource_name: 'Home Assistant (MCP server add-on)'
      })
    }
  }
  // The resource is the URL the client used, whatever name it used.
  const byName = await server.app.inject({ url: '/.well-known/oauth-protected-resource/mcp', headers: { host: 'local-ha-mcp:9583' } })
  t.equal(byName.json().resource, 'http://local-ha-mcp:9583/mcp')
  t.equal((await server.app.inject({ url: '/.well-known/oauth-protected-resource', headers: { host: 'evil"host' } })).statusCode, 400, 'a Host no client could use')

  const as = await fetch(`${server.url}/.well-known/oauth-authorization-server`, { redirect: 'manual' })
  t.equal(as.status, 200)
  const metadata = await as.json()
  t.match(metadata, {
    issuer: server.url,
    authorization_endpoint: `${server.url}/oauth/authorize`,
    token_endpoint: `${server.url}/oauth/token`,
    registration_endpoint: `${server.url}/oauth/register`,
    revocation_endpoint: `${server.url}/oauth/revoke`,
    code_challenge_methods_supported: ['S256'],
    grant_types_supported: ['authorization_code', 'refresh_token'],
    token_endpoint_auth_methods_supported: ['none', 'client_secret_post', 'client_secret_basic']
  })

  // Static bearer tokens keep working unchanged.
  t.equal((await rpc(server.url, INIT, { authorization: `Bearer ${server.token}` })).status, 200)
})

t.test('registration: every requested scope granted, a confidential secret never expires, bad metadata refused with RFC 7591 codes', async t => {
  const home = await startHome(t)
  const server = await startServer(t, { home })
  const confidential = await register(server.url, { redirect_uris: ['https://my.home-assistant.io/redirect/oauth'], token_endpoint_auth_method: 'client_secret_post', grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'], client_name: 'Home Assistant', scope: 'read write', application_type: 'web' })
  t.equal(confidential.status, 201)
  const body = await confidential.json()
  t.match(body, { client_id: /^ha-mcp-/, client_secret: /.{40,}/, client_secret_expires_at: 0, scope: 'read write', redirect_uris: ['https://my.home-assistant.io/redirect/oauth'], grant_types: ['authorization_code', 'refresh_token'], application_type: 'web' })
  const everything: any = await (await register(server.url, { redirect_uris: ['http://localhost:9999/cb'], token_endpoint_auth_method: 'none' })).json()
  t.equal(everything.scope, 'read write manage camera', 'no scope asked: all of them')
  t.notOk('client_secret' in everything, 'a public client gets no secret')

  const refusals: Array<[unknown, string]> = [
    [{ redirect_uris: [] }, 'invalid_redirect_uri'],
    [{ redirect_uris: ['http://evil.example/cb'] }, 'invalid_redirect_uri'],
    [{ redirect_uris: ['https://x.example/cb#frag'] }, 'invalid_redirect_uri'],
    [{ redirect_uris: ['javascript:alert(1)'] }, 'invalid_redirect_uri'],
    [{ redirect_uris: ['https://x.example/cb'], grant_types: ['client_credentials'] }, 'invalid_client_metadata'],
    [{ redirect_uris: ['https://x.example/cb'], token_endpoint_auth_method: 'private_key_jwt' }, 'invalid_client_metadata'],
    [{ redirect_uris: ['https://x.example/cb'], scope: 'read admin' }, 'invalid_client_metadata'],
    [[1, 2], 'invalid_client_metadata']
  ]
  for (const [metadata, code] of refusals) {
    const answer = await register(server.url, metadata as Record<string, unknown>)
    t.equal(answer.status, 400, JSON.stringify(metadata))
    t.equal((await answer.json() as { error: string }).error, code, JSON.stringify(metadata))
  }
})

t.test('an access token from the code flow reaches the tools for an hour', async t => {
  const home = await startHome(t)
  const clock = signInClock()
  const server = await startServer(t, { home, app: { oauth: { now: clock.now } } })
  const signIn = await codeFor(server.url, server.token)
  const answer = await exchange(server.url, signIn)
  t.equal(answer.status, 200)
  t.equal(answer.headers.get('cache-control'), 'no-store')
  const tokens: any = await answer.json()
  t.match(tokens, { access_token: /.{40,}/, token_type: 'Bearer', expires_in: 3600, refresh_token: /.{40,}/, scope: 'read write manage camera' })
  t.ok(Number.isInteger(tokens.expires_in))
  const listed = await rpc(server.url, { jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} }, { authorization: `Bearer ${tokens.access_token}` })
  t.equal(listed.status, 200)
  t.ok((await listed.json() as any).result.tools.length > 5)
  clock.advance(3600_000)
  const late = await rpc(server.url, { jsonrpc: '2.0', id: 3, method: 'tools/list', params: {} }, { authorization: `Bearer ${tokens.access_token}` })
  t.equal(late.status, 401, 'an hour later the access token is over')
  t.match(late.headers.get('www-authenticate'), /error="invalid_token"/)
})

t.test('behind a TLS proxy (public_url on the same host) the 401 challenge and the metadata name the same https origin', async t => {
  const home = await startHome(t)
  const server = await startServer(t, { home, options: { public_url: 'https://ha.example:8443' } })
  const port = new URL(server.url).port
  const get = async (method: string, path: string): Promise<{ status: number, headers: Record<string, unknown>, body: string }> => await new Promise((resolve, reject) => {
    const sent = request({ host: '127.0.0.1', port, method, path, headers: { host: 'ha.example:8443', 'content-type': 'application/json', accept: 'application/json, text/event-stream' } }, answer => {
      let body = ''
      answer.on('data', chunk => { body += String(chunk) })
      answer.on('end', () => { resolve({ status: answer.statusCode ?? 0, headers: answer.headers, body }) })
    })
    sent.on('error', reject)
    sent.end(method === 'POST' ? JSON.stringify(INIT) : undefined)
  })
  const challenge = await get('POST', '/mcp')
  t.equal(challenge.status, 401)
  t.equal(challenge.headers['www-authenticate'], 'Bearer resource_metadata="https://ha.example:8443/.well-known/oauth-protected-resource/mcp", scope="read write manage camera"')
  const metadata = await get('GET', '/.well-known/oauth-protected-resource/mcp')
  t.equal(metadata.status, 200)
  t.equal((JSON.parse(metadata.body) as { resource: string }).resource, 'https://ha.example:8443/mcp', 'the document the challenge points at names the same origin')
})

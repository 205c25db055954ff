// What browser-based clients and form posts see of the OAuth endpoints (@fastify/cors, @fastify/formbody):
// metadata and endpoints readable cross-origin without credentials, preflights answered there and
// nowhere else, and form bodies read as RFC 6749 sends them.
import t from 'tap'
import { startHome, startServer } from '../helper.ts'
import { postForm } from './_oauth.ts'

t.test('CORS on the OAuth paths only', async t => {
  const home = await startHome(t)
  const server = await startServer(t, { home, noWait: true })

  const metadata = await fetch(`${server.url}/.well-known/oauth-authorization-server`, { headers: { origin: 'https://inspector.example' } })
  t.equal(metadata.status, 200)
  t.equal(metadata.headers.get('access-control-allow-origin'), '*', 'metadata is readable from any page')
  t.equal(metadata.headers.get('access-control-allow-credentials'), null, 'no credentials ride on it')

  for (const path of ['/oauth/token', '/.well-known/oauth-protected-resource/mcp']) {
    const preflight = await fetch(`${server.url}${path}`, { method: 'OPTIONS', headers: { origin: 'https://inspector.example', 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' } })
    t.equal(preflight.status, 204, `${path}: preflight answered`)
    t.equal(preflight.headers.get('access-control-allow-origin'), '*')
    t.equal(preflight.headers.get('access-control-allow-methods'), 'GET, POST, OPTIONS')
    t.equal(preflight.headers.get('access-control-allow-headers'), 'authorization, content-type, mcp-protocol-version')
    t.equal(preflight.headers.get('access-control-max-age'), '600')
  }
  const bare = await fetch(`${server.url}/oauth/register`, { method: 'OPTIONS' })
  t.equal(bare.status, 204, 'a preflight without Origin is answered too')

  const token = await postForm(`${server.url}/oauth/token`, { grant_type: 'authorization_code', client_id: 'nobody' }, { origin: 'https://inspector.example' })
  t.equal(token.status, 401)
  t.equal(token.headers.get('access-control-allow-origin'), '*', 'an error answer is readable too')

  const mcp = await fetch(`${server.url}/mcp`, { method: 'OPTIONS', headers: { origin: 'https://evil.example', 'access-control-request-method': 'POST' } })
  t.equal(mcp.status, 404, 'no preflight for /mcp: a foreign page cannot even ask')
  t.equal(mcp.headers.get('access-control-allow-origin'), null)
  const health = await fetch(`${server.url}/health`, { headers: { origin: 'https://evil.example' } })
  t.equal(health.headers.get('access-control-allow-origin'), null, 'nor on the other routes')
})

t.test('form bodies: repeated fields and the size bound', async t => {
  const home = await startHome(t)
  const server = await startServer(t, { home, noWait: true })

  // Two client_id fields: the first one counts (an unknown client either way).
  const repeated = await fetch(`${server.url}/oauth/token`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'grant_type=authorization_code&client_id=a+b&client_id=c' })
  t.equal(repeated.status, 401)
  t.match(await repeated.json(), { error: 'invalid_client' })

  const huge = await fetch(`${server.url}/oauth/token`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: `grant_type=refresh_token&refresh_token=${'x'.repeat(70 * 1024)}` })
  t.equal(huge.status, 413, 'a form over 64 KB is refused before it is read')
})

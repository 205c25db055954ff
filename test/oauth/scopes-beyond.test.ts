// A consent form (or the Sign-ins tab) asking for more than the client registered, or for the camera
// while the options switch it off: never granted beyond what the client asked and the options allow.
import t from 'tap'
import { startHome, startServer } from '../helper.ts'
import { startIngress } from '../ingress/_ingress.ts'
import { authorizeUrl, exchange, openConsent, pkce, postForm, register } from './_oauth.ts'

const UI = { 'x-ha-mcp-ui': '1', 'content-type': 'application/json' }
const REDIRECT = 'http://127.0.0.1:33333/callback'

t.test('a read-only client cannot be granted write, manage or camera by a forged form', async t => {
  const home = await startHome(t)
  const server = await startServer(t, { home, options: { allow_write: true, allow_config_write: true } })
  const ingress = await startIngress(t, server)
  const client = await (await register(server.url, { redirect_uris: [REDIRECT], token_endpoint_auth_method: 'none', grant_types: ['authorization_code'], client_name: 'Reader', scope: 'read' })).json() as { client_id: string }

  const forged: Array<Record<string, string | string[]>> = [
    { level: 'manage' },
    { level: 'write' },
    { level: 'read', scope: ['read', 'write', 'manage', 'camera'] },
    { scope: ['camera'] },
    { level: 'admin' }
  ]
  for (const fields of forged) {
    const sign = { clientId: client.client_id, redirectUri: REDIRECT, pkce: pkce() }
    const page = await openConsent(authorizeUrl(server.url, sign))
    t.ok(page.requestId, page.html.slice(0, 120))
    const decided = await postForm(`${server.url}/oauth/authorize`, { request: page.requestId!, api_token: server.token, action: 'allow', ...fields })
    const code = new URL(decided.headers.get('location') ?? 'http://x/').searchParams.get('code')
    if (code === null) { t.pass(`${JSON.stringify(fields)}: refused (${decided.status})`); continue }
    const token = await (await exchange(server.url, { ...sign, code })).json() as { scope?: string }
    t.equal(token.scope, 'read', `${JSON.stringify(fields)}: at most what the client registered`)
  }

  // The Sign-ins tab: same bound.
  const sign = { clientId: client.client_id, redirectUri: REDIRECT, pkce: pkce() }
  const page = await openConsent(authorizeUrl(server.url, sign))
  const panel = await ingress.inject({ method: 'POST', url: `/api/sign-ins/${page.requestId!}`, headers: UI, payload: { action: 'approve', level: 'manage', scopes: ['camera'] } })
  if (panel.statusCode === 200) t.same(panel.json().scopes, ['read'], 'the panel grants no more than registered')
  else t.ok(panel.statusCode >= 400 && panel.statusCode < 500, `the panel refuses: ${panel.body}`)
  t.same(home.serviceCalls, [], 'nothing reached the house')
})

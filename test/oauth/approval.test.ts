// One approval path: the same choice made on the consent page (POST /oauth/authorize with the primary
// token) or on the ingress Sign-ins tab grants the same scopes, refuses the same way, and writes the
// same audit line (only who answered differs).
import t from 'tap'
import { startHome, startServer, type TestServer } from '../helper.ts'
import { startIngress } from '../ingress/_ingress.ts'
import { authorizeUrl, exchange, openConsent, pkce, postForm, register, type SignIn } from './_oauth.ts'

const UI = { 'x-ha-mcp-ui': '1', 'content-type': 'application/json', 'x-remote-user-id': 'u42', 'x-remote-user-display-name': 'Alice' }
const REDIRECT = 'http://127.0.0.1:41010/cb'

interface Answer {
  status: number
  /** The scopes of the token the answer led to; null when no code came back. */
  granted: string | null
  /** The refusal shown to the owner, when nothing was answered. */
  error?: string
  audit?: { tool: string, outcome: string, reason?: string, identity: string }
}

interface Case {
  what: string
  /** What the client asks for at the authorization endpoint. */
  asks: string
  page: Record<string, string | string[]>
  tab: Record<string, unknown>
  granted: string | null
  error?: RegExp
}

const CASES: Case[] = [
  { what: 'a level brings the ones below it', asks: 'read write manage camera', page: { level: 'write' }, tab: { level: 'write' }, granted: 'read write' },
  { what: 'camera on top of a level', asks: 'read write manage camera', page: { level: 'manage', scope: 'camera' }, tab: { level: 'manage', camera: true }, granted: 'read write manage camera' },
  { what: 'the camera alone', asks: 'read camera', page: { scope: 'camera' }, tab: { level: 'none', camera: true }, granted: 'camera' },
  { what: 'a lower level than asked', asks: 'read write', page: { level: 'read' }, tab: { level: 'read' }, granted: 'read' },
  { what: 'a level the client did not ask for is refused, not narrowed', asks: 'read write', page: { level: 'manage' }, tab: { level: 'manage' }, granted: null, error: /Nothing was granted: the client did not ask for manage/ },
  { what: 'a mixed set is refused, not widened or narrowed', asks: 'read write manage', page: { scope: ['read', 'manage'] }, tab: { scopes: ['read', 'manage'] }, granted: null, error: /Nothing was granted: levels include the ones below them/ },
  { what: 'an approval that chooses nothing is refused', asks: 'read write', page: {}, tab: {}, granted: null, error: /Nothing was granted: choose a level/ }
]

async function waiting (server: TestServer, clientId: string, asks: string): Promise<SignIn & { requestId: string }> {
  const sign: SignIn = { clientId, redirectUri: REDIRECT, pkce: pkce() }
  const page = await openConsent(authorizeUrl(server.url, sign, { scope: asks }))
  if (!page.requestId) throw new Error(`no consent page: ${page.status} ${page.html.slice(0, 200)}`)
  return { ...sign, requestId: page.requestId }
}

async function grantedBy (server: TestServer, sign: SignIn, location: string | undefined): Promise<string | null> {
  const code = location ? new URL(location).searchParams.get('code') : null
  if (!code) return null
  return (await (await exchange(server.url, { ...sign, code })).json() as { scope: string }).scope
}

function lastSignInAudit (server: TestServer, before: number): Answer['audit'] {
  const entries = server.app.services.policy.audit.recent(200).filter(e => e.tool === 'oauth_sign_in')
  return entries.length > before ? entries[0] as Answer['audit'] : undefined
}

t.test('the consent page and the Sign-ins tab answer a sign-in by one rule', async t => {
  const home = await startHome(t)
  const server = await startServer(t, { home, options: { allow_write: true, allow_config_write: true, allow_camera: true } })
  const ingress = await startIngress(t, server)
  const client = await (await register(server.url, { redirect_uris: [REDIRECT], token_endpoint_auth_method: 'none', grant_types: ['authorization_code'], client_name: 'Approval test' })).json() as { client_id: string }
  const audits = (): number => server.app.services.policy.audit.recent(200).filter(e => e.tool === 'oauth_sign_in').length

  const onPage = async (c: Case): Promise<Answer> => {
    const sign = await waiting(server, client.client_id, c.asks)
    const before = audits()
    const answer = await postForm(`${server.url}/oauth/authorize`, { request: sign.requestId, api_token: server.token, action: 'allow', ...c.page })
    const html = await answer.text()
    const error = /class="error"[^>]*>([^<]+)</.exec(html)?.[1]
    return { status: answer.status, granted: await grantedBy(server, sign, answer.headers.get('location') ?? undefined), ...(error ? { error } : {}), audit: lastSignInAudit(server, before) }
  }
  const onTab = async (c: Case): Promise<Answer> => {
    const sign = await waiting(server, client.client_id, c.asks)
    const before = audits()
    const answer = await ingress.inject({ method: 'POST', url: `/api/sign-ins/${sign.requestId}`, headers: UI, payload: { action: 'approve', ...c.tab } })
    const status = await (await fetch(`${server.url}/oauth/authorize/status?request=${encodeURIComponent(sign.requestId)}`)).json() as { redirect?: string }
    const error = answer.statusCode === 200 ? undefined : (answer.json() as { message: string }).message
    return { status: answer.statusCode, granted: await grantedBy(server, sign, status.redirect), ...(error ? { error } : {}), audit: lastSignInAudit(server, before) }
  }

  for (const c of CASES) {
    const page = await onPage(c)
    const tab = await onTab(c)
    t.equal(page.granted, c.granted, `${c.what}: the consent page grants ${String(c.granted)}`)
    t.equal(tab.granted, c.granted, `${c.what}: the Sign-ins tab grants ${String(c.granted)}`)
    if (c.granted === null) {
      t.equal(page.status, 400, `${c.what}: the page shows the refusal`)
      t.equal(tab.status, 400, `${c.what}: the tab shows the refusal`)
      t.match(page.error, c.error ?? /./, `${c.what}: the page says why`)
      t.equal(tab.error, page.error, `${c.what}: in the same words`)
      t.equal(page.audit, undefined, `${c.what}: nothing answered, nothing audited`)
      t.equal(tab.audit, undefined)
      continue
    }
    t.match(page.audit, { outcome: 'allowed', identity: 'primary', reason: `signed in "Approval test" (127.0.0.1 (an app on the same computer as the browser)) with ${c.granted}` }, `${c.what}: the audit line`)
    t.same({ ...tab.audit, identity: undefined, identity_name: undefined, time: undefined }, { ...page.audit, identity: undefined, identity_name: undefined, time: undefined }, `${c.what}: the same audit line from the tab`)
    t.equal(tab.audit?.identity, 'ha_user:u42', 'the tab audits the Home Assistant user')
  }

  // A denial: both say so to the client and write the same line.
  const denied = await Promise.all([waiting(server, client.client_id, 'read'), waiting(server, client.client_id, 'read write')])
  const pageDeny = await postForm(`${server.url}/oauth/authorize`, { request: denied[0].requestId, action: 'deny' })
  const pageLine = server.app.services.policy.audit.recent(1)[0]
  await ingress.inject({ method: 'POST', url: `/api/sign-ins/${denied[1].requestId}`, headers: UI, payload: { action: 'deny' } })
  const tabLine = server.app.services.policy.audit.recent(1)[0]
  const tabStatus = await (await fetch(`${server.url}/oauth/authorize/status?request=${encodeURIComponent(denied[1].requestId)}`)).json() as { redirect: string }
  t.equal(new URL(pageDeny.headers.get('location') ?? '').searchParams.get('error'), 'access_denied')
  t.equal(new URL(tabStatus.redirect).searchParams.get('error'), 'access_denied')
  t.match(pageLine, { tool: 'oauth_sign_in', outcome: 'refused', reason: 'denied the sign-in of "Approval test" (127.0.0.1 (an app on the same computer as the browser))' })
  t.equal(tabLine?.reason, pageLine?.reason)
  t.equal(tabLine?.outcome, pageLine?.outcome)
})

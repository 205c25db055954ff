// Every refusal of the panel's JSON API answers `{error, code, message}`: `code` is a stable HAMCP_*
// code (docs/errors.md), `message` is what the page's own script shows (ingress/public/app.js reads
// `body.message`), `error` the HTTP reason. The walk covers each code of PANEL_REFUSAL_CODES.
import t, { type Test } from 'tap'
import type { LightMyRequestResponse } from 'fastify'
import { PANEL_REFUSAL_CODES, USER_ERROR_CODES, HTTP_REFUSAL_CODES } from '../../src/errors.ts'
import { startHome, startServer } from '../helper.ts'
import { authorizeUrl, openConsent, pkce, register } from '../oauth/_oauth.ts'
import { startIngress, testCatalog } from './_ingress.ts'

const UI = { 'x-ha-mcp-ui': '1' }
const DOCUMENTED = new Set([...Object.keys(USER_ERROR_CODES), ...Object.keys(HTTP_REFUSAL_CODES), ...Object.keys(PANEL_REFUSAL_CODES)])
const seen = new Set<string>()

function refused (t: Test, res: LightMyRequestResponse, status: number, code: string): void {
  t.equal(res.statusCode, status, `HTTP ${status}: ${res.body.slice(0, 200)}`)
  const body = res.json() as { error?: unknown, code?: unknown, message?: unknown }
  t.equal(body.code, code, `code ${code}`)
  t.ok(DOCUMENTED.has(code), `${code} is documented`)
  t.type(body.message, 'string', 'the message the page shows is kept')
  t.type(body.error, 'string', 'and the HTTP reason')
  seen.add(code)
}

t.test('the panel\'s refusals carry a stable code', async t => {
  const home = await startHome(t)
  const server = await startServer(t, { app: { catalog: await testCatalog() }, home })
  const ingress = await startIngress(t, server)

  t.test('not through the ingress proxy: 403', async t => {
    refused(t, await ingress.inject({ url: '/api/overview', remoteAddress: '10.0.0.2' }), 403, 'HAMCP_INGRESS_ONLY')
  })
  t.test('a rebound Host or a foreign Origin: 403', async t => {
    refused(t, await ingress.inject({ url: '/api/connect', headers: { host: 'evil.example:8099' } }), 403, 'HAMCP_ORIGIN_NOT_ALLOWED')
    refused(t, await ingress.inject({ url: '/api/connect', headers: { origin: 'https://evil.example' } }), 403, 'HAMCP_ORIGIN_NOT_ALLOWED')
  })
  t.test('a change without the page header: 403', async t => {
    refused(t, await ingress.inject({ method: 'POST', url: '/api/tokens', payload: { name: 'x', scopes: ['read'] } }), 403, 'HAMCP_UI_HEADER_MISSING')
  })
  t.test('a token body that is not valid, or a name taken: 400, 409', async t => {
    refused(t, await ingress.inject({ method: 'POST', url: '/api/tokens', headers: UI, payload: { name: '' } }), 400, 'HAMCP_INVALID_ARGUMENT')
    t.equal((await ingress.inject({ method: 'POST', url: '/api/tokens', headers: UI, payload: { name: 'tablet', scopes: ['read'] } })).statusCode, 201)
    refused(t, await ingress.inject({ method: 'POST', url: '/api/tokens', headers: UI, payload: { name: 'tablet', scopes: ['read'] } }), 409, 'HAMCP_ALREADY_EXISTS')
  })
  t.test('revoking a token that does not exist: 404', async t => {
    refused(t, await ingress.inject({ method: 'DELETE', url: '/api/tokens/nope', headers: UI }), 404, 'HAMCP_NOT_FOUND')
  })
  t.test('regenerating without the confirmation: 400', async t => {
    refused(t, await ingress.inject({ method: 'POST', url: '/api/token/regenerate', headers: UI, payload: {} }), 400, 'HAMCP_INVALID_ARGUMENT')
  })
  t.test('a sign-in answer that is malformed, for no waiting request, or choosing nothing: 400, 404, 400', async t => {
    refused(t, await ingress.inject({ method: 'POST', url: '/api/sign-ins/nope', headers: UI, payload: { action: 'maybe' } }), 400, 'HAMCP_INVALID_ARGUMENT')
    refused(t, await ingress.inject({ method: 'POST', url: '/api/sign-ins/nope', headers: UI, payload: { action: 'deny' } }), 404, 'HAMCP_NOT_FOUND')
    const redirect = 'http://127.0.0.1:41011/cb'
    const client = await (await register(server.url, { redirect_uris: [redirect], token_endpoint_auth_method: 'none', grant_types: ['authorization_code'], client_name: 'Refusals test' })).json() as { client_id: string }
    const page = await openConsent(authorizeUrl(server.url, { clientId: client.client_id, redirectUri: redirect, pkce: pkce() }, { scope: 'read write' }))
    refused(t, await ingress.inject({ method: 'POST', url: `/api/sign-ins/${page.requestId!}`, headers: UI, payload: { action: 'approve' } }), 400, 'HAMCP_INVALID_ARGUMENT')
  })
  t.test('an API path that does not exist: 404', async t => {
    refused(t, await ingress.inject({ url: '/api/nope' }), 404, 'HAMCP_NOT_FOUND')
  })
  t.test('bad JSON, a body that is not JSON, a body over 64 KB: 400, 415, 413', async t => {
    refused(t, await ingress.inject({ method: 'POST', url: '/api/tokens', headers: { ...UI, 'content-type': 'application/json' }, payload: '{"name": ' }), 400, 'HAMCP_PARSE_ERROR')
    refused(t, await ingress.inject({ method: 'POST', url: '/api/tokens', headers: { ...UI, 'content-type': 'text/plain' }, payload: 'name=x' }), 415, 'HAMCP_UNSUPPORTED_MEDIA_TYPE')
    refused(t, await ingress.inject({ method: 'POST', url: '/api/tokens', headers: { ...UI, 'content-type': 'application/json' }, payload: JSON.stringify({ name: 'x'.repeat(70 * 1024) }) }), 413, 'HAMCP_TOO_LARGE')
  })
})

t.test('regenerating a token set in the environment: 409, not supported', async t => {
  const home = await startHome(t)
  const server = await startServer(t, { home, app: { catalog: await testCatalog(), primarySource: 'env' } })
  const ingress = await startIngress(t, server)
  refused(t, await ingress.inject({ method: 'POST', url: '/api/token/regenerate', headers: UI, payload: { confirm: true } }), 409, 'HAMCP_NOT_SUPPORTED')
})

t.test('over the panel\'s request limit: 429', async t => {
  const home = await startHome(t)
  const server = await startServer(t, { home, app: { catalog: await testCatalog(), requestLimits: { ingressPerAddress: 2 } } })
  const ingress = await startIngress(t, server)
  let res: LightMyRequestResponse | undefined
  for (let i = 0; i < 5 && res?.statusCode !== 429; i++) res = await ingress.inject({ url: '/api/tokens' })
  refused(t, res!, 429, 'HAMCP_RATE_LIMITED')
})

t.test('the walk showed every code of the panel', async t => {
  t.same(Object.keys(PANEL_REFUSAL_CODES).filter(code => !seen.has(code)), [], 'no panel code without a request that shows it')
})

// One table of the HTTP refusals a client can see outside the tool calls, each with its stable code:
// a JSON-RPC body with error.data.code on /mcp, an RFC 6749 body ({error, error_description}) on
// the sign-in's paths, {error, code, message} elsewhere (docs/errors.md). test/e2e/mcp-refusals.test.ts
// walks every code of /mcp, test/ingress/refusals.test.ts the panel's.
import t from 'tap'
import { HTTP_REFUSAL_CODES, USER_ERROR_CODES } from '../../src/errors.ts'
import { OAUTH_ERROR_CODES } from '../../src/oauth/errors.ts'
import { startHome, startServer, TEST_TOKEN } from '../helper.ts'

type Kind = 'rpc' | 'oauth' | 'coded'
interface Row { what: string, path: string, init?: RequestInit, status: number, kind: Kind, code: string }

const FORM = { 'content-type': 'application/x-www-form-urlencoded' }
const JSON_BODY = { 'content-type': 'application/json' }
const MCP = { ...JSON_BODY, accept: 'application/json, text/event-stream', authorization: `Bearer ${TEST_TOKEN}` }
const big = (n: number): string => 'x'.repeat(n)

const ROWS: Row[] = [
  { what: 'an unknown route', path: '/nope', status: 404, kind: 'coded', code: 'HAMCP_NOT_FOUND' },
  { what: 'a method a route does not answer', path: '/health', init: { method: 'POST' }, status: 404, kind: 'coded', code: 'HAMCP_NOT_FOUND' },
  { what: 'an unknown .well-known document', path: '/.well-known/nope', status: 404, kind: 'coded', code: 'HAMCP_NOT_FOUND' },
  { what: '/mcp: a body over 1 MB', path: '/mcp', init: { method: 'POST', headers: MCP, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { pad: big(1024 * 1024 + 10) } }) }, status: 413, kind: 'rpc', code: 'HAMCP_TOO_LARGE' },
  { what: '/mcp: a body that is not JSON', path: '/mcp', init: { method: 'POST', headers: { ...MCP, 'content-type': 'text/plain' }, body: 'hello' }, status: 415, kind: 'rpc', code: 'HAMCP_UNSUPPORTED_MEDIA_TYPE' },
  { what: '/oauth/token: a body that is not a form', path: '/oauth/token', init: { method: 'POST', headers: { 'content-type': 'text/xml' }, body: '<a/>' }, status: 415, kind: 'oauth', code: 'invalid_request' },
  { what: '/oauth/token: a form over 64 KB', path: '/oauth/token', init: { method: 'POST', headers: FORM, body: `grant_type=${big(70 * 1024)}` }, status: 413, kind: 'oauth', code: 'invalid_request' },
  { what: '/oauth/token: an unknown client', path: '/oauth/token', init: { method: 'POST', headers: FORM, body: 'grant_type=authorization_code&client_id=nope&code=x' }, status: 401, kind: 'oauth', code: 'invalid_client' },
  { what: '/oauth/register: a body that is not JSON', path: '/oauth/register', init: { method: 'POST', headers: JSON_BODY, body: '{"redirect_uris": ' }, status: 400, kind: 'oauth', code: 'invalid_request' },
  { what: '/oauth/register: a body over 64 KB', path: '/oauth/register', init: { method: 'POST', headers: JSON_BODY, body: JSON.stringify({ client_name: big(70 * 1024) }) }, status: 413, kind: 'oauth', code: 'invalid_request' },
  { what: '/oauth/register: no redirect_uris', path: '/oauth/register', init: { method: 'POST', headers: JSON_BODY, body: '{}' }, status: 400, kind: 'oauth', code: 'invalid_redirect_uri' },
  { what: '/oauth/revoke: a body that is not a form', path: '/oauth/revoke', init: { method: 'POST', headers: { 'content-type': 'text/xml' }, body: '<a/>' }, status: 415, kind: 'oauth', code: 'invalid_request' },
  { what: '/oauth/revoke: an unknown client', path: '/oauth/revoke', init: { method: 'POST', headers: FORM, body: 'token=x&client_id=nope' }, status: 401, kind: 'oauth', code: 'invalid_client' },
  { what: '/oauth/authorize: a POST that is not a form', path: '/oauth/authorize', init: { method: 'POST', headers: { 'content-type': 'text/xml' }, body: '<a/>' }, status: 415, kind: 'oauth', code: 'invalid_request' }
]

function codeOf (kind: Kind, body: any): unknown {
  if (kind === 'rpc') return body?.jsonrpc === '2.0' ? body.error?.data?.code : undefined
  if (kind === 'oauth') return typeof body?.error_description === 'string' ? body.error : undefined
  return typeof body?.message === 'string' && typeof body?.error === 'string' ? body.code : undefined
}

const DOCUMENTED = new Set([...Object.keys(USER_ERROR_CODES), ...Object.keys(HTTP_REFUSAL_CODES), ...Object.keys(OAUTH_ERROR_CODES)])

t.test('every HTTP refusal outside the tool calls has a stable code', async t => {
  const home = await startHome(t)
  const server = await startServer(t, { home })
  for (const row of ROWS) {
    t.test(row.what, async t => {
      const res = await fetch(`${server.url}${row.path}`, row.init)
      const text = await res.text()
      let body: unknown
      try { body = JSON.parse(text) } catch { body = text }
      t.equal(res.status, row.status, `HTTP ${row.status}: ${text.slice(0, 200)}`)
      t.equal(codeOf(row.kind, body), row.code, `${row.kind} body with ${row.code}`)
      t.ok(DOCUMENTED.has(row.code), 'a documented code')
    })
  }
})

t.test('over the sign-in\'s request limit: 429, temporarily_unavailable', async t => {
  const home = await startHome(t)
  const server = await startServer(t, { home })
  let res: Response | undefined
  for (let i = 0; i < 320 && res?.status !== 429; i++) {
    res = await fetch(`${server.url}/oauth/revoke`, { method: 'POST', headers: FORM, body: 'token=x&client_id=nope' })
    if (res.status !== 429) await res.text()
  }
  t.equal(res?.status, 429)
  t.equal(codeOf('oauth', await res!.json()), 'temporarily_unavailable')
  t.ok(Number(res!.headers.get('retry-after')) >= 1)
})

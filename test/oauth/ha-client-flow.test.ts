import { createHash, randomBytes } from 'node:crypto'
import t from 'tap'
import { announceDiscovery } from '../../src/addon/discovery.ts'
import { HttpClient, SupervisorClient } from '../../src/ha/http.ts'
import { createLogger, SecretScrubber } from '../../src/logger.ts'
import { startHome, startServer } from '../helper.ts'
import { form, hostFetch } from './_host-fetch.ts'

const HA_REDIRECT = 'https://my.home-assistant.io/redirect/oauth'
const MCP_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }
const INITIALIZE = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'home-assistant', version: '2026.12.0' } } }

/**
 * Home Assistant's MCP integration (homeassistant/components/mcp: config_flow.py async_step_hassio,
 * the OAuth discovery and dynamic registration, the PKCE authorization step, coordinator refresh),
 * replayed request by request against the add-on running in add-on mode.
 */
for (const method of ['none', 'client_secret_post'] as const) {
  t.test(`Home Assistant's MCP client flow, from the discovery card to a tool call (${method})`, async t => {
    const home = await startHome(t)
    const server = await startServer(t, { home, options: { allow_write: true }, env: { SUPERVISOR_TOKEN: home.supervisorToken, SUPERVISOR_URL: home.supervisorUrl } })
    const port = Number(new URL(server.url).port)
    const http = hostFetch(port)
    const trips: string[] = []
    const ha = async (url: string, init?: Parameters<typeof http>[1]): ReturnType<typeof http> => {
      trips.push(`${init?.method ?? 'GET'} ${new URL(url).host}${new URL(url).pathname}`)
      return await http(url, init)
    }
    const started = performance.now()

    // 1. The Supervisor's discovery message names the add-on by its internal hostname.
    const log = createLogger({ level: 'warning', scrubber: new SecretScrubber(), write: () => {} })
    const supervisor = new SupervisorClient(new HttpClient({ baseUrl: home.supervisorUrl, token: home.supervisorToken, log }))
    const announced = await announceDiscovery({ supervisor, mcpPort: 9583, log })
    t.equal(announced.url, 'http://local-ha-mcp:9583/mcp')
    t.match(home.discoveries, [{ service: 'mcp', config: { url: announced.url } }])
    const mcpUrl = announced.url

    // 2. initialize without a token: a 401 whose header HA parses with two regexes.
    const first = await ha(mcpUrl, { method: 'POST', headers: MCP_HEADERS, body: JSON.stringify(INITIALIZE) })
    t.equal(first.status, 401)
    const challenge = String(first.headers['www-authenticate'])
    const metadataUrl = /resource_metadata="([^"]+)"/.exec(challenge)?.[1]
    const scopes = (/scope="([^"]+)"/.exec(challenge)?.[1] ?? '').split(' ')
    t.equal(metadataUrl, 'http://local-ha-mcp:9583/.well-known/oauth-protected-resource/mcp')
    t.same(scopes, ['read', 'write', 'manage', 'camera'])

    // 3. Protected-resource metadata: used only when `resource` equals the MCP URL exactly.
    const resourceDoc = await ha(new URL(metadataUrl ?? '', mcpUrl).href)
    t.equal(resourceDoc.status, 200)
    t.equal(resourceDoc.json.resource, mcpUrl, 'resource is exactly the URL Home Assistant was given')
    const issuer = resourceDoc.json.authorization_servers[0] as string
    t.equal(issuer, 'http://local-ha-mcp:9583')

    // 4. Server metadata: the RFC 8414 and OpenID locations at once; first success wins.
    const [oauthDoc, oidcDoc] = await Promise.all([ha(`${issuer}/.well-known/oauth-authorization-server`), ha(`${issuer}/.well-known/openid-configuration`)])
    t.equal(oauthDoc.status, 200)
    t.equal(oidcDoc.status, 404, 'not an OpenID provider: HA takes the other answer')
    const metadata = oauthDoc.json
    t.ok(metadata.token_endpoint_auth_methods_supported.includes(method))

    // 5. Dynamic registration exactly as HA sends it, and HA's checks on the answer.
    const registration = await ha(metadata.registration_endpoint, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({ redirect_uris: [HA_REDIRECT], token_endpoint_auth_method: method, grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'], client_name: 'Home Assistant', scope: scopes.join(' '), application_type: 'web' })
    })
    t.ok(registration.status === 200 || registration.status === 201)
    const client = registration.json
    t.ok(client.redirect_uris.includes(HA_REDIRECT))
    t.same(client.scope.split(' '), scopes, 'every requested scope granted')
    t.ok(client.grant_types.includes('authorization_code') && client.grant_types.includes('refresh_token'))
    t.equal(client.client_id, client.client_id.trim())
    if (method !== 'none') t.equal(client.client_secret_expires_at, 0, 'a confidential secret never expires')
    const secret: Record<string, string> = method === 'none' ? {} : { client_secret: client.client_secret as string }

    // 6. The browser step: HA's own query (its state is a signed JWT that must come back unchanged).
    const verifier = randomBytes(48).toString('base64url')
    const state = `eyJhbGciOiJIUzI1NiJ9.${randomBytes(24).toString('base64url')}.${randomBytes(16).toString('base64url')}`
    const authorize = new URL(metadata.authorization_endpoint)
    authorize.search = new URLSearchParams({
      response_type: 'code',
      client_id: client.client_id,
      redirect_uri: HA_REDIRECT,
      state,
      scope: scopes.join(' '),
      code_challenge: createHash('sha256').update(verifier).digest('base64url'),
      code_challenge_method: 'S256',
      access_type: 'offline',
      prompt: 'consent'
    }).toString()
    const page = await ha(authorize.href)
    t.equal(page.status, 200)
    t.match(page.text, /Allow <span data-testid="client-name">Home Assistant<\/span>/)
    t.match(page.text, /my\.home-assistant\.io/)
    const requestId = /name="request" value="([^"]+)"/.exec(page.text)?.[1] ?? ''
    const decided = await ha(new URL('/oauth/authorize', authorize).href, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: form({ request: requestId, scope: scopes, api_token: server.token, action: 'allow' })
    })
    t.equal(decided.status, 303)
    const back = new URL(String(decided.headers.location))
    t.equal(`${back.origin}${back.pathname}`, HA_REDIRECT)
    t.equal(back.searchParams.get('state'), state, 'state unchanged')
    t.equal(back.searchParams.get('iss'), issuer, 'RFC 9207 iss is the issuer HA discovered (it registered there; it sends no resource)')
    const code = back.searchParams.get('code') ?? ''

    // 7. The code exchange on the internal hostname (HA sends no resource).
    const exchanged = await ha(metadata.token_endpoint, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: form({ grant_type: 'authorization_code', code, redirect_uri: HA_REDIRECT, code_verifier: verifier, client_id: client.client_id, ...secret })
    })
    t.equal(exchanged.status, 200)
    t.ok(Number.isInteger(exchanged.json.expires_in), 'integer expires_in')
    t.ok(exchanged.json.refresh_token)

    // 8. HA connects again with the token and needs the tools capability.
    const bearer = (token: string): Record<string, string> => ({ ...MCP_HEADERS, authorization: `Bearer ${token}` })
    const init = await ha(mcpUrl, { method: 'POST', headers: bearer(exchanged.json.access_token), body: JSON.stringify(INITIALIZE) })
    t.equal(init.status, 200)
    t.ok(init.json.result.capabilities.tools)
    const firstToolAt = performance.now()

    // 9. Refresh through HA's OAuth helper: a new refresh token replaces the old one.
    const refreshed = await ha(metadata.token_endpoint, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: form({ grant_type: 'refresh_token', refresh_token: exchanged.json.refresh_token, client_id: client.client_id, ...secret })
    })
    t.equal(refreshed.status, 200)
    t.ok(Number.isInteger(refreshed.json.expires_in))
    t.not(refreshed.json.refresh_token, exchanged.json.refresh_token, 'rotated')

    // 10. The coordinator's tools/list and a tool call, each on a fresh session as HA does it.
    const listed = await ha(mcpUrl, { method: 'POST', headers: bearer(refreshed.json.access_token), body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} }) })
    t.ok(listed.json.result.tools.some((tool: { name: string }) => tool.name === 'ha_call_service'))
    const light = home.entityIds().find(id => id.startsWith('light.')) ?? ''
    const called = await ha(mcpUrl, { method: 'POST', headers: bearer(refreshed.json.access_token), body: JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'ha_call_service', arguments: { domain: 'light', service: 'turn_on', target: { entity_id: light } } } }) })
    t.notOk(called.json.result.isError, called.text.slice(0, 300))
    t.match(home.serviceCalls, [{ domain: 'light', service: 'turn_on' }], 'the call reached the house')
    const audit = server.app.services.policy.audit.recent(5).find(entry => entry.tool === 'ha_call_service')
    t.equal(audit?.identity_name, 'Home Assistant', 'the audit names the grant')
    t.comment(`HA flow figures (${method}): ${trips.length} round trips, ${Math.round(firstToolAt - started)} ms from discovery to a connected session, ${Math.round(performance.now() - started)} ms to the tool answer (no human in the loop)`)
  })
}

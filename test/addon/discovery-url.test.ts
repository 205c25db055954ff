// Home Assistant's MCP integration starts from the URL in our Supervisor discovery message
// (async_step_hassio reads config.url) and compares the protected-resource document's `resource`
// with it character for character. This test takes the URL the add-on announced and follows it as
// Home Assistant Core would, with the add-on's internal hostname in the Host header.
import { request } from 'node:http'
import t from 'tap'
import { announceDiscovery } from '../../src/addon/discovery.ts'
import { HttpClient, SupervisorClient } from '../../src/ha/http.ts'
import { createLogger, SecretScrubber } from '../../src/logger.ts'
import { startHome, startServer } from '../helper.ts'

interface Answer { status: number, headers: Record<string, string | string[] | undefined>, body: string }

/** An HTTP request to the server's socket, sent as to `url` (its host goes in the Host header). */
async function as (serverUrl: string, url: string, method: string, body?: unknown): Promise<Answer> {
  const target = new URL(url)
  const server = new URL(serverUrl)
  return await new Promise((resolve, reject) => {
    const req = request({
      host: server.hostname,
      port: server.port,
      method,
      path: target.pathname,
      headers: { host: target.host, accept: 'application/json, text/event-stream', ...(body === undefined ? {} : { 'content-type': 'application/json' }) }
    }, res => {
      let text = ''
      res.setEncoding('utf8')
      res.on('data', chunk => { text += chunk })
      res.on('end', () => { resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }) })
    })
    req.on('error', reject)
    req.end(body === undefined ? undefined : JSON.stringify(body))
  })
}

t.test('the announced URL answers 401 with metadata whose resource is that URL exactly', async t => {
  const home = await startHome(t)
  const log = createLogger({ level: 'warning', scrubber: new SecretScrubber(), write: () => {} })
  const supervisor = new SupervisorClient(new HttpClient({ baseUrl: home.supervisorUrl, token: home.supervisorToken, log }))
  const server = await startServer(t, { home, env: { SUPERVISOR_TOKEN: home.supervisorToken, SUPERVISOR_URL: home.supervisorUrl } })

  const announced = await announceDiscovery({ supervisor, mcpPort: 9583, log })
  t.equal(announced.url, 'http://local-ha-mcp:9583/mcp', 'hostname from /addons/self/info, the container port')
  t.match(announced.uuid, /^[0-9a-f]{32}$/, 'the Supervisor\'s uuid, which HA uses as the entry\'s unique id')
  t.match(home.discoveries, [{ service: 'mcp', uuid: announced.uuid, config: { url: announced.url } }])
  const again = await announceDiscovery({ supervisor, mcpPort: 9583, log })
  t.equal(again.uuid, announced.uuid, 'a restart announces the same message: HA keeps its config entry')
  t.equal(home.discoveries.length, 1)

  // What validate_input sends first: an MCP initialize, no token.
  const initialize = await as(server.url, announced.url, 'POST', { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'home-assistant', version: '2026.12' } } })
  t.equal(initialize.status, 401)
  const challenge = String(initialize.headers['www-authenticate'] ?? '')
  const metadataUrl = /resource_metadata="([^"]+)"/.exec(challenge)?.[1]
  t.equal(metadataUrl, 'http://local-ha-mcp:9583/.well-known/oauth-protected-resource/mcp', 'on the origin HA used')
  t.match(challenge, /scope="[^"]+"/, 'the scopes HA registers for')

  const document = await as(server.url, metadataUrl ?? announced.url, 'GET')
  t.equal(document.status, 200, 'answered directly, no redirect')
  const metadata = JSON.parse(document.body) as { resource: string, authorization_servers: string[] }
  t.equal(metadata.resource, announced.url, 'resource equals the announced URL, character for character')
  t.ok(metadata.authorization_servers.length > 0)
})

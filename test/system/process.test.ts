import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import t from 'tap'
import { portFrom, startProcess } from './process-helper.ts'
import { callTool, connectClient, eventually, startHome, tempDataDir } from '../helper.ts'

t.test('the real process: add-on bootstrap, /health with a short threshold, SIGTERM exits 0', async t => {
  const home = await startHome(t)
  const dataDir = tempDataDir(t)
  home.faults.supervisorFailures(2, 502)
  const server = startProcess(t, {
    HA_URL: home.url,
    HA_TOKEN: home.token,
    SUPERVISOR_TOKEN: home.supervisorToken,
    SUPERVISOR_URL: home.supervisorUrl,
    DATA_DIR: dataDir,
    HEALTH_DEGRADED_AFTER_S: '1'
  })
  await eventually(() => portFrom(server.lines, 'ingress page listening') > 0, 30_000, 'the server to listen')
  const mcpPort = portFrom(server.lines, 'MCP server listening')
  const health = async (): Promise<{ status: number, body: { status: string, websocket: boolean } }> => {
    const res = await fetch(`http://127.0.0.1:${mcpPort}/health`)
    return { status: res.status, body: await res.json() as { status: string, websocket: boolean } }
  }

  // Token bootstrap through the Supervisor, which answered 502 twice first.
  await eventually(() => home.addonOptions().api_token !== '', 15_000, 'the token in the add-on options')
  const token = readFileSync(join(dataDir, 'token'), 'utf8').trim()
  t.equal(home.addonOptions().api_token, token, 'the generated token was written back')
  t.same(home.addonOptions().confirm_domains, ['lock', 'alarm_control_panel'], 'missing options reconciled')
  await eventually(() => home.discoveries.length === 1, 15_000, 'the discovery message')
  t.match(home.discoveries[0], { service: 'mcp', config: { url: `http://local-ha-mcp:${mcpPort}/mcp` } })
  t.notOk(server.lines.some(l => l.includes(token)), 'the token never appears in full in the log')

  await eventually(async () => (await health()).body.websocket, 15_000, 'Home Assistant connected')
  t.same(await health(), { status: 200, body: { status: 'ok', websocket: true } })

  home.faults.setWebSocketDown(true)
  await eventually(async () => !(await health()).body.websocket, 10_000, 'the WebSocket to be seen down')
  t.equal((await health()).status, 200, 'a short outage is not yet degraded')
  await eventually(async () => (await health()).status === 503, 10_000, '503 after the threshold')
  t.same((await health()).body, { status: 'degraded', websocket: false })

  home.faults.setWebSocketDown(false)
  await eventually(async () => (await health()).status === 200, 30_000, 'healthy again')
  t.same((await health()).body, { status: 'ok', websocket: true })
  await eventually(() => home.connectionCount() === 1, 5_000, 'one WebSocket client')

  server.child.kill('SIGTERM')
  t.equal(await server.exit, 0, 'exit code 0 after SIGTERM')
  t.ok(server.lines.some(l => l.includes('shutting down')), 'the shutdown is logged')
  await eventually(() => home.connectionCount() === 0, 5_000, 'the WebSocket to Home Assistant closed')
  await t.rejects(fetch(`http://127.0.0.1:${mcpPort}/health`), 'the port is closed')
})

t.test('SIGTERM drains a request in flight before exiting 0', async t => {
  const home = await startHome(t)
  const server = startProcess(t, {
    HA_URL: home.url,
    HA_TOKEN: home.token,
    DATA_DIR: tempDataDir(t),
    MCP_API_TOKEN: 'process-test-token-0123456789abcdef',
    LOG_LEVEL: 'debug'
  })
  await eventually(() => portFrom(server.lines, 'ingress page listening') > 0, 30_000, 'the server to listen')
  const url = `http://127.0.0.1:${portFrom(server.lines, 'MCP server listening')}`
  await eventually(async () => ((await (await fetch(`${url}/health`)).json()) as { websocket: boolean }).websocket, 15_000, 'Home Assistant connected')
  const client = await connectClient(t, { url }, 'process-test-token-0123456789abcdef')

  t.equal((await callTool(client, 'ha_render_template', { template: '{{ 1 }}' })).json?.result, '1', 'warm: registries loaded')
  home.faults.setDelay(1500)
  const answer = callTool(client, 'ha_render_template', { template: '{{ 20 + 22 }}' })
  await eventually(() => server.lines.some(l => l.includes('tool call') && l.includes('ha_render_template')), 5_000, 'the call to be in flight')
  server.child.kill('SIGTERM')
  const result = await answer
  t.notOk(result.isError, result.text)
  t.equal(result.json?.result, '42', 'the request in flight got its answer')
  t.equal(await server.exit, 0, 'exit code 0')
})

// Issue 29: no valid request can crash or bloat the add-on. The production bundle, started with
// `npm start`'s exact command line (its heap flags included), one write-level token, a demo home that
// changes all the time; every tool and every protocol path (2025 stateless, 2025 sessions and their
// GET streams, 2026-07-28, subscriptions/listen) driven with its largest valid request in a loop,
// the two calls that once crashed it included (pending confirmations with 3.9 MB of data; refused calls naming
// 2.3 MB of ids). The process must live through it and its resident memory stay within SPEC section
// 15 (peak 150 MB).
import { execFileSync } from 'node:child_process'
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs'
import { connect, type Socket } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import t from 'tap'
import { broadestArguments, requiredArguments } from '../../bench/broad-requests.ts'
import { BUDGET } from '../../bench/budget.ts'
import { memoryMb, resetPeak, START_SCRIPT } from '../../bench/process-figures.ts'
import { TokenStore } from '../../src/auth/tokens.ts'
import { callTool, connectClient, eventually, rpc, startHome, tempDataDir } from '../helper.ts'
import { metaFor, MODERN, modern } from '../modern.ts'
import { portFrom, ROOT, startProcess } from './process-helper.ts'

t.setTimeout(6 * 60_000)

/** SPEC section 15: peak RSS at most 150 MB (bench/budget.ts). */
const PEAK_RSS_MB = BUDGET.maxPeakRssMb
/** The loop is bounded in rounds and in time, whichever ends first. */
const ROUNDS = 2
const LOOP_BUDGET_MS = 120_000
/** The answer cap (src/shape.ts), with room for the envelope of an error. */
const ANSWER_TEXT_MAX = 15_500
const LOCK = 'lock.front_door_lock'

/** A request on a raw socket that stops reading once sent: a stream whose client does not read. */
async function silentStream (port: number, request: string[], body = ''): Promise<Socket> {
  const socket = connect(port, '127.0.0.1')
  socket.on('error', () => {})
  await new Promise(resolve => socket.once('connect', resolve))
  socket.write([...request, `host: 127.0.0.1:${port}`, `content-length: ${Buffer.byteLength(body)}`, '', body].join('\r\n'))
  socket.pause()
  return socket
}

/** A 2026-07-28 listen stream for `uris` whose client does not read. */
async function silentListen (port: number, token: string, id: string, uris: string[]): Promise<Socket> {
  const body = JSON.stringify({ jsonrpc: '2.0', id, method: 'subscriptions/listen', params: { notifications: { resourceSubscriptions: uris }, _meta: metaFor() } })
  return await silentStream(port, [
    'POST /mcp HTTP/1.1', `authorization: Bearer ${token}`, 'content-type: application/json',
    'accept: application/json, text/event-stream', `mcp-protocol-version: ${MODERN}`, 'mcp-method: subscriptions/listen'
  ], body)
}

t.test('npm start\'s command line lives through every tool and protocol path at its largest valid request, within 150 MB', async t => {
  // A build of its own: test/system/build.test.ts rebuilds dist/ meanwhile. The layout npm start expects
  // (its start script, dist/app/server.js beside package.json and ingress/) in a directory of its own.
  const root = mkdtempSync(join(tmpdir(), 'ha-mcp-stress-'))
  t.teardown(() => rmSync(root, { recursive: true, force: true }))
  execFileSync(process.execPath, ['--import', 'tsx', 'scripts/build.ts'], { cwd: ROOT, stdio: 'pipe', env: { ...process.env, BUILD_OUT: join(root, 'dist') } })
  copyFileSync(join(ROOT, 'package.json'), join(root, 'package.json'))
  mkdirSync(join(root, 'addon'))
  copyFileSync(join(ROOT, START_SCRIPT), join(root, START_SCRIPT))
  symlinkSync(join(ROOT, 'ingress'), join(root, 'ingress'))
  // npm start's command line, word for word, as package.json has it.
  const start = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: { start: string } }).scripts.start.split(' ')

  const home = await startHome(t)
  const dataDir = tempDataDir(t, { allow_write: true, enable_sessions: true })
  // One write-level token, made as the panel makes it.
  const { token } = await new TokenStore({ dataDir, primary: 'stress-primary-token-0123456789' }).create({ name: 'stress', scopes: ['read', 'write'] })
  const server = startProcess(t, {
    // Node 26, as the build test runs it (the devDependency's, first on the scripts' PATH).
    NODE_BIN: process.execPath,
    HA_URL: home.url,
    HA_TOKEN: home.token,
    SUPERVISOR_TOKEN: home.supervisorToken,
    SUPERVISOR_URL: home.supervisorUrl,
    DATA_DIR: dataDir,
    MCP_API_TOKEN: 'stress-primary-token-0123456789',
    RATE_LIMIT_PER_TOKEN: '0',
    RATE_LIMIT_PER_ADDRESS: '0'
  }, start, root)
  const pid = server.child.pid as number
  await eventually(() => portFrom(server.lines, 'MCP server listening') > 0 || server.child.exitCode !== null, 120_000, 'the server to listen')
  const port = portFrom(server.lines, 'MCP server listening')
  const url = `http://127.0.0.1:${port}`
  await eventually(async () => ((await (await fetch(`${url}/health`)).json()) as { websocket: boolean }).websocket, 120_000, 'Home Assistant connected')

  const bearer = { authorization: `Bearer ${token}` }
  let peakSeen = 0
  const phases: string[] = []
  const alive = (what: string): void => {
    peakSeen = Math.max(peakSeen, memoryMb(pid, 'VmRSS'))
    if (server.child.exitCode !== null) throw new Error(`the server died ${what}: ${server.lines.slice(-5).join('\n')}`)
  }
  /** Ends a phase: its peak RSS, for the comment, and the mark reset for the next one. */
  const phase = (what: string): void => {
    alive(what)
    const peak = memoryMb(pid, 'VmHWM')
    peakSeen = Math.max(peakSeen, peak)
    phases.push(`${what} ${peak.toFixed(0)}`)
    resetPeak(pid)
  }
  /** A 2025-era call without a session; the answer's text and its code. */
  const stateless = async (name: string, args: Record<string, unknown>): Promise<{ text: string, code?: string, json?: any }> => {
    let res: Response
    try {
      res = await rpc(url, { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } }, bearer)
    } catch (err) {
      // A body over the limit is refused before it is read: the 413 comes while the client still
      // sends, and the connection closes under it (the client sees EPIPE or a reset, or the 413).
      const cause = (err as { cause?: { code?: string } }).cause?.code
      if (cause === 'EPIPE' || cause === 'ECONNRESET') return { text: '', code: 'HAMCP_TOO_LARGE' }
      throw err
    }
    const raw = await res.text()
    const body = JSON.parse(raw.startsWith('{') ? raw : raw.split('\n').find(line => line.startsWith('data: '))?.slice(6) ?? 'null')
    const text = (body?.result?.content ?? []).map((c: { text?: string }) => c.text ?? '').join('')
    return { text, code: body?.result?.structuredContent?.error?.code ?? body?.error?.data?.code, json: body?.result?.structuredContent }
  }

  const session = await connectClient(t, { url }, token)
  const { tools } = await session.listTools()
  t.ok(tools.some(tool => tool.name === 'ha_call_service'), `the write-level token sees the write tools (${tools.length} tools)`)
  const ids = home.entityIds()
  const broad = broadestArguments(ids, [...home.house.areas.keys()].slice(0, 50))
  const busy = ids.filter(id => /^(sensor|light|switch|binary_sensor)\./.test(id)).slice(0, 50)
  const uris = busy.map(id => `ha://entity/${id}`)

  // A busy house: 50 entities change every 100 ms for the whole test.
  let tick = 0
  const changing = setInterval(() => { tick++; for (const id of busy) home.setState(id, `s${tick}`) }, 100)
  t.teardown(() => { clearInterval(changing) })

  phase('start')
  const started = Date.now()
  let round = 0
  const listeners: Socket[] = []
  t.teardown(() => { for (const socket of listeners) socket.destroy() })
  for (; round < ROUNDS && Date.now() - started < LOOP_BUDGET_MS; round++) {
    // Listen streams: the token's eight, 50 URIs each, ids of the longest length served, none read;
    // the previous round's are closed first, so their memory must come back.
    for (const socket of listeners.splice(0)) socket.destroy()
    for (let i = 0; i < 8; i++) listeners.push(await silentListen(port, token, `${round}-${i}-`.padEnd(256, 'x'), uris))
    const refusedId = await silentListen(port, token, 'i'.repeat(64 * 1024 - 2000), uris)
    refusedId.destroy()
    // A 2025 session subscribed to the same 50 resources, its GET stream not read either.
    const opened = await rpc(url, { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'silent', version: '1' } } }, bearer)
    await opened.text()
    const sessionId = opened.headers.get('mcp-session-id') ?? ''
    t.ok(sessionId, 'a session opened')
    const inSessionOf = { ...bearer, 'mcp-session-id': sessionId }
    await (await rpc(url, { jsonrpc: '2.0', method: 'notifications/initialized' }, inSessionOf)).text()
    for (const [i, uri] of uris.entries()) await (await rpc(url, { jsonrpc: '2.0', id: 10 + i, method: 'resources/subscribe', params: { uri } }, inSessionOf)).text()
    listeners.push(await silentStream(port, ['GET /mcp HTTP/1.1', `authorization: Bearer ${token}`, `mcp-session-id: ${sessionId}`, 'accept: text/event-stream']))
    phase('listen and session streams')

    // Every tool with its broadest arguments, on each era's path.
    for (const tool of tools) {
      const args = broad[tool.name] ?? requiredArguments(tool.inputSchema as Record<string, unknown>, ids)
      const legacy = await stateless(tool.name, args)
      t.ok(legacy.text.length <= ANSWER_TEXT_MAX, `2025 ${tool.name}: ${legacy.text.length} characters`)
      const modernAnswer = await modern(url, token, 'tools/call', { name: tool.name, arguments: args })
      t.ok(JSON.stringify(modernAnswer.body).length <= 2 * ANSWER_TEXT_MAX + 1000, `2026 ${tool.name}: answered within the cap`)
      const inSession = await callTool(session, tool.name, args)
      t.ok(inSession.text.length <= ANSWER_TEXT_MAX, `session ${tool.name}: ${inSession.text.length} characters`)
      alive(`after ${tool.name}`)
    }
    phase('every tool')

    // The crashers: 3.9 MB of data waiting for a confirmation, 2.3 MB of comma-separated ids,
    // refused at the door; and the same just under the body limit, refused by the write's own limits.
    for (let i = 0; i < 30; i++) {
      const big = await stateless('ha_call_service', { domain: 'lock', service: 'unlock', target: { entity_id: LOCK }, data: { code: `${i}`.padEnd(i % 2 === 0 ? 3_900_000 : 1_000_000, 'x') } })
      t.equal(big.code, 'HAMCP_TOO_LARGE', `${i % 2 === 0 ? '3.9 MB' : '1 MB'} of data: ${big.text.slice(0, 120)}`)
      const joined = Array.from({ length: 190_000 }, (_, n) => `light.x${i}_${n}`).join(',')
      const ids = joined.slice(0, joined.lastIndexOf(',', i % 2 === 0 ? 2_300_000 : 1_000_000))
      const many = await stateless('ha_call_service', { domain: 'light', service: 'turn_on', target: { entity_id: ids } })
      t.equal(many.code, i % 2 === 0 ? 'HAMCP_TOO_LARGE' : 'HAMCP_INVALID_ARGUMENT', `${ids.length} characters of ids: ${many.text.slice(0, 120)}`)
      alive('after the crashers')
    }
    phase('crashers')
    // The largest valid pending confirmations: 60 KB of data each (a quote takes two bytes in JSON), more than the pool holds.
    for (let i = 0; i < 60; i++) {
      const asked = await stateless('ha_call_service', { domain: 'lock', service: 'unlock', target: { entity_id: LOCK }, data: { code: `${round}-${i}`.padEnd(30_000, '"') } })
      t.equal(asked.json?.confirmation_required, true, `a pending confirmation with 60 KB of data (${asked.text.slice(0, 80)})`)
      t.ok(asked.text.length <= ANSWER_TEXT_MAX, 'its answer within the cap')
    }
    phase('pending confirmations')
    // 2026-07-28 input_required rounds carrying the largest valid data.
    for (let i = 0; i < 20; i++) {
      const asked = await modern(url, token, 'tools/call', { name: 'ha_call_service', arguments: { domain: 'lock', service: 'unlock', target: { entity_id: LOCK }, data: { code: `${round}-${i}`.padEnd(30_000, '"') } } }, metaFor({ elicitation: { form: {} } }))
      t.equal(asked.body?.result?.resultType, 'input_required', 'a confirmation round')
      t.ok(Buffer.byteLength(JSON.stringify(asked.body)) <= 15_000, `a round of ${Buffer.byteLength(JSON.stringify(asked.body))} bytes`)
    }
    phase('2026 rounds')
    // Batches of the largest size on the 2025 path.
    const batch = Array.from({ length: 100 }, (_, i) => ({ jsonrpc: '2.0', id: i, method: 'tools/call', params: { name: 'ha_search_entities', arguments: { query: 'light', limit: 50 } } }))
    const batched = await rpc(url, batch, bearer)
    t.equal(batched.status, 200, 'a batch of 100 calls is served')
    await batched.arrayBuffer()
    phase('batch')
    t.comment(`round ${round}: RSS now ${memoryMb(pid, 'VmRSS').toFixed(0)} MB; peak MB by phase: ${phases.splice(0).join(', ')}`)
  }
  clearInterval(changing)
  for (const socket of listeners.splice(0)) socket.destroy()
  t.ok(round >= 1, `${round} rounds in ${Math.round((Date.now() - started) / 1000)} s`)
  const peak = Math.max(memoryMb(pid, 'VmHWM'), peakSeen)
  t.equal(server.child.exitCode, null, 'the process lived through it')
  t.ok(peak <= PEAK_RSS_MB, `peak RSS ${peak.toFixed(0)} MB (at most ${PEAK_RSS_MB})`)
  const health = await fetch(`${url}/health`)
  t.equal(health.status, 200, 'and still answers')
  await session.close()
  server.child.kill('SIGTERM')
  t.equal(await server.exit, 0, 'SIGTERM exits 0')
})

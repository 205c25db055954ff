import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { FastifyInstance } from 'fastify'
import type { Test as Tap } from 'tap'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { buildApp, type AppOptions } from '../app/app.ts'
import { loadConfig, type Env } from '../src/config.ts'
import { createLogger, SecretScrubber } from '../src/logger.ts'
import type { LogLevel, Options } from '../src/options.ts'
import { startDemoHome, type DemoHome, type DemoHomeOptions } from '../demo/index.ts'
import type { HomeAssistant } from '../src/ha/index.ts'
import { realClock, within } from '../src/clock.ts'

type Test = { teardown: (fn: () => unknown) => void }

export const TEST_TOKEN = 'test-primary-token-0123456789abcdef'

/** A fresh, empty DATA_DIR removed after the test. */
export function tempDataDir (t: Test, options?: Partial<Options>): string {
  const dir = mkdtempSync(join(tmpdir(), 'ha-mcp-test-'))
  if (options) writeFileSync(join(dir, 'options.json'), JSON.stringify(options))
  t.teardown(() => rmSync(dir, { recursive: true, force: true }))
  return dir
}

/** A demo home on a random loopback port, closed after the test. */
export async function startHome (t: Test, opts: DemoHomeOptions = {}): Promise<DemoHome> {
  const home = await startDemoHome({ token: 'demo-long-lived-token-for-tests', ...opts })
  t.teardown(() => home.close())
  return home
}

export interface TestServer {
  app: FastifyInstance
  url: string
  token: string
  dataDir: string
  logs: string[]
  home: DemoHome
}

export interface ServerOptions {
  home: DemoHome
  options?: Partial<Options>
  env?: Env
  logLevel?: LogLevel
  /** Do not wait for Home Assistant before returning. */
  noWait?: boolean
  app?: Partial<AppOptions>
}

/** The whole server against a demo home, listening on a random loopback port. */
export async function startServer (t: Test, opts: ServerOptions): Promise<TestServer> {
  const dataDir = tempDataDir(t, opts.options)
  const config = loadConfig({ HA_URL: opts.home.url, HA_TOKEN: opts.home.token, DATA_DIR: dataDir, LOG_LEVEL: opts.logLevel ?? 'warning', ...opts.env })
  const logs: string[] = []
  const scrubber = new SecretScrubber()
  scrubber.add(TEST_TOKEN)
  scrubber.add(opts.home.token)
  const logger = createLogger({ level: config.logLevel, scrubber, write: line => { logs.push(line) } })
  const app = await buildApp({
    config,
    primaryToken: TEST_TOKEN,
    logger,
    homeAssistant: { connection: { retryMinMs: 50, retryMaxMs: 500, authRetryMs: 1000 } },
    ...opts.app
  })
  t.teardown(() => app.close())
  await app.listen({ port: 0, host: '127.0.0.1' })
  const address = app.server.address()
  const port = typeof address === 'object' && address ? address.port : 0
  if (!opts.noWait) await app.services.ha.whenReady(10_000)
  return { app, url: `http://127.0.0.1:${port}`, token: TEST_TOKEN, dataDir, logs, home: opts.home }
}

/**
 * A `fetch` answered by the app in-process through Fastify's `inject`: no socket, no port. The SDK
 * client's transport takes it as its `fetch` option. A response is whole when it returns, so a stream
 * that stays open (a session's GET) never answers: tests of open streams use the socket.
 */
export function injectFetch (app: FastifyInstance): typeof fetch {
  return async (input, init) => {
    const request = new Request(input, init)
    const url = new URL(request.url)
    const payload = request.body === null ? undefined : Buffer.from(await request.arrayBuffer())
    const reply = await app.inject({ method: request.method as 'GET', url: url.pathname + url.search, headers: Object.fromEntries(request.headers), payload })
    const headers = new Headers()
    for (const [name, value] of Object.entries(reply.headers)) {
      for (const one of [value ?? []].flat()) headers.append(name, String(one))
    }
    const empty = [101, 204, 205, 304].includes(reply.statusCode)
    return new Response(empty ? null : reply.rawPayload, { status: reply.statusCode, headers })
  }
}

/**
 * The SDK's own client, in-process through {@link injectFetch} when the server's app is at hand; over
 * real HTTP with `inject: false` (a session's open stream: notifications, subscriptions) or when only
 * a URL is given. What the socket path adds (listening, streams, floods) is test/system's.
 */
export async function connectClient (t: Test, server: { url: string, app?: FastifyInstance }, token: string = TEST_TOKEN, opts: { inject?: boolean } = {}): Promise<Client> {
  const client = new Client({ name: 'test-client', version: '1.0.0' })
  const transport = new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), {
    requestInit: { headers: { authorization: `Bearer ${token}` } },
    ...(opts.inject !== false && server.app ? { fetch: injectFetch(server.app) } : {})
  })
  await client.connect(transport)
  t.teardown(() => client.close())
  return client
}

export interface ToolAnswer {
  isError: boolean
  text: string
  json: any
  /** The stable error code of an error result (`structuredContent.error.code`), else undefined. */
  code: string | undefined
}

/** Calls a tool and parses its JSON text (or keeps the text for errors). */
/** Any MCP client that calls tools: the v1 SDK's, or the v2 `@modelcontextprotocol/client`. */
export interface ToolCaller {
  callTool: (request: { name: string, arguments: Record<string, unknown> }) => Promise<object>
}

export async function callTool (client: ToolCaller, name: string, args: Record<string, unknown> = {}): Promise<ToolAnswer> {
  const result = await client.callTool({ name, arguments: args }) as { content?: unknown, structuredContent?: unknown, isError?: unknown }
  const content = result.content as Array<{ type: string, text?: string }>
  const text = content.filter(c => c.type === 'text').map(c => c.text ?? '').join('\n')
  let json: unknown
  try { json = JSON.parse(text) } catch { json = undefined }
  const error = (result.structuredContent as { error?: { code?: unknown } } | undefined)?.error
  const code = result.isError === true && typeof error?.code === 'string' ? error.code : undefined
  return { isError: result.isError === true, text, json, code }
}

/**
 * Raw JSON-RPC POST, for protocol-level tests: in-process through {@link injectFetch} when given the
 * test server, over real HTTP when given a URL (what only a socket shows: addresses, keep-alive).
 */
export async function rpc (to: string | { url: string, app: FastifyInstance }, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  const send = typeof to === 'string' ? fetch : injectFetch(to.app)
  return await send(`${typeof to === 'string' ? to : to.url}/mcp`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body)
  })
}

/**
 * Resolves once the add-on has lost its connection and is back with its states in (HomeAssistant's
 * connection events, no polling). Call it before what drops the connection, then await it.
 */
export async function reconnection (ha: HomeAssistant, timeoutMs = 10_000): Promise<void> {
  let off = (): void => {}
  const back = new Promise<void>(resolve => {
    let down = false
    off = ha.onConnectionChange(up => {
      if (!up) down = true
      else if (down) resolve()
    })
  })
  await within(realClock, timeoutMs, back, () => { throw new Error('the add-on did not reconnect to the demo home') }).finally(off)
}

/** Drops every connection the demo home holds and resolves once the add-on is back with its states in. */
export async function dropConnections (home: DemoHome, ha: HomeAssistant, timeoutMs = 10_000): Promise<void> {
  const back = reconnection(ha, timeoutMs)
  home.faults.dropConnections()
  await back
}

/**
 * Resolves once the add-on and the demo home have each received what the other sent before this call:
 * a ping goes after the add-on's earlier commands and its pong after the home's earlier events, on one
 * WebSocket, in order (Home Assistant queues a connection's messages and writes them in that order,
 * websocket_api/http.py; demo/ws/core.ts answers ping at once). For a state the test just set, or a
 * service call the add-on sent without waiting.
 * Takes the test server, or a bare HomeAssistant client.
 */
export async function caughtUp (to: { app: FastifyInstance } | HomeAssistant): Promise<void> {
  const ha = 'app' in to ? to.app.services.ha : to
  await ha.command({ type: 'ping' })
}

/**
 * Sets a state in the demo home and checks that the add-on has it once {@link caughtUp}: for a test
 * whose next call must act on the new state.
 */
export async function setSeen (t: Pick<Tap, 'equal'>, server: TestServer, entityId: string, state: string, attributes?: Record<string, unknown>, message = 'the add-on sees the change'): Promise<void> {
  server.home.setState(entityId, state, attributes)
  await caughtUp(server)
  t.equal(server.app.services.ha.states.get(entityId)?.state, state, message)
}

/**
 * Waits until `check` holds, polling: only for what nothing orders or announces (a reconnect, the
 * add-on's own timers and file writes, an HTTP stream, a chain of commands the add-on sends on its
 * own). A state set in the demo home, or a command the add-on already sent, is {@link caughtUp}'s.
 * The polls start 1 ms apart and back off to 20 ms.
 */
export async function eventually (check: () => boolean | Promise<boolean>, timeoutMs = 5000, what = 'condition'): Promise<void> {
  const deadline = Date.now() + timeoutMs
  for (let pause = 1; Date.now() < deadline; pause = Math.min(20, pause * 2)) {
    if (await check()) return
    await new Promise(resolve => setTimeout(resolve, pause))
  }
  throw new Error(`timed out waiting for ${what}`)
}

/** A clock the test moves by hand: `now` for services that read time, `schedule` for their timers. */
export interface FakeClock {
  now: () => number
  schedule: (fn: () => void, ms: number) => () => void
  /** Delays of the timers still waiting, from now. */
  pending: () => number[]
  /** Moves time on by `ms`, running every timer that falls due, in order. */
  advance: (ms: number) => void
}

/**
 * Awaits `call` (already started) that waits `ms` on `clock` before it answers: once a timer of `ms` is
 * set, moves the clock past it.
 */
export async function pastWait<T> (clock: FakeClock, ms: number, call: Promise<T>): Promise<T> {
  await eventually(() => clock.pending().includes(ms), 5000, `a ${ms} ms wait on the clock`)
  clock.advance(ms)
  return await call
}

export function fakeClock (start = Date.now()): FakeClock {
  let at = start
  let timers: Array<{ due: number, fn: () => void }> = []
  return {
    now: () => at,
    schedule: (fn, ms) => {
      const timer = { due: at + ms, fn }
      timers.push(timer)
      return () => { timers = timers.filter(t => t !== timer) }
    },
    pending: () => timers.map(t => t.due - at).sort((a, b) => a - b),
    advance: ms => {
      const until = at + ms
      for (;;) {
        const next = timers.filter(t => t.due <= until).sort((a, b) => a.due - b.due)[0]
        if (!next) break
        timers = timers.filter(t => t !== next)
        at = next.due
        next.fn()
      }
      at = until
    }
  }
}

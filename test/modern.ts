// Raw 2026-07-28 requests, the one helper for that protocol revision: one call with the headers that revision requires,
// and a subscriptions/listen stream read frame by frame.
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client'
import { rpc, TEST_TOKEN } from './helper.ts'

type Test = { teardown: (fn: () => unknown) => void }

export const MODERN = '2026-07-28'

export function metaFor (capabilities: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    'io.modelcontextprotocol/protocolVersion': MODERN,
    'io.modelcontextprotocol/clientCapabilities': capabilities,
    'io.modelcontextprotocol/clientInfo': { name: 'raw-2026', version: '1' }
  }
}

/** What a client answers to a confirmation's question (elicitation/create). */
export type ElicitationAnswer = { action: 'accept' | 'decline' | 'cancel', content?: Record<string, boolean> }

/**
 * The SDK's v2 client (`@modelcontextprotocol/client`), pinned to 2026-07-28 unless `mode` says
 * otherwise. With `answer` it offers form elicitation and answers each question with it; `asked`
 * collects the questions.
 */
export async function connectModern (t: Test, server: { url: string }, opts: { mode?: 'auto' | { pin: string }, answer?: (message: string) => ElicitationAnswer, token?: string } = {}): Promise<{ client: Client, asked: string[] }> {
  const { answer } = opts
  const client = new Client({ name: 'v2-test', version: '1.0.0' }, {
    versionNegotiation: { mode: opts.mode ?? { pin: MODERN } },
    ...(answer ? { capabilities: { elicitation: { form: {} } } } : {})
  })
  const asked: string[] = []
  if (answer) {
    client.setRequestHandler('elicitation/create', request => {
      const message = (request.params as { message: string }).message
      asked.push(message)
      return answer(message)
    })
  }
  await client.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${opts.token ?? TEST_TOKEN}` } } }))
  t.teardown(() => client.close())
  return { client, asked }
}

/**
 * One 2026-07-28 request with the headers that revision requires (`name` goes into Mcp-Name for the
 * methods that carry one); `headers` add to them or override them. `to` is the test server (answered
 * in-process) or a URL, as for {@link rpc}.
 */
export async function modern (to: Parameters<typeof rpc>[0], token: string, method: string, params: Record<string, unknown> = {}, meta = metaFor(), headers: Record<string, string> = {}): Promise<{ status: number, body: any }> {
  const name = typeof params.name === 'string' ? params.name : typeof params.uri === 'string' ? params.uri : undefined
  const res = await rpc(to, { jsonrpc: '2.0', id: 1, method, params: { ...params, _meta: meta } }, {
    authorization: `Bearer ${token}`, 'mcp-protocol-version': MODERN, 'mcp-method': method, ...(name !== undefined ? { 'mcp-name': name } : {}), ...headers
  })
  const text = await res.text()
  let body: any
  try { body = JSON.parse(text) } catch { body = text }
  return { status: res.status, body }
}

export interface ListenStream {
  status: number
  /** Every JSON-RPC message seen so far. */
  seen: any[]
  /** Reads until `check` holds (or the stream ends, or `ms` pass: then it throws). */
  until: (check: () => boolean, what: string, ms?: number) => Promise<void>
  /** Resolves once the server ended the stream. */
  ended: () => Promise<void>
  updates: () => string[]
  close: () => void
}

/** Opens a subscriptions/listen stream for `uris` (or any raw `notifications` filter). */
export async function listen (url: string, token: string, id: string, uris: unknown[], extra: Record<string, unknown> = {}): Promise<ListenStream> {
  const aborted = new AbortController()
  const res = await fetch(`${url}/mcp`, {
    method: 'POST',
    signal: aborted.signal,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': MODERN, 'mcp-method': 'subscriptions/listen' },
    body: JSON.stringify({ jsonrpc: '2.0', id, method: 'subscriptions/listen', params: { notifications: { resourceSubscriptions: uris }, ...extra, _meta: metaFor() } })
  })
  return await eventStream(res, aborted)
}

/**
 * Reads a response frame by frame: a server-sent event stream (a listen stream, a session's GET
 * stream) message by message, or a JSON answer as one message. `aborted` is the request's controller.
 */
export async function eventStream (res: Response, aborted: AbortController): Promise<ListenStream> {
  const seen: any[] = []
  let buffer = ''
  const state = { done: false }
  const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader()
  const readOnce = async (ms: number): Promise<void> => {
    let timer: NodeJS.Timeout | undefined
    const timeout = new Promise<never>((_resolve, reject) => { timer = setTimeout(() => { reject(new Error('timed out')) }, ms) })
    try {
      const chunk = await Promise.race([reader.read(), timeout])
      if (chunk.done) { state.done = true; return }
      buffer += chunk.value
    } finally {
      clearTimeout(timer)
    }
    // A JSON (non-stream) answer is one message.
    if (!(res.headers.get('content-type') ?? '').includes('event-stream')) return
    let end: number
    while ((end = buffer.indexOf('\n\n')) >= 0) {
      const data = buffer.slice(0, end).split('\n').filter(line => line.startsWith('data:')).map(line => line.slice(5).trim()).join('')
      buffer = buffer.slice(end + 2)
      if (data) seen.push(JSON.parse(data))
    }
  }
  const stream: ListenStream = {
    status: res.status,
    seen,
    async until (check, what, ms = 5000) {
      const deadline = Date.now() + ms
      while (!check()) {
        if (state.done) throw new Error(`the stream ended before ${what}`)
        const left = deadline - Date.now()
        if (left <= 0) throw new Error(`timed out waiting for ${what}`)
        await readOnce(left).catch(err => { throw new Error(`${(err as Error).message} waiting for ${what}`) })
      }
    },
    async ended () {
      const deadline = Date.now() + 5000
      while (!state.done) {
        if (Date.now() > deadline) throw new Error('the stream did not end')
        await readOnce(deadline - Date.now()).catch(() => {})
      }
    },
    updates: () => seen.filter(m => m.method === 'notifications/resources/updated').map(m => m.params.uri as string),
    close: () => { aborted.abort() }
  }
  if (!(res.headers.get('content-type') ?? '').includes('event-stream')) {
    await stream.ended()
    seen.push(JSON.parse(buffer))
  }
  return stream
}

import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'

type Test = { teardown: (fn: () => unknown) => void }

export interface Callback {
  url: string
  /** The query of the next request the browser makes to the callback. */
  next: () => Promise<URLSearchParams>
}

/** A loopback redirect target, as a native MCP client runs one (RFC 8252). */
export async function startCallback (t: Test, path = '/callback'): Promise<Callback> {
  const waiting: Array<(query: URLSearchParams) => void> = []
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1')
    if (url.pathname !== path) { res.writeHead(404).end(); return }
    res.writeHead(200, { 'content-type': 'text/html' }).end('<p id="done">Signed in. You can close this window.</p>')
    waiting.shift()?.(url.searchParams)
  })
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve))
  t.teardown(() => new Promise<void>(resolve => { server.closeAllConnections(); server.close(() => resolve()) }))
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}${path}`,
    next: async () => await new Promise(resolve => waiting.push(resolve))
  }
}

import { createServer, request as httpRequest, type Server } from 'node:http'

/**
 * A loopback proxy that adds the bearer token the conformance suite cannot send (it has no header
 * option in server mode) and forwards everything else untouched, streams included.
 */
export async function tokenProxy (target: string, token: string): Promise<{ url: string, close: () => Promise<void> }> {
  const upstream = new URL(target)
  const server: Server = createServer((req, res) => {
    const forwarded = httpRequest({
      host: upstream.hostname,
      port: upstream.port,
      method: req.method,
      path: req.url,
      headers: { ...req.headers, authorization: `Bearer ${token}` }
    }, answer => {
      res.writeHead(answer.statusCode ?? 502, answer.headers)
      answer.pipe(res)
    })
    forwarded.on('error', () => { if (!res.headersSent) res.writeHead(502); res.end() })
    res.on('close', () => { forwarded.destroy() })
    req.pipe(forwarded)
  })
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve))
  const address = server.address()
  const port = typeof address === 'object' && address ? address.port : 0
  return {
    url: `http://127.0.0.1:${port}`,
    close: async () => { server.closeAllConnections(); await new Promise(resolve => server.close(resolve)) }
  }
}

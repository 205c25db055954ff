// A notification stream whose reader does not read, for the tests of src/mcp/transport/stream-gate.ts.
import { once } from 'node:events'
import type { IncomingMessage, ServerResponse } from 'node:http'
import { connect, type Socket } from 'node:net'
import { eventually, type TestServer } from '../helper.ts'

export interface StalledStream {
  socket: Socket
  /** Resolves once the server closed the connection. */
  ended: Promise<void>
  /** The server's response for the stream. */
  response: () => ServerResponse | undefined
}

/**
 * Opens a stream over a raw socket (`request`: the HTTP request line and headers, without the blank
 * line), waits until `ready` has been received (or holds), then corks the server's side of the socket: what the
 * server writes from then on stays in the process, as it does once the kernel's buffers are full
 * behind a client that does not read.
 */
export async function stalledStream (server: TestServer, request: string[], body: string, ready: string | (() => boolean)): Promise<StalledStream> {
  const { port } = new URL(server.url)
  const socket = connect(Number(port), '127.0.0.1')
  await once(socket, 'connect')
  let response: ServerResponse | undefined
  const onRequest = (req: IncomingMessage, res: ServerResponse): void => { if (req.socket.remotePort === socket.localPort) response = res }
  server.app.server.on('request', onRequest)
  socket.write([...request, `host: 127.0.0.1:${port}`, `content-length: ${Buffer.byteLength(body)}`, '', body].join('\r\n'))
  let received = ''
  const ended = new Promise<void>(resolve => { socket.on('close', () => { resolve() }) })
  socket.on('data', (chunk: Buffer) => { received += chunk.toString('utf8') })
  socket.on('error', () => {})
  try {
    await eventually(() => response !== undefined && (typeof ready === 'string' ? received.includes(ready) : ready()), 5000, 'the stream to open')
  } finally {
    server.app.server.off('request', onRequest)
  }
  response?.socket?.cork()
  return { socket, ended, response: () => response }
}

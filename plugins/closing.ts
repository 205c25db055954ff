import type { IncomingMessage, ServerResponse } from 'node:http'
import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'

export interface ClosingOptions {
  /** The body of the 503 for a request that arrives while the server closes, by its URL. */
  body: (url: string) => object
}

/**
 * While the server closes, a request that still arrives (on a kept-alive or pipelined connection) is
 * answered 503 with a coded body (docs/errors.md, HAMCP_SHUTTING_DOWN), where Fastify's own
 * `return503OnClosing` answers one without a code (turn that option off beside this plugin). Nothing
 * runs per request before: the answer takes the place of the server's request listener when closing
 * begins (the first preClose hook, so register this plugin first).
 */
async function closingPlugin (fastify: FastifyInstance, opts: ClosingOptions): Promise<void> {
  fastify.addHook('preClose', async () => {
    const server = fastify.server
    for (const listener of server.listeners('request')) server.off('request', listener as (...args: unknown[]) => void)
    server.on('request', (request: IncomingMessage, response: ServerResponse) => {
      const body = JSON.stringify(opts.body(request.url ?? '/'))
      response.writeHead(503, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body), 'retry-after': '5', connection: 'close' })
      response.end(body)
    })
  })
}

export default fp(closingPlugin, { name: 'closing', fastify: '5.x' })

import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'

export interface ClosingOptions {
  /** The body of the 503 for a request that arrives while the server closes, by its URL. */
  body: (url: string) => object
}

/**
 * While the server closes, a request that still arrives (on a kept-alive or pipelined connection) is
 * answered 503 with a coded body (docs/errors.md, HAMCP_SHUTTING_DOWN), where Fastify's own
 * `return503OnClosing` answers one without a code (turn that option off beside this plugin). Closing
 * begins with the first preClose hook: register this plugin first.
 */
async function closingPlugin (fastify: FastifyInstance, opts: ClosingOptions): Promise<void> {
  let closing = false
  fastify.addHook('preClose', async () => { closing = true })
  fastify.addHook('onRequest', (request, reply, done) => {
    if (!closing) { done(); return }
    reply.code(503).header('retry-after', '5').header('connection', 'close').type('application/json; charset=utf-8').send(opts.body(request.url))
  })
}

export default fp(closingPlugin, { name: 'closing', fastify: '5.x' })

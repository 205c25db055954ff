import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import fastifyStatic from '@fastify/static'
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { HttpRefusal, refusalBody } from '../src/errors.ts'
import { createPanelApi, panelAccess, type IngressServices } from '../src/ingress/panel.ts'
import ingressSignIns, { ingressUser } from './ingress-sign-ins.ts'
import ingressApprovals from './ingress-approvals.ts'
import { fastifyRefusal } from '../plugins/refusals.ts'

export interface IngressOptions {
  services: IngressServices
  /** Folder of the page's static files. */
  publicDir?: string
}

// routes/ingress.ts in development, bundled into dist/app/ in the image (scripts/build.ts): the page sits at the app root in both.
export const DEFAULT_PUBLIC_DIR = ['../ingress/public/', '../../ingress/public/']
  .map(relative => fileURLToPath(new URL(relative, import.meta.url)))
  .find(dir => existsSync(dir)) ?? fileURLToPath(new URL('../ingress/public/', import.meta.url))

/** Answers a refusal of the panel: `{error, code, message}` (docs/errors.md, "Refusals of the panel"); the page shows `message`. */
async function refuse (reply: FastifyReply, refusal: Pick<HttpRefusal, 'status' | 'code' | 'message'>): Promise<FastifyReply> {
  return await reply.code(refusal.status).send(refusalBody(refusal.status, refusal.code, refusal.message))
}

/** Fastify's own refusals (body parsing, limits) as the panel's coded body; anything else is a bug, logged. */
async function panelFastifyRefusal (error: FastifyError, request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
  const refusal = fastifyRefusal(error, 'Content-Type: application/json')
  if (refusal) return await refuse(reply, refusal)
  request.log.error({ err: error }, 'ingress request failed')
  return await refuse(reply, new HttpRefusal(500, 'HAMCP_INTERNAL', 'Internal error; the add-on log has the details.'))
}

/**
 * The status and onboarding page in Home Assistant's sidebar: static files plus a small JSON API
 * under api/. Every URL is relative so it works under the X-Ingress-Path prefix.
 */
export default async function ingressRoutes (fastify: FastifyInstance, opts: IngressOptions): Promise<void> {
  const { config, audit, oauth, clock } = opts.services
  const panel = createPanelApi(opts.services)
  fastify.setErrorHandler(panelFastifyRefusal)
  fastify.setNotFoundHandler(async (request, reply) => await refuse(reply, new HttpRefusal(404, 'HAMCP_NOT_FOUND', `${request.method} ${request.url.split('?')[0] ?? ''} does not exist on the panel.`)))
  // The API reads JSON only; a text/plain body (what a cross-site form can send) is refused with 415.
  fastify.removeContentTypeParser('text/plain')

  fastify.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
    const refused = panelAccess(config, { address: request.socket.remoteAddress ?? '', host: request.headers.host, origin: request.headers.origin }, request.log)
    if (refused) {
      await refuse(reply, refused)
      return
    }
    reply.header('cache-control', 'no-store')
  })
  // Mutations need a header a cross-site form cannot send, so a foreign page cannot create tokens.
  const sameOriginOnly = async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
    if (request.headers['x-ha-mcp-ui'] !== '1') {
      await refuse(reply, new HttpRefusal(403, 'HAMCP_UI_HEADER_MISSING', 'missing X-HA-MCP-UI header'))
    }
  }

  // The JSON API is capped per address (in the add-on every request comes from the ingress proxy).
  const apiLimit = fastify.requestLimit({
    by: 'address',
    max: opts.services.requestLimits.ingressPerAddress,
    refusal: message => new HttpRefusal(429, 'HAMCP_RATE_LIMITED', message)
  })
  fastify.addHook('onRequest', async (request, reply) => {
    if (request.url.startsWith('/api/')) await apiLimit(request, reply)
  })

  if (oauth) await fastify.register(ingressSignIns, { oauth, options: config.options, audit, sameOriginOnly, now: clock.now })
  if (opts.services.approvals) await fastify.register(ingressApprovals, { approvals: opts.services.approvals, options: config.options, sameOriginOnly })

  await fastify.register(fastifyStatic, { root: opts.publicDir ?? DEFAULT_PUBLIC_DIR, prefix: '/', cacheControl: false, logLevel: 'warn' })

  // Each endpoint's answer and refusals are the panel's (src/ingress/panel.ts); a refusal it throws reaches panelFastifyRefusal.
  fastify.get('/api/overview', async () => await panel.overview())
  fastify.get<{ Querystring: { reveal?: string } }>('/api/connect', async request => await panel.connect(request.headers, request.query.reveal === '1', request.log))
  fastify.post('/api/token/regenerate', { onRequest: sameOriginOnly }, async request => await panel.regenerate(request.body, request.headers, ingressUser(request), request.log))
  fastify.get<{ Querystring: { tool?: string, outcome?: string } }>('/api/activity', async request => await panel.activity(request.query))
  fastify.get('/api/tokens', async () => panel.tokens())
  fastify.post('/api/tokens', { onRequest: sameOriginOnly }, async (request, reply) => await reply.code(201).send(await panel.createToken(request.body, request.log)))
  fastify.delete<{ Params: { id: string } }>('/api/tokens/:id', { onRequest: sameOriginOnly }, async request => await panel.revokeToken(request.params.id, request.log))
}

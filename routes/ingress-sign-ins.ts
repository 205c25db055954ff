import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { z } from 'zod'
import { answerSignIn } from '../src/oauth/approval.ts'
import type { AuthorizationServer } from '../src/oauth/authorization-server.ts'
import { clientDocumentHost } from '../src/oauth/client-documents.ts'
import { LEVEL_SCOPES, OAUTH_SCOPES, scopeEnabled } from '../src/oauth/scopes.ts'
import type { Options } from '../src/options.ts'
import { levelSchema, scopeSchema } from '../src/auth/identity.ts'
import type { AuditApi } from '../src/policy/types.ts'
import { refusalBody } from '../src/errors.ts'

export interface IngressSignInOptions {
  oauth: AuthorizationServer
  options: Options
  audit?: AuditApi
  /** The page's anti-forgery check for mutations. */
  sameOriginOnly: (request: FastifyRequest, reply: FastifyReply) => Promise<void>
  /** The one clock's `now` (src/clock.ts). */
  now: () => number
}

const decisionBody = z.object({
  action: z.enum(['approve', 'deny']),
  /** One level (each includes the ones below) and camera on top, as the consent page offers. */
  level: levelSchema.optional(),
  camera: z.boolean().optional(),
  /** The older form: a list of scopes, which must already be a level (read+manage is refused). */
  scopes: z.array(scopeSchema).optional()
})

function header (request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name]
  const text = Array.isArray(value) ? value[0] : value
  return text?.trim() ? text.trim().slice(0, 100) : undefined
}

/** The Home Assistant user behind an ingress request, from the headers the Supervisor's proxy adds. */
export function ingressUser (request: FastifyRequest): { id: string, name: string } {
  const id = header(request, 'x-remote-user-id')
  const name = header(request, 'x-remote-user-display-name') ?? header(request, 'x-remote-user-name')
  return { id: id ? `ha_user:${id}` : 'ha_user:unknown', name: name ?? (id ? `Home Assistant user ${id}` : 'Home Assistant user') }
}

/**
 * The Sign-ins tab: OAuth sign-ins waiting for approval (the code matches the consent page) and the
 * user's answer. Registered inside the ingress routes, so only the ingress proxy reaches it.
 */
export default async function ingressSignIns (fastify: FastifyInstance, opts: IngressSignInOptions): Promise<void> {
  const { oauth, options } = opts

  fastify.get('/api/sign-ins', async () => {
    const now = opts.now()
    return {
      waiting: oauth.requests.waiting().map(r => ({
        id: r.id,
        short_code: r.shortCode,
        client_name: r.clientName,
        // A client known by its metadata document URL: its domain is its identity (src/oauth/client-documents.ts).
        client_host: clientDocumentHost(r.clientId) ?? null,
        redirect_host: r.redirectHost,
        scopes: r.scopes,
        scopes_off: r.scopes.filter(s => !scopeEnabled(s, options)),
        /** The levels to choose from (each includes the ones below) and whether camera is asked on top. */
        levels: LEVEL_SCOPES.filter(s => r.scopes.includes(s)),
        camera: r.scopes.includes('camera'),
        expires_in_s: Math.max(0, Math.round((r.expiresAt - r.createdAt - (now - r.createdAt)) / 1000))
      })),
      scopes: OAUTH_SCOPES
    }
  })

  fastify.post<{ Params: { id: string } }>('/api/sign-ins/:id', { onRequest: opts.sameOriginOnly }, async (request, reply) => {
    const parsed = decisionBody.safeParse(request.body)
    if (!parsed.success) return await reply.code(400).send(refusalBody(400, 'HAMCP_INVALID_ARGUMENT', 'send {"action": "approve"|"deny", "level": "read"|"write"|"manage", "camera": true|false}'))
    const pending = oauth.requests.get(request.params.id)
    if (!pending || pending.outcome) return await reply.code(404).send(refusalBody(404, 'HAMCP_NOT_FOUND', 'this sign-in request expired or was already answered'))
    const user = ingressUser(request)
    const { action, ...choice } = parsed.data
    const answer = answerSignIn(oauth, opts.audit, pending, { action, choice, by: user, approvedBy: user.name })
    if (!answer.settled) return await reply.code(400).send(refusalBody(400, 'HAMCP_INVALID_ARGUMENT', answer.error))
    request.log.notice({ client: pending.clientName, code: pending.shortCode, user: user.name, approved: answer.approved }, 'OAuth sign-in answered in the panel')
    return { approved: answer.approved, scopes: answer.scopes }
  })
}

import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { z } from 'zod'
import { refusalBody } from '../src/errors.ts'
import type { Options } from '../src/options.ts'
import type { OwnerApprovals } from '../src/policy/approvals.ts'
import { ingressUser } from './ingress-sign-ins.ts'

export interface IngressApprovalOptions {
  approvals: OwnerApprovals
  options: Options
  sameOriginOnly: (request: FastifyRequest, reply: FastifyReply) => Promise<void>
}

const decisionBody = z.object({ decision: z.enum(['approve', 'deny']) })

/**
 * The Approvals list of the panel (`confirm_with: owner`): the calls waiting for the owner, exactly
 * what each will do and who asked, and the owner's Approve / Deny. Registered inside the ingress
 * routes, so only the ingress proxy (Home Assistant's admin-only panel) reaches it. An approval runs
 * the call before this answers, so the page shows what it did.
 */
export default async function ingressApprovals (fastify: FastifyInstance, opts: IngressApprovalOptions): Promise<void> {
  const { approvals, options } = opts

  fastify.get('/api/approvals', async () => ({ confirm_with: options.confirm_with, approvals: approvals.list() }))

  fastify.post<{ Params: { id: string } }>('/api/approvals/:id', { onRequest: opts.sameOriginOnly }, async (request, reply) => {
    const parsed = decisionBody.safeParse(request.body)
    if (!parsed.success) return await reply.code(400).send(refusalBody(400, 'HAMCP_INVALID_ARGUMENT', 'send {"decision": "approve"|"deny"}'))
    const user = ingressUser(request)
    const decided = await approvals.decide({ id: request.params.id }, parsed.data.decision, 'owner_panel', user.name)
    if (!decided) return await reply.code(404).send(refusalBody(404, 'HAMCP_NOT_FOUND', 'no such approval (it may have been decided and collected already)'))
    const { approval } = decided
    if (!decided.decided) return await reply.code(409).send(refusalBody(409, 'HAMCP_CONFLICT', `this approval is no longer waiting: it is ${approval.state}`))
    request.log.notice({ call: approval.call, asked_by: approval.asked_by, user: user.name, decision: parsed.data.decision, state: approval.state }, 'a call waiting for the owner was decided in the panel')
    return { approval }
  })
}

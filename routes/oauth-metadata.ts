import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { AUTHORIZATION_SERVER_PATH, authorizationServerMetadata, MCP_PATH, PROTECTED_RESOURCE_PATH, protectedResourceMetadata } from '../src/oauth/metadata.ts'
import type { OAuthContext } from './oauth.ts'

/** RFC 9728 and RFC 8414 metadata: always a direct 200 (Home Assistant treats a redirect as a failure). */
export default async function oauthMetadataRoutes (fastify: FastifyInstance, opts: { context: OAuthContext }): Promise<void> {
  const { originOf, browserOrigin } = opts.context
  const badHost = async (reply: FastifyReply): Promise<FastifyReply> =>
    await reply.code(400).send({ error: 'invalid_request', error_description: 'the Host header is not a host name' })

  const protectedResource = async (request: FastifyRequest, reply: FastifyReply): Promise<unknown> => {
    const origin = originOf(request)
    if (!origin) return await badHost(reply)
    return protectedResourceMetadata(origin)
  }
  fastify.get(PROTECTED_RESOURCE_PATH, protectedResource)
  fastify.get(`${PROTECTED_RESOURCE_PATH}${MCP_PATH}`, protectedResource)

  fastify.get(AUTHORIZATION_SERVER_PATH, async (request, reply) => {
    const origin = originOf(request)
    if (!origin) return await badHost(reply)
    return authorizationServerMetadata(origin, await browserOrigin(origin))
  })
}

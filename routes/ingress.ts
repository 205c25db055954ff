import type { Clock } from '../src/clock.ts'
import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import fastifyStatic from '@fastify/static'
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { z } from 'zod'
import { PrimaryTokenLocked, regeneratePrimaryToken } from '../src/auth/bootstrap.ts'
import { CATEGORY_PATTERN, levelSchema, scopeSchema } from '../src/auth/identity.ts'
import type { TokenStore } from '../src/auth/tokens.ts'
import { scopesClosed, SCOPES_NOT_CLOSED } from '../src/oauth/scopes.ts'
import type { Config } from '../src/config.ts'
import { HomeAssistantError, refusalBody, type HomeAssistantErrorCode, type RefusalCode } from '../src/errors.ts'
import { clientConfigs } from '../src/connect/client-configs.ts'
import type { HomeAssistant } from '../src/ha/index.ts'
import type { HomeView } from '../src/home/view.ts'
import { connectionSummary, filterAudit, tokenCategories, toolCounts, visibleOptions } from '../src/ingress/status.ts'
import { hostPortLookup } from '../src/addon/host-port.ts'
import { INGRESS_PROXY_ADDRESS, isLoopbackAddress, mcpUrlFor, rebindingRefusal } from '../src/hosts.ts'
import { maskSecret } from '../src/logger.ts'
import { globList } from '../src/options.ts'
import type { ToolCatalog } from '../src/mcp/runtime/registry.ts'
import type { AuditApi } from '../src/policy/types.ts'
import type { RequestLimits } from '../src/request-limits.ts'
import type { UsageCounters } from '../src/mcp/runtime/usage.ts'
import type { AuthorizationServer } from '../src/oauth/authorization-server.ts'
import ingressSignIns, { ingressUser } from './ingress-sign-ins.ts'
import ingressApprovals from './ingress-approvals.ts'
import type { OwnerApprovals } from '../src/policy/approvals.ts'
import { fastifyRefusal, HttpRefusal } from '../plugins/refusals.ts'

/** The services of the MCP app the ingress page reads; shared, never duplicated. */
export interface IngressServices {
  config: Config
  ha: HomeAssistant
  home: HomeView
  tokens: TokenStore
  usage: UsageCounters
  catalog: ToolCatalog
  /** The primary token at start (the page reads the current one from `tokens`, which regenerate replaces). */
  primaryToken: string
  /** The logger's secret scrubber: a regenerated token is masked in every line too. */
  secrets?: { add: (secret: string) => void }
  audit?: AuditApi
  /** OAuth sign-ins (consent in the panel, grants on the Tokens tab), when the app runs them. */
  oauth?: AuthorizationServer | null
  requestLimits: RequestLimits
  /** The one clock (src/clock.ts). */
  clock: Clock
  /** Calls waiting for the owner's approval (`confirm_with: owner`), when the app guards writes. */
  approvals?: OwnerApprovals
}

export interface IngressOptions {
  services: IngressServices
  /** Folder of the page's static files. */
  publicDir?: string
}

// routes/ingress.ts in development, bundled into dist/app/ in the image (scripts/build.ts): the page sits at the app root in both.
export const DEFAULT_PUBLIC_DIR = ['../ingress/public/', '../../ingress/public/']
  .map(relative => fileURLToPath(new URL(relative, import.meta.url)))
  .find(dir => existsSync(dir)) ?? fileURLToPath(new URL('../ingress/public/', import.meta.url))

const createTokenBody = z.object({
  name: z.string().trim().min(1, 'a name is required').max(64),
  levels: z.record(z.string().regex(CATEGORY_PATTERN, 'unknown category'), levelSchema).optional(),
  /** The older form: four flat scopes. */
  scopes: z.array(scopeSchema).optional(),
  // The options' own list schema (src/options.ts): a token's lists take what the options take.
  entity_allowlist: globList.optional(),
  entity_denylist: globList.optional()
}).refine(body => Object.values(body.levels ?? {}).some(level => level !== 'none') || (body.scopes?.length ?? 0) > 0, 'give at least one category a level')
  // What is ticked is what the token can do: read+manage cannot be a level, so it is refused, not widened.
  .refine(body => body.scopes === undefined || scopesClosed(body.scopes), `scopes: ${SCOPES_NOT_CLOSED}`)

/** Answers a refusal of the panel: `{error, code, message}` (docs/errors.md, "Refusals of the panel"); the page shows `message`. */
async function refuse (reply: FastifyReply, status: number, code: RefusalCode | HomeAssistantErrorCode, message: string): Promise<FastifyReply> {
  return await reply.code(status).send(refusalBody(status, code, message))
}

/** Fastify's own refusals (body parsing, limits) as the panel's coded body; anything else is a bug, logged. */
async function panelFastifyRefusal (error: FastifyError, request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
  const refusal = fastifyRefusal(error, 'Content-Type: application/json')
  if (refusal) return await refuse(reply, refusal.status, refusal.code, refusal.message)
  request.log.error({ err: error }, 'ingress request failed')
  return await refuse(reply, 500, 'HAMCP_INTERNAL', 'Internal error; the add-on log has the details.')
}

/**
 * The status and onboarding page in Home Assistant's sidebar: static files plus a small JSON API
 * under api/. Every URL is relative so it works under the X-Ingress-Path prefix.
 */
export default async function ingressRoutes (fastify: FastifyInstance, opts: IngressOptions): Promise<void> {
  const { config, ha, home, tokens, usage, catalog, audit, oauth, clock } = opts.services
  fastify.setErrorHandler(panelFastifyRefusal)
  fastify.setNotFoundHandler(async (request, reply) => await refuse(reply, 404, 'HAMCP_NOT_FOUND', `${request.method} ${request.url.split('?')[0] ?? ''} does not exist on the panel.`))
  // The API reads JSON only; a text/plain body (what a cross-site form can send) is refused with 415.
  fastify.removeContentTypeParser('text/plain')

  fastify.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
    const address = request.socket.remoteAddress ?? ''
    const allowed = config.addonMode ? address === INGRESS_PROXY_ADDRESS : isLoopbackAddress(address)
    if (!allowed) {
      request.log.notice({ address }, 'refused an ingress request from outside the ingress proxy')
      await refuse(reply, 403, 'HAMCP_INGRESS_ONLY', 'This page is only served through Home Assistant\'s sidebar (ingress).')
      return
    }
    // On loopback (dev, demo) a rebound name is the attack; in the add-on only the proxy reaches us,
    // behind Home Assistant's own login, and it forwards the browser's Host as it likes.
    const rebound = config.addonMode ? undefined : rebindingRefusal({ host: request.headers.host, origin: request.headers.origin })
    if (rebound !== undefined) {
      request.log.notice({ address, host: request.headers.host, origin: request.headers.origin }, `refused an ingress request: ${rebound} (DNS rebinding?)`)
      await refuse(reply, 403, 'HAMCP_ORIGIN_NOT_ALLOWED', `${rebound}: open the page as http://localhost:${config.ingressPort}/.`)
      return
    }
    reply.header('cache-control', 'no-store')
  })
  // Mutations need a header a cross-site form cannot send, so a foreign page cannot create tokens.
  const sameOriginOnly = async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
    if (request.headers['x-ha-mcp-ui'] !== '1') {
      await refuse(reply, 403, 'HAMCP_UI_HEADER_MISSING', 'missing X-HA-MCP-UI header')
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

  /** Visible entities (filter_reads applied); the raw count while the catalogue cannot be brought up to date. */
  const entityCount = async (): Promise<number> => {
    try {
      await home.ready()
      return home.entities().length
    } catch {
      return ha.status().entities
    }
  }

  fastify.get('/api/overview', async () => {
    const status = ha.status()
    const entities = await entityCount()
    return {
      version: config.version,
      uptime_s: Math.round((clock.now() - usage.startedAt) / 1000),
      addon_mode: config.addonMode,
      home_assistant: connectionSummary(status, clock.now()),
      entities,
      tools: toolCounts(catalog, config.options),
      options: visibleOptions(config.options),
      option_problems: config.optionProblems,
      writes_off: config.writesBlockedBy.length > 0,
      calls: usage.snapshot().total
    }
  })

  const hostPort = hostPortLookup(config.addonMode && ha.supervisor.available ? ha.supervisor : undefined, config.mcpPort, undefined, clock.now)

  fastify.get<{ Querystring: { reveal?: string } }>('/api/connect', async request => {
    const reveal = request.query.reveal === '1'
    const primaryToken = tokens.primary()
    const token = reveal ? primaryToken : maskSecret(primaryToken)
    const { port } = await hostPort()
    const url = mcpUrlFor(request.headers, port ?? config.mcpPort, config.addonMode)
    if (reveal) request.log.notice('the API token was revealed on the ingress page')
    const note = port === null ? 'The MCP port is disabled in the add-on\'s Network section: give it a host port to connect from your network.' : null
    return { url, token, revealed: reveal, port_disabled: port === null, note, clients: clientConfigs(url, token) }
  })

  // Regenerate: a new primary token at once; the old one gets 401 saying where the new one is.
  fastify.post('/api/token/regenerate', { onRequest: sameOriginOnly }, async (request, reply) => {
    if ((request.body as { confirm?: unknown } | null)?.confirm !== true) {
      return await refuse(reply, 400, 'HAMCP_INVALID_ARGUMENT', 'send {"confirm": true}: every client using the current token stops working at once')
    }
    const user = ingressUser(request)
    let result: { token: string, optionsWritten: boolean }
    try {
      result = await regeneratePrimaryToken({
        tokens,
        dataDir: config.dataDir,
        ...(config.addonMode && ha.supervisor.available ? { supervisor: ha.supervisor } : {}),
        ...(opts.services.secrets ? { secrets: opts.services.secrets } : {})
      })
    } catch (err) {
      if (err instanceof PrimaryTokenLocked) return await refuse(reply, 409, 'HAMCP_NOT_SUPPORTED', err.message)
      request.log.error({ err }, 'the API token could not be regenerated; the old one stays')
      const code = err instanceof HomeAssistantError ? err.code : 'HAMCP_UNAVAILABLE'
      return await refuse(reply, 503, code, `The new token could not be saved in the add-on options (${(err as Error).message}); nothing changed, the current token still works.`)
    }
    // Sessions and streams opened with the old token ended with it (src/auth/revocations.ts).
    request.log.notice({ user: user.name, apiToken: maskSecret(result.token), optionsWritten: result.optionsWritten }, 'the API token was regenerated on the ingress page; the old one no longer works')
    audit?.record({ tool: 'api_token_regenerated', identity: user.id, identity_name: user.name, outcome: 'allowed', reason: 'regenerated the primary API token on the ingress page; the old one stopped working' })
    const { port } = await hostPort()
    const url = mcpUrlFor(request.headers, port ?? config.mcpPort, config.addonMode)
    return {
      regenerated: true,
      url,
      token: result.token,
      revealed: true,
      options_written: result.optionsWritten,
      note: 'The old token stopped working. Give every client that used it the new one (the snippets below carry it).',
      clients: clientConfigs(url, result.token)
    }
  })

  fastify.get<{ Querystring: { tool?: string, outcome?: string } }>('/api/activity', async request => {
    await home.ready().catch(() => {})
    const all = audit?.recent(200) ?? []
    const entries = filterAudit(all, { tool: request.query.tool, outcome: request.query.outcome })
      .map(e => ({
        ...e,
        ...(e.entities ? { entities: e.entities.filter(id => home.visible(id)) } : {}),
        // A failure reason is Home Assistant's free text and may name a hidden entity.
        ...(e.reason ? { reason: home.scrub(e.reason) } : {})
      }))
    const names = new Map<string, string>([
      ['primary', 'primary token'],
      ...tokens.list().map(t => [`token:${t.id}`, t.name] as [string, string]),
      ...(oauth?.grants() ?? []).map(g => [`oauth:${g.id}`, `${g.client_name} (sign-in)`] as [string, string])
    ])
    const counters = usage.snapshot()
    return {
      usage: { ...counters, byIdentity: counters.byIdentity.map(i => ({ ...i, name: names.get(i.identity) ?? `${i.identity} (revoked)` })) },
      audit_available: audit !== undefined,
      audit: entries,
      audit_tools: [...new Set(all.map(e => e.tool))].sort()
    }
  })

  fastify.get('/api/tokens', async () => ({ tokens: tokens.list(), sign_ins: oauth?.grants() ?? [], categories: tokenCategories(catalog, config.options) }))

  fastify.post('/api/tokens', { onRequest: sameOriginOnly }, async (request, reply) => {
    const parsed = createTokenBody.safeParse(request.body)
    if (!parsed.success) {
      return await refuse(reply, 400, 'HAMCP_INVALID_ARGUMENT', parsed.error.issues.map(i => i.message).join('; '))
    }
    if (tokens.list().some(t => t.name === parsed.data.name)) {
      return await refuse(reply, 409, 'HAMCP_ALREADY_EXISTS', `a token named "${parsed.data.name}" already exists`)
    }
    const created = await tokens.create(parsed.data)
    request.log.notice({ name: created.entry.name, levels: created.entry.levels, prefix: created.entry.prefix }, 'named token created on the ingress page')
    return await reply.code(201).send(created)
  })

  fastify.delete<{ Params: { id: string } }>('/api/tokens/:id', { onRequest: sameOriginOnly }, async (request, reply) => {
    // A sign-in (OAuth grant) is a named token too: revoking ends its access and refresh tokens at once.
    const id = request.params.id
    // Its open sessions and streams end with it (src/auth/revocations.ts), not only its next request.
    const revoked = await tokens.revoke(id) || (await oauth?.revokeGrant(id, 'revoked on the ingress page') ?? false)
    if (!revoked) return await refuse(reply, 404, 'HAMCP_NOT_FOUND', 'no token with this id')
    request.log.notice({ id: request.params.id }, 'named token revoked on the ingress page')
    return { revoked: true }
  })
}

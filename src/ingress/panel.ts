/**
 * The panel's JSON API (the ingress page in Home Assistant's sidebar), without Fastify: who may reach
 * it, and what each endpoint answers or refuses. routes/ingress.ts maps URLs onto these functions and
 * writes an `HttpRefusal` as `refusalBody`; the answers here are the response bodies as sent.
 */
import type { IncomingHttpHeaders } from 'node:http'
import { z } from 'zod'
import { hostPortLookup } from '../addon/host-port.ts'
import { PrimaryTokenLocked, regeneratePrimaryToken } from '../auth/bootstrap.ts'
import { CATEGORY_PATTERN, levelSchema, scopeSchema } from '../auth/identity.ts'
import type { TokenStore } from '../auth/tokens.ts'
import type { Clock } from '../clock.ts'
import type { Config } from '../config.ts'
import { clientConfigs } from '../connect/client-configs.ts'
import { HomeAssistantError, HttpRefusal } from '../errors.ts'
import type { HomeAssistant } from '../ha/index.ts'
import type { HomeView } from '../home/view.ts'
import { INGRESS_PROXY_ADDRESS, isLoopbackAddress, mcpUrlFor, rebindingRefusal } from '../hosts.ts'
import { maskSecret, type AppLogger } from '../logger.ts'
import type { ToolCatalog } from '../mcp/runtime/registry.ts'
import type { UsageCounters } from '../mcp/runtime/usage.ts'
import type { AuthorizationServer } from '../oauth/authorization-server.ts'
import { scopesClosed, SCOPES_NOT_CLOSED } from '../oauth/scopes.ts'
import { globList } from '../options.ts'
import type { OwnerApprovals } from '../policy/approvals.ts'
import type { AuditApi } from '../policy/types.ts'
import type { RequestLimits } from '../request-limits.ts'
import { connectionSummary, filterAudit, tokenCategories, toolCounts, visibleOptions } from './status.ts'

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

/** The Home Assistant user behind an ingress request, as the Supervisor's proxy names it. */
export interface PanelUser { id: string, name: string }

/** Where a panel request came from: the socket's address and the browser's headers. */
export interface PanelRequestFrom { address: string, host?: string, origin?: string }

/**
 * Whether a request may reach the panel: in the add-on only from the ingress proxy, elsewhere (dev,
 * demo) only over loopback and under a name of this machine. Logs each refusal at notice.
 */
export function panelAccess (config: Pick<Config, 'addonMode' | 'ingressPort'>, from: PanelRequestFrom, log: AppLogger): HttpRefusal | undefined {
  const { address } = from
  const allowed = config.addonMode ? address === INGRESS_PROXY_ADDRESS : isLoopbackAddress(address)
  if (!allowed) {
    log.notice({ address }, 'refused an ingress request from outside the ingress proxy')
    return new HttpRefusal(403, 'HAMCP_INGRESS_ONLY', 'This page is only served through Home Assistant\'s sidebar (ingress).')
  }
  // On loopback (dev, demo) a rebound name is the attack; in the add-on only the proxy reaches us,
  // behind Home Assistant's own login, and it forwards the browser's Host as it likes.
  const rebound = config.addonMode ? undefined : rebindingRefusal({ host: from.host, origin: from.origin })
  if (rebound !== undefined) {
    log.notice({ address, host: from.host, origin: from.origin }, `refused an ingress request: ${rebound} (DNS rebinding?)`)
    return new HttpRefusal(403, 'HAMCP_ORIGIN_NOT_ALLOWED', `${rebound}: open the page as http://localhost:${config.ingressPort}/.`)
  }
  return undefined
}

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

/** The panel's endpoints over the app's services; each throws an `HttpRefusal` to refuse. */
export function createPanelApi (services: IngressServices) {
  const { config, ha, home, tokens, usage, catalog, audit, oauth, clock } = services
  const hostPort = hostPortLookup(config.addonMode && ha.supervisor.available ? ha.supervisor : undefined, config.mcpPort, undefined, clock.now)
  const mcpUrl = async (headers: IncomingHttpHeaders): Promise<{ url: string, port: number | null }> => {
    const { port } = await hostPort()
    return { url: mcpUrlFor(headers, port ?? config.mcpPort, config.addonMode), port }
  }

  /** Visible entities (filter_reads applied); the raw count while the catalogue cannot be brought up to date. */
  const entityCount = async (): Promise<number> => {
    try {
      await home.ready()
      return home.entities().length
    } catch {
      return ha.status().entities
    }
  }

  return {
    /** GET /api/overview */
    async overview () {
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
    },

    /** GET /api/connect: the MCP URL, the primary token (masked unless `reveal`) and client snippets. */
    async connect (headers: IncomingHttpHeaders, reveal: boolean, log: AppLogger) {
      const primaryToken = tokens.primary()
      const token = reveal ? primaryToken : maskSecret(primaryToken)
      const { url, port } = await mcpUrl(headers)
      if (reveal) log.notice('the API token was revealed on the ingress page')
      const note = port === null ? 'The MCP port is disabled in the add-on\'s Network section: give it a host port to connect from your network.' : null
      return { url, token, revealed: reveal, port_disabled: port === null, note, clients: clientConfigs(url, token) }
    },

    /** POST /api/token/regenerate: a new primary token at once; the old one gets 401 saying where the new one is. */
    async regenerate (body: unknown, headers: IncomingHttpHeaders, user: PanelUser, log: AppLogger) {
      if ((body as { confirm?: unknown } | null)?.confirm !== true) {
        throw new HttpRefusal(400, 'HAMCP_INVALID_ARGUMENT', 'send {"confirm": true}: every client using the current token stops working at once')
      }
      let result: { token: string, optionsWritten: boolean }
      try {
        result = await regeneratePrimaryToken({
          tokens,
          dataDir: config.dataDir,
          ...(config.addonMode && ha.supervisor.available ? { supervisor: ha.supervisor } : {}),
          ...(services.secrets ? { secrets: services.secrets } : {})
        })
      } catch (err) {
        if (err instanceof PrimaryTokenLocked) throw new HttpRefusal(409, 'HAMCP_NOT_SUPPORTED', err.message)
        log.error({ err }, 'the API token could not be regenerated; the old one stays')
        const code = err instanceof HomeAssistantError ? err.code : 'HAMCP_UNAVAILABLE'
        throw new HttpRefusal(503, code, `The new token could not be saved in the add-on options (${(err as Error).message}); nothing changed, the current token still works.`)
      }
      // Sessions and streams opened with the old token ended with it (src/auth/revocations.ts).
      log.notice({ user: user.name, apiToken: maskSecret(result.token), optionsWritten: result.optionsWritten }, 'the API token was regenerated on the ingress page; the old one no longer works')
      audit?.record({ tool: 'api_token_regenerated', identity: user.id, identity_name: user.name, outcome: 'allowed', reason: 'regenerated the primary API token on the ingress page; the old one stopped working' })
      const { url } = await mcpUrl(headers)
      return {
        regenerated: true,
        url,
        token: result.token,
        revealed: true,
        options_written: result.optionsWritten,
        note: 'The old token stopped working. Give every client that used it the new one (the snippets below carry it).',
        clients: clientConfigs(url, result.token)
      }
    },

    /** GET /api/activity: usage counters and the audit's recent lines, hidden entities left out. */
    async activity (query: { tool?: string, outcome?: string }) {
      await home.ready().catch(() => {})
      const all = audit?.recent(200) ?? []
      const entries = filterAudit(all, { tool: query.tool, outcome: query.outcome })
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
    },

    /** GET /api/tokens */
    tokens () {
      return { tokens: tokens.list(), sign_ins: oauth?.grants() ?? [], categories: tokenCategories(catalog, config.options) }
    },

    /** POST /api/tokens: a named token (answered 201 with its secret, shown once). */
    async createToken (body: unknown, log: AppLogger) {
      const parsed = createTokenBody.safeParse(body)
      if (!parsed.success) throw new HttpRefusal(400, 'HAMCP_INVALID_ARGUMENT', parsed.error.issues.map(i => i.message).join('; '))
      if (tokens.list().some(t => t.name === parsed.data.name)) throw new HttpRefusal(409, 'HAMCP_ALREADY_EXISTS', `a token named "${parsed.data.name}" already exists`)
      const created = await tokens.create(parsed.data)
      log.notice({ name: created.entry.name, levels: created.entry.levels, prefix: created.entry.prefix }, 'named token created on the ingress page')
      return created
    },

    /**
     * DELETE /api/tokens/:id: a named token or a sign-in (an OAuth grant is a named token too: revoking
     * ends its access and refresh tokens at once). Its open sessions and streams end with it
     * (src/auth/revocations.ts), not only its next request.
     */
    async revokeToken (id: string, log: AppLogger) {
      const revoked = await tokens.revoke(id) || (await oauth?.revokeGrant(id, 'revoked on the ingress page') ?? false)
      if (!revoked) throw new HttpRefusal(404, 'HAMCP_NOT_FOUND', 'no token with this id')
      log.notice({ id }, 'named token revoked on the ingress page')
      return { revoked: true }
    }
  }
}

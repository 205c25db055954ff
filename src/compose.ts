/**
 * The composition root: every shared service is built here, once, from plain factories. Fastify
 * plugins (plugins/) get the ones they use in their registration options (app/app.ts) and hook their
 * lifecycles; tools get theirs typed, in `ctx.services` (src/mcp/runtime/services.ts). Nothing here listens, connects or starts a
 * timer: `ha.start()` and the sweeps belong to the plugins' lifecycle hooks. Every service, plugin and
 * tool keeps time on the one clock built here (src/clock.ts).
 */
import { AuthBackoff, type BackoffOptions } from './auth/backoff.ts'
import { realClock, type Clock } from './clock.ts'
import type { Identity } from './auth/identity.ts'
import { Revocations } from './auth/revocations.ts'
import { TokenStore, type TokenSource } from './auth/tokens.ts'
import type { Config } from './config.ts'
import { HomeAssistant, type HomeAssistantOptions } from './ha/index.ts'
import { InternTable } from './intern.ts'
import { EntityCatalog } from './home/catalog.ts'
import { HomeView } from './home/view.ts'
import { Visibility } from './home/visibility.ts'
import type { AppLogger } from './logger.ts'
import type { ToolContext } from './mcp/runtime/define-tool.ts'
import type { McpServerDeps } from './mcp/handlers.ts'
import { createHomeSurface } from './mcp/content/home-surface.ts'
import { SERVER_INSTRUCTIONS } from './mcp/content/instructions.ts'
import type { ToolCatalog } from './mcp/runtime/registry.ts'
import type { ToolServices } from './mcp/runtime/services.ts'
import type { McpSurface } from './mcp/content/surface.ts'
import { AuthorizationServer } from './oauth/authorization-server.ts'
import type { ClientDocumentOptions } from './oauth/client-documents.ts'
import { createPolicy, type PolicyOptions, type PolicyServices } from './policy/create.ts'
import { requestLimits, type RequestLimits } from './request-limits.ts'
import { createSessionService, type SessionService, type SessionsOptions } from './sessions/service.ts'
import { UsageCounters } from './mcp/runtime/usage.ts'

export interface ServiceDeps {
  config: Config
  primaryToken: string
  /** Where it came from (src/auth/bootstrap.ts): a token from MCP_API_TOKEN cannot be regenerated on the page. */
  primarySource?: TokenSource
  /** The logger's secret scrubber: a regenerated primary token is masked in every line too. */
  secrets?: { add: (secret: string) => void }
  log: AppLogger
  catalog: ToolCatalog
  /** Resources, prompts and completions; the home's by default. */
  surface?: McpSurface
  /** Shorter retry and ping timings for tests. */
  homeAssistant?: { connection?: HomeAssistantOptions['connection'] }
  backoff?: BackoffOptions
  policy?: PolicyOptions
  sessions?: SessionsOptions
  /** Request rate limits (src/request-limits.ts) over the environment's (`config.requestLimits`); tests pass their own. */
  requestLimits?: Partial<RequestLimits>
  /**
   * The one clock: every expiry, window, timestamp, retry and sweep the services, plugins and tools
   * keep reads it. Real time unless a test passes its own; `policy.now`, `oauth.now`, `backoff.now`
   * and `sessions.now`/`schedule` narrow it to one service.
   */
  clock?: Clock
  /** OAuth sign-in: an injected clock (tests), where browsers reach the add-on, how client documents are fetched. */
  oauth?: { now?: () => number, authorizationOrigin?: (requestOrigin: string) => Promise<string>, clientDocuments?: ClientDocumentOptions }
}

export interface Services {
  config: Config
  catalog: ToolCatalog
  /** The one clock (src/clock.ts): plugins start their sweeps and read the time on it. */
  clock: Clock
  /** Shown on the ingress page only when the user asks to reveal or copy it. */
  primaryToken: string
  /** The logger's secret scrubber, when the caller passed it (a regenerated token is added). */
  secrets?: { add: (secret: string) => void }
  /** The one connection to Home Assistant (started by plugins/home-assistant.ts). */
  ha: HomeAssistant
  /** The filtered read view over it (filter_reads applied). */
  home: HomeView
  tokens: TokenStore
  /** "This credential is dead": the token store and the sign-ins announce it, sessions and streams end with it. */
  revocations: Revocations
  /** OAuth grants (access tokens) and the authorization server's state. */
  oauth: AuthorizationServer
  /** Per-address backoff after failed authentications. */
  backoff: AuthBackoff
  usage: UsageCounters
  policy: PolicyServices
  /** What every tool handler gets in `ctx.services`. */
  tools: ToolServices
  /** What the MCP handlers need, for the stateless endpoint and every session. */
  mcp: McpServerDeps
  sessions: SessionService
  requestLimits: RequestLimits
}

export function createServices (deps: ServiceDeps): Services {
  const { config, log } = deps
  const { homeAssistant, supervisor, options } = config
  // Real time unless a test brings its clock; everything below keeps time on this one.
  const clock = deps.clock ?? realClock
  const { now } = clock
  // One table of the texts many entities repeat, shared by the states, the registries and the catalogue.
  const texts = new InternTable()
  const ha = new HomeAssistant({
    mode: homeAssistant.mode,
    baseUrl: homeAssistant.baseUrl,
    token: homeAssistant.token,
    supervisorUrl: supervisor.url,
    supervisorToken: supervisor.token,
    log: log.child({ component: 'ha' }),
    connection: deps.homeAssistant?.connection,
    clock,
    texts
  })
  const home = new HomeView(ha, new EntityCatalog(ha), new Visibility(options), { now: deps.policy?.now ?? now })
  // An access token's expiry is the OAuth server's time: a stream it opened ends on that same clock.
  const revocations = new Revocations({ clock: { now: deps.oauth?.now ?? now, schedule: clock.schedule }, onError: err => { log.error({ err }, 'ending what a revoked credential held failed') } })
  const tokens = new TokenStore({ dataDir: config.dataDir, primary: deps.primaryToken, primarySource: deps.primarySource, onError: message => log.error(message), now, revocations })
  const oauth = new AuthorizationServer({
    dataDir: config.dataDir,
    now: deps.oauth?.now ?? now,
    revocations,
    schedule: clock.schedule,
    clientDocuments: deps.oauth?.clientDocuments,
    log: { error: message => log.error(message), warn: message => log.warn(message) }
  })
  const usage = new UsageCounters(now)
  const policy = createPolicy({ ha, options: () => config.options, dataDir: config.dataDir, log, now, schedule: clock.schedule, ...deps.policy })
  // A dead credential's calls waiting for the owner can no longer be approved (an expired access token alone is not its sign-in's end).
  revocations.on(({ identity, credential }) => { if (credential === undefined) policy.approvals.revoke(identity) })
  policy.approvals.useLiveness(identity => oauth.signInAlive(identity) ?? true)
  const tools: ToolServices = {
    guard: policy.guard,
    audit: policy.audit,
    undo: policy.undo,
    writeCaps: policy.writeCaps
  }
  const context = (identity: Identity, signal?: AbortSignal, confirmer?: ToolServices['confirmer']): ToolContext => ({
    home,
    ha,
    options: config.options,
    identity,
    log,
    clock,
    // A session whose client can be asked confirms writes by elicitation instead of a token.
    services: confirmer ? { ...tools, confirmer } : tools,
    signal
  })
  const mcp: McpServerDeps = {
    name: 'ha-mcp',
    version: config.version,
    instructions: SERVER_INSTRUCTIONS,
    catalog: deps.catalog,
    options: config.options,
    surface: deps.surface ?? createHomeSurface(),
    context,
    onCall: report => usage.record(report)
  }
  const sessions = createSessionService({
    enabled: options.enable_sessions,
    mcp,
    home,
    onStateChange: listener => ha.states.onChange(listener),
    onConnectionChange: listener => ha.onConnectionChange(listener),
    revocations,
    log,
    options: { now, schedule: clock.schedule, ...deps.sessions }
  })
  return {
    config,
    catalog: deps.catalog,
    clock,
    primaryToken: deps.primaryToken,
    ...(deps.secrets ? { secrets: deps.secrets } : {}),
    ha,
    home,
    tokens,
    revocations,
    oauth,
    backoff: new AuthBackoff({ now, ...deps.backoff }),
    usage,
    policy,
    tools,
    mcp,
    sessions,
    requestLimits: requestLimits({ ...config.requestLimits, ...deps.requestLimits })
  }
}

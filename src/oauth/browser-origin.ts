import type { SupervisorApi } from '../addon/options-sync.ts'
import { hostPortLookup } from '../addon/host-port.ts'
import { realClock, within, type Clock } from '../clock.ts'
import { resolveAuthorizationOrigin, type AuthorizationOrigin } from './public-origin.ts'

export interface BrowserOriginDeps {
  addonMode: boolean
  publicUrl: string
  containerPort: number
  /** The Supervisor, in the add-on (host port and /network/info). */
  supervisor?: SupervisorApi
  /** Home Assistant's get_config (for internal_url). */
  haConfig?: () => Promise<Record<string, unknown>>
  log: { warn: (message: string) => void }
  ttlMs?: number
  /** The cache and the lookups' timeouts; real time unless a test brings its own. */
  clock?: Clock
}

const PROBLEM_HINT: Record<NonNullable<AuthorizationOrigin['problem']>, string> = {
  port_disabled: 'the MCP port is disabled in the add-on\'s Network section, so browsers cannot reach the sign-in page; publish the port or set public_url',
  no_lan_address: 'neither Home Assistant\'s internal_url nor the Supervisor names an address browsers can use for the sign-in page; set public_url'
}

/**
 * The origin of the authorization endpoint for a request that came in on `requestHost`: the lookups
 * resolveAuthorizationOrigin needs (host port, internal_url, /network/info), cached for a minute. A
 * problem is logged once per kind.
 */
export function browserOriginLookup (deps: BrowserOriginDeps): (request: { host: string | undefined, protocol: 'http' | 'https' }) => Promise<string> {
  const clock = deps.clock ?? realClock
  const now = clock.now
  const hostPort = hostPortLookup(deps.supervisor, deps.containerPort, deps.ttlMs, now)
  let facts: { at: number, internalUrl: string | null, networkInfo: unknown } | undefined
  const logged = new Set<string>()
  const ttl = deps.ttlMs ?? 60_000
  const lookupFacts = async (): Promise<{ internalUrl: string | null, networkInfo: unknown }> => {
    if (facts && now() - facts.at < ttl) return facts
    // Metadata must answer quickly (Home Assistant's client waits 10 s): a slow source counts as absent.
    const [config, networkInfo] = await Promise.all([
      withinMs(clock, deps.haConfig?.(), 2000),
      withinMs(clock, deps.supervisor?.call<unknown>('GET', '/network/info'), 2000)
    ])
    const internalUrl = typeof config?.internal_url === 'string' ? config.internal_url : null
    facts = { at: now(), internalUrl, networkInfo }
    return facts
  }
  return async request => {
    const dev = !deps.addonMode
    const port = dev ? undefined : await hostPort()
    const known = dev || deps.publicUrl !== '' ? { internalUrl: null, networkInfo: undefined } : await lookupFacts()
    const resolved = resolveAuthorizationOrigin({
      mode: dev ? 'dev' : 'addon',
      publicUrl: deps.publicUrl,
      containerPort: deps.containerPort,
      hostPort: port === undefined ? undefined : port.fromSupervisor ? port.port : undefined,
      internalUrl: known.internalUrl,
      networkInfo: known.networkInfo,
      request
    })
    if (resolved.problem && !logged.has(resolved.problem)) {
      logged.add(resolved.problem)
      deps.log.warn(`OAuth sign-in: ${PROBLEM_HINT[resolved.problem]}`)
    }
    return resolved.origin
  }
}

async function withinMs<T> (clock: Clock, work: Promise<T> | undefined, ms: number): Promise<T | undefined> {
  if (!work) return undefined
  return await within<T | undefined>(clock, ms, work.catch(() => undefined), () => undefined)
}

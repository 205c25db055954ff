/**
 * Where the user's browser finds the authorization endpoint.
 *
 * Home Assistant's MCP client talks to the add-on through its internal hostname (`http://<hostname>:9583`),
 * which only resolves inside the Supervisor's network. The token endpoint can live there, but the
 * authorization endpoint is opened by the user's browser, so it needs an address of the host the browser
 * can reach, on the port the Supervisor publishes for the MCP port (the user can change or disable it).
 */
import { hostName, httpOrigin, isLinkLocal, originOf, reachableFromLan, requestOrigin, urlHost } from '../hosts.ts'
import { isRecord } from '../shape.ts'

export type OriginSource = 'public_url' | 'request' | 'internal_url' | 'network'

/** Why the answer may not work in the user's browser; the caller logs it once. */
export type OriginProblem =
  /** The MCP port is disabled in the add-on's Network section: only public_url can help. */
  | 'port_disabled'
  /** Neither HA's internal_url nor the Supervisor named an address the browser can use. */
  | 'no_lan_address'

export interface AuthorizationOriginInput {
  /** `dev` (HA_URL/HA_TOKEN or no Home Assistant) answers with the request's own origin. */
  mode: 'addon' | 'dev'
  /** The `public_url` option, already validated by the options schema; '' when unset. */
  publicUrl: string
  /** The port the server listens on inside the container (MCP_PORT). */
  containerPort: number
  /** The port published on the host for `<containerPort>/tcp` (from /addons/self/info `network`):
   *  a number, null when the user disabled it, undefined when the Supervisor could not be asked. */
  hostPort?: number | null
  /** `internal_url` from Home Assistant's `get_config` (null when the user never set it). */
  internalUrl?: string | null
  /** The `data` of the Supervisor's GET /network/info, as it came (validated here). */
  networkInfo?: unknown
  /** The request being answered: its Host header and scheme. */
  request: { host: string | undefined, protocol: 'http' | 'https' }
}

export interface AuthorizationOrigin {
  /** Scheme, host and port, without a trailing slash: `http://192.168.1.20:9583`. */
  origin: string
  source: OriginSource
  problem?: OriginProblem
}

/** The host of HA's internal_url when a browser on the LAN can use it. */
function internalUrlHost (internalUrl: string | null | undefined): string | undefined {
  if (typeof internalUrl !== 'string' || internalUrl === '') return undefined
  const named = urlHost(internalUrl)?.hostname
  const host = named === undefined ? undefined : hostName(named)
  return host !== undefined && reachableFromLan(host, { addonMode: true }) ? host : undefined
}

/** Addresses of one family from an interface's `ipv4`/`ipv6` block (`"192.168.1.20/24"`), prefix dropped. */
function addressesOf (block: unknown): string[] {
  if (!isRecord(block) || !Array.isArray(block.address)) return []
  return block.address
    .filter((a): a is string => typeof a === 'string' && a !== '')
    .map(a => hostName(a.replace(/\/\d+$/, '')))
    .filter((a): a is string => a !== undefined)
}

/**
 * The primary interface's address from GET /network/info: IPv4 first (what people type), else a global
 * IPv6 address (link-local ones need a zone id no browser accepts in a URL).
 */
export function primaryAddress (networkInfo: unknown): string | undefined {
  if (!isRecord(networkInfo) || !Array.isArray(networkInfo.interfaces)) return undefined
  const usable = networkInfo.interfaces.filter(isRecord).filter(i => i.enabled !== false && i.connected !== false)
  const ordered = [...usable.filter(i => i.primary === true), ...usable.filter(i => i.primary !== true)]
  for (const family of ['ipv4', 'ipv6'] as const) {
    for (const iface of ordered) {
      const address = addressesOf(iface[family]).find(a => reachableFromLan(a, { addonMode: true }) && !isLinkLocal(a))
      if (address !== undefined) return address
    }
  }
  return undefined
}

/**
 * The origin the user's browser uses for the authorization endpoint. In order: the public_url option;
 * in dev mode the request's own origin; the host of Home Assistant's internal_url; the primary
 * interface's address from the Supervisor. The last two use the host port the Supervisor publishes for
 * the MCP port. When none of them fits, the request's origin is returned with the reason.
 */
export function resolveAuthorizationOrigin (input: AuthorizationOriginInput): AuthorizationOrigin {
  const fromOption = input.publicUrl === '' ? undefined : httpOrigin(input.publicUrl)
  if (fromOption !== undefined) return { origin: fromOption, source: 'public_url' }

  // The request's own origin; a safe stand-in for a Host no client could have sent.
  const fallback = requestOrigin(input.request.host, undefined, input.request.protocol) ?? `http://localhost:${input.containerPort}`
  if (input.mode === 'dev') return { origin: fallback, source: 'request' }

  if (input.hostPort === null) return { origin: fallback, source: 'request', problem: 'port_disabled' }
  const port = input.hostPort ?? input.containerPort

  const internal = internalUrlHost(input.internalUrl)
  if (internal !== undefined) return { origin: originOf('http', internal, port), source: 'internal_url' }

  const address = primaryAddress(input.networkInfo)
  if (address !== undefined) return { origin: originOf('http', address, port), source: 'network' }

  return { origin: fallback, source: 'request', problem: 'no_lan_address' }
}

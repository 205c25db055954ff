/**
 * Hosts, origins and the networks they belong to: every rule that reads a Host header, an Origin, a
 * URL's host or an address the Supervisor reports lives here, once. Callers: the OAuth metadata and
 * token binding (src/oauth/), the browser's sign-in origin (src/oauth/public-origin.ts), the MCP URL
 * on the ingress page, the ingress page's DNS-rebinding defence, the Origin check of /mcp, and the
 * client document fetch (src/oauth/client-documents.ts: the site's host, public addresses only),
 * and which client a request comes from (`clientKey`: every request limit, backoff and cap counts by it).
 *
 * Two forms of a host: `host` is what the client sent, lower-cased (an origin is built from it, since
 * Home Assistant compares the resource URL as a string); `name` is for comparing and classifying: the
 * WHATWG URL form (IPv4 and IPv6 canonical, `2130706433` is `127.0.0.1`), no trailing dot, IPv6
 * without brackets.
 */
import { BlockList, isIP, isIPv6 } from 'node:net'
import { hostname } from 'node:os'
import { Address6 } from 'ip-address'

export interface Authority {
  /** Lower-cased, as sent: `ha.local.`, `[fd00::5]`, `192.168.1.20`. */
  host: string
  /** For comparing: `ha.local`, `fd00::5`, `192.168.1.20`. */
  name: string
  port?: number
  /** 4 or 6 for an IP literal, 0 for a name. */
  ip: 0 | 4 | 6
}

/** The Supervisor's ingress proxy: the only peer the ingress page accepts in the add-on. */
export const INGRESS_PROXY_ADDRESS = '172.30.32.2'

/** The loopback hosts as written in a URL, for rules that compare text (RFC 8252 loopback redirects). */
export const LOOPBACK_URL_HOSTS: readonly string[] = ['127.0.0.1', '[::1]', 'localhost']

function ranges (list: Array<[string, number]>): BlockList {
  const block = new BlockList()
  for (const [network, prefix] of list) block.addSubnet(network, prefix, isIP(network) === 6 ? 'ipv6' : 'ipv4')
  return block
}

const LOOPBACK = ranges([['127.0.0.0', 8], ['::1', 128]])
/** The Supervisor's `hassio` network (supervisor/const.py: DOCKER_IPV4_NETWORK_MASK, DOCKER_IPV6_NETWORK_MASK): Core, the Supervisor and every add-on. */
const SUPERVISOR_NETWORK = ranges([['172.30.32.0', 23], ['fd0c:ac1e:2100::', 48]])
const UNSPECIFIED = ranges([['0.0.0.0', 32], ['::', 128]])
const LINK_LOCAL = ranges([['169.254.0.0', 16], ['fe80::', 10]])
/**
 * RFC 6890 special-use ranges and their kin: none of them is a client's public web site. IPv6: only
 * global unicast (2000::/3) is public, which leaves out loopback, unspecified, IPv4-mapped and
 * -compatible, NAT64 (64:ff9b::/96), unique local (fc00::/7), link-local, site-local and multicast;
 * within it Teredo and the IETF block (2001::/23), documentation and 6to4 (which embeds an IPv4).
 */
const SPECIAL_USE = ranges([
  ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16],
  ['172.16.0.0', 12], ['192.0.0.0', 24], ['192.0.2.0', 24], ['192.88.99.0', 24], ['192.168.0.0', 16],
  ['198.18.0.0', 15], ['198.51.100.0', 24], ['203.0.113.0', 24], ['224.0.0.0', 4], ['240.0.0.0', 4],
  ['2001::', 23], ['2001:db8::', 32], ['2002::', 16], ['3fff::', 20]
])
const GLOBAL_UNICAST = ranges([['2000::', 3]])
/** Names the Supervisor's DNS answers only inside its network. */
const INTERNAL_NAMES = new Set(['homeassistant', 'supervisor', 'hassio'])
const INTERNAL_SUFFIX = '.local.hass.io'
/** Home Assistant Cloud's remote URL forwards Home Assistant's own port only, never an add-on's. */
const CLOUD_SUFFIX = '.ui.nabu.casa'

const AUTHORITY = /^(\[[0-9a-f:.]+\]|(?:[a-z0-9-]{1,63}\.)*[a-z0-9-]{1,63}\.?)(?::(\d{1,5}))?$/i

/** A Host header, X-Forwarded-Host value or URL authority; undefined for one no client could have sent. */
export function parseAuthority (value: string | undefined): Authority | undefined {
  const text = value?.trim().toLowerCase() ?? ''
  if (text.length > 260) return undefined
  const match = AUTHORITY.exec(text)
  if (!match) return undefined
  const host = match[1] as string
  const port = match[2] === undefined ? undefined : Number(match[2])
  if (port !== undefined && (port < 1 || port > 65535)) return undefined
  let canonical: string
  try {
    canonical = new URL(`http://${host}`).hostname
  } catch {
    return undefined
  }
  const name = canonical.startsWith('[') ? canonical.slice(1, -1) : canonical.replace(/\.$/, '')
  const ip = isIP(name)
  return { host, name, ...(port === undefined ? {} : { port }), ip: ip === 4 || ip === 6 ? ip : 0 }
}

/** The comparable name of a bare host or address (`fd00::5`, `[fd00::5]`, `HA.local.`); undefined when it is none. */
export function hostName (host: string): string | undefined {
  const bare = host.trim().replace(/^\[(.*)\]$/, '$1')
  const parsed = parseAuthority(isIP(bare) === 6 ? `[${bare}]` : bare)
  return parsed?.port === undefined ? parsed?.name : undefined
}

function inRanges (block: BlockList, name: string): boolean {
  const family = isIP(name)
  return family !== 0 && block.check(name, family === 6 ? 'ipv6' : 'ipv4')
}

/** `localhost`, `*.localhost` (RFC 6761), 127.0.0.0/8, ::1, and those as IPv4-mapped IPv6. */
export function isLoopback (name: string): boolean {
  return name === 'localhost' || name.endsWith('.localhost') || inRanges(LOOPBACK, name)
}

/** A peer's socket address on the loopback interface (`127.0.0.1`, `::1`, `::ffff:127.0.0.1`). */
export function isLoopbackAddress (address: string): boolean {
  return inRanges(LOOPBACK, address)
}

/** An address of the Supervisor's network, 172.30.32.0/23 or fd0c:ac1e:2100::/48. */
export function inSupervisorNetwork (name: string): boolean {
  return inRanges(SUPERVISOR_NETWORK, name)
}

/** 169.254.0.0/16 or fe80::/10. */
export function isLinkLocal (name: string): boolean {
  return inRanges(LINK_LOCAL, name)
}

/** A name only the Supervisor's DNS resolves: `homeassistant`, `supervisor`, `hassio`, `<add-on>.local.hass.io`. */
export function isInternalName (name: string): boolean {
  return INTERNAL_NAMES.has(name) || name.endsWith(INTERNAL_SUFFIX)
}

/** An address a client's public web site may have: public unicast only (the client document fetch). */
export function publicAddress (address: string): boolean {
  const family = isIP(address)
  if (family === 4) return !SPECIAL_USE.check(address, 'ipv4')
  if (family === 6) return GLOBAL_UNICAST.check(address, 'ipv6') && !SPECIAL_USE.check(address, 'ipv6')
  return false
}

/**
 * Whether a client elsewhere on the LAN reaches the add-on's published port at this host: not a name
 * or address of the Supervisor's network, not Home Assistant Cloud's tunnel, not an unspecified or
 * IPv6 link-local address (no browser takes a zone id), and not loopback where loopback is the
 * container (in the add-on; outside it a local client really finds the server there).
 */
export function reachableFromLan (name: string, where: { addonMode: boolean }): boolean {
  if (isInternalName(name) || inSupervisorNetwork(name) || name.endsWith(CLOUD_SUFFIX)) return false
  if (inRanges(UNSPECIFIED, name) || (isIP(name) === 6 && isLinkLocal(name))) return false
  return !(where.addonMode && isLoopback(name))
}

/** `http://host:port`, IPv6 bracketed. */
export function originOf (protocol: 'http' | 'https', host: string, port?: number): string {
  const shown = isIP(host) === 6 ? `[${host}]` : host
  return `${protocol}://${shown}${port === undefined ? '' : `:${port}`}`
}

/** The origin of an http(s) URL, or undefined for anything else. */
export function httpOrigin (url: string): string | undefined {
  try {
    const parsed = new URL(url)
    return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? parsed.origin : undefined
  } catch {
    return undefined
  }
}

/**
 * The host a URL names, as the URL standard writes it: `authority` with the port (`example.com:8443`,
 * `[fd00::5]`), the site a document client is known by; `hostname` without port or brackets
 * (`fd00::5`), what DNS and TLS take. Undefined for no URL.
 */
export function urlHost (url: string): { authority: string, hostname: string } | undefined {
  try {
    const parsed = new URL(url)
    return { authority: parsed.host, hostname: parsed.hostname.replace(/^\[(.*)\]$/, '$1') }
  } catch {
    return undefined
  }
}

/** Whether a URL and a Host header name the same host and port; a missing port is the URL scheme's default. */
export function sameAuthority (url: string, hostHeader: string | undefined): boolean {
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch {
    return false
  }
  const ours = parseAuthority(parsed.host)
  const theirs = parseAuthority(hostHeader)
  if (!ours || !theirs) return false
  const defaultPort = parsed.protocol === 'https:' ? 443 : 80
  return ours.name === theirs.name && (ours.port ?? defaultPort) === (theirs.port ?? defaultPort)
}

/**
 * The origin a request was sent to, from its Host header, or undefined for a Host no client could
 * have used. When public_url names this host and port, its scheme is used (a TLS proxy in front).
 */
export function requestOrigin (hostHeader: string | undefined, publicUrl?: string, protocol: 'http' | 'https' = 'http'): string | undefined {
  const authority = parseAuthority(hostHeader)
  if (!authority) return undefined
  const behindProxy = publicUrl ? httpOrigin(publicUrl) : undefined
  if (behindProxy !== undefined && sameAuthority(behindProxy, hostHeader)) return behindProxy
  return `${protocol}://${authority.host}${authority.port === undefined ? '' : `:${authority.port}`}`
}

function firstValue (value: string | string[] | undefined): string {
  const raw = Array.isArray(value) ? value[0] : value
  return (raw ?? '').split(',')[0]?.trim() ?? ''
}

/**
 * The MCP URL a client on the LAN should use, from the host the browser used to open the ingress page
 * (Home Assistant's own address: X-Forwarded-Host from the Supervisor's proxy, else Host). A host no
 * LAN client reaches the add-on at becomes the placeholder HA_IP, which the user replaces.
 */
export function mcpUrlFor (headers: Record<string, string | string[] | undefined>, mcpPort: number, addonMode: boolean): string {
  const authority = parseAuthority(firstValue(headers['x-forwarded-host']) || firstValue(headers.host))
  const usable = authority !== undefined && reachableFromLan(authority.name, { addonMode })
  return `${originOf('http', usable ? authority.name : 'HA_IP', mcpPort)}/mcp`
}

/**
 * DNS-rebinding guard of /mcp: a browser always sends Origin. It is accepted when it names this
 * machine by a loopback name, or names exactly the host the request was sent to by IP address, mDNS
 * name or `homeassistant` (which a rebinding attacker's page cannot do: its origin is their domain).
 * The ports may differ. Behind a reverse proxy the browser's Origin is the public_url option's origin,
 * exactly (scheme, host and port): only the owner's own domain serves pages with it.
 */
export function originAllowed (origin: string, hostHeader: string | undefined, publicUrl = ''): boolean {
  if (publicUrl !== '' && httpOrigin(origin) !== undefined && httpOrigin(origin) === httpOrigin(publicUrl)) return true
  const host = urlHost(origin)?.hostname
  const name = host === undefined ? undefined : hostName(host)
  if (name === undefined) return false
  if (isLoopback(name)) return true
  const request = parseAuthority(hostHeader)
  if (request?.name !== name) return false
  return request.ip !== 0 || name.endsWith('.local') || name === 'homeassistant'
}

/** The names of this machine for the rebinding defence: its hostname and its mDNS name. */
export function ownNames (machine: string = hostname()): Set<string> {
  const name = machine.toLowerCase()
  return new Set([name, `${name}.local`])
}

/** A Host or URL authority that means this machine: a loopback name, one of its own names, or an IP literal. */
export function isOwnHost (authority: string | undefined, names: Set<string> = ownNames()): boolean {
  const parsed = parseAuthority(authority)
  if (!parsed) return false
  // An IP literal cannot be a rebound name: a page served from an attacker's domain always sends that domain.
  return parsed.ip !== 0 || isLoopback(parsed.name) || names.has(parsed.name)
}

/**
 * DNS-rebinding defence for the status page outside the add-on, where it listens on loopback: a page
 * that rebinds its own name to 127.0.0.1 reaches us from a loopback peer, but its requests still carry
 * its name in Host and Origin. Why a request is refused, if it is: a foreign Host, or an Origin (when
 * sent) that is not this machine.
 */
export function rebindingRefusal (headers: { host?: string | undefined, origin?: string | undefined }, names: Set<string> = ownNames()): string | undefined {
  if (!isOwnHost(headers.host, names)) return `Host ${JSON.stringify(String(headers.host ?? '').slice(0, 100))} is not this machine`
  if (headers.origin !== undefined) {
    const authority = urlHost(headers.origin)?.authority
    if (authority === undefined) return `Origin ${JSON.stringify(headers.origin.slice(0, 100))} is not a URL`
    if (!isOwnHost(authority, names)) return `Origin ${JSON.stringify(headers.origin.slice(0, 100))} is foreign`
  }
  return undefined
}

export interface HostPort {
  /** The port clients on the LAN use; null when the user disabled it in the add-on's Network section. */
  port: number | null
  /** True when the Supervisor told us; false when we fell back to the container port. */
  fromSupervisor: boolean
}

/** The host port published for `<containerPort>/tcp` in the `network` of the Supervisor's /addons/self/info. */
export function publishedPort (network: unknown, containerPort: number): HostPort {
  const mapped = network !== null && typeof network === 'object' ? (network as Record<string, unknown>)[`${containerPort}/tcp`] : undefined
  if (typeof mapped === 'number') return { port: mapped, fromSupervisor: true }
  if (mapped === null) return { port: null, fromSupervisor: true }
  return { port: containerPort, fromSupervisor: false }
}

/**
 * Which client a request comes from, as every request limit, backoff and per-peer cap counts it: an
 * IPv4 address as is, an IPv4-mapped IPv6 address as its IPv4 one (a dual-stack socket writes IPv4
 * peers that way), any other IPv6 address as its /64 (one host usually holds all of it, and would
 * otherwise get a fresh count per address). `request.ip` is the socket's address: undefined once the
 * socket is gone, which counts as one client.
 */
export function clientKey (request: { ip?: string | undefined }): string {
  const ip = request.ip ?? ''
  if (!isIPv6(ip)) return ip.toLowerCase()
  const address = new Address6(ip)
  if (address.isMapped4()) return address.to4().correctForm()
  return `${new Address6(`${ip}/64`).startAddress().correctForm()}/64`
}

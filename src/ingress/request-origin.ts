import { hostname } from 'node:os'

/**
 * DNS-rebinding defence for the status page outside the add-on, where it listens on loopback: a page
 * that rebinds its own name to 127.0.0.1 reaches us from a loopback peer, but its requests still carry
 * its name in Host and Origin. Only names that mean this machine, and IP literals, are accepted.
 */
const LOOPBACK_NAMES = new Set(['localhost', '127.0.0.1', '::1', '[::1]'])

/** The host name of a Host header or URL authority, lower-cased, without port or trailing dot. */
export function hostOf (authority: string): string {
  const lower = authority.trim().toLowerCase()
  const bare = lower.startsWith('[') ? lower.slice(0, lower.indexOf(']') + 1) : lower.replace(/:\d*$/, '')
  return bare.replace(/\.$/, '')
}

export function ownNames (machine: string = hostname()): Set<string> {
  const name = machine.toLowerCase()
  return new Set([...LOOPBACK_NAMES, name, `${name}.local`])
}

export function isOwnHost (authority: string | undefined, names: Set<string> = ownNames()): boolean {
  if (authority === undefined || authority === '') return false
  const host = hostOf(authority)
  // An IP literal cannot be a rebound name: a page served from an attacker's domain always sends that domain.
  return names.has(host) || host.endsWith('.localhost') || /^\d{1,3}(\.\d{1,3}){3}$/.test(host) || /^\[[0-9a-f:.]+\]$/.test(host)
}

/** Why a request is refused, if it is: a foreign Host, or an Origin (when sent) that is not this machine. */
export function rebindingRefusal (headers: { host?: string | undefined, origin?: string | undefined }, names: Set<string> = ownNames()): string | undefined {
  if (!isOwnHost(headers.host, names)) return `Host ${JSON.stringify(String(headers.host ?? '').slice(0, 100))} is not this machine`
  if (headers.origin !== undefined) {
    let authority: string
    try {
      authority = new URL(headers.origin).host
    } catch {
      return `Origin ${JSON.stringify(headers.origin.slice(0, 100))} is not a URL`
    }
    if (!isOwnHost(authority, names)) return `Origin ${JSON.stringify(headers.origin.slice(0, 100))} is foreign`
  }
  return undefined
}

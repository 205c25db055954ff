import { LOOPBACK_URL_HOSTS } from '../hosts.ts'

const FORBIDDEN_SCHEMES = new Set(['javascript:', 'data:', 'file:', 'vbscript:', 'blob:', 'about:'])

function parse (uri: string): URL | undefined {
  try {
    return new URL(uri)
  } catch {
    return undefined
  }
}

export function isLoopbackRedirect (url: URL): boolean {
  return url.protocol === 'http:' && LOOPBACK_URL_HOSTS.includes(url.hostname)
}

/**
 * Why a redirect URI cannot be registered, or undefined when it can: https anywhere, http only to
 * the loopback interface (native apps, RFC 8252), private-use schemes for apps; never a fragment.
 */
export function redirectProblem (uri: string): string | undefined {
  const url = parse(uri)
  if (!url) return `${JSON.stringify(uri)} is not an absolute URL`
  if (url.hash || uri.includes('#')) return `${uri} has a fragment, which OAuth forbids`
  if (url.username || url.password || /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*@/i.test(uri)) return `${uri} carries a user name or password, which a redirect URI may not`
  if (FORBIDDEN_SCHEMES.has(url.protocol)) return `${url.protocol} redirects are not allowed`
  if (url.protocol === 'http:' && !isLoopbackRedirect(url)) return `${uri}: plain http is only allowed to the loopback interface (${LOOPBACK_URL_HOSTS.join(', ')}); use https`
  return undefined
}

/** A loopback redirect with its port taken out, or undefined when it is not one written plainly. */
function withoutPort (uri: string): string | undefined {
  const host = LOOPBACK_URL_HOSTS.find(h => uri.startsWith(`http://${h}`))
  if (host === undefined) return undefined
  const rest = uri.slice(`http://${host}`.length).replace(/^:\d{1,5}/, '')
  return rest === '' || rest.startsWith('/') || rest.startsWith('?') ? `http://${host}${rest}` : undefined
}

/**
 * Exact string match against the registered URIs, except that a loopback redirect may use any port
 * (RFC 8252 section 7.3: native apps pick a free port at run time). Only the port: the rest must be
 * the registered text character for character, and a fragment or user info is never accepted.
 */
export function redirectMatches (registered: readonly string[], presented: string): boolean {
  if (redirectProblem(presented)) return false
  if (registered.includes(presented)) return true
  const bare = withoutPort(presented)
  if (bare === undefined) return false
  return registered.some(uri => withoutPort(uri) === bare)
}

/** The host shown to the user on the consent page ("my.home-assistant.io", "127.0.0.1 (this computer)"). */
export function redirectHostLabel (uri: string): string {
  const url = parse(uri)
  if (!url) return uri
  if (isLoopbackRedirect(url)) return `${url.hostname} (an app on the same computer as the browser)`
  return url.host || `${url.protocol}//`
}

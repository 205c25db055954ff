const LOOPBACK_HOSTS = new Set(['127.0.0.1', '[::1]', 'localhost'])
const FORBIDDEN_SCHEMES = new Set(['javascript:', 'data:', 'file:', 'vbscript:', 'blob:', 'about:'])

function parse (uri: string): URL | undefined {
  try {
    return new URL(uri)
  } catch {
    return undefined
  }
}

export function isLoopbackRedirect (url: URL): boolean {
  return url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname)
}

/**
 * Why a redirect URI cannot be registered, or undefined when it can: https anywhere, http only to
 * the loopback interface (native apps, RFC 8252), private-use schemes for apps; never a fragment.
 */
export function redirectProblem (uri: string): string | undefined {
  const url = parse(uri)
  if (!url) return `${JSON.stringify(uri)} is not an absolute URL`
  if (url.hash || uri.includes('#')) return `${uri} has a fragment, which OAuth forbids`
  if (FORBIDDEN_SCHEMES.has(url.protocol)) return `${url.protocol} redirects are not allowed`
  if (url.protocol === 'http:' && !isLoopbackRedirect(url)) return `${uri}: plain http is only allowed to the loopback interface (127.0.0.1, [::1], localhost); use https`
  return undefined
}

/**
 * Exact string match against the registered URIs, except that a loopback redirect may use any port
 * (RFC 8252 section 7.3: native apps pick a free port at run time).
 */
export function redirectMatches (registered: readonly string[], presented: string): boolean {
  if (registered.includes(presented)) return true
  const url = parse(presented)
  if (!url || !isLoopbackRedirect(url)) return false
  return registered.some(uri => {
    const candidate = parse(uri)
    if (!candidate || !isLoopbackRedirect(candidate)) return false
    return candidate.hostname === url.hostname && candidate.pathname === url.pathname && candidate.search === url.search
  })
}

/** The host shown to the user on the consent page ("my.home-assistant.io", "127.0.0.1 (this computer)"). */
export function redirectHostLabel (uri: string): string {
  const url = parse(uri)
  if (!url) return uri
  if (isLoopbackRedirect(url)) return `${url.hostname} (an app on the same computer as the browser)`
  return url.host || `${url.protocol}//`
}

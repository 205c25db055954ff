/** Hosts that only mean something inside the container network or on the server itself. */
function isInternalHost (host: string, addonMode: boolean): boolean {
  if (host === 'homeassistant' || host === 'supervisor' || /^172\.30\.\d{1,3}\.\d{1,3}$/.test(host)) return true
  // Home Assistant Cloud's remote URL forwards Home Assistant's own port only, never the add-on's.
  if (host.endsWith('.ui.nabu.casa')) return true
  // In the add-on, loopback is the container; outside it, loopback is where a local client really finds us.
  if (addonMode && (host === 'localhost' || host === '::1' || /^127\./.test(host))) return true
  return false
}

function firstValue (value: string | string[] | undefined): string {
  const raw = Array.isArray(value) ? value[0] : value
  return (raw ?? '').split(',')[0]?.trim() ?? ''
}

/** The host part of a Host / X-Forwarded-Host value, without the port. */
function hostnameOf (value: string): string {
  if (value.startsWith('[')) return value.slice(1, value.indexOf(']')).toLowerCase()
  return value.replace(/:\d+$/, '').toLowerCase()
}

/**
 * The MCP URL a client on the LAN should use, from the host the browser used to open the ingress page
 * (Home Assistant's own address). Internal names become the placeholder HA_IP, which the user replaces.
 */
export function mcpUrlFor (headers: Record<string, string | string[] | undefined>, mcpPort: number, addonMode: boolean): string {
  const raw = firstValue(headers['x-forwarded-host']) || firstValue(headers.host)
  let host = raw ? hostnameOf(raw) : ''
  if (!/^[a-z0-9.:-]+$/.test(host) || isInternalHost(host, addonMode)) host = 'HA_IP'
  const shown = host.includes(':') ? `[${host}]` : host
  return `http://${shown}:${mcpPort}/mcp`
}

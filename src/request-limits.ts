/**
 * Request rate limits, per minute: `/mcp` per token and per source address, the ingress API per
 * address. Generous on purpose: they stop a runaway client, never a working one (Home Assistant's own
 * MCP client opens a session per call, about five requests). 0 turns a limit off.
 */
export interface RequestLimits {
  perToken: number
  perAddress: number
  ingressPerAddress: number
}

export const DEFAULT_REQUEST_LIMITS: RequestLimits = {
  perToken: 3000,
  perAddress: 6000,
  ingressPerAddress: 600
}

/** One window, so a limit reads as "N per minute" and Retry-After is at most a minute. */
export const REQUEST_LIMIT_WINDOW_MS = 60_000

/** The defaults with any valid override applied (negative or non-integer values are ignored). */
export function requestLimits (overrides: Partial<RequestLimits> = {}): RequestLimits {
  const out = { ...DEFAULT_REQUEST_LIMITS }
  for (const key of Object.keys(out) as Array<keyof RequestLimits>) {
    const value = overrides[key]
    if (value !== undefined && Number.isSafeInteger(value) && value >= 0) out[key] = value
  }
  return out
}

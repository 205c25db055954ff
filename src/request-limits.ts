import type { Env } from './config.ts'

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

const ENV_NAMES: Record<keyof RequestLimits, string> = {
  perToken: 'RATE_LIMIT_PER_TOKEN',
  perAddress: 'RATE_LIMIT_PER_ADDRESS',
  ingressPerAddress: 'RATE_LIMIT_INGRESS_PER_ADDRESS'
}

/** The defaults with any valid override applied (negative or non-integer values are ignored). */
export function requestLimits (overrides: Partial<RequestLimits> = {}): RequestLimits {
  const out = { ...DEFAULT_REQUEST_LIMITS }
  for (const key of Object.keys(out) as Array<keyof RequestLimits>) {
    const value = overrides[key]
    if (value !== undefined && Number.isSafeInteger(value) && value >= 0) out[key] = value
  }
  return out
}

/** RATE_LIMIT_PER_TOKEN, RATE_LIMIT_PER_ADDRESS, RATE_LIMIT_INGRESS_PER_ADDRESS (requests per minute; 0 is off). */
export function requestLimitsFromEnv (env: Env): { limits: Partial<RequestLimits>, errors: string[] } {
  const limits: Partial<RequestLimits> = {}
  const errors: string[] = []
  for (const [key, name] of Object.entries(ENV_NAMES) as Array<[keyof RequestLimits, string]>) {
    const raw = env[name]
    if (raw === undefined || raw === '') continue
    if (/^\d{1,9}$/.test(raw)) limits[key] = Number(raw)
    else errors.push(`${name}=${raw} is not a number of requests per minute; using ${DEFAULT_REQUEST_LIMITS[key]}`)
  }
  return { limits, errors }
}

import { realClock } from '../clock.ts'
import { publishedPort, type HostPort } from '../hosts.ts'
import type { SupervisorApi } from './options-sync.ts'

export type { HostPort }

/**
 * The host port the Supervisor maps the MCP port to (the user can change or disable it on the
 * Network section), read from /addons/self/info and cached for a minute.
 */
export function hostPortLookup (supervisor: SupervisorApi | undefined, containerPort: number, ttlMs = 60_000, now = realClock.now): () => Promise<HostPort> {
  let cached: { value: HostPort, at: number } | undefined
  return async () => {
    if (!supervisor) return { port: containerPort, fromSupervisor: false }
    if (cached && now() - cached.at < ttlMs) return cached.value
    let value: HostPort
    try {
      const info = await supervisor.call<{ network?: unknown }>('GET', '/addons/self/info')
      value = publishedPort(info.network, containerPort)
    } catch {
      return { port: containerPort, fromSupervisor: false }
    }
    cached = { value, at: now() }
    return value
  }
}

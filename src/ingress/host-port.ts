import type { SupervisorApi } from '../addon/options-sync.ts'

export interface HostPort {
  /** The port clients on the LAN use; null when the user disabled it in the add-on's Network section. */
  port: number | null
  /** True when the Supervisor told us; false when we fell back to the container port. */
  fromSupervisor: boolean
}

/**
 * The host port the Supervisor maps the MCP port to (the user can change or disable it on the
 * Network section), read from /addons/self/info and cached for a minute.
 */
export function hostPortLookup (supervisor: SupervisorApi | undefined, containerPort: number, ttlMs = 60_000): () => Promise<HostPort> {
  let cached: { value: HostPort, at: number } | undefined
  return async () => {
    if (!supervisor) return { port: containerPort, fromSupervisor: false }
    if (cached && Date.now() - cached.at < ttlMs) return cached.value
    let value: HostPort
    try {
      const info = await supervisor.call<{ network?: Record<string, unknown> | null }>('GET', '/addons/self/info')
      const mapped = info.network?.[`${containerPort}/tcp`]
      value = typeof mapped === 'number' ? { port: mapped, fromSupervisor: true } : mapped === null ? { port: null, fromSupervisor: true } : { port: containerPort, fromSupervisor: false }
    } catch {
      return { port: containerPort, fromSupervisor: false }
    }
    cached = { value, at: Date.now() }
    return value
  }
}

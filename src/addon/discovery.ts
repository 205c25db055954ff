import type { AppLogger } from '../logger.ts'
import type { SupervisorApi } from './options-sync.ts'
import { withSupervisorRetry, type RetryOptions } from './retry.ts'

export interface DiscoveryInput {
  supervisor: SupervisorApi
  /** The MCP port inside the container: Home Assistant reaches the add-on by its hostname on the internal network. */
  mcpPort: number
  log: AppLogger
  retry?: RetryOptions
}

export interface Announcement {
  uuid: string
  url: string
}

/**
 * Announces the MCP endpoint to Home Assistant's Model Context Protocol integration (HA 2026.10+), which
 * reads only `config.url` and asks the user to confirm. The token is deliberately not part of the
 * message: every add-on may read discovery messages. Posting the same message again returns the same
 * uuid, so this is safe on every start. It is not withdrawn on shutdown: Home Assistant removes the config
 * entry whose unique id is the withdrawn uuid, which would undo the user's setup on every restart; the
 * Supervisor drops the message itself when the add-on is uninstalled.
 */
export async function announceDiscovery (input: DiscoveryInput): Promise<Announcement> {
  const { supervisor, mcpPort, log } = input
  return await withSupervisorRetry(async () => {
    const info = await supervisor.call<{ hostname?: unknown }>('GET', '/addons/self/info')
    if (typeof info.hostname !== 'string' || info.hostname === '') throw new Error('the Supervisor did not report this add-on\'s hostname')
    const url = `http://${info.hostname}:${mcpPort}/mcp`
    const answer = await supervisor.call<{ uuid?: unknown }>('POST', '/discovery', { service: 'mcp', config: { url } })
    const uuid = typeof answer.uuid === 'string' ? answer.uuid : ''
    log.info({ url, uuid }, 'announced the MCP endpoint to Home Assistant (Supervisor discovery)')
    return { uuid, url }
  }, {
    ...input.retry,
    onRetry: (err, attempt, delayMs) => {
      log.info({ attempt, retryInMs: delayMs, reason: (err as Error).message }, 'Supervisor not ready; retrying the discovery announcement')
    }
  })
}

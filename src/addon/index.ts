import type { PrimaryToken } from '../auth/bootstrap.ts'
import type { AppLogger } from '../logger.ts'
import { announceDiscovery, type Announcement } from './discovery.ts'
import { syncAddonOptions, type OptionsSyncResult, type SupervisorApi } from './options-sync.ts'
import type { RetryOptions } from './retry.ts'

export interface AddonTasksInput {
  supervisor: SupervisorApi
  primary: PrimaryToken
  mcpPort: number
  log: AppLogger
  retry?: Omit<RetryOptions, 'signal' | 'onRetry'>
}

export interface AddonTasks {
  /** Settles when both tasks have finished or given up; never rejects. */
  done: Promise<{ options: OptionsSyncResult | undefined, discovery: Announcement | undefined }>
  /** Ends pending retries (shutdown). */
  stop: () => void
}

/**
 * The add-on's conversation with the Supervisor after start: options write-back and discovery. Runs in
 * the background so the MCP endpoint is up even while the Supervisor is still booting; failures are
 * logged, never fatal.
 */
export function startAddonTasks (input: AddonTasksInput): AddonTasks {
  const controller = new AbortController()
  const retry = { ...input.retry, signal: controller.signal }
  const { log } = input
  const options = syncAddonOptions({ supervisor: input.supervisor, token: input.primary.token, source: input.primary.source, log, retry })
    .catch((err: unknown) => {
      if (!controller.signal.aborted) log.warning({ reason: (err as Error).message }, 'could not update the add-on options; the token is still in DATA_DIR/token and on the ingress page')
      return undefined
    })
  const discovery = announceDiscovery({ supervisor: input.supervisor, mcpPort: input.mcpPort, log, retry })
    .catch((err: unknown) => {
      if (!controller.signal.aborted) log.warning({ reason: (err as Error).message }, 'could not announce the MCP endpoint to Home Assistant')
      return undefined
    })
  return {
    done: Promise.all([options, discovery]).then(([o, d]) => ({ options: o, discovery: d })),
    stop: () => { controller.abort() }
  }
}

import type { TokenSource } from '../auth/tokens.ts'
import { maskSecret, type AppLogger } from '../logger.ts'
import { DEFAULT_OPTIONS } from '../options.ts'
import { withSupervisorRetry, type RetryOptions } from './retry.ts'
import { isRecord } from '../shape.ts'

/** The part of the Supervisor client this module needs; the `{result, data}` envelope is already unwrapped. */
export interface SupervisorApi {
  call: <T = unknown>(method: 'GET' | 'POST', path: string, body?: unknown) => Promise<T>
}

export interface OptionsSyncInput {
  supervisor: SupervisorApi
  /** The primary token in use and where it came from. */
  token: string
  source: TokenSource
  log: AppLogger
  retry?: RetryOptions
}

export type OptionsSyncResult =
  | { status: 'unchanged' }
  | { status: 'updated', added: string[], tokenWritten: boolean }
  /** The user typed a token of their own after start: theirs wins, ours is not written. */
  | { status: 'user_token_kept', added: string[] }

type StoredOptions = Record<string, unknown>

/** What has to change in the stored options: missing keys get their default, an empty token gets ours. */
export function planOptions (stored: StoredOptions, token: string, source: TokenSource): { next: StoredOptions, added: string[], tokenWritten: boolean, userToken: boolean } {
  const next: StoredOptions = { ...stored }
  const added: string[] = []
  for (const [key, value] of Object.entries(DEFAULT_OPTIONS)) {
    if (!(key in next) || next[key] === null || next[key] === undefined) {
      next[key] = value
      if (key !== 'api_token') added.push(key)
    }
  }
  const storedToken = typeof stored.api_token === 'string' ? stored.api_token.trim() : ''
  // Only a token we generated (or loaded from DATA_DIR/token) is written back; an option or env token is the user's.
  const ours = source === 'generated' || source === 'file'
  let tokenWritten = false
  if (ours && storedToken === '') {
    next.api_token = token
    tokenWritten = true
  }
  return { next, added, tokenWritten, userToken: ours && storedToken !== '' && storedToken !== token }
}

async function readStoredOptions (supervisor: SupervisorApi): Promise<StoredOptions> {
  const info = await supervisor.call<{ options?: unknown }>('GET', '/addons/self/info')
  const options = info.options
  return isRecord(options) ? { ...options as StoredOptions } : {}
}

/**
 * Writes the generated token back into the add-on options (so the user sees it in the Configuration
 * tab) and fills in options missing from an older install, in one POST. The options are read again on
 * every attempt, right before posting, so a token the user set in the meantime is never overwritten.
 */
export async function syncAddonOptions (input: OptionsSyncInput): Promise<OptionsSyncResult> {
  const { supervisor, token, source, log } = input
  return await withSupervisorRetry(async () => {
    const stored = await readStoredOptions(supervisor)
    const plan = planOptions(stored, token, source)
    if (plan.userToken) {
      log.notice('api_token was set in the add-on options after start; it is kept and takes effect on the next restart')
    }
    if (plan.added.length === 0 && !plan.tokenWritten) {
      return plan.userToken ? { status: 'user_token_kept', added: [] } : { status: 'unchanged' }
    }
    await supervisor.call('POST', '/addons/self/options', { options: plan.next })
    if (plan.added.length > 0) log.info({ added: plan.added }, 'add-on options completed with their defaults')
    if (plan.tokenWritten) log.info({ apiToken: maskSecret(token) }, 'API token saved in the add-on options (Configuration tab)')
    return plan.userToken
      ? { status: 'user_token_kept', added: plan.added }
      : { status: 'updated', added: plan.added, tokenWritten: plan.tokenWritten }
  }, {
    ...input.retry,
    onRetry: (err, attempt, delayMs) => {
      log.info({ attempt, retryInMs: delayMs, reason: (err as Error).message }, 'Supervisor not ready; retrying the options update')
    }
  })
}

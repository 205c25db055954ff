import { readFile, rm } from 'node:fs/promises'
import { join } from 'node:path'
import { writeFileAtomic } from '../files.ts'
import { maskSecret, type AppLogger } from '../logger.ts'
import { generateToken, type TokenSource, type TokenStore } from './tokens.ts'
import { isRecord } from '../shape.ts'

export interface PrimaryToken {
  token: string
  source: TokenSource
}

/**
 * The primary bearer token: the api_token option, else MCP_API_TOKEN (development), else the one
 * kept in DATA_DIR/token, else a new random one written there atomically with mode 0600.
 *
 * DATA_DIR/token only ever holds the token in use or about to be: the add-on's own (generated, or
 * regenerated on the panel). When api_token holds another one, the file's is older and possibly the
 * leaked one the owner replaced: it is removed, so clearing api_token later gives a new token.
 */
export async function resolvePrimaryToken (input: { option: string, envToken: string | undefined, dataDir: string, log: AppLogger }): Promise<PrimaryToken> {
  const { option, envToken, dataDir, log } = input
  const file = join(dataDir, 'token')
  const stored = await readFile(file, 'utf8').then(text => text.trim(), () => '')
  let result: PrimaryToken
  if (option.trim()) {
    result = { token: option.trim(), source: 'option' }
    if (stored && stored !== result.token) await forgetOlderToken(file, log)
  } else if (envToken?.trim()) {
    result = { token: envToken.trim(), source: 'env' }
  } else {
    if (stored) {
      result = { token: stored, source: 'file' }
    } else {
      result = { token: generateToken(), source: 'generated' }
      await writeFileAtomic(file, `${result.token}\n`, 0o600)
    }
  }
  if (result.token.length < 16) {
    log.warning({ length: result.token.length }, 'THE API TOKEN IS SHORTER THAN 16 CHARACTERS: anyone on your network could guess it. Set a longer api_token or clear it to get a generated one.')
  }
  log.info({ apiToken: maskSecret(result.token), source: result.source }, 'API token ready')
  return result
}

async function forgetOlderToken (file: string, log: AppLogger): Promise<void> {
  try {
    await rm(file, { force: true })
    log.notice(`api_token replaces the token kept in ${file}; that file is removed, so clearing api_token later gives a new token, never the older one`)
  } catch (err) {
    log.error({ err }, `cannot remove ${file}, which holds an older API token than api_token: remove it by hand, or clearing api_token would bring that older token back`)
  }
}

/** A primary token this add-on cannot replace: it is set where the add-on does not write. */
export class PrimaryTokenLocked extends Error {}

export interface RegenerateInput {
  tokens: TokenStore
  dataDir: string
  /** The Supervisor in add-on mode: the new token is written into the add-on options, like the first one. */
  supervisor?: { call: <T = unknown>(method: 'GET' | 'POST', path: string, body?: unknown) => Promise<T> }
  /** The logger's secret scrubber, so the new token is masked in every line too. */
  secrets?: { add: (secret: string) => void }
}

/**
 * A new random primary token, in effect at once (the old one gets 401 with the next request) and
 * kept where the next start reads it: the add-on options (add-on mode; written first, so a failed
 * write changes nothing) and DATA_DIR/token. A token from MCP_API_TOKEN, or from api_token outside
 * the add-on, is the user's to change: refused.
 */
export async function regeneratePrimaryToken (input: RegenerateInput): Promise<{ token: string, optionsWritten: boolean }> {
  const { tokens, dataDir, supervisor } = input
  if (tokens.primarySource === 'env') throw new PrimaryTokenLocked('The API token comes from the MCP_API_TOKEN environment variable: change it there and restart.')
  if (tokens.primarySource === 'option' && !supervisor) throw new PrimaryTokenLocked('The API token comes from the api_token option: change it there and restart.')
  const token = generateToken()
  input.secrets?.add(token)
  let optionsWritten = false
  if (supervisor) {
    const info = await supervisor.call<{ options?: unknown }>('GET', '/addons/self/info')
    const stored = isRecord(info.options) ? info.options : {}
    await supervisor.call('POST', '/addons/self/options', { options: { ...stored, api_token: token } })
    optionsWritten = true
  }
  await writeFileAtomic(join(dataDir, 'token'), `${token}\n`, 0o600)
  tokens.replacePrimary(token, supervisor ? 'option' : 'file')
  return { token, optionsWritten }
}

import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { writeFileAtomic } from '../files.ts'
import { maskSecret, type AppLogger } from '../logger.ts'
import { generateToken } from './tokens.ts'

export type TokenSource = 'option' | 'env' | 'file' | 'generated'

export interface PrimaryToken {
  token: string
  source: TokenSource
}

/**
 * The primary bearer token: the api_token option, else MCP_API_TOKEN (development), else the one
 * kept in DATA_DIR/token, else a new random one written there atomically with mode 0600.
 */
export async function resolvePrimaryToken (input: { option: string, envToken: string | undefined, dataDir: string, log: AppLogger }): Promise<PrimaryToken> {
  const { option, envToken, dataDir, log } = input
  let result: PrimaryToken
  if (option.trim()) {
    result = { token: option.trim(), source: 'option' }
  } else if (envToken?.trim()) {
    result = { token: envToken.trim(), source: 'env' }
  } else {
    const file = join(dataDir, 'token')
    const stored = await readFile(file, 'utf8').then(text => text.trim(), () => '')
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

import { readFileSync, renameSync } from 'node:fs'
import { join } from 'node:path'
import { z } from 'zod'
import { scopeSchema } from '../auth/identity.ts'
import { hashToken } from '../auth/tokens.ts'
import { writeFileAtomic } from '../files.ts'

const scopeList = z.array(scopeSchema)

const clientSchema = z.object({
  client_id: z.string(),
  /** SHA-256 of the client secret, for confidential clients. */
  secret_hash: z.string().optional(),
  auth_method: z.enum(['none', 'client_secret_post', 'client_secret_basic']),
  client_name: z.string(),
  redirect_uris: z.array(z.string()),
  grant_types: z.array(z.string()),
  scope: z.string(),
  application_type: z.string().optional(),
  /** The issuer (origin) it registered at: the `iss` its authorization answers carry (RFC 9207). */
  issuer: z.string().optional(),
  created_at: z.number(),
  /** Set once a grant was issued; registrations never used expire. */
  used_at: z.number().nullable(),
  /** The peer address that registered it: the caps on unused registrations count per peer. */
  registered_from: z.string().optional()
})
export type ClientRecord = z.infer<typeof clientSchema>

const secretSchema = z.object({ hash: z.string(), expires_at: z.number() })

const grantSchema = z.object({
  id: z.string(),
  client_id: z.string(),
  client_name: z.string(),
  scopes: scopeList,
  /** The RFC 8707 resource the tokens are bound to; null when the client sent none (this server). */
  resource: z.string().nullable(),
  approved_by: z.string(),
  created_at: z.number(),
  last_used_at: z.number().nullable(),
  /** Live access tokens; `scopes` when a refresh narrowed them. */
  access: z.array(secretSchema.extend({ scopes: scopeList.optional() })),
  refresh: secretSchema.nullable(),
  /** Refresh tokens already exchanged: presenting one again revokes the grant (a stolen token). */
  spent_refresh: z.array(z.string())
})
export type GrantRecord = z.infer<typeof grantSchema>

const fileSchema = z.object({ version: z.literal(1), clients: z.array(clientSchema), grants: z.array(grantSchema) })

/** SHA-256 hex of a secret: the same hash the named tokens use (src/auth/tokens.ts). */
export function hashSecret (secret: string): string {
  return hashToken(secret).toString('hex')
}

export interface OAuthFileOptions {
  dataDir: string
  log: { error: (message: string) => void, warn: (message: string) => void }
  now: () => number
}

/**
 * Clients and grants in DATA_DIR/oauth.json: only hashes of secrets, written atomically. A file that
 * cannot be read as ours is moved aside (never silently overwritten) and the store starts empty.
 */
export class OAuthFile {
  readonly file: string
  clients = new Map<string, ClientRecord>()
  grants = new Map<string, GrantRecord>()
  #log: OAuthFileOptions['log']
  #now: () => number
  #writing: Promise<void> = Promise.resolve()

  constructor (options: OAuthFileOptions) {
    this.file = join(options.dataDir, 'oauth.json')
    this.#log = options.log
    this.#now = options.now
    this.#load()
  }

  #load (): void {
    let text: string
    try {
      text = readFileSync(this.file, 'utf8')
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') this.#log.error(`cannot read ${this.file}: ${(err as Error).message}; OAuth sign-ins start empty`)
      return
    }
    let parsed: z.infer<typeof fileSchema> | undefined
    try {
      const result = fileSchema.safeParse(JSON.parse(text))
      if (result.success) parsed = result.data
    } catch {}
    if (!parsed) {
      const aside = `${this.file}.corrupt-${this.#now()}`
      try {
        renameSync(this.file, aside)
        this.#log.error(`${this.file} is corrupt; moved it to ${aside} and started with no OAuth clients or grants (clients must sign in again)`)
      } catch (err) {
        this.#log.error(`${this.file} is corrupt and could not be moved aside (${(err as Error).message}); OAuth sign-ins start empty`)
      }
      return
    }
    for (const client of parsed.clients) this.clients.set(client.client_id, client)
    for (const grant of parsed.grants) this.grants.set(grant.id, grant)
  }

  /** Writes are serialised so the last state always wins on disk. */
  async save (): Promise<void> {
    const content = JSON.stringify({ version: 1, clients: [...this.clients.values()], grants: [...this.grants.values()] })
    this.#writing = this.#writing.catch(() => {}).then(async () => { await writeFileAtomic(this.file, content, 0o600) })
    await this.#writing
  }
}

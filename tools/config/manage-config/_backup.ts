import { UserError } from '../../../src/errors.ts'
import type { ToolContext } from '../../../src/mcp/define-tool.ts'
import { addonSlugProblem, backupNameProblem } from '../../../src/policy/input-checks.ts'
import { ROLE_HINT } from '../../_shared/backups.ts'
import { toYaml } from '../../_shared/config-yaml.ts'
import type { ManageArgs } from './_args.ts'
import { formatOutcome, guardedWrite } from '../../_shared/write.ts'

/**
 * Backups through the Supervisor (`/backups`, `/backups/new/full|partial`), which needs the add-on's
 * `hassio_role: backup`. Creating one is audited as `supervisor.backup_full|backup_partial`: the
 * default service_denylist entries `backup.*` and `hassio.*` name Home Assistant services this never
 * calls (and cover restores, which this never does); owners who want no backups from the assistant add
 * `supervisor.*`. Nothing here deletes or restores a backup, so nothing here is undone.
 */
const TOOL = 'ha_manage_config'
const FOLDERS = ['homeassistant', 'ssl', 'share', 'addons/local', 'media']

function supervisorError (err: unknown, what: string): never {
  const message = (err as Error).message ?? String(err)
  if (/answered HTTP 403\b/.test(message)) {
    throw new UserError('HAMCP_NOT_SUPPORTED', `The Supervisor refused ${what}: this add-on's role does not allow backups.`, ROLE_HINT)
  }
  throw err
}

function requireSupervisor (ctx: ToolContext): void {
  if (!ctx.ha.supervisor.available) throw new UserError('HAMCP_NOT_SUPPORTED', 'Backups need the Supervisor: run the server as a Home Assistant add-on.', 'Without the Supervisor, make backups in Home Assistant under Settings > System > Backups.')
}

/** The request body, full unless the config names what to include; always named, always in the background. */
function backupBody (config: Record<string, unknown>): { kind: 'full' | 'partial', body: Record<string, unknown> } {
  const known = ['name', 'addons', 'folders', 'homeassistant', 'password']
  for (const key of Object.keys(config)) if (!known.includes(key)) throw new UserError('HAMCP_INVALID_ARGUMENT', `Unknown backup field ${key}.`, `Backup fields: ${known.join(', ')}; none of addons, folders, homeassistant means a full backup.`)
  const given = typeof config.name === 'string' && config.name.trim() !== '' ? config.name.trim() : undefined
  const nameProblem = given === undefined ? undefined : backupNameProblem(given)
  if (nameProblem !== undefined) throw new UserError('HAMCP_INVALID_ARGUMENT', `Invalid backup name: ${nameProblem}.`, 'A backup name is plain text, e.g. "Before the heating change".')
  const name = given ?? `MCP backup ${new Date().toISOString().slice(0, 16).replace('T', ' ')}`
  const partial = config.addons !== undefined || config.folders !== undefined || config.homeassistant !== undefined
  const body: Record<string, unknown> = { name, background: true }
  if (typeof config.password === 'string' && config.password !== '') body.password = config.password
  if (!partial) return { kind: 'full', body }
  if (config.addons !== undefined) {
    if (config.addons !== 'ALL' && (!Array.isArray(config.addons) || config.addons.some(a => typeof a !== 'string'))) throw new UserError('HAMCP_INVALID_ARGUMENT', 'addons is a list of add-on slugs, or "ALL".', 'ha_get_addons lists the slugs.')
    const badSlug = Array.isArray(config.addons) ? config.addons.map(addonSlugProblem).find(problem => problem !== undefined) : undefined
    if (badSlug !== undefined) throw new UserError('HAMCP_INVALID_ARGUMENT', `Invalid addons entry: ${badSlug}.`, 'ha_get_addons lists the slugs.')
    body.addons = config.addons
  }
  if (config.folders !== undefined) {
    if (!Array.isArray(config.folders) || config.folders.some(f => !FOLDERS.includes(String(f)))) throw new UserError('HAMCP_INVALID_ARGUMENT', `folders is a list of: ${FOLDERS.join(', ')}.`)
    body.folders = config.folders
  }
  if (config.homeassistant !== undefined) {
    if (typeof config.homeassistant !== 'boolean') throw new UserError('HAMCP_INVALID_ARGUMENT', 'homeassistant is true or false: whether the Home Assistant configuration is included.')
    body.homeassistant = config.homeassistant
  }
  return { kind: 'partial', body }
}

export async function manageBackup (ctx: ToolContext, args: ManageArgs): Promise<Record<string, unknown>> {
  requireSupervisor(ctx)
  if (args.action !== 'create') throw new UserError('HAMCP_INVALID_ARGUMENT', `Backups take action create, not ${args.action}; ha_get_system section backups lists them, restoring and deleting stay in Home Assistant's UI.`)
  const { kind, body } = backupBody(args.config ?? {})
  const shown = { ...body, ...(body.password === undefined ? {} : { password: '(set)' }) }
  const outcome = await guardedWrite(ctx, {
    kind: 'supervisor',
    tool: TOOL,
    action: `backup_${kind}`,
    data: shown,
    dryRun: args.dry_run,
    ...(args.confirm_token === undefined ? {} : { confirmToken: args.confirm_token }),
    execute: async () => {
      const answer = await ctx.ha.supervisor.call<{ job_id?: string, slug?: string }>('POST', `/backups/new/${kind}`, body).catch(err => supervisorError(err, `/backups/new/${kind}`))
      return {
        backup: kind,
        name: body.name,
        ...(answer.slug ? { slug: answer.slug } : {}),
        ...(answer.job_id ? { job_id: answer.job_id } : {}),
        note: answer.slug ? 'Backup made.' : 'The Supervisor is making the backup; ha_get_system section backups lists it once done.'
      }
    }
  })
  if (outcome.status === 'dry_run') return { ...formatOutcome(outcome), preview: `# ${kind} backup:\n${toYaml(shown)}` }
  return formatOutcome(outcome, result => result as Record<string, unknown>)
}

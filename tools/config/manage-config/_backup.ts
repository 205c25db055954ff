import { z } from 'zod'
import { UserError } from '../../../src/errors.ts'
import type { ToolCallContext, ToolContext } from '../../../src/mcp/runtime/define-tool.ts'
import { addonSlugProblem, backupNameProblem } from '../../../src/policy/input-checks.ts'
import { isRoleRefusal, ROLE_HINT } from '../../_shared/supervisor-role.ts'
import { toYaml } from '../../_shared/config-yaml.ts'
import { configOf, problemIssue, type ManageArgs } from './_args.ts'
import { formatOutcome, guardedWrite } from '../../_shared/write.ts'

/**
 * Backups through the Supervisor (`/backups`, `/backups/new/full|partial`), which needs the add-on's
 * `hassio_role: backup`. Creating one is audited as `supervisor.backup_full|backup_partial`: the
 * default service_denylist entries `backup.*` and `hassio.*` name Home Assistant services this never
 * calls (and cover restores, which this never does); owners who want no backups from the assistant add
 * `supervisor.*`. Nothing here deletes or restores a backup, so nothing here is undone.
 */
const FOLDERS = ['homeassistant', 'ssl', 'share', 'addons/local', 'media'] as const

function supervisorError (err: unknown, what: string): never {
  if (isRoleRefusal(err)) {
    throw new UserError('HAMCP_NOT_PERMITTED', `The Supervisor refused ${what}: this add-on's role does not allow backups.`, ROLE_HINT)
  }
  throw err
}

function requireSupervisor (ctx: ToolContext): void {
  if (!ctx.ha.supervisor.available) throw new UserError('HAMCP_NOT_SUPPORTED', 'Backups need the Supervisor: run the server as a Home Assistant add-on.', 'Without the Supervisor, make backups in Home Assistant under Settings > System > Backups.')
}

const FOLDER_LIST = `a list of: ${FOLDERS.join(', ')}`

/** A backup's config; none of addons, folders, homeassistant means a full backup. */
const backupConfig = z.strictObject({
  name: z.string({ error: 'a backup name is text' }).trim().optional().superRefine(problemIssue(name => name === '' ? undefined : backupNameProblem(name))),
  addons: z.union([z.literal('ALL'), z.array(z.string().superRefine(problemIssue(addonSlugProblem)))], { error: 'a list of add-on slugs, or "ALL" (ha_get_addons lists the slugs)' }).optional(),
  folders: z.array(z.enum(FOLDERS, { error: `one of: ${FOLDERS.join(', ')}` }), { error: FOLDER_LIST }).optional(),
  homeassistant: z.boolean({ error: 'true or false: whether the Home Assistant configuration is included' }).optional(),
  password: z.string({ error: 'the password is text' }).optional()
})
const BACKUP_HINT = 'Backup fields: name, addons, folders, homeassistant, password; none of addons, folders, homeassistant means a full backup. E.g. {"name":"Before the heating change","addons":["core_mosquitto"]}.'

/** The request body, full unless the config names what to include; always named, always in the background. */
function backupBody (raw: unknown, now: number): { kind: 'full' | 'partial', body: Record<string, unknown> } {
  const config = configOf(backupConfig, raw, 'a backup', BACKUP_HINT)
  const name = config.name || `MCP backup ${new Date(now).toISOString().slice(0, 16).replace('T', ' ')}`
  const body: Record<string, unknown> = { name, background: true }
  if (config.password) body.password = config.password
  const { addons, folders, homeassistant } = config
  if (addons === undefined && folders === undefined && homeassistant === undefined) return { kind: 'full', body }
  return { kind: 'partial', body: { ...body, ...(addons === undefined ? {} : { addons }), ...(folders === undefined ? {} : { folders }), ...(homeassistant === undefined ? {} : { homeassistant }) } }
}

export async function manageBackup (ctx: ToolCallContext, args: ManageArgs): Promise<Record<string, unknown>> {
  requireSupervisor(ctx)
  if (args.action !== 'create') throw new UserError('HAMCP_INVALID_ARGUMENT', `Backups take action create, not ${args.action}; ha_get_system section backups lists them, restoring and deleting stay in Home Assistant's UI.`)
  const { kind, body } = backupBody(args.config, ctx.clock.now())
  const shown = { ...body, ...(body.password === undefined ? {} : { password: '(set)' }) }
  const outcome = await guardedWrite(ctx, {
    kind: 'supervisor',
    tool: ctx.tool,
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

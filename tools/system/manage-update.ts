import pTimeout from 'p-timeout'
import { z } from 'zod'
import { timersOf } from '../../src/clock.ts'
import { UserError } from '../../src/errors.ts'
import { requireDomain, requireEntity } from '../../src/home/entities.ts'
import { defineTool } from '../../src/mcp/runtime/define-tool.ts'
import { entityIdArg } from '../_shared/args.ts'
import { confirmTokenArg, dryRunArg, formatOutcome, guardedWrite } from '../_shared/write.ts'
import { installsOf, supports, updateView, type InstallRun } from './_updates.ts'

/** How long an install call waits for Home Assistant before answering "in progress": it never blocks on a long install. */
const INSTALL_WAIT_MS = 2_000
/** update.install answers once the install ended, which for Home Assistant itself can take many minutes. */
const INSTALL_CALL_MS = 3_600_000

export default defineTool({
  name: 'ha_manage_update',
  title: 'Install or skip an update',
  description: 'Install (confirmed, optional backup), skip or un-skip an update; a later call reports install progress.',
  kind: 'manage',
  category: 'system',
  everyday: false,
  keywords: {
    en: 'install update upgrade skip update new version firmware core os install updates backup before',
    de: 'update installieren aktualisieren überspringen neue version firmware installieren sicherung vorher',
    fr: 'installer mise à jour mettre à jour ignorer nouvelle version firmware installer les mises à jour sauvegarde',
    es: 'instalar actualización actualizar omitir nueva versión firmware instalar actualizaciones copia',
    nl: 'update installeren bijwerken overslaan nieuwe versie firmware updates installeren back-up'
  },
  input: z.object({
    action: z.enum(['install', 'skip', 'clear_skipped']).describe('Action.'),
    entity_id: entityIdArg(),
    version: z.string().trim().min(1).max(100).optional().describe('Version.'),
    backup: z.boolean().optional().describe('Backup.'),
    dry_run: dryRunArg(),
    confirm_token: confirmTokenArg()
  }),
  async handler (ctx, args) {
    requireDomain(args.entity_id, ['update'], 'an update')
    requireEntity(ctx.home, args.entity_id)
    const attributes = ctx.home.state(args.entity_id)?.attributes ?? {}
    if (args.action !== 'install') {
      if (args.version !== undefined || args.backup !== undefined) throw new UserError('HAMCP_INVALID_ARGUMENT', `version and backup go with install, not ${args.action}.`)
      // Each undoes the other (src/policy/undo.ts), as a change ha_manage_update made: allow_config_write.
      return formatOutcome(await guardedWrite(ctx, { kind: 'service', tool: ctx.tool, domain: 'update', service: args.action, target: { entity_id: args.entity_id }, undoNeeds: 'allow_config_write', dryRun: args.dry_run, confirmToken: args.confirm_token }))
    }
    const runs = installsOf(ctx.ha)
    const running = runs.get(args.entity_id)
    if (running?.status === 'in_progress' || attributes.in_progress === true) {
      return { in_progress: true, update: updateView(ctx.home, ctx.ha, args.entity_id), note: 'Still installing; call again or use ha_list_updates to follow it.' }
    }
    if (args.backup === true && !supports(attributes, 'backup')) throw new UserError('HAMCP_NOT_SUPPORTED', `${args.entity_id} cannot make a backup before installing.`, 'Install without backup, or make one first with ha_manage_config kind backup.')
    if (args.version !== undefined && !supports(attributes, 'specific_version')) throw new UserError('HAMCP_NOT_SUPPORTED', `${args.entity_id} installs only its latest version.`, 'Leave version out.')
    const version = args.version ?? (typeof attributes.latest_version === 'string' ? attributes.latest_version : null)
    const data: Record<string, unknown> = { ...(args.version === undefined ? {} : { version: args.version }), backup: args.backup ?? false }
    const offer = supports(attributes, 'backup') && args.backup === undefined ? ' This update can make a backup first: ask whether to (backup: true).' : ''
    const outcome = await guardedWrite(ctx, {
      kind: 'command',
      tool: ctx.tool,
      domain: 'update',
      service: 'install',
      target: { entity_id: args.entity_id },
      data,
      dryRun: args.dry_run,
      confirmToken: args.confirm_token,
      confirm: { preview: `Install ${String(attributes.title ?? args.entity_id)} ${String(attributes.installed_version ?? '?')} -> ${String(version ?? '?')}${data.backup === true ? ', backup first' : ', no backup'}.${offer}`, subject: args.entity_id, entities: [args.entity_id] },
      execute: async () => {
        const run: InstallRun = { version, status: 'in_progress' }
        runs.set(args.entity_id, run)
        const call = ctx.ha.command({ type: 'call_service', domain: 'update', service: 'install', target: { entity_id: args.entity_id }, service_data: data }, INSTALL_CALL_MS)
        const ended = call.then(() => { run.status = 'done' }, (err: unknown) => { run.status = 'failed'; run.error = (err as Error).message; throw err })
        ended.catch(() => {})
        // A refusal (no update, already installing) comes at once and is the answer; a long install is left running.
        await pTimeout(ended, { milliseconds: INSTALL_WAIT_MS, fallback: () => undefined, customTimers: timersOf(ctx.clock) })
        return run
      }
    })
    return formatOutcome(outcome, () => ({ install: runs.get(args.entity_id)?.status ?? 'in_progress', update: updateView(ctx.home, ctx.ha, args.entity_id) }))
  }
})

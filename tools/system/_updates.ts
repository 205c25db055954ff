import { within } from '../../src/clock.ts'
import { UserError } from '../../src/errors.ts'
import type { HomeAssistant } from '../../src/ha/index.ts'
import type { HomeView } from '../../src/home/view.ts'
import type { ToolCallContext } from '../../src/mcp/runtime/define-tool.ts'
import { formatOutcome, guardedWrite } from '../_shared/write.ts'

/** homeassistant/components/update/const.py UpdateEntityFeature, by the names the answers use. */
export const UPDATE_FEATURES = { install: 1, specific_version: 2, progress: 4, backup: 8, release_notes: 16 } as const
export type UpdateFeature = keyof typeof UPDATE_FEATURES

export function supports (attributes: Record<string, unknown>, feature: UpdateFeature): boolean {
  return ((Number(attributes.supported_features) || 0) & UPDATE_FEATURES[feature]) !== 0
}

/** An install this server started: Home Assistant answers `update.install` only once it ended. */
export interface InstallRun { version: string | null, status: 'in_progress' | 'done' | 'failed', error?: string }

/** Per connection, so two apps in one process (tests) never see each other's installs. */
const installs = new WeakMap<HomeAssistant, Map<string, InstallRun>>()

export function installsOf (ha: HomeAssistant): Map<string, InstallRun> {
  let map = installs.get(ha)
  if (map === undefined) installs.set(ha, (map = new Map()))
  return map
}

const SUMMARY_MAX = 300

/** One update entity as ha_list_updates and ha_manage_update show it, with the install this server started, if any. */
export function updateView (home: HomeView, ha: HomeAssistant, entityId: string): Record<string, unknown> | undefined {
  const state = home.state(entityId)
  if (state === undefined) return undefined
  const a = state.attributes
  const summary = typeof a.release_summary === 'string' ? a.release_summary : null
  const run = installsOf(ha).get(entityId)
  const percentage = typeof a.update_percentage === 'number' ? a.update_percentage : null
  return {
    entity_id: entityId,
    title: a.title ?? a.friendly_name ?? null,
    installed: a.installed_version ?? null,
    latest: a.latest_version ?? null,
    update_available: state.state === 'on',
    ...(a.skipped_version ? { skipped: a.skipped_version } : {}),
    in_progress: a.in_progress === true || typeof a.in_progress === 'number',
    ...(percentage === null ? {} : { percentage }),
    ...(summary ? { release_summary: summary.length > SUMMARY_MAX ? `${summary.slice(0, SUMMARY_MAX)}…` : summary } : {}),
    ...(typeof a.release_url === 'string' ? { release_url: a.release_url } : {}),
    supports: (Object.keys(UPDATE_FEATURES) as UpdateFeature[]).filter(feature => supports(a, feature)),
    ...(a.auto_update === true ? { auto_update: true } : {}),
    ...(run ? { last_install: run } : {})
  }
}

/** How long an install call waits for Home Assistant before answering "in progress": it never blocks on a long install. */
const INSTALL_WAIT_MS = 2_000
/** update.install answers once the install ended, which for Home Assistant itself can take many minutes. */
const INSTALL_CALL_MS = 3_600_000

export interface InstallArgs { version?: string | undefined, backup?: boolean | undefined, dry_run: boolean, confirm_token?: string | undefined }

/**
 * The one way an update is installed (ha_manage_update install, ha_manage_addon update): a call while
 * one runs reports its progress; otherwise update.install through the guard, always confirmed with what
 * changes (`what`, and `then`: what follows), offering the backup the entity supports; the answer comes
 * within INSTALL_WAIT_MS, a longer install is reported on the next call and by ha_list_updates.
 */
export async function installUpdate (ctx: ToolCallContext, entityId: string, args: InstallArgs, label: { what?: string, then?: string } = {}): Promise<Record<string, unknown>> {
  const attributes = ctx.home.state(entityId)?.attributes ?? {}
  const runs = installsOf(ctx.ha)
  if (runs.get(entityId)?.status === 'in_progress' || attributes.in_progress === true) {
    return { in_progress: true, update: updateView(ctx.home, ctx.ha, entityId), note: 'Still installing; call again or use ha_list_updates to follow it.' }
  }
  if (args.backup === true && !supports(attributes, 'backup')) throw new UserError('HAMCP_NOT_SUPPORTED', `${entityId} cannot make a backup before installing.`, 'Install without backup, or make one first with ha_manage_config kind backup.')
  if (args.version !== undefined && !supports(attributes, 'specific_version')) throw new UserError('HAMCP_NOT_SUPPORTED', `${entityId} installs only its latest version.`, 'Leave version out.')
  const version = args.version ?? (typeof attributes.latest_version === 'string' ? attributes.latest_version : null)
  const data: Record<string, unknown> = { ...(args.version === undefined ? {} : { version: args.version }), backup: args.backup ?? false }
  const offer = supports(attributes, 'backup') && args.backup === undefined ? ' This update can make a backup first: ask whether to (backup: true).' : ''
  const what = label.what ?? String(attributes.title ?? entityId)
  const outcome = await guardedWrite(ctx, {
    kind: 'command',
    tool: ctx.tool,
    domain: 'update',
    service: 'install',
    target: { entity_id: entityId },
    data,
    dryRun: args.dry_run,
    confirmToken: args.confirm_token,
    confirm: { preview: `Install ${what} ${String(attributes.installed_version ?? '?')} -> ${String(version ?? '?')}${data.backup === true ? ', backup first' : ', no backup'}${label.then === undefined ? '' : `; ${label.then}`}.${offer}`, subject: entityId, entities: [entityId] },
    execute: async () => {
      const run: InstallRun = { version, status: 'in_progress' }
      runs.set(entityId, run)
      const call = ctx.ha.command({ type: 'call_service', domain: 'update', service: 'install', target: { entity_id: entityId }, service_data: data }, INSTALL_CALL_MS)
      const ended = call.then(() => { run.status = 'done' }, (err: unknown) => { run.status = 'failed'; run.error = (err as Error).message; throw err })
      ended.catch(() => {})
      // A refusal (no update, already installing) comes at once and is the answer; a long install is left running.
      await within(ctx.clock, INSTALL_WAIT_MS, ended, () => undefined)
      return run
    }
  })
  return formatOutcome(outcome, () => ({ install: runs.get(entityId)?.status ?? 'in_progress', update: updateView(ctx.home, ctx.ha, entityId) }))
}

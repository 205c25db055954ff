import { z } from 'zod'
import { UserError } from '../../../src/errors.ts'
import type { ToolCallContext, ToolContext } from '../../../src/mcp/runtime/define-tool.ts'
import { configFact, editedSinceWrite, type Revert } from '../../../src/policy/undo.ts'
import { referencedEntities } from '../../_shared/config-store.ts'
import { runConfigWrite } from '../../_shared/config-write.ts'
import { titlesProblem } from '../../../src/policy/input-checks.ts'
import { configHash, toYaml } from '../../_shared/config-yaml.ts'
import { addAt, elementAt, loadDashboard, moveTo, removeAt, replaceAt, type Record_ } from '../../_shared/dashboards.ts'
import { editableDashboard, OVERVIEW } from '../../_shared/dashboard-directory.ts'
import { unifiedDiff } from '../../_shared/line-diff.ts'
import { configOf, type ManageArgs } from './_args.ts'

/**
 * Views and cards of storage dashboards, named by the paths ha_list_dashboards shows: create, update,
 * move or delete one. Each edit saves the whole config with `lovelace/config/save` after a confirmed diff, bound
 * to the hash of the config it was computed from; undo saves the previous config back.
 */

/** A card or view: any object, its titles and names plain text (the problem's path becomes the issue's). */
const dashboardElement = z.record(z.string(), z.unknown()).superRefine((element, ctx) => {
  const problem = titlesProblem(element, '')
  if (problem === undefined) return
  const [at = '', ...message] = problem.split(': ')
  ctx.addIssue({ code: 'custom', path: at.split('.').filter(Boolean), message: message.join(': ') })
})

function dashboardRevert (ctx: ToolContext, urlPath: string | null, name: string, written: Record_, previous: Record_): Revert {
  const label = `dashboard ${name}`
  const wroteHash = configHash(written)
  return {
    preview: ctx.home.scrub(unifiedDiff(toYaml(written), toYaml(previous), { from: `${label} (now)`, to: `${label} (restored)` })),
    entities: referencedEntities(previous),
    wrote: configFact(label, wroteHash, wroteHash),
    current: async () => configFact(label, wroteHash, configHash(await loadDashboard(ctx, urlPath, name))),
    run: async force => {
      const now = await loadDashboard(ctx, urlPath, name)
      if (force !== true && configHash(now) !== wroteHash) {
        throw editedSinceWrite(label, 'Edit it with ha_manage_config instead.')
      }
      await ctx.ha.command({ type: 'lovelace/config/save', url_path: urlPath, config: previous })
      return { dashboard: name, restored: true }
    }
  }
}

function edited (args: ManageArgs, current: Record_): { next: Record_, touched: unknown } {
  const item = args.item ?? ''
  const element = args.config
  switch (args.action) {
    case 'create':
      if (!element) throw new UserError('HAMCP_INVALID_ARGUMENT', 'config is needed: the card (with its type) or, without item, the view to add.', 'E.g. item 0, config {"type":"tile","entity":"light.kitchen"}.')
      return { next: addAt(current, item, element), touched: element }
    case 'update':
      if (!element) throw new UserError('HAMCP_INVALID_ARGUMENT', 'config is needed: the whole new card or view at item.', 'action list shows each path.')
      elementAt(current, item)
      return { next: replaceAt(current, item, element), touched: element }
    case 'move':
      if (args.to === undefined) throw new UserError('HAMCP_INVALID_ARGUMENT', 'to is needed: the path the item should end up at, e.g. 1/0.')
      return { next: moveTo(current, item, args.to), touched: undefined }
    case 'delete':
      return { next: removeAt(current, item), touched: undefined }
    default:
      throw new UserError('HAMCP_INVALID_ARGUMENT', `Unknown dashboard action ${args.action}.`)
  }
}

export async function manageDashboard (ctx: ToolCallContext, args: ManageArgs): Promise<Record<string, unknown>> {
  const name = args.id ?? OVERVIEW
  const urlPath = await editableDashboard(ctx.ha, name)
  const current = await loadDashboard(ctx, urlPath, name)
  if (args.config !== undefined) configOf(dashboardElement, args.config, 'a card or view', 'Titles and names are plain text: no control or invisible characters.')
  const { next, touched } = edited(args, current)
  const label = `dashboard ${name}`
  const what = args.action === 'move' ? `${args.item ?? ''} to ${args.to ?? ''}` : args.item ?? 'new view'
  return await runConfigWrite(ctx, {
    tool: ctx.tool,
    domain: 'lovelace',
    action: args.action,
    subject: label,
    payload: { dashboard: name, item: args.item ?? null, to: args.to ?? null, config: args.config ?? null },
    // Context lines may show other cards' entities: hidden ones are masked like in any read.
    preview: ctx.home.scrub(unifiedDiff(toYaml(current), toYaml(next), { from: `${label} (current)`, to: `${label} (proposed)` })),
    baseHash: configHash(current),
    entities: referencedEntities(touched ?? {}),
    dryRun: args.dry_run,
    confirmToken: args.confirm_token,
    currentHash: async () => configHash(await loadDashboard(ctx, urlPath, name)),
    execute: async () => {
      await ctx.ha.command({ type: 'lovelace/config/save', url_path: urlPath, config: next })
      return { dashboard: name, [args.action === 'create' ? 'added' : args.action === 'move' ? 'moved' : args.action === 'update' ? 'updated' : 'deleted']: what }
    },
    revert: () => dashboardRevert(ctx, urlPath, name, next, current)
  })
}

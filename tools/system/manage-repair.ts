import { z } from 'zod'
import { UserError } from '../../src/errors.ts'
import { defineTool } from '../../src/mcp/runtime/define-tool.ts'
import { slugArg } from '../_shared/args.ts'
import { dryRunArg, formatOutcome, guardedWrite } from '../_shared/write.ts'

interface Issue { domain?: string, issue_id?: string, ignored?: boolean, severity?: string }

/**
 * Ignores a repair issue or brings it back (`repairs/ignore_issue`, what the Repairs page's "Ignore"
 * does). No Home Assistant service does this: the audit names the command, and service_denylist, which
 * names services, does not apply (allow_config_write and the system level do). Listing stays in ha_get_health.
 */
export default defineTool({
  name: 'ha_manage_repair',
  title: 'Ignore a repair',
  description: 'Ignore or unignore a repair issue (ha_get_health lists them).',
  kind: 'manage',
  category: 'system',
  everyday: false,
  keywords: {
    en: 'repair issue ignore dismiss hide warning problem unignore restore repairs notification',
    de: 'reparatur problem ignorieren ausblenden warnung wieder anzeigen reparaturen',
    fr: 'réparation problème ignorer masquer avertissement réafficher réparations',
    es: 'reparación problema ignorar ocultar aviso advertencia volver a mostrar reparaciones',
    nl: 'reparatie probleem negeren verbergen waarschuwing opnieuw tonen reparaties'
  },
  input: z.object({
    action: z.enum(['ignore', 'unignore']).describe('Action.'),
    domain: slugArg('domain', 'zha'),
    issue_id: z.string().trim().min(1).max(255).describe('Issue id.'),
    dry_run: dryRunArg()
  }),
  async handler (ctx, args) {
    const listed = await ctx.ha.command<{ issues?: Issue[] }>({ type: 'repairs/list_issues' })
    const issue = (listed?.issues ?? []).find(i => i.domain === args.domain && i.issue_id === args.issue_id)
    if (issue === undefined) throw new UserError('HAMCP_NOT_FOUND', `No repair issue ${args.issue_id} of ${args.domain}.`, 'ha_get_health lists the open repairs with their domain and issue id.')
    const ignore = args.action === 'ignore'
    if ((issue.ignored === true) === ignore) return { success: true, changed: false, note: `${args.domain}/${args.issue_id} is already ${ignore ? 'ignored' : 'not ignored'}.` }
    const outcome = await guardedWrite(ctx, {
      kind: 'command',
      tool: ctx.tool,
      // No service ignores a repair: named by the command (its `ignore` flag says which way).
      operation: 'repairs/ignore_issue',
      data: { domain: args.domain, issue_id: args.issue_id },
      dryRun: args.dry_run,
      execute: async () => await ctx.ha.command({ type: 'repairs/ignore_issue', domain: args.domain, issue_id: args.issue_id, ignore })
    })
    return formatOutcome(outcome, () => ({ issue: `${args.domain}/${args.issue_id}`, ignored: ignore, changed: true }))
  }
})

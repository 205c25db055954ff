import { z } from 'zod'
import { HaBadPayloadError, HaNotConnectedError, HomeAssistantError, UserError } from '../../src/errors.ts'
import { notPermitted } from '../../src/ha/rights.ts'
import { SERVICE_CATEGORIES, serviceRefusal } from '../../src/mcp/runtime/categories.ts'
import { defineTool, type ToolCallContext } from '../../src/mcp/runtime/define-tool.ts'
import { slugArg } from '../_shared/args.ts'
import { confirmTokenArg, dryRunArg, formatOutcome, guardedWrite } from '../_shared/write.ts'
import { reloadEntry } from '../_shared/integration-writes.ts'

/** Most characters of the check's errors or warnings an answer carries (the answer cap is 15 KB). */
const CHECK_TEXT_MAX = 4000

interface CheckAnswer { result?: unknown, errors?: unknown, warnings?: unknown }

const shortText = (value: unknown): string | undefined =>
  typeof value === 'string' && value !== '' ? (value.length > CHECK_TEXT_MAX ? `${value.slice(0, CHECK_TEXT_MAX)}...` : value) : undefined

/**
 * Home Assistant's configuration check, as its restart dialog asks it first (core components/config/core.py
 * CheckConfigView; the frontend's src/data/core.ts `checkCoreConfig`): refused with its errors when the
 * YAML is invalid, its warnings passed on otherwise.
 */
async function checkConfig (ctx: ToolCallContext, what: string): Promise<{ config_warnings?: string }> {
  const check = await ctx.ha.rest.json<CheckAnswer>('POST', '/api/config/core/check_config').catch((err: unknown) => {
    // An administrator-only view (HA_TOKEN of another user, in development mode).
    throw err instanceof HomeAssistantError && err.upstreamStatus === 401 ? notPermitted('the configuration check', ctx.ha.mode, ctx.ha.status().admin) : err
  })
  const warnings = shortText(check?.warnings)
  if (check?.result === 'invalid') {
    const errors = shortText(check.errors) ?? 'no details given'
    throw new UserError('HAMCP_CONFIG_INVALID', `Home Assistant's configuration check found errors, so nothing was ${what}: ${errors}`, 'Fix the YAML the errors name (or ask the owner to), then call again.', { errors, ...(warnings ? { warnings } : {}) })
  }
  if (check?.result !== 'valid') throw new HaBadPayloadError('POST /api/config/core/check_config', 'no result')
  return warnings ? { config_warnings: warnings } : {}
}

/** The domains whose `reload` service Home Assistant has registered (helpers/reload.py and each integration's own). */
async function reloadableDomains (ctx: ToolCallContext): Promise<string[]> {
  const services = await ctx.ha.command<Record<string, Record<string, unknown> | undefined>>({ type: 'get_services' })
  return Object.keys(services ?? {}).filter(domain => services[domain]?.reload !== undefined).sort()
}

const RESTARTING = 'Home Assistant is restarting: usually back within a minute (a few on a Raspberry Pi). Meanwhile its automations stop, tools answer HAMCP_HA_NOT_CONNECTED, and a client connected through Home Assistant (its MCP integration) loses this connection until it is back.'

/**
 * Each action is the service an owner would call, through the one guarded write path: service_denylist
 * (the default one keeps homeassistant.restart refused), the levels of src/mcp/runtime/categories.ts, dry run,
 * confirmation and audit, exactly as through ha_call_service.
 */
export default defineTool({
  name: 'ha_restart',
  title: 'Restart or reload the configuration',
  description: 'Restart (confirmed) or reload YAML (all, one domain) or a config entry, after the config check.',
  kind: 'manage',
  category: 'system',
  everyday: false,
  keywords: {
    en: 'assistant restart reboot reload yaml configuration check config valid quick reload templates groups scripts',
    de: 'assistant neu starten neustart neu laden yaml konfiguration prüfen konfigurationsprüfung skripte vorlagen gruppen',
    fr: 'assistant redémarrer relancer recharger yaml vérifier la configuration vérification scripts modèles groupes',
    es: 'assistant reiniciar recargar yaml comprobar configuración comprobación scripts plantillas grupos',
    nl: 'assistant herstarten opnieuw opstarten herladen yaml configuratie controleren configuratiecontrole scripts sjablonen groepen'
  },
  input: z.object({
    action: z.enum(['restart', 'reload_all', 'reload']).describe('reload takes domain or entry_id'),
    domain: slugArg('domain', 'automation').optional(),
    entry_id: z.string().trim().min(1).max(64).regex(/^[A-Za-z0-9_-]+$/, 'an id as ha_list_integrations gives it').optional().describe('Config entry'),
    dry_run: dryRunArg(),
    confirm_token: confirmTokenArg()
  }),
  async handler (ctx, args) {
    const { action, domain, entry_id: entryId } = args
    if (action !== 'reload' && (domain !== undefined || entryId !== undefined)) throw new UserError('HAMCP_INVALID_ARGUMENT', `${action} takes no domain or entry_id.`, 'Use action reload for one domain or config entry.')
    if (action === 'reload' && (domain === undefined) === (entryId === undefined)) throw new UserError('HAMCP_INVALID_ARGUMENT', 'reload needs exactly one of domain or entry_id.', 'action reload_all reloads every domain.')
    const service = entryId !== undefined ? 'homeassistant.reload_config_entry' : action === 'reload' ? `${String(domain)}.reload` : `homeassistant.${action}`
    const refusal = serviceRefusal(service, ctx.identity, ctx.options)
    if (refusal) throw new UserError('HAMCP_DENIED_LEVEL', refusal.message, refusal.hint)
    // A config entry's settings are stored by Home Assistant, not read from YAML: no check to run first.
    if (entryId !== undefined) return await reloadEntry(ctx, entryId, args)
    if (domain !== undefined) {
      const reloadable = await reloadableDomains(ctx)
      if (!reloadable.includes(domain)) throw new UserError('HAMCP_INVALID_ARGUMENT', `${domain} has no reload service in this home.`, `Reloadable: ${reloadable.join(', ')}.`)
    }
    const check = await checkConfig(ctx, action === 'restart' ? 'restarted' : 'reloaded')
    if (action === 'restart') return { ...await restart(ctx, args), ...check }
    const outcome = await guardedWrite(ctx, {
      kind: 'service',
      tool: ctx.tool,
      domain: domain ?? 'homeassistant',
      service: domain === undefined ? 'reload_all' : 'reload',
      undoable: false,
      dryRun: args.dry_run,
      confirmToken: args.confirm_token
    })
    return { ...formatOutcome(outcome, () => ({ reloaded: domain ?? 'all' })), ...check }
  }
})

/**
 * homeassistant.restart is answered by Home Assistant going down: core awaits its stop handler inside
 * the call, so the connection closes with the call unanswered: success, as in
 * the frontend's src/state/connection-mixin.ts (`serviceCallWillDisconnect`); a refusal still comes as an answer.
 */
async function restart (ctx: ToolCallContext, args: { dry_run: boolean, confirm_token?: string | undefined }): Promise<Record<string, unknown>> {
  const outcome = await guardedWrite(ctx, {
    kind: 'command',
    tool: ctx.tool,
    domain: 'homeassistant',
    service: 'restart',
    // The same words ha_call_service asks with for homeassistant.restart, and what the check found.
    confirm: { preview: `${String(SERVICE_CATEGORIES['homeassistant.restart']?.asks)}, usually within a minute. The configuration check passed.`, subject: 'Home Assistant' },
    dryRun: args.dry_run,
    confirmToken: args.confirm_token,
    execute: async () => {
      try {
        await ctx.ha.command({ type: 'call_service', domain: 'homeassistant', service: 'restart' })
      } catch (err) {
        if (!(err instanceof HaNotConnectedError && err.lostDuringCommand)) throw err
      }
      return undefined
    }
  })
  return formatOutcome(outcome, () => ({ restarting: true, note: RESTARTING }))
}

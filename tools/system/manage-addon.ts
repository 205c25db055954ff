import { z } from 'zod'
import { HomeAssistantError, UserError } from '../../src/errors.ts'
import { defineTool, type ToolCallContext } from '../../src/mcp/runtime/define-tool.ts'
import { ADDON_SLUG } from '../../src/policy/input-checks.ts'
import { freeFormArg } from '../_shared/args.ts'
import { ownAddonSlug, ownStopRefusal } from '../_shared/supervisor-role.ts'
import { confirmTokenArg, dryRunArg, formatOutcome, guardedWrite } from '../_shared/write.ts'
import { supervisorGet } from './_supervisor.ts'
import { installsOf, installUpdate } from './_updates.ts'

interface AddonInfo { slug?: string, name?: string, state?: string, version?: string, version_latest?: string }

/**
 * The add-on keeps the Supervisor's `backup` role, under which /addons/<slug>/start and the like are
 * refused (docs/security.md). Home Assistant's hassio integration calls the Supervisor with its own
 * rights, so each action is the service an owner would call (hassio/services.py `addon_*`, kept beside
 * `app_*` so older cores work; update/__init__.py `update.install` on the add-on's update entity): the
 * one guarded path, service_denylist and levels included, exactly as through ha_call_service.
 */
export default defineTool({
  name: 'ha_manage_addon',
  title: 'Manage an add-on',
  description: 'Start, stop, restart or update an add-on through Home Assistant\'s services; stop and update ask for confirmation.',
  kind: 'manage',
  category: 'system',
  everyday: false,
  keywords: {
    en: 'addon add-on start stop restart update upgrade app plugin mosquitto zigbee2mqtt esphome node red',
    de: 'addon erweiterung starten stoppen neustarten aktualisieren app',
    fr: 'module complémentaire addon démarrer arrêter redémarrer mettre à jour',
    es: 'complemento addon iniciar detener reiniciar actualizar',
    nl: 'add-on addon starten stoppen herstarten bijwerken'
  },
  enabled: options => options.allow_addon_control,
  input: z.object({
    action: z.enum(['start', 'stop', 'restart', 'update', 'options']).describe('Action.'),
    slug: z.string().trim().regex(ADDON_SLUG, 'lowercase letters, digits, _ and - only').max(64).describe('e.g. core_mosquitto'),
    options: freeFormArg().optional().describe('Options.'),
    backup: z.boolean().optional().describe('Backup.'),
    dry_run: dryRunArg(),
    confirm_token: confirmTokenArg()
  }),
  async handler (ctx, args) {
    const { action, slug } = args
    if (action === 'options') {
      throw new UserError('HAMCP_NOT_PERMITTED', 'Changing an add-on\'s options is not possible from here: Home Assistant has no service for it, and the Supervisor gives this add-on\'s role no right to change another add-on\'s options.', `The owner changes ${slug}'s options on its page in Home Assistant (Settings, Add-ons, ${slug}, Configuration).`)
    }
    const info = await addonInfo(ctx, slug)
    const name = info?.name === undefined ? slug : `${info.name} (${slug})`
    // Compared by the slug the Supervisor answered: `self` names this add-on too.
    if (action === 'stop' && info !== undefined && await ownAddonSlug(ctx.ha) === (info.slug ?? slug)) throw ownStopRefusal(name)
    if (action === 'update') return await update(ctx, args, slug, name, info)
    if (args.backup !== undefined) throw new UserError('HAMCP_INVALID_ARGUMENT', `backup goes with update, not ${action}.`)
    const outcome = await guardedWrite(ctx, {
      kind: 'service',
      tool: ctx.tool,
      domain: 'hassio',
      service: `addon_${action}`,
      data: { addon: slug },
      undoable: false,
      ...(action === 'stop' ? { confirm: `Stop the add-on ${name}: what it serves stops until it is started again.` } : {}),
      dryRun: args.dry_run,
      confirmToken: args.confirm_token
    })
    const answer = formatOutcome(outcome)
    if (outcome.status !== 'done' || info === undefined) return answer
    const after = await addonInfo(ctx, slug)
    return { ...answer, addon: slug, state: after?.state }
  }
})

/**
 * An add-on's update is its update entity's install (hassio/entity.py HassioAddonEntity: unique_id
 * `<slug>_version_latest`, platform hassio), on ha_manage_update's path: confirmed, the backup offered,
 * progress on the next call.
 */
async function update (ctx: ToolCallContext, args: { backup?: boolean | undefined, dry_run: boolean, confirm_token?: string | undefined }, slug: string, name: string, info: AddonInfo | undefined): Promise<Record<string, unknown>> {
  const snapshot = await ctx.ha.registries.snapshot()
  const entity = [...snapshot.entities.values()].find(e => e.platform === 'hassio' && e.unique_id === `${slug}_version_latest`)
  if (entity === undefined || !ctx.home.visible(entity.entity_id)) {
    throw new UserError('HAMCP_NOT_FOUND', `No update entity for the add-on ${name}.`, 'Home Assistant\'s Supervisor integration makes one per installed add-on: check the slug with ha_get_addons, or update it from its page in Home Assistant.')
  }
  const state = ctx.home.state(entity.entity_id)
  const running = state?.attributes.in_progress === true || installsOf(ctx.ha).get(entity.entity_id)?.status === 'in_progress'
  if (state?.state === 'off' && !running) return { up_to_date: true, addon: slug, entity_id: entity.entity_id, version: String(state.attributes.installed_version ?? info?.version ?? '?'), note: 'No update to install.' }
  const answer = await installUpdate(ctx, entity.entity_id, args, { what: `the add-on ${name}`, then: 'it restarts on the new version' })
  return { ...answer, addon: slug, entity_id: entity.entity_id }
}

/** The add-on's Supervisor record, or undefined outside add-on mode; an unknown slug is HAMCP_NOT_FOUND. */
async function addonInfo (ctx: ToolCallContext, slug: string): Promise<AddonInfo | undefined> {
  if (!ctx.ha.supervisor.available) return undefined
  try {
    return await supervisorGet<AddonInfo>(ctx.ha, `/addons/${slug}/info`, 'Add-on information')
  } catch (err) {
    if (err instanceof HomeAssistantError && (err.upstreamStatus === 400 || err.upstreamStatus === 404)) throw new UserError('HAMCP_NOT_FOUND', `Unknown add-on "${slug}".`, 'Call ha_get_addons to see installed add-ons and their slugs.')
    throw err
  }
}

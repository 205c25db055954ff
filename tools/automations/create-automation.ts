import { z } from 'zod'
import { defineTool } from '../../src/mcp/runtime/define-tool.ts'
import { aliasArg, blocksArg, conditionsArg, descriptionArg, maxExceededArg, modeArg, variablesArg } from '../_shared/config-args.ts'
import { createFlow } from '../_shared/config-flows.ts'
import { automationBlocks, entityForConfigId, newAutomationId, refuseAutomationCollision, validateWithHomeAssistant, waitForEntity, writeConfig } from '../_shared/config-store.ts'
import { confirmTokenArg, dryRunArg } from '../_shared/write.ts'

export default defineTool({
  name: 'ha_create_automation',
  title: 'Create automation',
  description: 'HA\'s automation schema as JSON; HA validates it, then the user confirms its YAML.',
  kind: 'manage',
  category: 'automations',
  everyday: true,
  keywords: {
    en: 'new make add build write automation rule routine when then trigger if at sunset schedule automate daily',
    de: 'neue automatisierung erstellen anlegen regel routine wenn dann auslöser automatisch jeden morgen bei sonnenuntergang zeitplan automatisieren',
    fr: 'nouvelle créer ajouter automatisation règle routine quand alors déclencheur chaque matin au coucher du soleil automatiser',
    es: 'nueva crear añadir automatización regla rutina cuando entonces disparador cada mañana al atardecer automatizar',
    nl: 'nieuwe maken aanmaken automatisering regel routine wanneer dan trigger elke ochtend bij zonsondergang automatiseren'
  },
  input: z.object({
    alias: aliasArg(),
    description: descriptionArg().optional().describe('Description.'),
    mode: modeArg().default('single').describe('Mode.'),
    triggers: blocksArg().min(1).describe('Triggers.'),
    conditions: conditionsArg().optional().describe('Conditions.'),
    actions: blocksArg().min(1).describe('Actions.'),
    variables: variablesArg().optional().describe('Variables.'),
    max_exceeded: maxExceededArg().optional().describe('Max exceeded.'),
    dry_run: dryRunArg(),
    confirm_token: confirmTokenArg()
  }),
  async handler (ctx, args) {
    refuseAutomationCollision(ctx, args.alias)
    const config: Record<string, unknown> = {
      alias: args.alias,
      description: args.description ?? '',
      mode: args.mode,
      triggers: args.triggers,
      conditions: args.conditions ?? [],
      actions: args.actions,
      ...(args.variables === undefined ? {} : { variables: args.variables }),
      ...(args.max_exceeded === undefined ? {} : { max_exceeded: args.max_exceeded })
    }
    await validateWithHomeAssistant(ctx.ha, automationBlocks(config), 'automation')
    return await createFlow(ctx, 'automation', `automation "${args.alias}"`, config, {
      guard: args,
      write: async () => {
        const id = await newAutomationId(ctx.home, ctx.clock.now())
        await writeConfig(ctx.ha, 'automation', id, { id, ...config })
        const entityId = await waitForEntity(ctx.clock, () => entityForConfigId(ctx.ha, 'automation', id))
        return { id, entity_id: entityId ?? null, ...(entityId ? {} : { note: 'Home Assistant is still reloading automations; the entity appears shortly.' }), undo: 'ha_delete_automation removes it.' }
      }
    })
  }
})

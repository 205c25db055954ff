import { z } from 'zod'
import { UserError } from '../../src/errors.ts'
import { defineTool } from '../../src/mcp/runtime/define-tool.ts'
import { aliasArg, blocksArg, descriptionArg, maxExceededArg, modeArg, variablesArg } from '../_shared/config-args.ts'
import { createFlow } from '../_shared/config-flows.ts'
import { slugify, validateWithHomeAssistant, waitForEntity, writeConfig } from '../_shared/config-store.ts'
import { confirmTokenArg, dryRunArg } from '../_shared/write.ts'

export default defineTool({
  name: 'ha_create_script',
  title: 'Create script',
  description: 'script.<slug of alias>, HA\'s script schema as JSON; HA validates it, then the user confirms its YAML.',
  kind: 'manage',
  category: 'automations',
  everyday: false,
  keywords: {
    en: 'new script make sequence write routine macro steps create',
    de: 'neues skript erstellen anlegen ablauf sequenz routine makro schritte',
    fr: 'nouveau script créer séquence routine macro étapes',
    es: 'nuevo script guion crear secuencia rutina macro pasos',
    nl: 'nieuw script maken aanmaken reeks routine macro stappen'
  },
  input: z.object({
    alias: aliasArg(),
    description: descriptionArg().optional().describe('Description.'),
    mode: modeArg().default('single').describe('Mode.'),
    sequence: blocksArg().min(1).describe('Sequence.'),
    variables: variablesArg().optional().describe('Variables.'),
    max_exceeded: maxExceededArg().optional().describe('Max exceeded.'),
    dry_run: dryRunArg(),
    confirm_token: confirmTokenArg()
  }),
  async handler (ctx, args) {
    const id = slugify(args.alias)
    if (id === '') throw new UserError('HAMCP_INVALID_ARGUMENT', 'The alias needs at least one letter or digit to make the script id.', 'Pick an alias such as "Movie time".')
    const entityId = `script.${id}`
    if (ctx.home.state(entityId) || await ctx.home.configs.read('script', id) !== undefined) {
      throw new UserError('HAMCP_ALREADY_EXISTS', `${entityId} already exists.`, 'Pick another alias, or change it with ha_update_script.')
    }
    const config: Record<string, unknown> = {
      alias: args.alias,
      description: args.description ?? '',
      mode: args.mode,
      sequence: args.sequence,
      ...(args.variables === undefined ? {} : { variables: args.variables }),
      ...(args.max_exceeded === undefined ? {} : { max_exceeded: args.max_exceeded })
    }
    await validateWithHomeAssistant(ctx.ha, { actions: args.sequence }, 'script')
    return await createFlow(ctx, 'script', entityId, config, {
      guard: args,
      id,
      write: async () => {
        await writeConfig(ctx.ha, 'script', id, config)
        const appeared = await waitForEntity(ctx.clock, () => ctx.ha.states.get(entityId) ? entityId : undefined)
        return { id, entity_id: entityId, ...(appeared ? {} : { note: 'Home Assistant is still reloading scripts; the entity appears shortly.' }), undo: 'ha_delete_script removes it.' }
      }
    })
  }
})

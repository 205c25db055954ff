import { z } from 'zod'
import { freeFormArg } from '../_shared/args.ts'
import { UserError } from '../../src/errors.ts'
import { defineTool, type ToolContext } from '../../src/mcp/runtime/define-tool.ts'
import { aliasArg, descriptionArg } from '../_shared/config-args.ts'
import { createFlow } from '../_shared/config-flows.ts'
import { entityForConfigId, newAutomationId, refuseAutomationCollision, slugify, waitForEntity, writeConfig } from '../_shared/config-store.ts'
import { confirmTokenArg, dryRunArg } from '../_shared/write.ts'

type InputSpec = Record<string, { default?: unknown, input?: InputSpec } | null>

/** Input names and which of them have no default; inputs grouped in sections are flattened. */
function blueprintInputs (spec: InputSpec | undefined): { all: Set<string>, required: string[] } {
  const all = new Set<string>()
  const required: string[] = []
  const visit = (inputs: InputSpec): void => {
    for (const [name, input] of Object.entries(inputs)) {
      if (input && typeof input.input === 'object' && input.input !== null) { visit(input.input); continue }
      all.add(name)
      if (!input || !('default' in input)) required.push(name)
    }
  }
  if (spec && typeof spec === 'object') visit(spec)
  return { all, required }
}

/** Entities the inputs name: strings (or lists of them) that are entities of this home. */
function inputEntities (ctx: ToolContext, inputs: Record<string, unknown>): string[] {
  const found = new Set<string>()
  const walk = (value: unknown): void => {
    if (typeof value === 'string') { if (ctx.ha.states.has(value)) found.add(value) } else if (Array.isArray(value)) value.forEach(walk)
    else if (value !== null && typeof value === 'object') Object.values(value).forEach(walk)
  }
  walk(inputs)
  return [...found].sort()
}

export default defineTool({
  name: 'ha_create_from_blueprint',
  title: 'Create from blueprint',
  description: 'Automation or script from a blueprint (ha_list_blueprints); the user confirms its YAML.',
  kind: 'manage',
  category: 'automations',
  everyday: false,
  keywords: {
    en: 'blueprint template use import motion activated light automation from blueprint new',
    de: 'blaupause vorlage verwenden automatisierung aus blaupause erstellen bewegungsmelder',
    fr: 'blueprint modèle plan utiliser créer automatisation depuis blueprint',
    es: 'blueprint plano plantilla usar crear automatización desde blueprint',
    nl: 'blauwdruk blueprint sjabloon gebruiken automatisering maken van blauwdruk'
  },
  input: z.object({
    blueprint_path: z.string().trim().min(1).max(255).describe('e.g. homeassistant/motion_light.yaml'),
    alias: aliasArg(),
    description: descriptionArg().optional().describe('Description.'),
    inputs: freeFormArg().default({}).describe('Inputs.'),
    domain: z.enum(['automation', 'script']).default('automation').describe('Domain.'),
    dry_run: dryRunArg(),
    confirm_token: confirmTokenArg()
  }),
  async handler (ctx, args) {
    const { domain, blueprint_path: path } = args
    const blueprints = await ctx.ha.command<Record<string, { metadata?: { input?: InputSpec }, error?: string }>>({ type: 'blueprint/list', domain })
    const blueprint = blueprints[path]
    if (!blueprint) {
      const known = Object.keys(blueprints).sort().slice(0, 10)
      throw new UserError('HAMCP_NOT_FOUND', `No ${domain} blueprint at ${path}.`, known.length ? `Known: ${known.join(', ')}.` : `No ${domain} blueprint is installed.`)
    }
    if (!blueprint.metadata) throw new UserError('HAMCP_NOT_SUPPORTED', `Blueprint ${path} is broken: ${blueprint.error ?? 'no metadata'}.`, 'Fix or reinstall it in Home Assistant.')
    const spec = blueprintInputs(blueprint.metadata.input)
    const missing = spec.required.filter(name => args.inputs[name] === undefined)
    const unknown = Object.keys(args.inputs).filter(name => !spec.all.has(name))
    if (missing.length || unknown.length) {
      throw new UserError(
        'HAMCP_INVALID_ARGUMENT',
        [missing.length ? `missing required inputs: ${missing.join(', ')}` : '', unknown.length ? `unknown inputs: ${unknown.join(', ')}` : ''].filter(Boolean).join('; ') + '.',
        `Blueprint ${path} takes: ${[...spec.all].join(', ') || 'no inputs'}.`
      )
    }
    const config: Record<string, unknown> = {
      alias: args.alias,
      ...(args.description === undefined ? {} : { description: args.description }),
      use_blueprint: { path, input: args.inputs }
    }
    const entities = inputEntities(ctx, args.inputs)
    if (domain === 'script') {
      const id = slugify(args.alias)
      if (id === '' || ctx.home.state(`script.${id}`) || await ctx.home.configs.read('script', id) !== undefined) {
        throw new UserError('HAMCP_ALREADY_EXISTS', `The alias "${args.alias}" gives script.${id}, which is empty or already taken.`, 'Pick another alias.')
      }
      return await createFlow(ctx, 'script', `script.${id}`, config, {
        guard: args,
        id,
        entities,
        write: async () => {
          await writeConfig(ctx.ha, 'script', id, config)
          return { id, entity_id: `script.${id}`, undo: 'ha_delete_script removes it.' }
        }
      })
    }
    refuseAutomationCollision(ctx, args.alias)
    return await createFlow(ctx, 'automation', `automation "${args.alias}"`, config, {
      guard: args,
      entities,
      write: async () => {
        const id = await newAutomationId(ctx.home, ctx.clock.now())
        await writeConfig(ctx.ha, 'automation', id, { id, ...config })
        const entityId = await waitForEntity(ctx.clock, () => entityForConfigId(ctx.ha, 'automation', id))
        return { id, entity_id: entityId ?? null, undo: 'ha_delete_automation removes it.' }
      }
    })
  }
})

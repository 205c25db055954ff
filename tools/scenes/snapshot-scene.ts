import { z } from 'zod'
import { UserError } from '../../src/errors.ts'
import { fold } from '../../src/home/text.ts'
import { nameArg } from '../../src/policy/input-checks.ts'
import { defineTool } from '../../src/mcp/runtime/define-tool.ts'
import { requireEntity } from '../../src/home/entities.ts'
import { confirmTokenArg, dryRunArg, formatOutcome, guardedWrite } from '../_shared/write.ts'

export default defineTool({
  name: 'ha_snapshot_scene',
  title: 'Snapshot a scene',
  description: 'Save entities\' current states as scene.<name> until the next restart.',
  kind: 'write',
  category: 'scenes',
  everyday: false,
  keywords: {
    en: 'snapshot save current state remember restore later capture scene',
    de: 'momentaufnahme aktuellen zustand speichern merken später wiederherstellen szene',
    fr: 'instantané sauvegarder état actuel mémoriser restaurer plus tard scène',
    es: 'instantánea guardar estado actual recordar restaurar después escena',
    nl: 'momentopname huidige toestand opslaan onthouden later herstellen scène'
  },
  hints: { destructiveHint: false },
  input: z.object({
    name: nameArg(100).describe('Name.'),
    entities: z.array(z.string().trim().toLowerCase()).min(1).max(50).describe('Entities.'),
    dry_run: dryRunArg(),
    confirm_token: confirmTokenArg()
  }),
  async handler (ctx, args) {
    const sceneId = fold(args.name).replace(/[^a-z0-9]+/g, '_').replace(/^_+|_+$/g, '')
    if (!sceneId) throw new UserError('HAMCP_INVALID_ARGUMENT', 'The scene name has no letters or digits.', 'Use a name such as "Movie night".')
    if (ctx.ha.states.get(`scene.${sceneId}`)) throw new UserError('HAMCP_ALREADY_EXISTS', `scene.${sceneId} already exists.`, 'Pick another name.')
    const entities = [...new Set(args.entities)]
    for (const entityId of entities) requireEntity(ctx.home, entityId)
    const outcome = await guardedWrite(ctx, {
      kind: 'service',
      tool: ctx.tool,
      domain: 'scene',
      service: 'create',
      data: { scene_id: sceneId, snapshot_entities: entities },
      dryRun: args.dry_run,
      confirmToken: args.confirm_token,
      undoable: false
    })
    return { ...formatOutcome(outcome), scene: `scene.${sceneId}` }
  }
})

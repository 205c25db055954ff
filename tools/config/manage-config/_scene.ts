import { z } from 'zod'
import { UserError } from '../../../src/errors.ts'
import type { ToolCallContext, ToolContext } from '../../../src/mcp/runtime/define-tool.ts'
import { isRecord } from '../../../src/shape.ts'
import { configFact, editedSinceWrite, type Revert } from '../../../src/policy/undo.ts'
import { nameProblem } from '../../../src/policy/input-checks.ts'
import { configPath, restMessage } from '../../../src/home/configs.ts'
import { applyChanges, deleteConfig, entityForConfigId, waitForEntity, writeConfig, type ConfigRecord } from '../../_shared/config-store.ts'
import { runConfigWrite } from '../../_shared/config-write.ts'
import { canonicalJson, configHash, toYaml } from '../../_shared/config-yaml.ts'
import { unifiedDiff } from '../../_shared/line-diff.ts'
import { configOf, problemIssue, type ManageArgs } from './_args.ts'

/**
 * Scenes stored in scenes.yaml through `/api/config/scene/config/<id>`, edited like automations: a YAML
 * or diff preview, always a confirmation, the base hash guard, and an undo that writes the previous
 * config back (a deleted scene comes back under the same id).
 */
const scenePath = (id: string): string => configPath('scene', id)

/** The stored scene, or undefined when scenes.yaml has none under that id. Never cached: edits are checked against it. */
async function readScene (ctx: ToolContext, id: string): Promise<ConfigRecord | undefined> {
  const answer = await ctx.ha.rest.request('GET', scenePath(id))
  if (answer.status === 404) return undefined
  if (answer.status !== 200) throw new UserError('HAMCP_UNAVAILABLE', `Home Assistant could not read scene ${id}: ${restMessage(answer.body)}`)
  const parsed = JSON.parse(answer.body.toString('utf8')) as unknown
  return isRecord(parsed) ? parsed : undefined
}

/** Stores the config; Home Assistant reloads scenes by itself (the entity appears or changes). */
const writeScene = async (ctx: ToolContext, id: string, config: ConfigRecord): Promise<void> => { await writeConfig(ctx.ha, 'scene', id, config) }
const deleteScene = async (ctx: ToolContext, id: string): Promise<void> => { await deleteConfig(ctx.ha, 'scene', id) }
const sceneEntityFor = (ctx: ToolContext, id: string): string | undefined => entityForConfigId(ctx.ha, 'scene', id)

/** A scene entity or config id to the config id and stored config; YAML-only and scene.create scenes are refused. */
async function resolveScene (ctx: ToolContext, ref: string | undefined): Promise<{ id: string, entityId: string | undefined, config: ConfigRecord }> {
  if (ref === undefined) throw new UserError('HAMCP_INVALID_ARGUMENT', 'id is needed: the scene entity (scene.movie) or its config id.', 'ha_list_entities with domain scene lists them.')
  let id = ref
  let entityId: string | undefined
  if (ref.startsWith('scene.')) {
    const state = ctx.home.state(ref)
    if (!state) throw new UserError('HAMCP_ENTITY_NOT_FOUND', `${ref} not found.`, 'ha_list_entities with domain scene lists the scenes.')
    entityId = ref
    const stored = state.attributes.id
    if (typeof stored !== 'string' || stored === '') {
      throw new UserError('HAMCP_NOT_SUPPORTED', `${ref} is not stored in scenes.yaml (it comes from YAML packages or scene.create), so it cannot be edited from here.`, 'Create a UI scene with action create instead.')
    }
    id = stored
  }
  const config = await readScene(ctx, id)
  if (config === undefined) throw new UserError('HAMCP_NOT_FOUND', `No UI scene with id ${id}.`, 'Pass a scene entity id (scene.*) or the id from its attributes.')
  return { id, entityId: entityId ?? sceneEntityFor(ctx, id), config }
}

const NEEDS_NAME = 'a scene needs a name'
/** What a scene needs, checked on the config as it will be stored (after an update's changes). */
const sceneConfig = z.looseObject({
  name: z.string({ error: NEEDS_NAME }).trim().min(1, NEEDS_NAME).superRefine(problemIssue(nameProblem)),
  entities: z.record(z.string(), z.unknown(), { error: 'an object of entity id to state' }).refine(entities => Object.keys(entities).length > 0, 'a scene needs at least one entity')
})
const SCENE_HINT = 'E.g. config {"name":"Movie","entities":{"light.tv":{"state":"on","brightness":80},"cover.blind":"closed"}}.'

/** The scene's entity ids, sorted, once the config is a scene. */
function checkScene (config: ConfigRecord): string[] {
  return Object.keys(configOf(sceneConfig, config, 'a scene', SCENE_HINT).entities).sort()
}

/** The undo: put `previous` back (or delete when there was none), provided nobody changed `written` since. */
function sceneRevert (ctx: ToolContext, id: string, written: ConfigRecord | undefined, previous: ConfigRecord | undefined): Revert {
  const label = `scene ${String(previous?.name ?? written?.name ?? id)} (id ${id})`
  return {
    preview: previous === undefined
      ? `# ${label} will be deleted again:\n${toYaml(written)}`
      : written === undefined
        ? `# ${label} will be recreated with the same id:\n${toYaml(previous)}`
        : unifiedDiff(toYaml(written), toYaml(previous), { from: `${label} (now)`, to: `${label} (restored)` }),
    entities: Object.keys((previous ?? written)?.entities as Record<string, unknown> ?? {}),
    wrote: configFact(label, configHash(written), configHash(written)),
    current: async () => {
      const now = await readScene(ctx, id)
      // A scene deleted by this write and still absent is as the write left it.
      return configFact(label, configHash(written), now === undefined && written !== undefined ? undefined : configHash(now))
    },
    run: async force => {
      const now = await readScene(ctx, id)
      if (force !== true && configHash(now) !== configHash(written)) {
        throw editedSinceWrite(label, 'Edit it with ha_manage_config instead.')
      }
      if (previous === undefined) {
        await deleteScene(ctx, id)
        return { id, deleted: true }
      }
      await writeScene(ctx, id, previous)
      const entityId = await waitForEntity(ctx.clock, () => sceneEntityFor(ctx, id))
      return { id, entity_id: entityId ?? null, restored_yaml: toYaml(previous) }
    }
  }
}

async function newSceneId (ctx: ToolContext): Promise<string> {
  let id = ctx.clock.now()
  while (await readScene(ctx, String(id)) !== undefined) id++
  return String(id)
}

export async function manageScene (ctx: ToolCallContext, args: ManageArgs): Promise<Record<string, unknown>> {
  const guard = { dryRun: args.dry_run, confirmToken: args.confirm_token }
  if (args.action === 'create') {
    const config = { ...(args.config ?? {}) }
    delete config.id
    const entities = checkScene(config)
    const id = await newSceneId(ctx)
    return await runConfigWrite(ctx, {
      tool: ctx.tool,
      domain: 'scene',
      action: 'create',
      subject: `scene ${String(config.name)}`,
      payload: { config },
      preview: toYaml(config),
      baseHash: 'none',
      entities,
      ...guard,
      currentHash: async () => 'none',
      execute: async () => {
        await writeScene(ctx, id, config)
        const entityId = await waitForEntity(ctx.clock, () => sceneEntityFor(ctx, id))
        return { id, entity_id: entityId ?? null, ...(entityId ? {} : { note: 'Home Assistant is still reloading scenes; the entity appears shortly.' }) }
      },
      revert: () => sceneRevert(ctx, id, { id, ...config }, undefined)
    })
  }
  if (args.action !== 'update' && args.action !== 'delete') throw new UserError('HAMCP_INVALID_ARGUMENT', `Scenes take action create, update or delete, not ${args.action}.`)
  const target = await resolveScene(ctx, args.id)
  const subject = target.entityId ?? `scene ${target.id}`
  const baseHash = configHash(target.config)
  const currentHash = async (): Promise<string> => configHash(await readScene(ctx, target.id))
  const previousYaml = toYaml(target.config)
  if (args.action === 'delete') {
    return await runConfigWrite(ctx, {
      tool: ctx.tool,
      domain: 'scene',
      action: 'delete',
      subject,
      payload: { id: target.id },
      preview: `# ${subject} will be deleted:\n${previousYaml}`,
      baseHash,
      entities: target.entityId ? [target.entityId] : [],
      ...guard,
      currentHash,
      execute: async () => {
        await deleteScene(ctx, target.id)
        return { id: target.id, entity_id: target.entityId ?? null, deleted_yaml: previousYaml }
      },
      revert: () => sceneRevert(ctx, target.id, undefined, target.config)
    })
  }
  const changes = { ...(args.config ?? {}) }
  delete changes.id
  const next = applyChanges(target.config, changes)
  if (canonicalJson(next) === canonicalJson(target.config)) throw new UserError('HAMCP_INVALID_ARGUMENT', `Nothing to change: the given fields already match ${subject}.`, 'Pass in config the fields whose values should change (entities is replaced whole).')
  const entities = checkScene(next)
  return await runConfigWrite(ctx, {
    tool: ctx.tool,
    domain: 'scene',
    action: 'update',
    subject,
    payload: { id: target.id, config: next },
    preview: unifiedDiff(previousYaml, toYaml(next), { from: `${subject} (current)`, to: `${subject} (proposed)` }),
    baseHash,
    entities: [...(target.entityId ? [target.entityId] : []), ...entities],
    ...guard,
    currentHash,
    execute: async () => {
      await writeScene(ctx, target.id, next)
      return { id: target.id, entity_id: target.entityId ?? null, previous_yaml: previousYaml }
    },
    revert: () => sceneRevert(ctx, target.id, next, target.config)
  })
}

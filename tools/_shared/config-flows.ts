import { UserError } from '../../src/errors.ts'
import type { ToolCallContext, ToolContext } from '../../src/mcp/runtime/define-tool.ts'
import {
  applyChanges, automationBlocks, deleteConfig, referencedEntities, resolveConfigTarget,
  validateWithHomeAssistant, writeConfig, type ConfigKind, type ConfigRecord
} from './config-store.ts'
import { runConfigWrite } from './config-write.ts'
import { canonicalJson, configHash, toYaml } from './config-yaml.ts'
import { unifiedDiff } from './line-diff.ts'

/** The update and delete flows, identical for automations and scripts but for their block names. */
interface Guarded { dry_run: boolean, confirm_token?: string | undefined }

const LEGACY_TWIN: Record<string, string> = { triggers: 'trigger', conditions: 'condition', actions: 'action' }

async function currentHash (ctx: ToolContext, kind: ConfigKind, id: string): Promise<string> {
  return configHash(await ctx.home.configs.read(kind, id))
}

function validationBlocks (kind: ConfigKind, config: ConfigRecord, changed: Record<string, unknown>): Parameters<typeof validateWithHomeAssistant>[1] {
  if (kind === 'script') return changed.sequence === undefined ? {} : { actions: config.sequence }
  const blocks = automationBlocks(config)
  return {
    ...(changed.triggers === undefined ? {} : { triggers: blocks.triggers }),
    ...(changed.conditions === undefined ? {} : { conditions: blocks.conditions }),
    ...(changed.actions === undefined ? {} : { actions: blocks.actions })
  }
}

/**
 * Update: provided fields replace the stored ones wholesale (null removes a key), a modern block drops
 * its legacy twin, blueprint inputs merge into the existing ones. The preview is a unified diff.
 */
export async function updateFlow (ctx: ToolCallContext, kind: ConfigKind, entityId: string, changes: Record<string, unknown>, inputs: Record<string, unknown> | undefined, guard: Guarded): Promise<Record<string, unknown>> {
  const target = await resolveConfigTarget(ctx, kind, entityId)
  const current = target.config
  const next = applyChanges(current, changes)
  for (const [modern, legacy] of Object.entries(LEGACY_TWIN)) if (changes[modern] !== undefined && changes[modern] !== null) delete next[legacy]
  if (inputs !== undefined) {
    const blueprint = current.use_blueprint as { path?: unknown, input?: Record<string, unknown> } | undefined
    if (!blueprint || typeof blueprint !== 'object') throw new UserError('HAMCP_NOT_SUPPORTED', `${entityId} is not based on a blueprint, so it has no inputs.`, 'Change its blocks instead (triggers, actions...).')
    next.use_blueprint = { ...blueprint, input: applyChanges(blueprint.input ?? {}, inputs) }
  }
  if (canonicalJson(next) === canonicalJson(current)) {
    throw new UserError('HAMCP_INVALID_ARGUMENT', `Nothing to change: the given fields already match ${entityId}.`, 'Pass the fields whose values should change.')
  }
  await validateWithHomeAssistant(ctx.ha, validationBlocks(kind, next, changes), kind)
  const previousYaml = toYaml(current)
  const baseHash = configHash(current)
  return await runConfigWrite(ctx, {
    tool: ctx.tool,
    domain: kind,
    action: 'update',
    subject: entityId,
    payload: { entity_id: entityId, id: target.id, config: next },
    preview: unifiedDiff(previousYaml, toYaml(next), { from: `${entityId} (current)`, to: `${entityId} (proposed)` }),
    baseHash,
    entities: [entityId, ...referencedEntities(next)],
    dryRun: guard.dry_run,
    confirmToken: guard.confirm_token,
    currentHash: async () => await currentHash(ctx, kind, target.id),
    execute: async () => {
      await writeConfig(ctx.ha, kind, target.id, next)
      return { entity_id: entityId, id: target.id, previous_yaml: previousYaml, undo: `ha_update_${kind} with the blocks of previous_yaml restores it.` }
    }
  })
}

/** Delete: the preview is the complete YAML that goes away, returned again afterwards for undo. */
export async function deleteFlow (ctx: ToolCallContext, kind: ConfigKind, entityId: string, guard: Guarded): Promise<Record<string, unknown>> {
  const target = await resolveConfigTarget(ctx, kind, entityId)
  const deletedYaml = toYaml(target.config)
  return await runConfigWrite(ctx, {
    tool: ctx.tool,
    domain: kind,
    action: 'delete',
    subject: entityId,
    payload: { entity_id: entityId, id: target.id },
    preview: `# ${entityId} will be deleted:\n${deletedYaml}`,
    baseHash: configHash(target.config),
    entities: [entityId],
    dryRun: guard.dry_run,
    confirmToken: guard.confirm_token,
    currentHash: async () => await currentHash(ctx, kind, target.id),
    execute: async () => {
      await deleteConfig(ctx.ha, kind, target.id)
      return { entity_id: entityId, id: target.id, deleted_yaml: deletedYaml, undo: `ha_create_${kind} with deleted_yaml's fields recreates it.` }
    }
  })
}

/** Create: the preview is the full YAML; the base is "nothing stored under this id yet". */
export async function createFlow (ctx: ToolCallContext, kind: ConfigKind, subject: string, config: ConfigRecord, options: {
  guard: Guarded
  /** Config id when it is known before the write (scripts); automations get theirs at creation. */
  id?: string
  entities?: string[]
  write: () => Promise<Record<string, unknown>>
}): Promise<Record<string, unknown>> {
  const { id } = options
  return await runConfigWrite(ctx, {
    tool: ctx.tool,
    domain: kind,
    action: 'create',
    subject,
    payload: { ...(id === undefined ? {} : { id }), config },
    preview: toYaml(config),
    baseHash: 'none',
    entities: options.entities ?? referencedEntities(config),
    dryRun: options.guard.dry_run,
    confirmToken: options.guard.confirm_token,
    currentHash: async () => id === undefined ? 'none' : await currentHash(ctx, kind, id),
    execute: options.write
  })
}

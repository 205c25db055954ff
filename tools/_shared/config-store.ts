import { sleep, type Clock } from '../../src/clock.ts'
import { UserError } from '../../src/errors.ts'
import { configPath, restMessage, type ConfigKind, type ConfigRecord } from '../../src/home/configs.ts'
import { isEntityId, requireDomain } from '../../src/home/entities.ts'
import type { HomeView } from '../../src/home/view.ts'
import type { ToolContext } from '../../src/mcp/runtime/define-tool.ts'
import type { HomeAssistant } from '../../src/ha/index.ts'
import { fold } from '../../src/home/text.ts'

/**
 * Writes of the UI-managed automation and script configs (src/home/configs.ts reads them), plus the
 * checks every config tool runs before asking for a confirmation.
 */
export type { ConfigKind, ConfigRecord }
/** What the config API stores and these writes reach: automations, scripts and scenes (tools/config/manage-config/_scene.ts). */
type StoredKind = ConfigKind | 'scene'

/** Writes (creates or replaces) a config; Home Assistant reloads the domain by itself. */
export async function writeConfig (ha: HomeAssistant, kind: StoredKind, id: string, config: ConfigRecord): Promise<void> {
  const answer = await ha.rest.request('POST', configPath(kind, id), config)
  if (answer.status !== 200) {
    throw new UserError('HAMCP_CONFIG_REJECTED', `Home Assistant refused the ${kind}: ${restMessage(answer.body)}`, 'Nothing was written. Fix the config and start again without confirm_token.')
  }
}

/** Deletes a config. Never retried: a second DELETE of the same id would only fail. */
export async function deleteConfig (ha: HomeAssistant, kind: StoredKind, id: string): Promise<void> {
  const answer = await ha.rest.request('DELETE', configPath(kind, id))
  if (answer.status !== 200) throw new UserError('HAMCP_UNAVAILABLE', `Home Assistant could not delete ${kind} ${id}: ${restMessage(answer.body)}`)
}

export interface ConfigTarget {
  kind: ConfigKind
  entityId: string
  id: string
  config: ConfigRecord
}

/** Resolves an automation/script entity to its UI config; YAML-only ones are refused with a way out. */
export async function resolveConfigTarget (ctx: ToolContext, kind: ConfigKind, entityId: string): Promise<ConfigTarget> {
  requireDomain(entityId, [kind], `a ${kind}`, `Pass a ${kind}.* entity id (ha_list_${kind}s lists them).`)
  const state = ctx.home.state(entityId)
  if (!state) throw new UserError('HAMCP_ENTITY_NOT_FOUND', `${entityId} not found.`, `Call ha_list_${kind}s to see the ${kind}s.`)
  const id = ctx.home.configKey(kind, entityId)
  const config = id === undefined ? undefined : await ctx.home.configs.read(kind, id)
  if (id === undefined || config === undefined) {
    throw new UserError(
      'HAMCP_NOT_SUPPORTED',
      `${entityId} is defined in YAML (not in ${kind}s.yaml through the UI), so it cannot be edited from here.`,
      `Edit it in your YAML files, or create a UI-managed copy with ha_create_${kind}.`
    )
  }
  return { kind, entityId, id, config }
}

export interface ValidationBlocks {
  triggers?: unknown
  conditions?: unknown
  actions?: unknown
}

/**
 * Asks Home Assistant to validate triggers, conditions and actions (WS validate_config) and refuses
 * with its own message, before any confirmation token exists.
 */
export async function validateWithHomeAssistant (ha: HomeAssistant, blocks: ValidationBlocks, what: string): Promise<void> {
  const message: Record<string, unknown> = { type: 'validate_config' }
  for (const [key, value] of Object.entries(blocks)) if (value !== undefined) message[key] = value
  if (Object.keys(message).length === 1) return
  const result = await ha.command<Record<string, { valid?: unknown, error?: unknown } | null>>(message as { type: string })
  const problems = Object.entries(result ?? {})
    .filter(([, verdict]) => verdict?.valid === false)
    .map(([key, verdict]) => `${key}: ${typeof verdict?.error === 'string' ? verdict.error : 'invalid'}`)
  if (problems.length) {
    throw new UserError('HAMCP_CONFIG_REJECTED', `Home Assistant rejected the ${what}: ${problems.join('; ')}`, 'Nothing was written and no confirmation was issued. Fix the config and call again.')
  }
}

/** The triggers/conditions/actions of an automation, modern keys first, legacy singular keys otherwise. */
export function automationBlocks (config: ConfigRecord): ValidationBlocks {
  return {
    triggers: config.triggers ?? config.trigger,
    conditions: config.conditions ?? config.condition,
    actions: config.actions ?? config.action
  }
}

const ENTITY_KEYS = new Set(['entity_id', 'entity', 'entities'])

/** Entity ids a config refers to (entity_id/entity/entities anywhere), checked against the write lists. */
export function referencedEntities (config: unknown): string[] {
  const found = new Set<string>()
  const collect = (value: unknown): void => {
    if (typeof value === 'string') {
      for (const part of value.split(',')) if (isEntityId(part.trim())) found.add(part.trim())
    } else if (Array.isArray(value)) {
      for (const item of value) collect(item)
    } else if (value !== null && typeof value === 'object' && typeof (value as { entity?: unknown }).entity === 'string') {
      collect((value as { entity: string }).entity)
    }
  }
  const walk = (value: unknown): void => {
    if (Array.isArray(value)) { for (const item of value) walk(item); return }
    if (value === null || typeof value !== 'object') return
    for (const [key, child] of Object.entries(value)) {
      if (ENTITY_KEYS.has(key)) collect(child)
      walk(child)
    }
  }
  walk(config)
  return [...found].sort()
}

/** Home Assistant's slug of a name: accents folded, anything else than a-z0-9 becomes one underscore. */
export function slugify (text: string): string {
  return fold(text).replace(/[^a-z0-9]+/g, '_').replace(/^_+|_+$/g, '')
}

/** Waits (briefly) for the entity Home Assistant creates after a reload; undefined if it is not there yet. */
export async function waitForEntity (clock: Clock, find: () => string | undefined, timeoutMs = 3000): Promise<string | undefined> {
  const deadline = clock.now() + timeoutMs
  for (;;) {
    const found = find()
    if (found !== undefined || clock.now() >= deadline) return found
    await sleep(clock, 50, { ref: true })
  }
}

/** Drops keys whose value is null (null means "remove this key" in update calls) and undefined ones. */
export function applyChanges (base: ConfigRecord, changes: Record<string, unknown>): ConfigRecord {
  const out: ConfigRecord = { ...base }
  for (const [key, value] of Object.entries(changes)) {
    if (value === undefined) continue
    if (value === null) delete out[key]
    else out[key] = value
  }
  return out
}

/** Like the UI: the creation time in milliseconds, bumped past any id already stored. */
export async function newAutomationId (home: HomeView, now: number): Promise<string> {
  let id = now
  while (await home.configs.read('automation', String(id)) !== undefined) id++
  return String(id)
}

/** The automation or scene entity Home Assistant made for a config id, once its reload has happened. */
export function entityForConfigId (ha: HomeAssistant, domain: 'automation' | 'scene', id: string): string | undefined {
  for (const state of ha.states.values()) if (state.entity_id.startsWith(`${domain}.`) && state.attributes.id === id) return state.entity_id
  return undefined
}

/** Refuses an alias that an automation already uses, or whose slug names an existing automation. */
export function refuseAutomationCollision (ctx: ToolContext, alias: string): void {
  const slug = slugify(alias)
  const wanted = alias.trim().toLowerCase()
  const taken = ctx.home.entities().find(row => row.entity_id.startsWith('automation.') &&
    (row.entity_id === `automation.${slug}` || row.name.trim().toLowerCase() === wanted))
  if (taken) throw new UserError('HAMCP_ALREADY_EXISTS', `An automation named like "${alias}" already exists: ${taken.entity_id}.`, 'Pick another alias, or change the existing one with ha_update_automation.')
}

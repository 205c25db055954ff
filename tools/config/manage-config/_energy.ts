import { z } from 'zod'
import { UserError } from '../../../src/errors.ts'
import type { ToolCallContext, ToolContext } from '../../../src/mcp/runtime/define-tool.ts'
import { isRecord } from '../../../src/shape.ts'
import { configFact, editedSinceWrite, type Revert } from '../../../src/policy/undo.ts'
import { runConfigWrite } from '../../_shared/config-write.ts'
import { canonicalJson, configHash, toYaml } from '../../_shared/config-yaml.ts'
import { unifiedDiff } from '../../_shared/line-diff.ts'
import { configOf, type ManageArgs } from './_args.ts'

/**
 * The energy dashboard's settings through core's energy/websocket_api.py: `energy/get_prefs` reads them,
 * `energy/save_prefs` replaces each top-level list it is given, `energy/validate` says what the dashboard
 * cannot use. Home Assistant validates only what is stored, so a dry run shows the diff, the current
 * validation and the statistics of the proposal this home does not have; the write answers the
 * validation of what it stored. Undo saves the previous lists back.
 */
const LISTS = ['energy_sources', 'device_consumption', 'device_consumption_water'] as const
type Prefs = Partial<Record<typeof LISTS[number], unknown[]>>

const listOf = z.array(z.record(z.string(), z.unknown(), { error: 'each item is an object' }), { error: 'a list (it replaces the whole list)' }).optional()
const energyConfig = z.strictObject({ energy_sources: listOf, device_consumption: listOf, device_consumption_water: listOf })
  .refine(config => LISTS.some(key => config[key] !== undefined), 'name at least one of energy_sources, device_consumption, device_consumption_water')
const ENERGY_HINT = 'config replaces whole lists, e.g. {"device_consumption":[{"stat_consumption":"sensor.oven_energy","name":"Oven"}]}; sources: {"type":"solar","stat_energy_from":"sensor.pv_energy"}, grid {"type":"grid","flow_from":[{"stat_energy_from":...}],"flow_to":[],"cost_adjustment_day":0}. action read shows the current ones.'

async function readPrefs (ctx: ToolContext): Promise<Prefs | undefined> {
  try {
    return await ctx.ha.command<Prefs>({ type: 'energy/get_prefs' })
  } catch (err) {
    // core ws_get_prefs: ERR_NOT_FOUND "No prefs" until the dashboard is first saved.
    if ((err as { haCode?: string }).haCode === 'not_found') return undefined
    throw err
  }
}

const storedLists = (prefs: Prefs | undefined): Prefs => Object.fromEntries(LISTS.map(key => [key, prefs?.[key] ?? []]))

/** Every statistic id an energy config names (entity statistics contain a dot, external ones a colon). */
function statisticIds (value: unknown, out = new Set<string>()): Set<string> {
  if (Array.isArray(value)) for (const item of value) statisticIds(item, out)
  else if (isRecord(value)) {
    for (const [key, item] of Object.entries(value)) {
      if ((key.startsWith('stat_') || key === 'entity_energy_price') && typeof item === 'string' && item !== '') out.add(item)
      else statisticIds(item, out)
    }
  }
  return out
}

interface Issue { type?: string, affected_entities?: Array<[string, unknown]> }

/** energy/validate's nested lists as the problems a reader acts on: where, what, which statistics. */
async function validation (ctx: ToolContext, prefs: Prefs): Promise<Array<Record<string, unknown>>> {
  const answer = await ctx.ha.command<Partial<Record<typeof LISTS[number], Issue[][]>>>({ type: 'energy/validate' })
  const out: Array<Record<string, unknown>> = []
  for (const key of LISTS) {
    (answer?.[key] ?? []).forEach((issues, i) => {
      const item = prefs[key]?.[i]
      const where = `${key}[${i}]${isRecord(item) && typeof item.type === 'string' ? ` (${item.type})` : ''}`
      for (const issue of issues) out.push({ where, issue: issue.type, statistics: (issue.affected_entities ?? []).map(([id]) => id) })
    })
  }
  return out.slice(0, 30)
}

function energyRevert (ctx: ToolContext, written: Prefs, previous: Prefs): Revert {
  const label = 'energy settings'
  return {
    preview: unifiedDiff(toYaml(written), toYaml(previous), { from: `${label} (now)`, to: `${label} (restored)` }),
    wrote: configFact(label, configHash(written), configHash(written)),
    current: async () => configFact(label, configHash(written), configHash(storedLists(await readPrefs(ctx)))),
    run: async force => {
      if (force !== true && configHash(storedLists(await readPrefs(ctx))) !== configHash(written)) throw editedSinceWrite(label, 'Change them with ha_manage_config kind energy instead.')
      await ctx.ha.command({ type: 'energy/save_prefs', ...previous })
      return { restored_yaml: toYaml(previous) }
    }
  }
}

export async function manageEnergy (ctx: ToolCallContext, args: ManageArgs): Promise<Record<string, unknown>> {
  const stored = await readPrefs(ctx)
  const current = storedLists(stored)
  if (args.action === 'read') {
    return { configured: stored !== undefined, ...current, validation: stored === undefined ? [] : await validation(ctx, current) }
  }
  if (args.action !== 'update') throw new UserError('HAMCP_INVALID_ARGUMENT', `Energy settings take action read or update, not ${args.action}.`, ENERGY_HINT)
  const changes = configOf(energyConfig, args.config, 'the energy settings', ENERGY_HINT)
  const next: Prefs = { ...current }
  for (const key of LISTS) if (changes[key] !== undefined) next[key] = changes[key]
  if (canonicalJson(next) === canonicalJson(current)) throw new UserError('HAMCP_INVALID_ARGUMENT', 'Nothing to change: the given lists already match the energy settings.', ENERGY_HINT)
  const named = [...statisticIds(changes)]
  const unknown = named.filter(id => id.includes('.') && !id.includes(':') && ctx.home.state(id) === undefined)
  if (unknown.length > 0) throw new UserError('HAMCP_ENTITY_NOT_FOUND', `Not an entity of this home: ${unknown.slice(0, 5).join(', ')}.`, 'ha_search_entities finds energy sensors (device_class energy, state_class total_increasing).')
  const baseHash = configHash(current)
  const answer = await runConfigWrite(ctx, {
    tool: ctx.tool,
    domain: 'energy',
    action: 'update',
    operation: 'energy/save_prefs',
    subject: 'the energy settings',
    payload: { config: changes },
    preview: unifiedDiff(toYaml(current), toYaml(next), { from: 'energy (current)', to: 'energy (proposed)' }),
    baseHash,
    entities: named.filter(id => id.includes('.') && !id.includes(':')),
    dryRun: args.dry_run,
    confirmToken: args.confirm_token,
    currentHash: async () => configHash(storedLists(await readPrefs(ctx))),
    execute: async () => {
      await ctx.ha.command({ type: 'energy/save_prefs', ...changes }).catch(err => {
        const raw = err as { haCode?: string, haMessage?: string }
        if (raw.haCode === 'invalid_format') throw new UserError('HAMCP_INVALID_ARGUMENT', `Home Assistant refused the energy settings: ${String(raw.haMessage ?? '').slice(0, 300)}.`, ENERGY_HINT)
        throw err
      })
      return { previous_yaml: toYaml(current), validation: await validation(ctx, next) }
    },
    revert: () => energyRevert(ctx, next, current)
  })
  if (answer.dry_run === true) return { ...answer, notes: ['Home Assistant validates stored settings only: validation is of the current ones; the write answers the validation of the new ones.'], validation: stored === undefined ? [] : await validation(ctx, current) }
  return answer
}
